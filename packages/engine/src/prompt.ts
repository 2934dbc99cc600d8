/** What the prompt needs to know about an agent (a subset of the Agent entity). */
export type PromptAgent = {
  name: string;
  role: string;
  goal: string;
  backstory?: string | null;
  systemPrompt?: string | null;
};

export type PromptInput = {
  /** The task or message for the agent. */
  input: string;
  /** Runtime instructions given when the run was started. */
  instructions?: string | null;
  /** Runtime parameters, shown to the agent as key/value pairs. */
  parameters?: Record<string, unknown>;
  /** Outputs of the agents that ran before this one, in order. */
  context?: { agentName: string; content: string }[];
};

/** System message: who the agent is (role, goal, backstory) and its own system prompt (docs/architecture.md, Runs). */
export function buildSystemPrompt(agent: PromptAgent): string {
  return [
    `You are ${agent.name}, ${agent.role}.`,
    `Your goal: ${agent.goal}`,
    agent.backstory?.trim() ? `Your backstory: ${agent.backstory.trim()}` : '',
    agent.systemPrompt?.trim() ?? '',
  ]
    .filter(Boolean)
    .join('\n\n');
}

/** User message: the input, then the runtime instructions, parameters and predecessors' outputs. */
export function buildUserPrompt(prompt: PromptInput): string {
  const parts = [prompt.input.trim()];
  if (prompt.instructions?.trim()) parts.push(`Instructions for this run:\n${prompt.instructions.trim()}`);
  const parameters = Object.entries(prompt.parameters ?? {});
  if (parameters.length > 0) {
    parts.push(
      `Parameters:\n${parameters.map(([key, value]) => `- ${key}: ${formatValue(value)}`).join('\n')}`,
    );
  }
  for (const item of prompt.context ?? []) {
    parts.push(`Output of ${item.agentName}:\n${item.content}`);
  }
  return parts.join('\n\n');
}

/** What a run started with, as an agent's message shows it: an object as JSON, nothing as a nudge. */
export const inputText = (input: unknown): string =>
  typeof input === 'string'
    ? input
    : input && typeof input === 'object' && Object.keys(input).length > 0
      ? JSON.stringify(input, null, 2)
      : 'Start the task.';

/** A value as the text of a message: a string as it is, nothing as empty, anything else as JSON. */
export const asText = (value: unknown): string =>
  typeof value === 'string' ? value : value === null || value === undefined ? '' : JSON.stringify(value);

function formatValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
