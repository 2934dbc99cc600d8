import type { ResolvedTool } from '../modules/tools/tools.service';

/** The organization the tool runtime suites' tools belong to. */
export const TOOL_ORGANIZATION_ID = '11111111-1111-4111-8111-111111111111';

/**
 * A tool as the runtime gets it (its row with its settings and the agent link's config), built in
 * memory: an active tool named "My Tool" with no settings, unless `fields` say otherwise.
 */
export function resolvedTool(fields: Partial<ResolvedTool> & Pick<ResolvedTool, 'category'>): ResolvedTool {
  return {
    id: '22222222-2222-4222-8222-222222222222',
    name: 'My Tool',
    description: null,
    provider: null,
    config: {},
    credentials: null,
    mcpTools: null,
    mcpOauth: null,
    mcpOauthStatus: null,
    isActive: true,
    organizationId: TOOL_ORGANIZATION_ID,
    createdBy: null,
    createdAt: new Date(),
    updatedAt: new Date(),
    settings: {},
    linkConfig: {},
    ...fields,
  };
}
