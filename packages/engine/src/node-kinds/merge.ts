import { nodeKinds } from '@crewline/contracts';
import { noModelResult } from './no-model';
import type { EngineNodeKind } from './types';

const modeOf = (data: Record<string, unknown> | undefined) =>
  nodeKinds.merge.data.safeParse(data ?? {}).data?.mode ?? 'all';

/**
 * Joins paths. `all` runs once every path into it is resolved (taken and finished, or skipped: a
 * skipped path never blocks it) and passes the taken inputs; `first` goes on with the first input
 * to finish, once.
 */
export const mergeKind: EngineNodeKind<'merge'> = {
  kind: 'merge',
  validate: () => [],
  executor: {
    async execute({ node, inputs }) {
      const taken = modeOf(node.data) === 'first' ? inputs.slice(0, 1) : inputs;
      const data = taken.map(({ nodeId, output }) => ({
        nodeId,
        content: output.content,
        data: output.data ?? null,
      }));
      const content = taken
        .map((i) => i.output.content)
        .filter(Boolean)
        .join('\n\n');
      return noModelResult('merge', data, [], content);
    },
  },
  waitsForAll: (node) => modeOf(node.data) !== 'first',
  relays: (output) =>
    Array.isArray(output.data) ? output.data.map((input: { nodeId: string }) => input.nodeId) : [],
};
