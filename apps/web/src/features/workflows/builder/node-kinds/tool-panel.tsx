// The Tool node's part of the Properties panel: which of the organization's tools it calls (for an MCP
// server connection, which of the server's tools), and its arguments, each a name and a template
// (`{{ expr }}`; exactly one `{{ expr }}` keeps its type).
import { nodeKinds, type McpToolInfo, type Tool } from '@crewline/contracts';
import { useId, useState } from 'react';

import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { allowedMcpTools, useMcpTools } from '@/lib/mcp-tools';
import { useTools } from '@/lib/queries/tools';

import { ExpressionField } from '../components/expression-field';
import { nodeDisplayName } from '../node-messages';
import { RemoveRowButton, RowList } from './row-list';
import type { NodePanelProps } from './types';

type Row = { name: string; value: string };

const toolDataOf = (data: Record<string, unknown>) =>
  nodeKinds.tool.data.safeParse(data).data ?? {
    toolId: undefined,
    mcpTool: undefined,
    arguments: {} as Record<string, string>,
  };

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
  const { toolId, mcpTool, arguments: args } = toolDataOf(node.data);
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
  const chosen = tools.data?.find((t) => t.id === toolId);
  const known = !!chosen;

  return (
    <>
      <div className="space-y-1.5">
        <Label htmlFor={toolSelectId}>Tool</Label>
        <Select
          value={toolId ?? ''}
          // Another tool's server tool means nothing to this one.
          onValueChange={(next) => set({ toolId: next, mcpTool: undefined })}
        >
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
      {chosen?.category === 'mcp' && (
        <McpToolSelect connection={chosen} value={mcpTool} onChange={(next) => set({ mcpTool: next })} />
      )}
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

/** An MCP server connection's tool to call: one of those the connection allows. */
function McpToolSelect({
  connection,
  value,
  onChange,
}: {
  connection: Tool;
  value: string | undefined;
  onChange: (name: string) => void;
}) {
  const id = useId();
  const listing = useMcpTools(connection.id);
  const allowed = allowedMcpTools(listing.data?.tools ?? [], connection.config);
  const chosen = allowed.find((tool) => tool.name === value);
  const listed = listing.data?.tools.some((tool) => tool.name === value);
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>MCP tool</Label>
      <Select value={value ?? ''} onValueChange={onChange}>
        <SelectTrigger id={id} className="w-full">
          <SelectValue placeholder={listing.isPending ? 'Loading the server’s tools…' : 'Choose a tool'} />
        </SelectTrigger>
        <SelectContent>
          {allowed.map((tool) => (
            <SelectItem key={tool.name} value={tool.name}>
              {tool.name}
            </SelectItem>
          ))}
          {value && !chosen && <SelectItem value={value}>{value}</SelectItem>}
        </SelectContent>
      </Select>
      {value && listing.data && !chosen && (
        <p className="text-xs text-destructive">
          {listed
            ? 'The connection no longer allows this tool: allow it on the Tools page or choose another.'
            : 'The server no longer lists this tool: choose another.'}
        </p>
      )}
      {listing.data?.error && <p className="text-xs text-destructive">{listing.data.error}</p>}
      {chosen && <SchemaArguments tool={chosen} />}
    </div>
  );
}

/** The arguments the server tool's input schema names (the editor below takes them by name). */
function SchemaArguments({ tool }: { tool: McpToolInfo }) {
  const properties = tool.inputSchema.properties;
  const names = properties && typeof properties === 'object' ? Object.keys(properties) : [];
  const required = Array.isArray(tool.inputSchema.required) ? tool.inputSchema.required : [];
  if (names.length === 0) return <p className="text-xs text-muted-foreground">It takes no arguments.</p>;
  return (
    <p className="text-xs text-muted-foreground">
      Its arguments:{' '}
      {names.map((name, index) => (
        <span key={name}>
          {index > 0 && ', '}
          <code className="font-mono">{name}</code>
          {required.includes(name) && ' (required)'}
        </span>
      ))}
    </p>
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
