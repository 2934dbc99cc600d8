import type { NodeOutput } from '@crewline/contracts';
import { buildUserPrompt, type PromptInput } from './prompt';
import type { RunAgent, StepAsk } from './run-workflow';

/**
 * A hierarchical run: the first agent leads and may delegate tasks or questions to its co-workers
 * (the other agents), each delegation its own recorded step `${coworker}#${n}`. Its answer is the
 * lead's.
 */
export async function runHierarchy(
  order: string[],
  run: {
    base: PromptInput;
    step(nodeId: string, baseNodeId: string, ask: StepAsk): Promise<NodeOutput>;
    agentOf(nodeId: string): RunAgent;
  },
): Promise<string> {
  const { base, step } = run;
  const [lead, ...coworkers] = order;
  const nameOf = (id: string) => run.agentOf(id).name;
  const names = coworkers.map((id) => `${nameOf(id)} (${run.agentOf(id).role})`).join(', ');
  let delegations = 0;
  const delegate = (kind: 'task' | 'question') => ({
    description:
      kind === 'task'
        ? `Delegate a specific task to one of your co-workers: ${names}. Give the co-worker's name, the task and all the context they need.`
        : `Ask one of your co-workers a question: ${names}. Give the co-worker's name, the question and the context.`,
    inputSchema: {
      type: 'object',
      properties: {
        coworker: { type: 'string', description: 'The co-worker’s name' },
        [kind]: { type: 'string' },
        context: { type: 'string' },
      },
      required: ['coworker', kind],
    },
    async execute(raw: unknown) {
      const args = (raw ?? {}) as Record<string, string>;
      const target = coworkers.find(
        (id) =>
          nameOf(id).toLowerCase() ===
          String(args.coworker ?? '')
            .trim()
            .toLowerCase(),
      );
      if (!target) return `There is no co-worker named "${args.coworker}". Choose one of: ${names}.`;
      // Each delegation is its own recorded step; a second one to the same co-worker gets its own id.
      const stepId = `${target}#${++delegations}`;
      const asked = buildUserPrompt({
        ...base,
        input: `${args[kind]}${args.context ? `\n\nContext:\n${args.context}` : ''}`,
      });
      return (await step(stepId, target, { user: asked, delegatedBy: lead })).content;
    },
  });
  const final = await step(lead, lead, {
    user: buildUserPrompt(base),
    extra: {
      tools: { delegate_work_to_coworker: delegate('task'), ask_question_to_coworker: delegate('question') },
      coworkers: coworkers.map(nameOf),
    },
  });
  return final.content;
}
