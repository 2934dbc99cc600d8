// A word-level text diff for the comparison of two answers: the longest common subsequence of their
// words (whitespace and punctuation are tokens of their own), after the common start and end are set
// aside. Answers are short, so no library: above a size the middle is shown as removed then added.

export type DiffPart = { kind: 'same' | 'added' | 'removed'; text: string };

/** The most cells of the table the subsequence is found with (about 4 MB). */
const MAX_CELLS = 1_000_000;

function tokens(text: string): string[] {
  return text.match(/[\p{L}\p{N}_]+|\s+|[^\p{L}\p{N}_\s]/gu) ?? [];
}

function push(parts: DiffPart[], kind: DiffPart['kind'], text: string) {
  const last = parts.at(-1);
  if (last && last.kind === kind) last.text += text;
  else if (text) parts.push({ kind, text });
}

/** What changed from `before` to `after`, word by word, in reading order (removals before additions). */
export function diffWords(before: string, after: string): DiffPart[] {
  const a = tokens(before);
  const b = tokens(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }

  const parts: DiffPart[] = [];
  push(parts, 'same', a.slice(0, start).join(''));
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const n = midA.length;
  const m = midB.length;

  if ((n + 1) * (m + 1) > MAX_CELLS) {
    push(parts, 'removed', midA.join(''));
    push(parts, 'added', midB.join(''));
  } else {
    // lengths[i * (m + 1) + j]: the common subsequence of midA[i..] and midB[j..].
    const width = m + 1;
    const lengths = new Uint32Array((n + 1) * width);
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lengths[i * width + j] =
          midA[i] === midB[j]
            ? lengths[(i + 1) * width + j + 1]! + 1
            : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && midA[i] === midB[j]) {
        push(parts, 'same', midA[i++]!);
        j++;
      } else if (j >= m || (i < n && lengths[(i + 1) * width + j]! >= lengths[i * width + j + 1]!)) {
        push(parts, 'removed', midA[i++]!);
      } else {
        push(parts, 'added', midB[j++]!);
      }
    }
  }

  push(parts, 'same', a.slice(endA).join(''));
  return parts;
}
