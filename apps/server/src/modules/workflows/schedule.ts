import type { TriggerConfig, Workflow } from '@crewline/contracts';
import { nextRunTimes } from '@crewline/engine';

/** What decides whether and when a workflow's schedule fires. */
export type ScheduleFields = {
  status: Workflow['status'];
  triggerType: Workflow['triggerType'];
  triggerConfig: Pick<TriggerConfig, 'cron' | 'timezone'> | null | undefined;
};

/** The first tick of the workflow's cron in its zone strictly after `after`; null when there is none. */
export function nextTick(triggerConfig: ScheduleFields['triggerConfig'], after: Date): Date | null {
  return nextRunTimes(triggerConfig?.cron, triggerConfig?.timezone, after, 1)[0] ?? null;
}

/**
 * The `next_run_at` a save writes (docs/product-rules.md, Schedule trigger): the next tick after now of
 * an active schedule workflow with a valid cron, else null, so pausing, a draft or another trigger type
 * stops it at once and activating resumes it from now (missed ticks are not replayed).
 */
export function scheduledNextRunAt(workflow: ScheduleFields, now: Date = new Date()): Date | null {
  if (workflow.status !== 'active' || workflow.triggerType !== 'schedule') return null;
  return nextTick(workflow.triggerConfig, now);
}
