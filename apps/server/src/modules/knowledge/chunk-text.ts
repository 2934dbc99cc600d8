/** What a chunk holds at most, in characters, and how much of the previous chunk's end it repeats. */
const DEFAULT_CHUNK_SIZE = 1000;
const DEFAULT_CHUNK_OVERLAP = 150;

/**
 * Boundaries to cut at, best first: between paragraphs, between lines, after a sentence, between
 * words. Each matches a gap; the cut falls where its spaces begin (after a sentence's punctuation).
 */
const BOUNDARIES = [/\n[ \t]*\n\s*/g, /\n\s*/g, /[.!?。！？…]["'”’)\]]*\s+/g, /\s+/g];

/**
 * Cuts a text into chunks of at most `size` characters for embedding, each repeating the last
 * `overlap` characters or so of the one before (from a word start), so a passage that straddles a cut
 * is still found whole in one of them. A cut falls at the latest paragraph break in the second half of
 * the window, else the latest line break, sentence end or space there, else mid-word at `size`.
 * Deterministic; chunks are trimmed and never empty.
 */
export function chunkText(text: string, options: { size?: number; overlap?: number } = {}): string[] {
  const size = Math.floor(options.size ?? DEFAULT_CHUNK_SIZE);
  const overlap = Math.floor(options.overlap ?? DEFAULT_CHUNK_OVERLAP);
  if (!(size >= 1)) throw new RangeError('The chunk size must be at least 1 character');
  if (!(overlap >= 0 && overlap < size)) {
    throw new RangeError('The chunk overlap must be at least 0 and less than the chunk size');
  }

  const chunks: string[] = [];
  let start = skipSpace(text, 0);
  let previousCut = 0;
  while (start < text.length) {
    const limit = start + size;
    if (limit >= text.length) {
      push(chunks, text.slice(start));
      break;
    }
    // Not before the window's middle (an early paragraph break would make tiny chunks), and past the
    // previous cut (or a chunk could fall wholly inside the one before).
    const earliest = Math.max(start + Math.max(1, Math.floor(size / 2)), previousCut + 1);
    const cut = cutPoint(text, start, limit, earliest);
    push(chunks, text.slice(start, cut));
    previousCut = cut;
    start = skipSpace(text, nextStart(text, start, cut, overlap));
  }
  return chunks;
}

function push(chunks: string[], piece: string) {
  const trimmed = piece.trim();
  if (trimmed) chunks.push(trimmed);
}

function skipSpace(text: string, from: number) {
  let i = from;
  while (i < text.length && /\s/.test(text[i])) i++;
  return i;
}

/** Where the chunk starting at `start` ends (exclusive), at most at `limit`. */
function cutPoint(text: string, start: number, limit: number, earliest: number) {
  // One character past the limit, so a gap that begins right at it still counts.
  const window = text.slice(start, Math.min(text.length, limit + 1));
  for (const boundary of BOUNDARIES) {
    let best = -1;
    for (const match of window.matchAll(boundary)) {
      const gapStart = start + match.index;
      // What comes before the cut must fit in the chunk.
      const end = gapStart + match[0].length - match[0].replace(/^\S+/, '').length;
      if (end > limit) break;
      if (end >= earliest) best = end;
    }
    if (best >= 0) return best;
  }
  // No boundary in reach: a hard cut, not through a surrogate pair.
  const code = text.charCodeAt(limit - 1);
  return code >= 0xd800 && code <= 0xdbff && limit - 1 >= earliest ? limit - 1 : limit;
}

/** The next chunk starts `overlap` characters before the cut, moved on to the next word's start. */
function nextStart(text: string, start: number, cut: number, overlap: number) {
  if (overlap === 0) return cut;
  let i = Math.max(start + 1, cut - overlap);
  if (i > 0 && !/\s/.test(text[i - 1])) {
    // Mid-word: on to the word after it, unless that would skip the whole overlap.
    let j = i;
    while (j < cut && !/\s/.test(text[j])) j++;
    i = j < cut ? j : i;
  }
  return Math.min(i, cut);
}
