// Query keys are the request paths (the default query function joins them with '/'), so the agent
// screens' ['/api/tools'] catalogue is the same cache entry as this page's list.
export const toolKeys = {
  all: ['/api/tools'] as const,
};

export function toolPath(id: string): string {
  return `/api/tools/${encodeURIComponent(id)}`;
}
