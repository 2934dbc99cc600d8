// A step's structured value (its `data`: an agent's parsed answer, a condition's `{ branch }`, a
// transform's values, a merge's inputs) as a tree: objects and lists fold open and shut, values show
// by type. Each folding row is a button with aria-expanded (the disclosure pattern), so Tab, Enter
// and Space reach and work every level; values are shown as text, never as HTML.
import { ChevronRight } from 'lucide-react';
import { useState } from 'react';

import { cn } from '@/lib/utils';

/** Levels open at first: the top two; deeper ones open on demand. */
const OPEN_DEPTH = 2;
/** Entries a level shows before 'Show more' (a list of a thousand results stays quick to open). */
const TREE_PAGE = 50;

type Container = Record<string, unknown> | unknown[];

const isContainer = (value: unknown): value is Container => typeof value === 'object' && value !== null;

/** A container's entries as [key, value]: a list's keys are its indexes. */
function treeEntries(value: Container): [string, unknown][] {
  return Array.isArray(value) ? value.map((item, index) => [String(index), item]) : Object.entries(value);
}

/** '{3}' for an object of three keys, '[2]' for a list of two items: what a folded row says. */
function containerSummary(value: Container): string {
  const size = Array.isArray(value) ? value.length : Object.keys(value).length;
  return Array.isArray(value) ? `[${size}]` : `{${size}}`;
}

function Scalar({ value }: { value: unknown }) {
  if (typeof value === 'string')
    return (
      <span className="break-words whitespace-pre-wrap text-emerald-700 dark:text-emerald-400">
        {JSON.stringify(value)}
      </span>
    );
  if (typeof value === 'number')
    return <span className="text-sky-700 tabular-nums dark:text-sky-400">{String(value)}</span>;
  if (typeof value === 'boolean')
    return <span className="text-violet-700 dark:text-violet-400">{String(value)}</span>;
  return <span className="text-muted-foreground italic">{value === null ? 'null' : String(value)}</span>;
}

function Key({ name, list }: { name: string; list: boolean }) {
  return (
    <span className={cn('shrink-0', list ? 'text-muted-foreground' : 'font-medium text-foreground')}>
      {name}:
    </span>
  );
}

function Entries({ value, depth }: { value: Container; depth: number }) {
  const [shown, setShown] = useState(TREE_PAGE);
  const entries = treeEntries(value);
  const list = Array.isArray(value);
  if (entries.length === 0)
    return <p className="py-0.5 pl-5 text-muted-foreground italic">{list ? 'empty list' : 'empty object'}</p>;
  return (
    <ul className={cn(depth > 0 && 'ml-[7px] border-l pl-2')}>
      {entries.slice(0, shown).map(([key, item]) => (
        <TreeNode key={key} name={key} value={item} depth={depth} list={list} />
      ))}
      {entries.length > shown && (
        <li>
          <button
            type="button"
            className="ml-5 rounded text-primary hover:underline focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
            onClick={() => setShown((count) => count + TREE_PAGE)}
          >
            Show {Math.min(TREE_PAGE, entries.length - shown)} more of {entries.length}
          </button>
        </li>
      )}
    </ul>
  );
}

function TreeNode({
  name,
  value,
  depth,
  list,
}: {
  name: string;
  value: unknown;
  depth: number;
  list: boolean;
}) {
  const [open, setOpen] = useState(depth < OPEN_DEPTH);
  if (!isContainer(value)) {
    return (
      <li className="flex min-w-0 gap-1.5 py-0.5 pl-5" data-testid="data-tree-value">
        <Key name={name} list={list} />
        <Scalar value={value} />
      </li>
    );
  }
  return (
    <li className="py-0.5">
      <button
        type="button"
        aria-expanded={open}
        className="flex items-center gap-1.5 rounded pr-1 text-left hover:bg-muted/60 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
        onClick={() => setOpen((was) => !was)}
      >
        <ChevronRight
          className={cn('size-3.5 shrink-0 text-muted-foreground transition-transform', open && 'rotate-90')}
          aria-hidden="true"
        />
        <Key name={name} list={list} />
        <span className="text-muted-foreground">{containerSummary(value)}</span>
      </button>
      {open && <Entries value={value} depth={depth + 1} />}
    </li>
  );
}

/** `value` as a tree, labelled `label` for assistive technology ('Data'). */
export function DataTree({ value, label = 'Data' }: { value: unknown; label?: string }) {
  return (
    <div
      className="overflow-x-auto rounded-md border bg-muted/40 p-2.5 font-mono text-xs leading-relaxed"
      role="group"
      aria-label={label}
      data-testid="data-tree"
    >
      {isContainer(value) ? <Entries value={value} depth={0} /> : <Scalar value={value} />}
    </div>
  );
}
