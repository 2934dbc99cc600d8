// Whether the builder holds changes the saved workflow does not have: the History panel's comparison
// (same normalization, edit times ignored, a moved node counts). Save as Template says so, since the
// server makes the template from the saved workflow.
import type { Workflow } from '@crewline/contracts';

import { diffVersion, isSameAsDraft } from './history/version-diff';
import type { BuilderSnapshot } from './workflow-logic';

export function hasUnsavedChanges(
  saved: Pick<
    Workflow,
    'name' | 'description' | 'processType' | 'triggerType' | 'triggerConfig' | 'nodes' | 'edges'
  >,
  draft: BuilderSnapshot,
): boolean {
  return !isSameAsDraft(diffVersion(saved, draft));
}
