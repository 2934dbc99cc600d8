// Query keys are the request paths (the default query function joins them with '/').
export const settingsKeys = {
  toolConfigurations: ['/api/tools/configurations'] as const,
  providers: ['/api/llm/providers'] as const,
};
