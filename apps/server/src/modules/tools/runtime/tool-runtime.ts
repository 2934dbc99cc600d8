import path from 'node:path';
import type { Config } from '../../../platform/env';
import type { Egress } from '../../../platform/egress';
import type { LlmConnection, LlmGateway, LlmProvider, LlmTool } from '../../../platform/llm';
import type { ResolvedTool } from '../tools.service';
import { createAiTool } from './ai-tool';
import { createDatabaseTool } from './database-tool';
import { createEmailTool } from './email-tool';
import { createFileTool } from './file-tool';
import { createCustomTool, createHttpTool } from './http-tool';

type Json = Record<string, unknown>;

export type ToolRuntimeDeps = {
  config: Config;
  egress: Egress;
  llm: LlmGateway;
  connectionFor(organizationId: string, provider: LlmProvider): Promise<LlmConnection>;
  /** The organization's active SendGrid configuration (decrypted), if any. */
  sendgridSettings(organizationId: string): Promise<Json | undefined>;
};

/** Model tool names must match [a-zA-Z0-9_-]{1,64}; the id suffix keeps two tools of one name apart. */
export function modelToolName(tool: { name: string; id: string }): string {
  const slug =
    tool.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 40) || 'tool';
  return `${slug}_${tool.id.replace(/-/g, '').slice(0, 8)}`;
}

/**
 * Turns an agent's enabled tools into model tools that the server executes (DESIGN.md §6): all HTTP
 * goes through the egress module, SQL runs read-only, files stay in the organization's own folder.
 */
export function createToolRuntime(deps: ToolRuntimeDeps) {
  async function build(organizationId: string, tool: ResolvedTool): Promise<LlmTool | undefined> {
    const settings: Json = { ...tool.settings, ...tool.linkConfig };
    const describe = (tool.description ?? '').trim();
    const withDescription = (built: LlmTool): LlmTool =>
      describe ? { ...built, description: `${tool.name}: ${describe}. ${built.description}` } : built;
    switch (tool.category) {
      case 'api':
      case 'web':
        return withDescription(createHttpTool(settings, deps.egress));
      case 'custom':
        return createCustomTool(settings, describe, deps.egress);
      case 'database':
        return withDescription(
          createDatabaseTool({
            connectionString: String(settings.connectionString ?? ''),
            schema: typeof settings.schema === 'string' && settings.schema ? settings.schema : undefined,
            allowList: deps.config.egressAllowList,
          }),
        );
      case 'file':
        return withDescription(
          createFileTool({ rootDir: path.join(deps.config.dataDir, 'files', organizationId) }),
        );
      case 'communication':
        return withDescription(
          createEmailTool(
            { ...((await deps.sendgridSettings(organizationId)) ?? {}), ...settings },
            deps.egress,
          ),
        );
      case 'ai':
        return withDescription(
          createAiTool(settings, {
            llm: deps.llm,
            connectionFor: (provider) => deps.connectionFor(organizationId, provider),
          }),
        );
      case 'vector_store':
        // Stored and configured now; its runtime arrives with the vector store integration.
        return undefined;
    }
  }

  return {
    async modelTools(organizationId: string, tools: ResolvedTool[]): Promise<Record<string, LlmTool>> {
      const entries: [string, LlmTool][] = [];
      for (const tool of tools) {
        const built = await build(organizationId, tool);
        if (built) entries.push([modelToolName(tool), built]);
      }
      return Object.fromEntries(entries);
    },
  };
}
export type ToolRuntime = ReturnType<typeof createToolRuntime>;
