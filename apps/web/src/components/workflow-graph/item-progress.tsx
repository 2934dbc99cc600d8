// A map's or a loop's progress in a run, on its node (the builder's canvas and the read-only run
// graph share it): a map's items done out of its total (`37/100`, `3 failed`) with a thin bar, a
// loop's pass (`Pass 2`). The counts come from the run's state (lib/runs/run-state.ts, itemProgress).
import type { ItemProgress } from '@/lib/runs/run-state';
import { cn } from '@/lib/utils';

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What a screen reader says: '37 of 100 items done, 3 failed'; a loop's 'Pass 2'. */
export function itemProgressText(kind: 'map' | 'loop', progress: ItemProgress): string {
  if (kind === 'loop') {
    const pass = progress.pass ?? 0;
    return progress.failed > 0 ? `Pass ${pass}, failed` : `Pass ${pass}`;
  }
  const { done, failed, total } = progress;
  const items =
    total === null
      ? `${count(done, 'item', 'items')} done`
      : `${done} of ${count(total, 'item', 'items')} done`;
  return failed > 0 ? `${items}, ${failed} failed` : items;
}

/** The short form on the node: '37/100' (or '37' while the total is unknown: a run read mid-way). */
function shortCount({ done, total }: ItemProgress): string {
  return total === null ? String(done) : `${done}/${total}`;
}

const percent = (part: number, whole: number) => `${Math.min(100, (part / whole) * 100)}%`;

export function ItemProgressLine({
  kind,
  progress,
  className,
}: {
  kind: 'map' | 'loop';
  progress: ItemProgress;
  className?: string;
}) {
  const { done, failed, total } = progress;
  const spoken = itemProgressText(kind, progress);
  return (
    <div
      data-testid="item-progress"
      data-done={done}
      data-failed={failed}
      data-total={total ?? undefined}
      data-pass={progress.pass ?? undefined}
      className={cn('space-y-1 border-t px-3 py-1.5 text-[11px]', className)}
    >
      <span className="sr-only">{spoken}</span>
      <div className="flex items-center gap-2" aria-hidden="true">
        {kind === 'loop' ? (
          <span className="font-semibold">Pass {progress.pass ?? 0}</span>
        ) : (
          <>
            <span className="font-semibold tabular-nums">{shortCount(progress)}</span>
            <span className="text-muted-foreground">items</span>
          </>
        )}
        {failed > 0 && (
          <span className="ml-auto font-medium text-red-600 tabular-nums dark:text-red-400">
            {failed} failed
          </span>
        )}
      </div>
      {kind === 'map' && total !== null && total > 0 && (
        <div className="flex h-1 overflow-hidden rounded-full bg-muted" aria-hidden="true">
          <div className="bg-emerald-500 transition-[width]" style={{ width: percent(done, total) }} />
          {failed > 0 && <div className="bg-red-500" style={{ width: percent(failed, total) }} />}
        </div>
      )}
    </div>
  );
}
