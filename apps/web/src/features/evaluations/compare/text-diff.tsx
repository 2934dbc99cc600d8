// One side of two answers' word diff: the earlier answer with what the later one dropped struck in
// red, or the later answer with what it added in green. <del> and <ins> say it without colour too.
import { useMemo } from 'react';

import { diffWords } from './word-diff';

export function TextDiff({
  before,
  after,
  side,
}: {
  before: string;
  after: string;
  side: 'before' | 'after';
}) {
  const parts = useMemo(() => diffWords(before, after), [before, after]);
  return (
    <p className="break-words whitespace-pre-wrap" data-testid={`diff-${side}`}>
      {parts.map((part, index) => {
        if (part.kind === 'same') return <span key={index}>{part.text}</span>;
        if (side === 'before' && part.kind === 'removed')
          return (
            <del
              key={index}
              className="rounded-sm bg-red-500/15 text-red-800 decoration-red-600/60 dark:bg-red-500/20 dark:text-red-200 dark:decoration-red-300/60"
            >
              {part.text}
            </del>
          );
        if (side === 'after' && part.kind === 'added')
          return (
            <ins
              key={index}
              className="rounded-sm bg-emerald-500/15 text-emerald-800 no-underline dark:bg-emerald-500/20 dark:text-emerald-200"
            >
              {part.text}
            </ins>
          );
        return null;
      })}
    </p>
  );
}
