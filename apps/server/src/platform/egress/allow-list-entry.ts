/** `host:port` allow-list entry for a configured URL (the egress module trusts these hosts). */
export function allowListEntry(url: string): string {
  const parsed = new URL(url);
  const port = parsed.port || (parsed.protocol === 'https:' ? '443' : '80');
  return `${parsed.hostname}:${port}`;
}
