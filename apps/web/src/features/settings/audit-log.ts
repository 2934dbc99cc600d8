// Settings → Audit's rules: the filters as the API reads them, and how an event reads in the table.
import { auditActionLabels, type AuditAction, type AuditEvent } from '@crewline/contracts';

import type { AuditListFilter } from '@/lib/queries/keys';

/** The tab's filters as chosen: calendar days (yyyy-mm-dd, the viewer's own days), an action, a member. */
export type AuditFilters = {
  fromDay: string | null;
  toDay: string | null;
  action: AuditAction | null;
  actorId: string | null;
};

export const NO_AUDIT_FILTERS: AuditFilters = { fromDay: null, toDay: null, action: null, actorId: null };

/** The start of a calendar day in the viewer's time zone, `addDays` later, as an instant (ISO). */
function startOfLocalDay(day: string, addDays = 0): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y, m - 1, d + addDays).toISOString();
}

/** The API's query: from the first day's start up to the end of the last day (its next day's start). */
export function auditQuery(filters: AuditFilters): AuditListFilter {
  const query: AuditListFilter = {};
  if (filters.fromDay) query.from = startOfLocalDay(filters.fromDay);
  if (filters.toDay) query.to = startOfLocalDay(filters.toDay, 1);
  if (filters.action) query.action = filters.action;
  if (filters.actorId) query.actorId = filters.actorId;
  return query;
}

/** A last day before the first selects nothing: the tab says so instead of asking. */
export const auditWindowIsEmpty = (filters: AuditFilters) =>
  !!filters.fromDay && !!filters.toDay && filters.toDay < filters.fromDay;

export const hasAuditFilters = (filters: AuditFilters) =>
  Object.values(filters).some((value) => value !== null);

/** Who did it: their name at the time, or the system (a payment provider's webhook). */
export const actorLabel = (event: AuditEvent) => event.actor?.name ?? 'System';

export const actionLabel = (action: AuditAction) => auditActionLabels[action];

/** What it was done to: its name at the time, else its kind and id. */
export function targetLabel(event: AuditEvent): string {
  const { type, id, name } = event.target;
  return name ?? (id ? `${type} ${id}` : type);
}

/** The event's details as label–value lines (a list's items joined, nested values as JSON). */
export function detailLines(event: AuditEvent): { label: string; value: string }[] {
  return Object.entries(event.details).map(([label, value]) => ({
    label,
    value: Array.isArray(value)
      ? value.join(', ') || '—'
      : value === null
        ? '—'
        : typeof value === 'object'
          ? JSON.stringify(value)
          : String(value),
  }));
}
