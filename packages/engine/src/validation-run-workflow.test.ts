import { describe, expect, it } from 'vitest';
import { validateWorkflow, type ValidationOptions, type WorkflowDraft } from './validation';

/** Start → a map (or a loop) running the workflow `target` → End. */
function runs(target: string, kind: 'map' | 'loop' = 'map'): WorkflowDraft {
  const data =
    kind === 'map'
      ? {
          label: 'Each',
          items: 'input.items',
          run: { workflowId: target },
          concurrency: 2,
          onItemError: 'fail',
        }
      : { label: 'Again', run: { workflowId: target }, until: 'true', maxIterations: 3 };
  return {
    name: 'Runs another',
    triggerType: 'manual',
    triggerConfig: {},
    nodes: [
      { id: 'start', type: 'start' },
      { id: 'step', type: kind, data },
      { id: 'end', type: 'end' },
    ],
    edges: [
      { source: 'start', target: 'step' },
      { source: 'step', target: 'end' },
    ],
  };
}
const noAgents = () => false;
const errorsOf = (draft: WorkflowDraft, options: ValidationOptions) =>
  validateWorkflow(draft, noAgents, options).errors;
const known = { workflowExists: (id: string) => id === 'w-other' || id === 'w-self', workflowId: 'w-self' };

describe('maps and loops that run a workflow', () => {
  it('accept another workflow of the organization', () => {
    expect(errorsOf(runs('w-other'), known)).toEqual([]);
    expect(errorsOf(runs('w-other', 'loop'), known)).toEqual([]);
  });

  it('refuse a workflow that does not exist, once existence is known', () => {
    expect(errorsOf(runs('w-gone'), known)).toEqual([
      'Map "Each" runs a workflow that does not exist. Open the workflow and choose another workflow.',
    ]);
    // The builder does not know the organization's workflows: it leaves the check to the save.
    expect(errorsOf(runs('w-gone'), {})).toEqual([]);
  });

  it('refuse their own workflow', () => {
    expect(errorsOf(runs('w-self', 'loop'), known)).toEqual([
      'Loop "Again" cannot run its own workflow: choose another workflow or an agent.',
    ]);
    // A workflow not saved yet has no id to run.
    expect(errorsOf(runs('w-self'), { workflowExists: known.workflowExists })).toEqual([]);
  });
});
