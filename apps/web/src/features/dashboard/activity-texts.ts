// Wording of the dashboard's Recent Activity entries. The server sends the workflow's name as the
// title of an execution entry; the sentence says what happened to the run.
import type { ActivityItem } from '@crewline/contracts';

const executionOutcome: Record<string, string> = {
  pending: 'queued',
  running: 'started',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
};

/** "Execution of Research crew completed"; agent and workflow entries keep their name as title. */
export function activityTitle(item: Pick<ActivityItem, 'kind' | 'title' | 'status'>): string {
  if (item.kind !== 'execution') return item.title;
  const outcome = (item.status && executionOutcome[item.status]) ?? item.status ?? '';
  return `Execution of ${item.title || 'Unknown Workflow'}${outcome ? ` ${outcome}` : ''}`;
}
