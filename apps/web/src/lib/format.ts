// Date and number formatting shared by the screens (local time, the user's locale).

function toDate(value: string | number | Date | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

const relativeUnits: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** "just now", "5 minutes ago", "yesterday", "3 weeks ago". */
export function formatRelativeTime(
  value: string | number | Date | null | undefined,
  now = Date.now(),
): string {
  const date = toDate(value);
  if (!date) return '';
  const seconds = Math.round((date.getTime() - now) / 1000);
  if (Math.abs(seconds) < 45) return 'just now';
  const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  for (const [unit, size] of relativeUnits) {
    if (Math.abs(seconds) >= size) return rtf.format(Math.round(seconds / size), unit);
  }
  return rtf.format(Math.round(seconds / 60) || (seconds < 0 ? -1 : 1), 'minute');
}

export function formatDate(value: string | number | Date | null | undefined, fallback = 'N/A'): string {
  const date = toDate(value);
  return date
    ? date.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' })
    : fallback;
}

export function formatDateTime(value: string | number | Date | null | undefined, fallback = 'N/A'): string {
  const date = toDate(value);
  return date
    ? date.toLocaleString(undefined, {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
      })
    : fallback;
}

/** Whole seconds between start and end (or now while running), as "42s", "3m 5s", "1h 2m". */
export function formatDuration(
  start: string | null | undefined,
  end: string | null | undefined,
  now = Date.now(),
): string | null {
  const from = toDate(start);
  if (!from) return null;
  const to = toDate(end)?.getTime() ?? now;
  return formatSeconds(Math.max(0, Math.floor((to - from.getTime()) / 1000)));
}

/** A model call's or step's time: '850 ms', '1.2 s' (whole seconds from 10 s), '2m 5s'; null when not a time. */
export function formatMilliseconds(ms: number | undefined): string | null {
  if (ms === undefined || !Number.isFinite(ms) || ms < 0) return null;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds < 10 ? seconds.toFixed(1) : Math.round(seconds)} s`;
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}m ${whole % 60}s`;
}

/** Whole seconds as 42 → '42s', 185 → '3m 5s', 3720 → '1h 2m'; null (not started) → '—'. */
export function formatSeconds(seconds: number | null): string {
  if (seconds === null) return '—';
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${seconds % 60}s`;
  return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}

export function formatNumber(value: number): string {
  return new Intl.NumberFormat().format(value);
}

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const fractionsOfADollar = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 4,
});

/**
 * What model calls cost, in US dollars (prices are USD): cents from a dollar ($1.25, $1,204.50), up to
 * four decimals below it so a single call's cost is seen ($0.0042, $0.52), '< $0.0001' for a tiny
 * amount that is not nothing, $0.00 for nothing; a cost no price could tell (null) is 'unknown', never 0.
 */
export function formatCost(costUsd: number | null): string {
  if (costUsd === null || !Number.isFinite(costUsd)) return 'unknown';
  if (costUsd === 0) return dollars.format(0);
  if (Math.abs(costUsd) < 0.0001) return '< $0.0001';
  return Math.abs(costUsd) >= 1 ? dollars.format(costUsd) : fractionsOfADollar.format(costUsd);
}

/** 'draft' → 'Draft', 'hierarchical' → 'Hierarchical'. */
export function capitalize(value: string | null | undefined): string {
  if (!value) return '';
  return value.charAt(0).toUpperCase() + value.slice(1);
}

/** Sizes are written as the server's messages write them (one formatter for both). */
export { formatBytes } from '@crewline/contracts/format-bytes';
