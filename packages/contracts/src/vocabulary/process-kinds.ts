// How a workflow runs its agents (docs/product-rules.md, Workflows), and how the screens name it.

export const processTypeValues = ['sequential', 'hierarchical', 'parallel'] as const;
export type ProcessType = (typeof processTypeValues)[number];

export const processTypeLabels: Record<ProcessType, string> = {
  sequential: 'Sequential',
  hierarchical: 'Hierarchical',
  parallel: 'Parallel',
};
