// Shapes of the agent-tool and tool-catalogue answers and of the provider
// catalogue. The agent itself is `Agent` from @crewline/contracts.
import type { ToolApprovalPolicy } from '@crewline/contracts';

/** GET /api/tools: a tool of the organization. */
export interface Tool {
  id: string;
  name: string;
  description: string | null;
  category: string;
  provider: string | null;
  config: Record<string, unknown> | null;
  isActive: boolean;
}

/** GET /api/agents/:agentId/tools: a tool connected to an agent. */
export interface AgentToolLink {
  id: string;
  agentId: string;
  toolId: string;
  tool: { name: string; description: string | null; category: string } | null;
  isEnabled: boolean;
  config: Record<string, unknown> | null;
  /** When the agent's call of the tool waits for a person (docs/product-rules.md, People in the loop). */
  approval: ToolApprovalPolicy;
  createdAt: string;
}

/** One provider of GET /api/llm/providers. Models may come as ids or as `{ id, name }`. */
export interface ProviderEntry {
  name: string;
  models: string[];
  /** The model a new agent of this provider starts with ('' when the user must choose). */
  defaultModel: string;
  /** Local and Custom: why their server's models are not listed (`models` are then suggestions). */
  listError?: string;
}

/** The provider catalogue, keyed by provider (openai, anthropic, local, custom). */
export type ProviderCatalogue = Record<string, ProviderEntry>;
