// A knowledge search a tool call made, as the run details and the agent playground show it: each hit's
// score, where it came from and how many passages were found.
import type { StepRetrieval } from '@crewline/contracts';

type Hit = StepRetrieval['hits'][number];

/** A similarity as two decimals, '0.87' (clamped to 0–1: stores may round past the ends). */
export function retrievalScore(score: number): string {
  if (!Number.isFinite(score)) return '–';
  return Math.min(1, Math.max(0, score)).toFixed(2);
}

/** Where a passage came from, 'passage 3' of its document, when the store numbers them. */
export function passageLabel(hit: Pick<Hit, 'passage'>): string | null {
  return hit.passage === undefined ? null : `passage ${hit.passage}`;
}

/** '1 passage found', '5 passages found', 'No passages found'. */
export function hitsLabel(count: number): string {
  if (count === 0) return 'No passages found';
  return count === 1 ? '1 passage found' : `${count} passages found`;
}
