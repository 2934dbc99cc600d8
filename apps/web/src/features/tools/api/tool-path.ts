/** The URL of one tool: /api/tools/:id. */
export function toolPath(id: string): string {
  return `/api/tools/${encodeURIComponent(id)}`;
}
