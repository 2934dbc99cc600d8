// The side-by-side comparison: version N on the left, the current draft on the right, grouped into
// workflow settings, nodes and connections. Colour is never the only cue: every entry also says
// Added, Removed or Changed in words.
import { ArrowRight, Move } from 'lucide-react';
import type { ReactNode } from 'react';

import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/utils';

import {
  isSameAsDraft,
  summarizeDiff,
  type ChangeStatus,
  type EdgeDiff,
  type FieldChange,
  type NodeDiff,
  type VersionDiff,
} from './version-diff';

/** Tints readable on the light and the dark theme. */
const TINT: Record<ChangeStatus, string> = {
  added: 'border-emerald-500/35 bg-emerald-500/10',
  removed: 'border-rose-500/35 bg-rose-500/10',
  changed: 'border-amber-500/35 bg-amber-500/10',
};
const BADGE: Record<ChangeStatus, string> = {
  added: 'border-emerald-500/30 bg-emerald-500/10 text-emerald-700 dark:text-emerald-300',
  removed: 'border-rose-500/30 bg-rose-500/10 text-rose-700 dark:text-rose-300',
  changed: 'border-amber-500/35 bg-amber-500/10 text-amber-700 dark:text-amber-300',
};
const STATUS_LABEL: Record<ChangeStatus, string> = { added: 'Added', removed: 'Removed', changed: 'Changed' };

function StatusTag({ status }: { status: ChangeStatus }) {
  return (
    <Badge variant="outline" className={BADGE[status]}>
      {STATUS_LABEL[status]}
    </Badge>
  );
}

/** One side of a row; `tone` null is the side where the thing does not exist. */
function Cell({
  tone,
  side,
  children,
}: {
  tone: Exclude<ChangeStatus, 'changed'> | null;
  side: string;
  children: ReactNode;
}) {
  return (
    <div
      className={cn(
        'min-w-0 rounded-md border px-2.5 py-1.5 text-sm',
        tone ? TINT[tone] : 'border-dashed text-muted-foreground',
      )}
    >
      <span className="sr-only">{side}: </span>
      {children}
    </div>
  );
}

function FieldValue({ change, value }: { change: FieldChange; value: string }) {
  if (!value) return <span className="text-muted-foreground italic">Empty</span>;
  return (
    <span className="flex max-h-32 min-w-0 items-start gap-1.5 overflow-y-auto break-words whitespace-pre-wrap">
      {change.key === 'color' && /^#[0-9a-f]{3,8}$/i.test(value) && (
        <span
          className="mt-1 size-3 shrink-0 rounded-full border border-border"
          style={{ backgroundColor: value }}
          aria-hidden="true"
        />
      )}
      <span className="min-w-0">{value}</span>
    </span>
  );
}

function FieldRows({ changes, versionLabel }: { changes: FieldChange[]; versionLabel: string }) {
  return (
    <dl className="space-y-2">
      {changes.map((change) => (
        <div key={change.key} data-testid={`diff-field-${change.key}`} className="space-y-1">
          <dt className="text-xs font-medium text-muted-foreground">{change.label}</dt>
          <dd className="grid grid-cols-2 gap-2">
            <Cell tone="removed" side={versionLabel}>
              <FieldValue change={change} value={change.version} />
            </Cell>
            <Cell tone="added" side="Current draft">
              <FieldValue change={change} value={change.draft} />
            </Cell>
          </dd>
        </div>
      ))}
    </dl>
  );
}

const TYPE_LABEL: Record<string, string> = { start: 'Start node', end: 'End node', agent: 'Agent node' };

