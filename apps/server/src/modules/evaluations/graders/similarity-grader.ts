// Semantic similarity: the cosine of the two texts' embeddings (grade-item.ts has the rules).
import { DEFAULT_SIMILARITY_THRESHOLD, type Grader } from '@crewline/contracts';
import type { GradingPorts } from './grade-item';
import { cut, formatNumber, textOf, type Verdict } from './values';

/** Texts are embedded up to this many characters: a long answer must not exceed the model's input limit. */
const EMBEDDED_MAX_CHARS = 20_000;

/** Cosine similarity of the answer's and the expected text's embeddings, clamped to 0–1. */
export async function gradeSimilarity(
  grader: Extract<Grader, { type: 'similarity' }>,
  target: unknown,
  expected: unknown,
  ports: GradingPorts,
): Promise<Verdict> {
  const answer = cut(textOf(target).trim(), EMBEDDED_MAX_CHARS);
  const wanted = cut(textOf(expected).trim(), EMBEDDED_MAX_CHARS);
  // Embedding models refuse an empty text; two empty texts are the same, one is nothing like the other.
  if (!answer || !wanted) {
    return answer === wanted
      ? { score: 1, reason: 'Both texts are empty' }
      : { score: 0, reason: answer ? 'The expected text is empty' : 'The answer is empty' };
  }
  const connection = await ports.connectionFor(ports.meter.organizationId, grader.provider);
  const { embeddings } = await ports.llm.embed({
    connection,
    model: grader.model,
    texts: [answer, wanted],
    meter: ports.meter,
    signal: ports.signal,
  });
  const score = Math.min(1, Math.max(0, cosine(embeddings[0], embeddings[1])));
  const threshold = grader.threshold ?? DEFAULT_SIMILARITY_THRESHOLD;
  return { score, reason: `Similarity ${formatNumber(round(score))} (needs ${formatNumber(threshold)})` };
}

/** Cosine similarity; 0 when either vector is all zeros or their lengths differ. */
export function cosine(a: number[], b: number[]): number {
  if (a.length !== b.length || a.length === 0) return 0;
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    normA += a[i] * a[i];
    normB += b[i] * b[i];
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

const round = (value: number) => Math.round(value * 1000) / 1000;
