// The Tool node on the canvas: the tool it calls (one of the organization's, no model; for an MCP
// server connection, with the server's tool) and the names of the arguments it passes.
import { nodeKinds, type Tool } from '@crewline/contracts';
import type { NodeProps } from '@xyflow/react';
import { Wrench } from 'lucide-react';
import { memo } from 'react';

import { useTools } from '@/lib/queries/tools';

import type { BuilderNode } from '../types';
import { KindCard } from './kind-card';
import { lazyPanel } from './lazy-panel';
import type { BuilderNodeKind } from './types';

const ACCENT = '#0ea5e9';

/** A tool step's tool and arguments as its schema reads them. */
const toolDataOf = (
  data: Record<string, unknown>,
): { toolId?: string; mcpTool?: string; arguments: Record<string, string> } =>
  nodeKinds.tool.data.safeParse(data).data ?? { arguments: {} };

/** The tool's name from the organization's list (the builder reads it once); undefined until then or when gone. */
function useToolName(toolId: string | undefined): string | undefined {
  const tools = useTools({ enabled: !!toolId });
  return tools.data?.find((t: Tool) => t.id === toolId)?.name;
}

function ToolNodeComponent({ id, data, selected }: NodeProps<BuilderNode>) {
  const { toolId, mcpTool, arguments: args } = toolDataOf(data);
  const baseName = useToolName(toolId);
  const toolName = baseName && mcpTool ? `${baseName} · ${mcpTool}` : baseName;
  const names = Object.keys(args);
  return (
    <KindCard
      id={id}
      kind="tool"
      label={data.label}
      Icon={Wrench}
      accent={ACCENT}
      selected={selected}
      className="w-60"
    >
      <div className="space-y-0.5 border-t px-3 py-2 text-[11px]">
        <div className="truncate font-medium" title={toolName}>
          {toolId ? (
            (toolName ?? 'Tool')
          ) : (
            <span className="text-muted-foreground italic">No tool chosen</span>
          )}
        </div>
        {names.length > 0 && (
          <div className="truncate font-mono text-muted-foreground" title={names.join(', ')}>
            {names.join(', ')}
          </div>
        )}
      </div>
    </KindCard>
  );
}

export const toolKind: BuilderNodeKind<'tool'> = {
  kind: 'tool',
  Node: memo(ToolNodeComponent),
  Icon: Wrench,
  accent: ACCENT,
  miniMapColor: () => ACCENT,
  PanelSettings: lazyPanel(
    () => import('./tool-panel'),
    (m) => m.ToolPanelSettings,
  ),
};
