// The Costs tab's Download CSV: one line per row of the table, RFC 4180. Labels are names people
// chose (workflows, agents), so a text cell that a spreadsheet would run as a formula is defused.
// Types only from the contracts: importing a value would pull zod into this module's chunk.
import type { CostGrouping, CostRow } from '@crewline/contracts';

import { rowCost } from './costs-figures';

const COSTS_CSV_HEADER = [
  'key',
  'label',
  'cost_usd',
  'calls',
  'input_tokens',
  'cached_input_tokens',
  'output_tokens',
  'unpriced_calls',
] as const;

/**
 * A text cell: a leading = + - @ (or tab, carriage return) would make a spreadsheet read it as a
 * formula, so it is prefixed with ' (OWASP's CSV injection advice); then quoted when it holds a comma,
 * a quote or a line break, its quotes doubled.
 */
export function csvText(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** USD to the micro-dollar, without trailing zeros: 0.0042, 1.5, 0; unknown (null) is empty. */
export function csvUsd(usd: number | null): string {
  if (usd === null) return '';
  return usd.toFixed(6).replace(/\.?0+$/, '');
}

/**
 * The rows as CSV, header first, lines ending in CRLF. A row whose calls all lacked a price has an
 * empty cost (unknown, not 0); unpriced_calls says how many calls a cost leaves out.
 */
export function costsCsv(rows: readonly CostRow[]): string {
  const lines = rows.map((row) =>
    [
      csvText(row.key),
      csvText(row.label),
      csvUsd(rowCost(row)),
      row.calls,
      row.inputTokens,
      row.cachedInputTokens,
      row.outputTokens,
      row.unpricedCalls,
    ].join(','),
  );
  return [COSTS_CSV_HEADER.join(','), ...lines].map((line) => `${line}\r\n`).join('');
}

/** crewline-costs-2026-11-27-2026-12-03-agent.csv: the first and last day of the range, the grouping. */
export function costsFileName(firstDay: string, lastDay: string, groupBy: CostGrouping): string {
  return `crewline-costs-${firstDay}-${lastDay}-${groupBy}.csv`;
}
