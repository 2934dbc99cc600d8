const UNITS = ['KiB', 'MiB', 'GiB', 'TiB'] as const;

/**
 * A size in binary units, as the server's limit messages and the web app both write it: 0 → '0 B',
 * 1536 → '1.5 KiB', 20 MiB → '20 MiB', and 1,023.99 MiB → '1 GiB' (never '1024 MiB'). Its own entry
 * point (`@crewline/contracts/format-bytes`), so a page that writes sizes does not load zod with it.
 */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1024) return `${Math.max(0, Math.round(bytes || 0))} B`;
  let value = bytes;
  let unit = -1;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const rounded = value >= 100 ? Math.round(value) : Math.round(value * 10) / 10;
  if (rounded >= 1024 && unit < UNITS.length - 1) return `1 ${UNITS[unit + 1]}`;
  return `${rounded} ${UNITS[unit]}`;
}
