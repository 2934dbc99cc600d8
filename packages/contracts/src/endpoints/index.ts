import { agentsEndpoints } from './agents';
import { apiKeysEndpoints } from './api-keys';
import { approvalLinksEndpoints } from './approval-links';
import { approvalsEndpoints } from './approvals';
import { auditEndpoints } from './audit';
import { authEndpoints } from './auth';
import { billingEndpoints } from './billing';
import { chatEndpoints } from './chat';
import { connectionsEndpoints } from './connections';
import { costsEndpoints } from './costs';
import type { EndpointSpec } from './define-endpoint';
import { evaluationsEndpoints } from './evaluations';
import { executionsEndpoints } from './executions';
import { knowledgeEndpoints } from './knowledge';
import { mcpEndpoints } from './mcp';
import { memoryEndpoints } from './memory';
import { microsoftEndpoints } from './microsoft';
import { oauthEndpoints } from './oauth';
import { organizationSettingsEndpoints } from './organization-settings';
import { pricesEndpoints } from './prices';
import { organizationsEndpoints } from './organizations';
import { salesEndpoints } from './sales';
import { systemEndpoints } from './system';
import { templatesEndpoints } from './templates';
import { toolsEndpoints } from './tools';
import { webhooksEndpoints } from './webhooks';
import { workflowsEndpoints } from './workflows';

export * from './define-endpoint';
export * from './tags';
export {
  EXECUTIONS_PAGE_DEFAULT,
  EXECUTIONS_PAGE_MAX,
  executionListQueryObject,
  executionListQuerySchema,
  withListWindowRule,
} from './executions';
export { auditListQueryObject, withAuditWindowRule } from './audit';

/**
 * Every endpoint of the API, by area (`endpoints.agents.list`). A new endpoint is declared here, in
 * its area's file; the server registers its handler against it and the OpenAPI document describes it.
 */
export const endpoints = {
  system: systemEndpoints,
  sales: salesEndpoints,
  auth: authEndpoints,
  organizations: organizationsEndpoints,
  organizationSettings: organizationSettingsEndpoints,
  prices: pricesEndpoints,
  costs: costsEndpoints,
  apiKeys: apiKeysEndpoints,
  audit: auditEndpoints,
  agents: agentsEndpoints,
  memory: memoryEndpoints,
  tools: toolsEndpoints,
  connections: connectionsEndpoints,
  knowledge: knowledgeEndpoints,
  workflows: workflowsEndpoints,
  mcp: mcpEndpoints,
  chat: chatEndpoints,
  evaluations: evaluationsEndpoints,
  oauth: oauthEndpoints,
  executions: executionsEndpoints,
  approvals: approvalsEndpoints,
  approvalLinks: approvalLinksEndpoints,
  webhooks: webhooksEndpoints,
  templates: templatesEndpoints,
  billing: billingEndpoints,
  microsoft: microsoftEndpoints,
};

/** The endpoints as one list, for the OpenAPI document and the route inventory test. */
export const endpointList: readonly EndpointSpec[] = Object.values(endpoints).flatMap((area) =>
  Object.values<EndpointSpec>(area),
);
