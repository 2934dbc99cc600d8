import { and, eq, sql, type Placeholder } from 'drizzle-orm';
import { workflowExecutions } from '@crewline/db';
import { activeRunStatuses, type ExecutionLog, type ExecutionStatus } from '@crewline/contracts';

/**
 * What the executions repository's statements on a run's row share (executions.repository.ts and its
 * parts): the row's type, the run by id, an attempt's ownership, its log appends.
 */
export type ExecutionRow = typeof workflowExecutions.$inferSelect;

/** A run not over yet: a cancel or an abandon may still end it. */
export const unfinished: ExecutionStatus[] = [...activeRunStatuses];

export const byId = (id: string | Placeholder) => eq(workflowExecutions.id, id);

/** Writes of an attempt land only while it is still the run's current, running attempt. */
export const owned = (id: string | Placeholder, attempt: number | Placeholder) =>
  and(byId(id), eq(workflowExecutions.attempt, attempt), eq(workflowExecutions.status, 'running'));

/** The run's log lines, then `logs` (a placeholder for their JSON in a statement built once). */
export const appendLogs = (logs: ExecutionLog[] | Placeholder) =>
  sql`coalesce(${workflowExecutions.logs}, '[]'::jsonb) || ${Array.isArray(logs) ? JSON.stringify(logs) : logs}::jsonb`;
