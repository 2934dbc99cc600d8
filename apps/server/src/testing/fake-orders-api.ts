import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { STEP_TOOL_RESULT_LIMIT } from '@crewline/contracts';

export type FakeOrdersApi = Awaited<ReturnType<typeof startFakeOrdersApi>>;

/**
 * An HTTP API on 127.0.0.1 for an agent's API tool to call: every path answers order 42 as shipped,
 * and a path ending in /big answers notes longer than a tool result may be shown. It keeps the path
 * and the authorization header of each request.
 */
export async function startFakeOrdersApi() {
  const seen: { url?: string; auth?: string }[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ url: req.url, auth: req.headers.authorization });
    res.writeHead(200, { 'content-type': 'application/json' });
    const notes = req.url?.endsWith('/big') ? 'x'.repeat(STEP_TOOL_RESULT_LIMIT * 2) : 'on time';
    res.end(JSON.stringify({ id: 42, status: 'shipped', notes }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return {
    url,
    seen,
    /** The "Orders API" tool on this server (for attachNewTool), calling it with `apiKey`. */
    tool: (apiKey: string) => ({ name: 'Orders API', category: 'api', config: { baseUrl: url, apiKey } }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
