// Durations as the Approval and Delay panels show them: a number and a unit, stored as seconds.

export const DURATION_UNITS = {
  seconds: { seconds: 1, short: 's', label: 'Seconds' },
  minutes: { seconds: 60, short: 'min', label: 'Minutes' },
  hours: { seconds: 3600, short: 'h', label: 'Hours' },
  days: { seconds: 86400, short: 'd', label: 'Days' },
} as const;
export type DurationUnit = keyof typeof DURATION_UNITS;

/** The largest of `units` a whole number of which makes `seconds` (the smallest when none does). */
export function unitOf(seconds: number, units: readonly DurationUnit[]): DurationUnit {
  const largestFirst = [...units].sort((a, b) => DURATION_UNITS[b].seconds - DURATION_UNITS[a].seconds);
  return (
    largestFirst.find((u) => seconds > 0 && seconds % DURATION_UNITS[u].seconds === 0) ??
    largestFirst[largestFirst.length - 1]!
  );
}

/** '2 h', '90 min', '1 d', '45 s': in the largest unit that says it exactly. */
export function shortDuration(seconds: number): string {
  const unit = unitOf(seconds, ['seconds', 'minutes', 'hours', 'days']);
  return `${seconds / DURATION_UNITS[unit].seconds} ${DURATION_UNITS[unit].short}`;
}
