// Which of the validation's messages (packages/contracts workflowMessages, from the engine's
// validateWorkflow or the server's 400) concern a node, and which an expression of it: the panels
// show them where they apply. The engine names a node by its label, else its kind's name (an agent
// step by its label, else its agent's name), and an expression by its text.
import { nodeKinds } from '@crewline/contracts';

import type { BuilderNode } from './types';

const trimmed = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** A node as the validation's messages name it (the engine's nodeName). */
export function nodeDisplayName(node: Pick<BuilderNode, 'type' | 'data'>): string {
  const type = node.type ?? 'agent';
  if (type === 'agent') return trimmed(node.data.label) || trimmed(node.data.name) || 'Untitled';
  return trimmed(node.data.label) || nodeKinds[type].label;
}

/** How an expression's message starts: `Node "<name>": <expression> — `. */
const expressionPrefix = (name: string, expression: string) => `Node "${name}": ${expression} — `;

/**
 * Why the expression does not compile, from the messages; null when none speaks of it. `expression`
 * is the text as the engine quotes it (an empty field is named by what it sets: see the panels).
 */
export function expressionError(
  messages: readonly string[],
  name: string,
  expression: string,
): string | null {
  const prefix = expressionPrefix(name, expression);
  const found = messages.find((m) => m.startsWith(prefix));
  return found ? found.slice(prefix.length) : null;
}

/** The messages about the node as a whole (an else path, a branch, a name), not about one of its expressions. */
export function nodeErrors(messages: readonly string[], name: string): string[] {
  const quoted = `"${name}"`;
  return messages.filter((m) => m.includes(quoted) && !m.startsWith(`Node ${quoted}: `));
}
