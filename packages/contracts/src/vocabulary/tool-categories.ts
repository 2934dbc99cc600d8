// The kinds of tool an organization can create, and how the Tools page names them.

export const toolCategoryValues = [
  'web',
  'vector_store',
  'api',
  'file',
  'communication',
  'database',
  'ai',
  'custom',
  'mcp',
] as const;
export type ToolCategory = (typeof toolCategoryValues)[number];

export const toolCategoryLabels: Record<ToolCategory, string> = {
  web: 'Web Tools',
  vector_store: 'Vector Store',
  api: 'API Integration',
  file: 'File Operations',
  communication: 'Communication',
  database: 'Database',
  ai: 'AI Services',
  custom: 'Custom',
  mcp: 'MCP Server',
};
