// The API's paths, by the same areas as the descriptors (`paths.agents.get` is
// `endpoints.agents.get.path`), each written once: every descriptor takes its `path` from here, and so
// do the web's query keys and the shell's few plain calls. Plain string constants without zod and
// without side effects, imported as a namespace (`import * as paths from '@crewline/contracts/paths'`),
// so the web's bundler puts each string where it is used (`inlineConst` in apps/web/vite.config.ts)
// and the shell's first JavaScript carries only the paths it reads. A path is named after the endpoint
// that reads it (GET), else after the one endpoint on it, else after what it addresses;
// endpoints.test.ts checks that every path is some descriptor's.
export * as system from './system';
export * as sales from './sales';
export * as auth from './auth';
export * as organizations from './organizations';
export * as organizationSettings from './organization-settings';
export * as prices from './prices';
export * as costs from './costs';
export * as apiKeys from './api-keys';
export * as audit from './audit';
export * as agents from './agents';
export * as memory from './memory';
export * as tools from './tools';
export * as connections from './connections';
export * as knowledge from './knowledge';
export * as workflows from './workflows';
export * as mcp from './mcp';
export * as chat from './chat';
export * as evaluations from './evaluations';
export * as oauth from './oauth';
export * as executions from './executions';
export * as approvals from './approvals';
export * as approvalLinks from './approval-links';
export * as webhooks from './webhooks';
export * as templates from './templates';
export * as billing from './billing';
export * as microsoft from './microsoft';
