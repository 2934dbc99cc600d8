// The enumerations of the data model, shared by the schema, the API and the UI.
export const agentStatusValues = ['active', 'inactive', 'busy', 'error'] as const;
export const workflowStatusValues = ['draft', 'active', 'paused', 'completed', 'failed'] as const;
// Providers, process and trigger kinds, tool categories and run statuses are the vocabulary's.
export { llmProviderValues } from './vocabulary/providers';
export { processTypeValues } from './vocabulary/process-kinds';
export { triggerTypeValues } from './vocabulary/trigger-kinds';
export { toolCategoryValues } from './vocabulary/tool-categories';
export { executionStatusValues } from './vocabulary/run-statuses';
export { executionTriggerValues } from './executions';