function NodeEntry({ node, versionLabel }: { node: NodeDiff; versionLabel: string }) {
  const name = <span className="font-medium break-words">{node.label}</span>;
  return (
    <li className="space-y-2 rounded-lg border p-3" data-testid={`diff-node-${node.id}`}>
      <div className="flex flex-wrap items-center gap-2">
        <span className="min-w-0 font-medium break-words">{node.label}</span>
        <span className="text-xs text-muted-foreground">{TYPE_LABEL[node.type] ?? node.type}</span>
        <StatusTag status={node.status} />
        {node.moved && (
          <Badge variant="outline" className="text-muted-foreground" title="Its place on the canvas differs">
            <Move aria-hidden="true" />
            Moved
          </Badge>
        )}
      </div>
      {node.status === 'added' && (
        <div className="grid grid-cols-2 gap-2">
          <Cell tone={null} side={versionLabel}>
            Not in {versionLabel.toLowerCase()}
          </Cell>
          <Cell tone="added" side="Current draft">
            {name}
          </Cell>
        </div>
      )}
      {node.status === 'removed' && (
        <div className="grid grid-cols-2 gap-2">
          <Cell tone="removed" side={versionLabel}>
            {name}
          </Cell>
          <Cell tone={null} side="Current draft">
            Not in the current draft
          </Cell>
        </div>
      )}
      {node.status === 'changed' &&
        (node.changes.length > 0 ? (
          <FieldRows changes={node.changes} versionLabel={versionLabel} />
        ) : (
          <p className="text-xs text-muted-foreground">Only its place on the canvas differs.</p>
        ))}
    </li>
  );
}

function EdgeEntry({ edge, versionLabel }: { edge: EdgeDiff; versionLabel: string }) {
  const pair = (
    <span className="flex min-w-0 flex-wrap items-center gap-1 break-words">
      <span className="min-w-0">{edge.sourceLabel}</span>
      <ArrowRight className="size-3.5 shrink-0" aria-label="to" />
      <span className="min-w-0">{edge.targetLabel}</span>
    </span>
  );
  const missing = <span className="italic">No such connection</span>;
  return (
    <li className="grid grid-cols-2 gap-2" data-testid="diff-edge">
      <Cell tone={edge.status === 'removed' ? 'removed' : null} side={versionLabel}>
        {edge.status === 'removed' ? pair : missing}
      </Cell>
      <Cell tone={edge.status === 'added' ? 'added' : null} side="Current draft">
        {edge.status === 'added' ? pair : missing}
      </Cell>
    </li>
  );
}

function Group({ title, count, children }: { title: string; count: number; children: ReactNode }) {
  if (count === 0) return null;
  return (
    <section className="space-y-2" aria-label={title}>
      <h4 className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">
        {title} <span className="font-normal">({count})</span>
      </h4>
      {children}
    </section>
  );
}

export function VersionDiffView({ diff, version }: { diff: VersionDiff; version: number }) {
  const versionLabel = `Version ${version}`;
  const same = isSameAsDraft(diff);
  return (
    <section aria-label="Changes" className="space-y-4">
      <div className="space-y-1">
        <h3 className="text-sm font-semibold">Compared with the current draft</h3>
        <p className="text-sm text-muted-foreground" data-testid="diff-summary">
          {summarizeDiff(diff)}
        </p>
      </div>
      {!same && (
        <>
          <div
            className="grid grid-cols-2 gap-2 border-b pb-2 text-xs font-semibold tracking-wide text-muted-foreground uppercase"
            aria-hidden="true"
          >
            <span className="flex items-center gap-1.5">
              <span className="size-2 rounded-full bg-rose-500" />
              {versionLabel}
            </span>
            <span className="flex items-center gap-1.5">
              <span className="size-2 rounded-full bg-emerald-500" />
              Current draft
            </span>
          </div>
          <Group title="Workflow settings" count={diff.workflow.length}>
            <FieldRows changes={diff.workflow} versionLabel={versionLabel} />
          </Group>
          <Group title="Nodes" count={diff.nodes.length}>
            <ul className="space-y-2">
              {diff.nodes.map((node) => (
                <NodeEntry key={`${node.status}:${node.id}`} node={node} versionLabel={versionLabel} />
              ))}
            </ul>
          </Group>
          <Group title="Connections" count={diff.edges.length}>
            <ul className="space-y-2">
              {diff.edges.map((edge) => (
                <EdgeEntry key={`${edge.status}:${edge.key}`} edge={edge} versionLabel={versionLabel} />
              ))}
            </ul>
          </Group>
        </>
      )}
    </section>
  );
}
