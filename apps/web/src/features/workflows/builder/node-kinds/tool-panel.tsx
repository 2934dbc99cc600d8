// The Tool node's part of the Properties panel: which of the organization's tools it calls, and its
// arguments, each a name and a template (`{{ expr }}`; exactly one `{{ expr }}` keeps its type).
import { nodeKinds } from '@crewline/contracts';
import { useId, useState } from 'react';

import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { useTools } from '@/lib/queries/tools';

import { ExpressionField } from '../components/expression-field';
import { nodeDisplayName } from '../node-messages';
import { RemoveRowButton, RowList } from './row-list';
import type { NodePanelProps } from './types';

type Row = { name: string; value: string };

const toolDataOf = (data: Record<string, unknown>) =>
  nodeKinds.tool.data.safeParse(data).data ?? { toolId: undefined, arguments: {} as Record<string, string> };

const rowsOf = (args: Record<string, string>): Row[] =>
  Object.entries(args).map(([name, value]) => ({ name, value }));

/** The arguments of the rows with a name (the first of two with the same name). */
function argumentsOf(rows: Row[]): Record<string, string> {
  const args: Record<string, string> = {};
  for (const row of rows)
    if (row.name.trim() && !(row.name.trim() in args)) args[row.name.trim()] = row.value;
  return args;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function ToolPanelSettings({ node, set }: NodePanelProps) {
  const toolSelectId = useId();
  const tools = useTools();
  const { toolId, arguments: args } = toolDataOf(node.data);
  const nodeName = nodeDisplayName(node);
  // The rows as typed (one without a name yet is in no argument list); an undo resets them.
  const [rows, setRows] = useState<Row[]>(() => rowsOf(args));
  const [synced, setSynced] = useState(args);
  if (!same(synced, args)) {
    setSynced(args);
    if (!same(argumentsOf(rows), args)) setRows(rowsOf(args));
  }
  const write = (next: Row[], step: string | null) => {
    setRows(next);
    const written = argumentsOf(next);
    setSynced(written);
    if (!same(written, args)) set({ arguments: written }, step);
  };
  const known = tools.data?.some((t) => t.id === toolId);

  return (
    <>
      <div className="space-y-1.5">
        <Label htmlFor={toolSelectId}>Tool</Label>
        <Select value={toolId ?? ''} onValueChange={(next) => set({ toolId: next })}>
          <SelectTrigger id={toolSelectId} className="w-full">
            <SelectValue placeholder={tools.isPending ? 'Loading tools…' : 'Choose a tool'} />
          </SelectTrigger>
          <SelectContent>
            {(tools.data ?? []).map((tool) => (
              <SelectItem key={tool.id} value={tool.id}>
                {tool.name}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        {toolId && tools.data && !known && (
          <p className="text-xs text-destructive">This tool was deleted: choose another.</p>
        )}
        {tools.data?.length === 0 && (
          <p className="text-xs text-muted-foreground">No tools yet: add one on the Tools page.</p>
        )}
      </div>
      <section className="space-y-2.5" aria-label="Arguments">
        <h3 className="text-sm font-medium">Arguments</h3>
        <RowList
          items={rows}
          stepPrefix="arguments"
          write={write}
          newItem={() => ({ name: '', value: '' })}
          addLabel="Add argument"
        >
          {(row, index, edit) => (
            <ArgumentRow
              index={index}
              row={row}
              duplicate={
                !!row.name.trim() && rows.findIndex((r) => r.name.trim() === row.name.trim()) !== index
              }
              nodeId={node.id}
              nodeName={nodeName}
              {...edit}
            />
          )}
        </RowList>
      </section>
    </>
  );
}

function ArgumentRow({
  index,
  row,
  duplicate,
  nodeId,
  nodeName,
  onChange,
  onRemove,
}: {
  index: number;
  row: Row;
  duplicate: boolean;
  nodeId: string;
  nodeName: string;
  onChange: (patch: Partial<Row>) => void;
  onRemove: () => void;
}) {
  const nameId = useId();
  return (
    <li className="space-y-2 rounded-lg border bg-muted/30 p-2.5" aria-label={`Argument ${index + 1}`}>
      <div className="flex items-end gap-1.5">
        <div className="min-w-0 flex-1 space-y-1.5">
          <Label htmlFor={nameId}>Argument name</Label>
          <Input
            id={nameId}
            value={row.name}
            placeholder="query"
            spellCheck={false}
            className="font-mono text-xs"
            onChange={(e) => onChange({ name: e.target.value })}
          />
        </div>
        <RemoveRowButton label={row.name || `argument ${index + 1}`} onClick={onRemove} />
      </div>
      {duplicate && (
        <p className="text-xs text-destructive">Another argument has this name; this one is not sent.</p>
      )}
      <ExpressionField
        label="Value"
        value={row.value}
        nodeId={nodeId}
        nodeName={nodeName}
        syntax="template"
        placeholder="{{ nodes.classify.data.email }}"
        onChange={(value) => onChange({ value })}
      />
    </li>
  );
}
