// The editable lists of the node panels (a tool's arguments, a transform's values, a condition's
// branches, an output schema's fields): one row per item, a button under them that adds one, and the
// row's remove button. Each change is written as the whole new list with its undo step (a row's edits
// share one step per row and key; adding and removing are steps of their own).
import { Plus, Trash2 } from 'lucide-react';
import { Fragment, type ReactNode } from 'react';

import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';

/** What a row does to its own item. */
export type RowEdit<T> = { onChange: (patch: Partial<T>) => void; onRemove: () => void };

export function RowList<T extends object>({
  items,
  stepPrefix,
  keyOf = (_, index) => index,
  write,
  newItem,
  addLabel,
  addDisabled,
  children,
}: {
  items: T[];
  /** The first part of a row's undo step: `<prefix>:<key>:<changed keys>`. */
  stepPrefix: string;
  /** The row's React key and its part of the undo step; its index unless the items have ids. */
  keyOf?: (item: T, index: number) => string | number;
  write: (next: T[], step: string | null) => void;
  newItem: () => T;
  addLabel: string;
  addDisabled?: boolean;
  children: (item: T, index: number, edit: RowEdit<T>) => ReactNode;
}) {
  return (
    <>
      <ol className="space-y-2">
        {items.map((item, index) => {
          const key = keyOf(item, index);
          return (
            <Fragment key={key}>
              {children(item, index, {
                onChange: (patch) =>
                  write(
                    items.map((each, i) => (i === index ? { ...each, ...patch } : each)),
                    `${stepPrefix}:${key}:${Object.keys(patch).join(',')}`,
                  ),
                onRemove: () =>
                  write(
                    items.filter((_, i) => i !== index),
                    null,
                  ),
              })}
            </Fragment>
          );
        })}
      </ol>
      <Button
        variant="outline"
        size="sm"
        className="w-full"
        disabled={addDisabled}
        onClick={() => write([...items, newItem()], null)}
      >
        <Plus aria-hidden="true" />
        {addLabel}
      </Button>
    </>
  );
}

/** A row's remove button; `label` names the row (`Remove <label>`). */
export function RemoveRowButton({
  label,
  onClick,
  className = 'size-9',
}: {
  label: string;
  onClick: () => void;
  className?: string;
}) {
  return (
    <Button
      variant="ghost"
      size="icon"
      className={cn(className, 'text-destructive hover:bg-destructive/10 hover:text-destructive')}
      onClick={onClick}
      aria-label={`Remove ${label}`}
    >
      <Trash2 aria-hidden="true" />
    </Button>
  );
}
