import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

/**
 * An order-desk MCP server built with the official SDK (`createMcpHandler`, stateless, Streamable
 * HTTP) that checks a bearer token as a real server does: no token or another one is 401 with
 * `WWW-Authenticate: Bearer`. It records the Authorization header of every request, and offers:
 * - `lookup_order` (read-only), `cancel_order` (destructive), `whoami` (answers the token it was sent,
 *   as a careless server might: the client must mask it);
 * - `failing_lookup` (an `isError` result), `big_report` (a text over the client's size cap),
 *   `slow_report` (answers after five seconds);
 * - `open_refunds`, which says during the call that the tool list changed: `refund_order` appears.
 */
export type FakeMcpServer = Awaited<ReturnType<typeof startFakeMcpServer>>;

export async function startFakeMcpServer(options: { token: string; bigReportBytes?: number }) {
  const authorizations: (string | undefined)[] = [];
  const calls: { name: string; arguments: unknown }[] = [];
  let refundsOpen = false;

  const handler = createMcpHandler(() => {
    const server = new McpServer({ name: 'order-desk', version: '1.0.0' });
    const called = (name: string, args: unknown) => calls.push({ name, arguments: args });
    server.registerTool(
      'lookup_order',
      {
        title: 'Look up an order',
        description: 'Finds an order by its number',
        inputSchema: z.object({ order: z.number().describe('The order number') }),
        annotations: { readOnlyHint: true },
      },
      async ({ order }) => {
        called('lookup_order', { order });
        return {
          content: [{ type: 'text', text: `Order ${order} has shipped.` }],
          structuredContent: { order, status: 'shipped' },
        };
      },
    );
    server.registerTool(
      'cancel_order',
      {
        description: 'Cancels an order',
        inputSchema: z.object({ order: z.number() }),
        annotations: { readOnlyHint: false, destructiveHint: true },
      },
      async ({ order }) => {
        called('cancel_order', { order });
        return { content: [{ type: 'text', text: `Order ${order} is cancelled.` }] };
      },
    );
    server.registerTool(
      'whoami',
      { description: 'Says which credential the server was sent', annotations: { readOnlyHint: true } },
      async () => {
        called('whoami', {});
        const sent = authorizations.at(-1) ?? '';
        return { content: [{ type: 'text', text: `You sent ${sent}` }] };
      },
    );
    server.registerTool(
      'failing_lookup',
      { description: 'Always fails', inputSchema: z.object({ order: z.number() }) },
      async ({ order }) => {
        called('failing_lookup', { order });
        return { content: [{ type: 'text', text: `Order ${order} does not exist` }], isError: true };
      },
    );
    server.registerTool(
      'big_report',
      { description: 'A very long report', annotations: { readOnlyHint: true } },
      async () => {
        called('big_report', {});
        return { content: [{ type: 'text', text: 'x'.repeat(options.bigReportBytes ?? 1_500_000) }] };
      },
    );
    server.registerTool(
      'slow_report',
      { description: 'Takes five seconds', annotations: { readOnlyHint: true } },
      async (ctx) => {
        called('slow_report', {});
        await new Promise((resolve) => {
          const timer = setTimeout(resolve, 5000);
          ctx.mcpReq.signal.addEventListener('abort', () => {
            clearTimeout(timer);
            resolve(undefined);
          });
        });
        return { content: [{ type: 'text', text: 'Finally done.' }] };
      },
    );
    server.registerTool(
      'open_refunds',
      { description: 'Opens the refund desk', annotations: { readOnlyHint: true } },
      async (ctx) => {
        called('open_refunds', {});
        refundsOpen = true;
        await ctx.mcpReq.notify({ method: 'notifications/tools/list_changed' });
        return { content: [{ type: 'text', text: 'The refund desk is open.' }] };
      },
    );
    if (refundsOpen)
      server.registerTool(
        'refund_order',
        { description: 'Refunds an order', inputSchema: z.object({ order: z.number() }) },
        async ({ order }) => {
          called('refund_order', { order });
          return { content: [{ type: 'text', text: `Order ${order} is refunded.` }] };
        },
      );
    return server;
  });

  async function serve(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    authorizations.push(req.headers.authorization);
    if (req.headers.authorization !== `Bearer ${options.token}`) {
      res.writeHead(401, {
        'content-type': 'application/json',
        'www-authenticate': 'Bearer error="invalid_token"',
      });
      res.end(JSON.stringify({ error: 'invalid_token', error_description: 'The access token is not valid' }));
      return;
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers))
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const response = await handler.fetch(
      new Request(`http://${req.headers.host}${req.url}`, {
        method: req.method,
        headers,
        body: hasBody ? Buffer.concat(chunks) : undefined,
      }),
    );
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body) for await (const chunk of response.body) res.write(chunk);
    res.end();
  }

  const server = createServer((req, res) => {
    serve(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    /** The Authorization header of every request, oldest first. */
    authorizations,
    /** The tools called, oldest first. */
    calls,
    reset() {
      authorizations.length = 0;
      calls.length = 0;
      refundsOpen = false;
    },
    async close() {
      await handler.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
