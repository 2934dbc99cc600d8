// A dataset's items: their number, input (one line, expandable to the whole JSON), expected answer,
// tags, the run an item was taken from, and remove.
import type { DatasetItem } from '@crewline/contracts';
import { ChevronDown, ChevronRight, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';

import { IconButton } from '@/components/icon-button';
import { Button } from '@/components/ui/button';
import { runDetailsPath } from '@/lib/run-links';

import { useRemoveDatasetItem } from '../api/datasets';
import { compactJson, prettyJson } from './item-draft';

function ValueCell({ value, label }: { value: unknown; label: string }) {
  const [open, setOpen] = useState(false);
  const line = compactJson(value);
  if (!line) return <span className="text-muted-foreground">—</span>;
  const long = line.length > 60 || typeof value !== 'string';
  if (!long) return <span className="break-words">{line}</span>;
  return (
    <div className="flex min-w-0 items-start gap-1">
      <Button
        type="button"
        variant="ghost"
        size="icon"
        className="size-5 shrink-0"
        aria-expanded={open}
        aria-label={open ? `Collapse ${label}` : `Expand ${label}`}
        onClick={() => setOpen((on) => !on)}
      >
        {open ? <ChevronDown aria-hidden="true" /> : <ChevronRight aria-hidden="true" />}
      </Button>
      {open ? (
        <pre className="max-h-72 min-w-0 flex-1 overflow-auto font-mono text-xs whitespace-pre-wrap break-words">
          {prettyJson(value)}
        </pre>
      ) : (
        <span className="min-w-0 flex-1 truncate font-mono text-xs" title={line}>
          {line}
        </span>
      )}
    </div>
  );
}

export function DatasetItemsTable({ datasetId, items }: { datasetId: string; items: DatasetItem[] }) {
  const remove = useRemoveDatasetItem(datasetId);
  return (
    <div className="overflow-x-auto rounded-lg border">
      <table className="w-full min-w-[40rem] table-fixed text-sm" aria-label="Items">
        <colgroup>
          <col className="w-10" />
          <col />
          <col className="w-[28%]" />
          <col className="w-[14%]" />
          <col className="w-16" />
          <col className="w-12" />
        </colgroup>
        <thead className="bg-muted/40 text-left text-xs text-muted-foreground">
          <tr>
            <th className="px-3 py-2 font-medium">#</th>
            <th className="px-3 py-2 font-medium">Input</th>
            <th className="px-3 py-2 font-medium">Expected</th>
            <th className="px-3 py-2 font-medium">Tags</th>
            <th className="px-3 py-2 font-medium">Source</th>
            <th className="px-3 py-2">
              <span className="sr-only">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((item, index) => (
            <tr key={item.id} className="border-t align-top" data-testid="dataset-item">
              <td className="px-3 py-2 text-muted-foreground tabular-nums">{index + 1}</td>
              <td className="min-w-0 px-3 py-2">
                <ValueCell value={item.input} label={`input of item ${index + 1}`} />
              </td>
              <td className="min-w-0 px-3 py-2">
                <ValueCell value={item.expected} label={`expected answer of item ${index + 1}`} />
              </td>
              <td className="px-3 py-2">
                <div className="flex flex-wrap gap-1">
                  {item.tags.map((tag) => (
                    <span key={tag} className="rounded-sm bg-muted px-1.5 py-px text-xs">
                      {tag}
                    </span>
                  ))}
                </div>
              </td>
              <td className="px-3 py-2">
                {item.sourceExecutionId ? (
                  <Link
                    to={runDetailsPath(item.sourceExecutionId)}
                    className="text-primary underline-offset-2 hover:underline"
                    title="The run this item was taken from"
                  >
                    Run
                  </Link>
                ) : (
                  <span className="text-muted-foreground">—</span>
                )}
              </td>
              <td className="px-1 py-1">
                <IconButton
                  icon={<Trash2 aria-hidden="true" />}
                  tooltip="Remove item"
                  label={`Remove item ${index + 1}`}
                  onClick={() => remove.mutate(item.id)}
                  busy={remove.isPending && remove.variables === item.id}
                  destructive
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
