/** '3 agents', or 'Showing 1 of 3 agents' while filters hide some; announced as it changes. */
export function ResultCount({
  shown,
  total,
  noun,
  filtering,
}: {
  shown: number;
  total: number;
  /** Singular; the plural adds an s. */
  noun: string;
  filtering: boolean;
}) {
  const counted = `${total} ${total === 1 ? noun : `${noun}s`}`;
  return (
    <p className="text-sm text-muted-foreground" aria-live="polite">
      {filtering ? `Showing ${shown} of ${counted}` : counted}
    </p>
  );
}
