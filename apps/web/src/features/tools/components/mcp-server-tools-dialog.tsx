import type { Tool } from '@crewline/contracts';

import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';

import { McpServerTools } from './mcp-server-tools';

/** An MCP server connection's tools, opened from its card (Server tools). */
export function McpServerToolsDialog({
  tool,
  open,
  onOpenChange,
}: {
  tool: Tool | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open && !!tool} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>Server tools</DialogTitle>
          <DialogDescription>
            {tool?.name}: the tools your agents and workflows may call. Switch one off to keep it from them.
          </DialogDescription>
        </DialogHeader>
        {tool && <McpServerTools tool={tool} />}
      </DialogContent>
    </Dialog>
  );
}
