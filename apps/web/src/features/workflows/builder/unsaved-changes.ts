// Whether the builder holds changes the saved workflow does not have: the History panel's comparison
// (same normalization, edit times ignored, a moved node counts). Save as Template says so, since the
// server makes the template from the saved workflow.
import type { Workflow } from '@crewline/contracts';

import { diffVersion, isSameAsDraft } from './history/version-diff';
import { toWorkflowNode } from './builder-nodes';
import { type BuilderSnapshot, buildPayload } from './workflow-save';

export function hasUnsavedChanges(
  saved: Pick<
    Workflow,
    'name' | 'description' | 'processType' | 'triggerType' | 'triggerConfig' | 'nodes' | 'edges'
  > &
    Partial<Pick<Workflow, 'config'>>,
  draft: BuilderSnapshot,
): boolean {
  return !isSameAsDraft(diffVersion(saved, draft));
}

/** The same check between two editor states (the last load or save, and now). */
export function snapshotDiffers(baseline: BuilderSnapshot, draft: BuilderSnapshot): boolean {
  const saved = buildPayload(baseline, 'draft');
  return hasUnsavedChanges(
    {
      ...saved,
      description: saved.description ?? null,
      processType: baseline.settings.processType,
      triggerType: baseline.settings.triggerType,
      triggerConfig: saved.triggerConfig ?? {},
      nodes: baseline.nodes.map(toWorkflowNode),
      edges: saved.edges ?? [],
      config: saved.config ?? {},
    },
    draft,
  );
}
