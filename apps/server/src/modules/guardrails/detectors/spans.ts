/** Where a detector found something: its kind and its offsets (UTF-16 code units) in the text it read. */
export type Span<Kind extends string = string> = { kind: Kind; start: number; end: number };

/**
 * The candidates without overlaps, sorted by start: a longer match wins over one it overlaps, and
 * between two of the same length the one whose kind comes first in `specificity` (a checksum-checked
 * card over a phone number that happens to share its digits).
 */
export function withoutOverlaps<Kind extends string>(
  candidates: Span<Kind>[],
  specificity: readonly Kind[] = [],
): Span<Kind>[] {
  const rank = (kind: Kind) => {
    const at = specificity.indexOf(kind);
    return at === -1 ? specificity.length : at;
  };
  const byStrength = [...candidates].sort(
    (a, b) => b.end - b.start - (a.end - a.start) || rank(a.kind) - rank(b.kind) || a.start - b.start,
  );
  // Kept spans never overlap, so sorted by start a new one can only overlap its two neighbours:
  // a binary search keeps this fast on texts with thousands of findings.
  const kept: Span<Kind>[] = [];
  for (const span of byStrength) {
    if (span.end <= span.start) continue;
    let low = 0;
    let high = kept.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (kept[mid].start < span.start) low = mid + 1;
      else high = mid;
    }
    const before = kept[low - 1];
    const after = kept[low];
    if ((before && before.end > span.start) || (after && after.start < span.end)) continue;
    kept.splice(low, 0, span);
  }
  return kept;
}
