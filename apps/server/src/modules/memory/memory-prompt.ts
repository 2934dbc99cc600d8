import { AGENT_MEMORY_MAX_LENGTH } from '@crewline/contracts';

/** The most facts one step may add. */
export const FACTS_PER_STEP = 5;
/** How much of a step's task and answer the extraction reads (the start of each). */
const EXCERPT_LIMIT = 6000;

/**
 * The fixed instructions the agent's own model gets after each step, to pick what is worth keeping.
 * Short on purpose: it runs after every step of every agent with memory on.
 */
export const EXTRACTION_SYSTEM_PROMPT = [
  "You keep an AI agent's long-term memory.",
  'Read the task the agent was given and its answer, and write down the facts worth remembering for',
  'future tasks: stable facts about the user, the organization or the world, preferences, decisions,',
  'names, figures and outcomes. Skip small talk, the task wording itself and anything only true for',
  `this one task. Write at most ${FACTS_PER_STEP} facts, one per line, each a short sentence that makes sense on its`,
  'own. If nothing is worth remembering, answer exactly NONE.',
].join(' ');

const excerpt = (text: string) =>
  text.length > EXCERPT_LIMIT ? `${text.slice(0, EXCERPT_LIMIT)}\n[…cut]` : text;

/** The extraction's user message: the step's task and answer. */
export const extractionTask = (task: string, answer: string) =>
  `Task:\n${excerpt(task)}\n\nAnswer:\n${excerpt(answer)}`;

/** `text` cut at `max` characters, at a word when there is one in the last fifth. */
function cut(text: string, max: number) {
  if (text.length <= max) return text;
  const head = text.slice(0, max - 1);
  const space = head.lastIndexOf(' ');
  return `${space > max * 0.8 ? head.slice(0, space) : head}…`;
}

/**
 * The facts in the extraction's answer: one a line, list marks and quotes taken off, NONE and blank
 * lines dropped, each cut to AGENT_MEMORY_MAX_LENGTH, repeated ones once, at most FACTS_PER_STEP.
 */
export function parseFacts(answer: string): string[] {
  const facts: string[] = [];
  for (const line of answer.split(/\r?\n/)) {
    const fact = line
      .replace(/^\s*(?:[-*•]|\d+[.)])\s*/, '')
      .replace(/^["“](.*)["”]$/, '$1')
      .trim();
    if (!fact || /^none\.?$/i.test(fact)) continue;
    const kept = cut(fact, AGENT_MEMORY_MAX_LENGTH);
    if (!facts.includes(kept)) facts.push(kept);
    if (facts.length === FACTS_PER_STEP) break;
  }
  return facts;
}

/** The agent's system prompt with the memories recalled for this step after it. */
export function withMemories(system: string, memories: string[]): string {
  if (memories.length === 0) return system;
  const section = [
    'What you remember from earlier tasks (use it when it helps; it may be out of date):',
    ...memories.map((memory) => `- ${memory}`),
  ].join('\n');
  return system.trim() ? `${system}\n\n${section}` : section;
}
