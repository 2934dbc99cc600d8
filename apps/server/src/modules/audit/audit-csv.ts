import { auditActionLabels, type AuditEvent } from '@crewline/contracts';

/*
 * The audit log as CSV (GET /api/audit.csv): RFC 4180 quoting, and no cell a spreadsheet would read
 * as a formula (a target's name is whatever a member typed, e.g. `=HYPERLINK(…)`).
 */

export const AUDIT_CSV_HEADER = [
  'Time',
  'Actor',
  'Actor ID',
  'Action',
  'Action ID',
  'Target type',
  'Target ID',
  'Target',
  'IP',
  'Details',
];

/**
 * One cell: a value starting with = + - @ (or a tab or carriage return, which some spreadsheets skip
 * before reading a formula) gets a leading apostrophe; a cell with a quote, comma or line break is
 * quoted, its quotes doubled.
 */
export function csvCell(value: string | null | undefined): string {
  let text = value ?? '';
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvLine = (cells: (string | null | undefined)[]) => `${cells.map(csvCell).join(',')}\r\n`;

/** An event's line, in AUDIT_CSV_HEADER's order. */
export const auditCsvLine = (event: AuditEvent) =>
  csvLine([
    event.at,
    event.actor?.name ?? 'System',
    event.actor?.id,
    auditActionLabels[event.action],
    event.action,
    event.target.type,
    event.target.id,
    event.target.name,
    event.ip,
    Object.keys(event.details).length > 0 ? JSON.stringify(event.details) : '',
  ]);
