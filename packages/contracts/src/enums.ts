// The enumerations of the data model, shared by the schema, the API and the UI.
export const agentStatusValues = ['active', 'inactive', 'busy', 'error'] as const;
export const workflowStatusValues = ['draft', 'active', 'paused', 'completed', 'failed'] as const;
export const llmProviderValues = ['openai', 'anthropic', 'local', 'custom'] as const;
export const processTypeValues = ['sequential', 'hierarchical', 'parallel'] as const;
export const triggerTypeValues = ['manual', 'schedule', 'webhook', 'email'] as const;
export const toolCategoryValues = [
  'web',
  'vector_store',
  'api',
  'file',
  'communication',
  'database',
  'ai',
  'custom',
] as const;
export { executionStatusValues, executionTriggerValues } from './executions';
