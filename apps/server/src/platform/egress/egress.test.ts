import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import tls from 'node:tls';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeDns } from '../../testing/fake-dns';
import { createEgress, type EgressOptions, type LookupFn } from './egress';
import { EgressError } from './egress-error';
import { createReservedDestinations } from './reserved-destinations';

// Every socket in this file is on 127.0.0.1. "Public" names are fake (*.example.test) and resolved by
// an injected lookup; refusals are checked to happen before any socket connects anywhere.

type Recorded = { method: string; url: string; headers: http.IncomingHttpHeaders; body: string };
type Handler = (req: http.IncomingMessage, res: http.ServerResponse, server: TestServer) => void;
type TestServer = {
  port: number;
  /** Connections accepted so far. */
  connections: () => number;
  /** Connections open now (a pooled idle socket counts until either side closes it). */
  open: () => number;
  requests: Recorded[];
  close: () => Promise<void>;
};

/**
 * What most tests send through: checks, pools and limits work alike for every use, and what differs
 * between uses (which entries apply) is tested under 'uses' below.
 */
const toolEgress = (options?: EgressOptions) => createEgress(options).for('tool');

const closers: (() => Promise<void>)[] = [];
let connectSpy: ReturnType<typeof spyOnConnect>;

function spyOnConnect() {
  return vi.spyOn(net.Socket.prototype, 'connect');
}

beforeEach(() => {
  connectSpy = spyOnConnect();
});

afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function startServer(handle: Handler = (_req, res) => res.end('ok')): Promise<TestServer> {
  let connections = 0;
  const requests: Recorded[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      requests.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      handle(req, res, testServer);
    });
  });
  const open = new Set<net.Socket>();
  server.on('connection', (socket) => {
    connections++;
    open.add(socket);
    socket.on('close', () => open.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const testServer: TestServer = {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    open: () => open.size,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  closers.push(testServer.close);
  return testServer;
}

/**
 * A TLS server with no certificate at all: the handshake stops after the ClientHello, which is all
 * the SNI tests inspect. It keeps the server name of each hello and counts connections.
 */
async function startTlsServer() {
  const serverNames: string[] = [];
  let connections = 0;
  const server = tls.createServer({
    SNICallback: (name, callback) => {
      serverNames.push(name);
      callback(new Error('no certificate in this test'));
    },
  });
  server.on('tlsClientError', () => {});
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port: (server.address() as AddressInfo).port, serverNames, connections: () => connections };
}

async function failure(promise: Promise<unknown>): Promise<EgressError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(EgressError);
  return error as EgressError;
}

describe('refused destinations', () => {
  it.each([
    (port: number) => `http://127.0.0.1:${port}/`,
    (port: number) => `http://2130706433:${port}/`,
    (port: number) => `http://0x7f.1:${port}/`,
    (port: number) => `http://017700000001:${port}/`,
    (port: number) => `http://[::ffff:127.0.0.1]:${port}/`,
    (port: number) => `http://[::1]:${port}/`,
    (port: number) => `http://0.0.0.0:${port}/`,
    (port: number) => `http://[::]:${port}/`,
    () => 'http://10.0.0.1/',
    () => 'http://169.254.169.254/latest/meta-data',
    () => 'http://[fd00:ec2::254]/latest/meta-data',
    () => 'http://100.100.100.200/latest/meta-data',
    () => 'http://[64:ff9b::a9fe:a9fe]/',
  ])('refuses the literal %#', async (makeUrl) => {
    const server = await startServer();
    const lookup = fakeDns({});
    const url = makeUrl(server.port);
    const error = await failure(toolEgress({ lookup }).fetch(url));
    expect(error.code).toBe('blocked_address');
    expect(error.message).toBe('Destination not allowed');
    expect(server.connections()).toBe(0);
    expect(connectSpy).not.toHaveBeenCalled();
    expect(lookup).not.toHaveBeenCalled();
  });

  it('refuses a hostname whose lookup returns 127.0.0.1, without connecting', async () => {
    const server = await startServer();
    const lookup = fakeDns({ 'internal.example.test': ['127.0.0.1'] });
    const error = await failure(
      toolEgress({ lookup }).fetch(`http://internal.example.test:${server.port}/`, {
        headers: { authorization: 'Bearer top-secret-token' },
      }),
    );
    expect(error.code).toBe('blocked_address');
    expect(error.message).toBe('Destination not allowed');
    expect(error.message).not.toContain('top-secret-token');
    expect(lookup).toHaveBeenCalledTimes(1);
    expect(server.connections()).toBe(0);
    expect(connectSpy).not.toHaveBeenCalled();
  });

  it.each([
    ['93.184.216.34', '127.0.0.1'],
    ['127.0.0.1', '93.184.216.34'],
    ['2606:4700::1', '::1'],
  ])('refuses a hostname resolving to %s and %s', async (first, second) => {
    const server = await startServer();
    const lookup = fakeDns({ 'mixed.example.test': [first, second] });
    const error = await failure(toolEgress({ lookup }).fetch(`http://mixed.example.test:${server.port}/`));
    expect(error.code).toBe('blocked_address');
    expect(server.connections()).toBe(0);
    expect(connectSpy).not.toHaveBeenCalled();
  });

  it.each(['ftp://x/', 'file:///etc/passwd', 'gopher://127.0.0.1:70/', 'javascript:alert(1)', 'data:,x'])(
    'refuses the scheme of %s',
    async (url) => {
      const lookup = fakeDns({ x: ['93.184.216.34'] });
      const error = await failure(toolEgress({ lookup }).fetch(url));
      expect(error.code).toBe('bad_url');
      expect(error.message).toBe('Only http and https URLs are allowed');
      expect(lookup).not.toHaveBeenCalled();
      expect(connectSpy).not.toHaveBeenCalled();
    },
  );

  it('refuses what is not a URL and URLs carrying credentials, without echoing them', async () => {
    const egress = toolEgress({ lookup: fakeDns({}) });
    expect((await failure(egress.fetch('not a url'))).code).toBe('bad_url');
    const withCredentials = await failure(egress.fetch('http://user:hunter2@public.example.test/'));
    expect(withCredentials.code).toBe('bad_url');
    expect(withCredentials.message).not.toContain('hunter2');
  });

  it('refuses an invalid header value without echoing it', async () => {
    const egress = toolEgress({ lookup: fakeDns({}) });
    const error = await failure(
      egress.fetch('http://public.example.test/', { headers: { 'x-api-key': 'secret\r\nInjected: yes' } }),
    );
    expect(error.code).toBe('bad_url');
    expect(error.message).toBe('Invalid value for the request header "x-api-key"');
    expect(connectSpy).not.toHaveBeenCalled();
  });

  it('reports a name that does not resolve as a network error', async () => {
    const error = await failure(toolEgress({ lookup: fakeDns({}) }).fetch('http://nowhere.example.test/'));
    expect(error.code).toBe('network');
    expect(error.message).toBe('Could not resolve nowhere.example.test');
  });
});

describe('allowed destinations', () => {
  it('reaches an allow-listed IP and returns status, headers, body and final URL', async () => {
    const server = await startServer((_req, res) => {
      res.setHeader('x-test', 'yes');
      res.setHeader('content-type', 'application/json');
      res.statusCode = 201;
      res.end(JSON.stringify({ hello: 'world' }));
    });
    const egress = toolEgress({ allowList: ['127.0.0.1/32'] });
    const res = await egress.fetch(`http://127.0.0.1:${server.port}/hello?x=1#frag`);
    expect(res.status).toBe(201);
    expect(res.headers['x-test']).toBe('yes');
    expect(res.url).toBe(`http://127.0.0.1:${server.port}/hello?x=1#frag`);
    expect(await res.json()).toEqual({ hello: 'world' });
    expect(await res.text()).toBe('{"hello":"world"}');
    expect(server.requests.map((r) => r.url)).toEqual(['/hello?x=1']);
    // The spy the refusal tests rely on does see real connections.
    expect(connectSpy).toHaveBeenCalledTimes(1);
  });

  it('returns error statuses as responses, not exceptions', async () => {
    const server = await startServer((_req, res) => {
      res.statusCode = 404;
      res.end('missing');
    });
    const res = await toolEgress({ allowList: ['127.0.0.1'] }).fetch(`http://127.0.0.1:${server.port}/`);
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('missing');
  });

  it('connects to the resolved address while keeping the hostname in the Host header', async () => {
    const server = await startServer();
    const lookup = fakeDns({ 'public.example.test': ['127.0.0.1'] });
    const egress = toolEgress({ allowList: ['127.0.0.1'], lookup });
    const res = await egress.fetch(`http://public.example.test:${server.port}/path`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('ok');
    expect(server.requests[0].headers.host).toBe(`public.example.test:${server.port}`);
    expect(lookup.mock.calls).toEqual([['public.example.test']]);
  });

  it('allows a hostname named in the allow-list whatever it resolves to', async () => {
    const server = await startServer();
    const lookup = fakeDns({ 'db.internal': ['127.0.0.1'] });
    const res = await toolEgress({ allowList: ['db.internal'], lookup }).fetch(
      `http://db.internal:${server.port}/`,
    );
    expect(res.status).toBe(200);
    // The allow-listed name does not open the address itself to other names.
    const other = fakeDns({ 'other.internal': ['127.0.0.1'] });
    const error = await failure(
      toolEgress({ allowList: ['db.internal'], lookup: other }).fetch(
        `http://other.internal:${server.port}/`,
      ),
    );
    expect(error.code).toBe('blocked_address');
    expect(server.connections()).toBe(1);
  });

  it('delivers the method, body and headers of a POST', async () => {
    const server = await startServer((_req, res) => res.end('created'));
    const lookup = fakeDns({ 'api.example.test': ['127.0.0.1'] });
    const egress = toolEgress({ allowList: ['127.0.0.1'], lookup });
    const payload = JSON.stringify({ name: 'Ünïcode ✓' });
    const res = await egress.fetch(`http://api.example.test:${server.port}/items`, {
      method: 'post',
      headers: {
        'Content-Type': 'application/json',
        Authorization: 'Bearer abc',
        'X-Custom': 'v',
        Host: 'evil.test',
      },
      body: payload,
    });
    expect(await res.text()).toBe('created');
    const [request] = server.requests;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/items');
    expect(request.body).toBe(payload);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['content-length']).toBe(String(Buffer.byteLength(payload)));
    expect(request.headers.authorization).toBe('Bearer abc');
    expect(request.headers['x-custom']).toBe('v');
    // Host always names the destination that was checked.
    expect(request.headers.host).toBe(`api.example.test:${server.port}`);
  });

  it('sends a binary body', async () => {
    const server = await startServer();
    const egress = toolEgress({ allowList: ['127.0.0.1'] });
    await egress.fetch(`http://127.0.0.1:${server.port}/`, {
      method: 'PUT',
      body: new Uint8Array([104, 105]),
    });
    expect(server.requests[0]).toMatchObject({ method: 'PUT', body: 'hi' });
  });

  it('decodes a gzip body', async () => {
    const server = await startServer((_req, res) => {
      res.setHeader('content-encoding', 'gzip');
      res.end(gzipSync('compressed hello'));
    });
    const res = await toolEgress({ allowList: ['127.0.0.1'] }).fetch(`http://127.0.0.1:${server.port}/`);
    expect(await res.text()).toBe('compressed hello');
  });

  it('tries every checked address of a name (::1 then 127.0.0.1 for a localhost-like name)', async () => {
    const server = await startServer();
    const lookup = fakeDns({ 'dual.example.test': ['::1', '127.0.0.1'] });
    const res = await toolEgress({ allowList: ['::1', '127.0.0.1'], lookup }).fetch(
      `http://dual.example.test:${server.port}/`,
    );
    expect(res.status).toBe(200);
    expect(lookup).toHaveBeenCalledTimes(1);
  });
});

describe('address pinning', () => {
  it('resolves once per request and connects to that answer even if DNS changes (rebinding)', async () => {
    const server = await startServer();
    let calls = 0;
    // First answer: the allow-listed address. Any later answer would be the metadata service.
    const lookup = vi.fn<LookupFn>(async () => [
      { address: calls++ === 0 ? '127.0.0.1' : '169.254.169.254', family: 4 },
    ]);
    const egress = toolEgress({ allowList: ['127.0.0.1'], lookup });
    const res = await egress.fetch(`http://rebind.example.test:${server.port}/`);
    expect(res.status).toBe(200);
    expect(lookup).toHaveBeenCalledTimes(1);
    expect(server.connections()).toBe(1);
    const connectedTo = connectSpy.mock.calls.map((call) => JSON.stringify(call));
    expect(connectedTo.join()).not.toContain('169.254.169.254');
  });

  it('keeps the hostname for TLS SNI while connecting to the pinned address', async () => {
    const { port, serverNames, connections } = await startTlsServer();
    const lookup = fakeDns({ 'secure.example.test': ['127.0.0.1'] });
    const error = await failure(
      toolEgress({ allowList: ['127.0.0.1'], lookup }).fetch(`https://secure.example.test:${port}/`),
    );
    expect(error.code).toBe('network');
    expect(error.message).toMatch(/^Request to secure\.example\.test failed: /);
    expect(serverNames).toEqual(['secure.example.test']);
    expect(connections()).toBe(1);
  });
});

describe('redirects', () => {
  it('refuses a redirect from an allowed server to a private address, before connecting to it', async () => {
    const target = await startServer();
    const first = await startServer((_req, res) => {
      res.writeHead(302, { location: `http://127.0.0.1:${target.port}/secret` }).end();
    });
    const lookup = fakeDns({ 'a.example.test': ['127.0.0.1'] });
    const egress = toolEgress({ allowList: ['a.example.test'], lookup });
    const error = await failure(egress.fetch(`http://a.example.test:${first.port}/`));
    expect(error.code).toBe('blocked_address');
    expect(error.message).toBe('Destination not allowed');
    expect(first.connections()).toBe(1);
    expect(target.connections()).toBe(0);
  });

  it('re-resolves and re-checks a redirect to another name', async () => {
    const target = await startServer();
    const first = await startServer((_req, res) => {
      res.writeHead(307, { location: `http://sneaky.example.test:${target.port}/` }).end();
    });
    const lookup = fakeDns({ 'a.example.test': ['127.0.0.1'], 'sneaky.example.test': ['127.0.0.1'] });
    const error = await failure(
      toolEgress({ allowList: ['a.example.test'], lookup }).fetch(`http://a.example.test:${first.port}/`),
    );
    expect(error.code).toBe('blocked_address');
    expect(lookup.mock.calls).toEqual([['a.example.test'], ['sneaky.example.test']]);
    expect(target.connections()).toBe(0);
  });

  it('follows allowed hops, resolving each hop exactly once', async () => {
    const server = await startServer((req, res, self) => {
      if (req.headers.host?.startsWith('a.')) {
        res.writeHead(301, { location: `http://b.example.test:${self.port}/next` }).end();
      } else if (req.url === '/next') {
        res.writeHead(302, { location: '/final' }).end();
      } else {
        res.end(`final ${req.url}`);
      }
    });
    const lookup = fakeDns({ 'a.example.test': ['127.0.0.1'], 'b.example.test': ['127.0.0.1'] });
    const res = await toolEgress({ allowList: ['127.0.0.1'], lookup }).fetch(
      `http://a.example.test:${server.port}/`,
    );
    expect(await res.text()).toBe('final /final');
    expect(res.url).toBe(`http://b.example.test:${server.port}/final`);
    expect(lookup.mock.calls).toEqual([['a.example.test'], ['b.example.test'], ['b.example.test']]);
    expect(server.requests.map((r) => `${r.headers.host} ${r.url}`)).toEqual([
      `a.example.test:${server.port} /`,
      `b.example.test:${server.port} /next`,
      `b.example.test:${server.port} /final`,
    ]);
  });

  it.each([
    [303, 'POST', 'GET', ''],
    [303, 'PUT', 'GET', ''],
    [302, 'POST', 'GET', ''],
    [301, 'POST', 'GET', ''],
    [307, 'POST', 'POST', 'payload'],
    [308, 'PUT', 'PUT', 'payload'],
    [302, 'PUT', 'PUT', 'payload'],
  ])('after %i, a %s continues as %s', async (status, method, expectedMethod, expectedBody) => {
    const server = await startServer((req, res) => {
      if (req.url === '/start') res.writeHead(status, { location: '/end' }).end();
      else res.end('done');
    });
    const egress = toolEgress({ allowList: ['127.0.0.1'] });
    await egress.fetch(`http://127.0.0.1:${server.port}/start`, {
      method,
      headers: { 'content-type': 'text/plain' },
      body: 'payload',
    });
    const second = server.requests[1];
    expect(second.method).toBe(expectedMethod);
    expect(second.body).toBe(expectedBody);
    expect(second.headers['content-type']).toBe(expectedBody ? 'text/plain' : undefined);
  });

  it('strips credentials on a cross-origin redirect and keeps them on a same-origin one', async () => {
    const server = await startServer((req, res, self) => {
      if (req.url === '/start') res.writeHead(302, { location: '/same' }).end();
      else if (req.url === '/same')
        res.writeHead(302, { location: `http://b.example.test:${self.port}/other` }).end();
      else res.end('done');
    });
    const lookup = fakeDns({ 'a.example.test': ['127.0.0.1'], 'b.example.test': ['127.0.0.1'] });
    await toolEgress({ allowList: ['127.0.0.1'], lookup }).fetch(
      `http://a.example.test:${server.port}/start`,
      {
        headers: { authorization: 'Bearer abc', cookie: 'sid=1', 'x-keep': 'k' },
      },
    );
    const [start, same, other] = server.requests;
    expect(start.headers.authorization).toBe('Bearer abc');
    expect(same.headers).toMatchObject({ authorization: 'Bearer abc', cookie: 'sid=1', 'x-keep': 'k' });
    expect(other.headers.authorization).toBeUndefined();
    expect(other.headers.cookie).toBeUndefined();
    expect(other.headers['x-keep']).toBe('k');
  });

  it('stops after maxRedirects', async () => {
    const server = await startServer((_req, res) => res.writeHead(302, { location: '/again' }).end());
    const egress = toolEgress({ allowList: ['127.0.0.1'], maxRedirects: 2 });
    const error = await failure(egress.fetch(`http://127.0.0.1:${server.port}/`));
    expect(error.code).toBe('too_many_redirects');
    expect(error.message).toBe('Request to 127.0.0.1 was redirected more than 2 times');
    expect(server.requests).toHaveLength(3);
  });

  it('follows exactly maxRedirects redirects', async () => {
    const server = await startServer((req, res) => {
      const n = Number(req.url!.slice(1) || 0);
      if (n < 2) res.writeHead(302, { location: `/${n + 1}` }).end();
      else res.end('arrived');
    });
    const res = await toolEgress({ allowList: ['127.0.0.1'], maxRedirects: 2 }).fetch(
      `http://127.0.0.1:${server.port}/`,
    );
    expect(await res.text()).toBe('arrived');
  });
});

describe('ports', () => {
  it('opens only the port of an ip:port entry: another port of the same address is refused unopened', async () => {
    const allowed = await startServer((_req, res) => res.end('allowed'));
    const other = await startServer((_req, res) => res.end('other'));
    const egress = toolEgress({ allowList: [`127.0.0.1:${allowed.port}`] });
    expect(await (await egress.fetch(`http://127.0.0.1:${allowed.port}/`)).text()).toBe('allowed');
    connectSpy.mockClear();
    const error = await failure(egress.fetch(`http://127.0.0.1:${other.port}/`));
    expect(error.code).toBe('blocked_address');
    expect(error.message).toBe('Destination not allowed');
    expect(other.connections()).toBe(0);
    expect(connectSpy).not.toHaveBeenCalled();
  });

  it('opens only the port of a host:port entry', async () => {
    const allowed = await startServer((_req, res) => res.end('allowed'));
    const other = await startServer();
    const lookup = fakeDns({ 'api.internal': ['127.0.0.1'] });
    const egress = toolEgress({ allowList: [`api.internal:${allowed.port}`], lookup });
    expect(await (await egress.fetch(`http://api.internal:${allowed.port}/`)).text()).toBe('allowed');
    const error = await failure(egress.fetch(`http://api.internal:${other.port}/`));
    expect(error.code).toBe('blocked_address');
    expect(other.connections()).toBe(0);
  });

  it("checks a URL without a port against its scheme's default port", async () => {
    const lookup = fakeDns({ 'svc.example.test': ['127.0.0.1'] });
    const egress = toolEgress({ allowList: ['127.0.0.1:80'], lookup, timeoutMs: 2_000 });
    const https = await failure(egress.fetch('https://svc.example.test/'));
    expect(https.code).toBe('blocked_address');
    expect(connectSpy).not.toHaveBeenCalled();
    // Port 80 is allowed: the request goes out (whether anything answers there does not matter).
    const http80 = await egress.fetch('http://svc.example.test/').then(
      () => undefined,
      (e: EgressError) => e,
    );
    expect(http80?.code).not.toBe('blocked_address');
    expect(connectSpy).toHaveBeenCalled();
  });

  it.each([
    ['to another port of the same address', (port: number) => `http://127.0.0.1:${port}/secret`],
    ['to another port of the same name', (port: number) => `http://a.example.test:${port}/secret`],
    ['to a relative URL on another port', (port: number) => `//a.example.test:${port}/secret`],
  ])('refuses a redirect from an allowed host:port %s, before connecting', async (_what, location) => {
    const target = await startServer();
    const first = await startServer((_req, res) =>
      res.writeHead(302, { location: location(target.port) }).end(),
    );
    const lookup = fakeDns({ 'a.example.test': ['127.0.0.1'] });
    for (const allowList of [[`127.0.0.1:${first.port}`], [`a.example.test:${first.port}`]]) {
      const error = await failure(
        toolEgress({ allowList, lookup }).fetch(`http://a.example.test:${first.port}/`),
      );
      expect(error.code).toBe('blocked_address');
      expect(error.message).toBe('Destination not allowed');
    }
    expect(first.connections()).toBe(2);
    expect(target.connections()).toBe(0);
  });
});

describe('uses', () => {
  it('sends through the entries of its own use only: a model entry opens nothing to tools or webhooks', async () => {
    const server = await startServer();
    const egress = createEgress({ allowList: [`model:127.0.0.1:${server.port}`] });
    const url = `http://127.0.0.1:${server.port}/api/pull`;
    for (const use of ['tool', 'webhook', 'database', 'service'] as const) {
      const error = await failure(egress.for(use).fetch(url, { method: 'POST' }));
      expect(error.code).toBe('blocked_address');
      expect(error.message).toBe('Destination not allowed');
    }
    expect(server.connections()).toBe(0);
    expect((await egress.for('model').fetch(url, { method: 'POST' })).status).toBe(200);
    expect(server.requests.map((r) => r.url)).toEqual(['/api/pull']);
  });

  it('checks redirects against the same use: a tool redirected to a model-only address is refused', async () => {
    const model = await startServer();
    const hop = await startServer((_req, res) =>
      res.writeHead(302, { location: `http://127.0.0.1:${model.port}/api/delete` }).end(),
    );
    const egress = createEgress({
      allowList: [`tool:127.0.0.1:${hop.port}`, `model:127.0.0.1:${model.port}`],
    });
    const error = await failure(egress.for('tool').fetch(`http://127.0.0.1:${hop.port}/`));
    expect(error.message).toBe('Destination not allowed');
    expect(hop.connections()).toBe(1);
    expect(model.connections()).toBe(0);
  });

  it('opens an entry without a use to every use', async () => {
    const server = await startServer();
    const egress = createEgress({ allowList: [`127.0.0.1:${server.port}`] });
    for (const use of ['model', 'tool', 'webhook', 'service'] as const) {
      expect((await egress.for(use).fetch(`http://127.0.0.1:${server.port}/`)).status).toBe(200);
    }
  });

  it('gives each use its own view and its own pooled sockets', async () => {
    const server = await startServer();
    const egress = createEgress({ allowList: ['127.0.0.1'] });
    expect(egress.for('tool')).toBe(egress.for('tool'));
    expect(egress.for('model').use).toBe('model');
    await egress.for('model').fetch(`http://127.0.0.1:${server.port}/`);
    await egress.for('tool').fetch(`http://127.0.0.1:${server.port}/`);
    await egress.for('tool').fetch(`http://127.0.0.1:${server.port}/`);
    expect(server.connections()).toBe(2);
    egress.close();
    await vi.waitFor(() => expect(server.open()).toBe(0));
  });

  it('refuses a use it does not know, and a malformed entry as soon as it is created', () => {
    expect(() => createEgress().for('tools' as 'tool')).toThrow(TypeError);
    expect(() => createEgress({ allowList: ['models:127.0.0.1:11434'] })).toThrow(
      /Invalid egress allow-list entry "models:127.0.0.1:11434"/,
    );
  });
});

describe('reserved destinations', () => {
  it('refuses our own port with 127.0.0.1 allow-listed, the same way whether it listens or not', async () => {
    const listening = await startServer();
    const closed = await startServer();
    await closed.close();
    const reserved = createReservedDestinations({ localPorts: [listening.port, closed.port] });
    const lookup = fakeDns({ localhost: ['127.0.0.1'] });
    const egress = toolEgress({ allowList: ['127.0.0.1', 'localhost', '::1'], reserved, lookup });
    const errors: EgressError[] = [];
    for (const port of [listening.port, closed.port]) {
      for (const host of ['127.0.0.1', 'localhost', '[::ffff:127.0.0.1]', '0.0.0.0', '[::1]']) {
        errors.push(await failure(egress.fetch(`http://${host}:${port}/`)));
      }
    }
    for (const error of errors) {
      expect(error.code).toBe('blocked_address');
      expect(error.message).toBe('Destination not allowed');
      expect(error.cause).toBeUndefined();
    }
    expect(listening.connections()).toBe(0);
    expect(connectSpy).not.toHaveBeenCalled();
    // Other ports of the same address stay reachable through the allow-list.
    const other = await startServer((_req, res) => res.end('other'));
    expect(await (await egress.fetch(`http://127.0.0.1:${other.port}/`)).text()).toBe('other');
  });

  it('refuses a redirect from an allowed server to a reserved port, before connecting', async () => {
    const ours = await startServer();
    const first = await startServer((_req, res) =>
      res.writeHead(307, { location: `http://127.0.0.1:${ours.port}/api/admin` }).end(),
    );
    const reserved = createReservedDestinations({ localPorts: [ours.port] });
    const error = await failure(
      toolEgress({ allowList: ['127.0.0.1'], reserved }).fetch(`http://127.0.0.1:${first.port}/`),
    );
    expect(error.code).toBe('blocked_address');
    expect(error.message).toBe('Destination not allowed');
    expect(first.connections()).toBe(1);
    expect(ours.connections()).toBe(0);
  });

  it('takes a port reserved after the egress was built (the port the server listens on)', async () => {
    const server = await startServer();
    const reserved = createReservedDestinations();
    const egress = toolEgress({ allowList: ['127.0.0.1'], reserved });
    expect((await egress.fetch(`http://127.0.0.1:${server.port}/`)).status).toBe(200);
    reserved.addLocalPort(server.port);
    expect((await failure(egress.fetch(`http://127.0.0.1:${server.port}/`))).code).toBe('blocked_address');
    expect(server.connections()).toBe(1);
  });
});

describe('limits', () => {
  it('times out against a server that never answers', async () => {
    const server = await startServer(() => {});
    const lookup = fakeDns({ 'slow.example.test': ['127.0.0.1'] });
    const started = Date.now();
    const error = await failure(
      toolEgress({ allowList: ['127.0.0.1'], lookup, timeoutMs: 200 }).fetch(
        `http://slow.example.test:${server.port}/`,
      ),
    );
    expect(error.code).toBe('timeout');
    expect(error.message).toBe('Request to slow.example.test timed out after 200 ms');
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('times out while the body trickles, with a per-request limit', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200);
      res.write('first part');
    });
    const egress = toolEgress({ allowList: ['127.0.0.1'] });
    const error = await failure(egress.fetch(`http://127.0.0.1:${server.port}/`, { timeoutMs: 150 }));
    expect(error.code).toBe('timeout');
    expect(error.message).toBe('Request to 127.0.0.1 timed out after 150 ms');
  });

  it('times out when DNS never answers', async () => {
    const lookup = vi.fn<LookupFn>(() => new Promise(() => {}));
    const error = await failure(toolEgress({ lookup, timeoutMs: 100 }).fetch('http://hang.example.test/'));
    expect(error.code).toBe('timeout');
    expect(connectSpy).not.toHaveBeenCalled();
  });

  it('passes on the caller cancelling', async () => {
    const server = await startServer(() => {});
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await toolEgress({ allowList: ['127.0.0.1'] })
      .fetch(`http://127.0.0.1:${server.port}/`, { signal: controller.signal })
      .catch((e: unknown) => e);
    expect((error as Error).name).toBe('AbortError');
  });

  it('refuses a body announced larger than the limit', async () => {
    const server = await startServer((_req, res) => {
      res.setHeader('content-length', 2000);
      res.end('x'.repeat(2000));
    });
    const egress = toolEgress({ allowList: ['127.0.0.1'], maxResponseBytes: 1000 });
    const error = await failure(egress.fetch(`http://127.0.0.1:${server.port}/`));
    expect(error.code).toBe('too_large');
    expect(error.message).toBe('The response from 127.0.0.1 is larger than the limit of 1000 bytes');
  });

  it('counts the bytes of a body without content-length', async () => {
    let written = 0;
    const server = await startServer((_req, res) => {
      res.writeHead(200); // chunked: no length to check up front
      const timer = setInterval(() => {
        if (res.destroyed || written >= 1_000_000) {
          clearInterval(timer);
          res.end();
          return;
        }
        res.write('y'.repeat(500));
        written += 500;
      }, 1);
    });
    const egress = toolEgress({ allowList: ['127.0.0.1'] });
    const error = await failure(egress.fetch(`http://127.0.0.1:${server.port}/`, { maxResponseBytes: 2000 }));
    expect(error.code).toBe('too_large');
    expect(server.requests[0].headers['content-length']).toBeUndefined();
    // The download stopped early instead of reading everything and then complaining.
    expect(written).toBeLessThan(1_000_000);
  });

  it('counts decompressed bytes (a small gzip that expands past the limit)', async () => {
    const bomb = gzipSync(Buffer.alloc(2_000_000));
    const server = await startServer((_req, res) => {
      res.setHeader('content-encoding', 'gzip');
      res.end(bomb);
    });
    expect(bomb.length).toBeLessThan(10_000);
    const egress = toolEgress({ allowList: ['127.0.0.1'], maxResponseBytes: 100_000 });
    const error = await failure(egress.fetch(`http://127.0.0.1:${server.port}/`));
    expect(error.code).toBe('too_large');
  });

  it('accepts a body exactly at the limit', async () => {
    const server = await startServer((_req, res) => res.end('z'.repeat(1000)));
    const egress = toolEgress({ allowList: ['127.0.0.1'], maxResponseBytes: 1000 });
    const res = await egress.fetch(`http://127.0.0.1:${server.port}/`);
    expect((await res.text()).length).toBe(1000);
  });

  it('reports a refused connection as a network error', async () => {
    const server = await startServer();
    const port = server.port;
    await server.close();
    const error = await failure(toolEgress({ allowList: ['127.0.0.1'] }).fetch(`http://127.0.0.1:${port}/`));
    expect(error.code).toBe('network');
    expect(error.message).toBe('Request to 127.0.0.1 failed: connection refused');
  });
});

describe('streamed bodies', () => {
  /** Reads a stream to its end, noting each piece and when it came. */
  async function readAll(body: ReadableStream<Uint8Array>) {
    const pieces: string[] = [];
    const decoder = new TextDecoder();
    for await (const chunk of body) pieces.push(decoder.decode(chunk));
    return pieces;
  }
  /** A server that writes `parts` 40 ms apart, then ends. */
  const trickling = (parts: string[]) =>
    startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let i = 0;
      const timer = setInterval(() => {
        if (i < parts.length) res.write(parts[i++]);
        else {
          clearInterval(timer);
          res.end();
        }
      }, 40);
    });

  it('hands the body over as it arrives, and gives the connection back once read', async () => {
    const server = await trickling(['data: one\n\n', 'data: two\n\n', 'data: three\n\n']);
    const egress = toolEgress({ allowList: ['127.0.0.1'] });
    const res = await egress.fetch(`http://127.0.0.1:${server.port}/`, { stream: true });
    expect(res.status).toBe(200);
    // The response came before its body: the first piece is still 40 ms away.
    const pieces = await readAll(res.body!);
    expect(pieces.length).toBeGreaterThanOrEqual(3);
    expect(pieces.join('')).toBe('data: one\n\ndata: two\n\ndata: three\n\n');
    // Fully read, the socket went back to the pool and carries the next request.
    expect(await (await egress.fetch(`http://127.0.0.1:${server.port}/`)).text()).toContain('data: one');
    expect(server.connections()).toBe(1);
  });

  it('keeps the deadline while the body is read', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200);
      res.write('first part');
    });
    const egress = toolEgress({ allowList: ['127.0.0.1'] });
    const res = await egress.fetch(`http://127.0.0.1:${server.port}/`, { stream: true, timeoutMs: 200 });
    const error = await readAll(res.body!).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EgressError);
    expect(error).toMatchObject({ code: 'timeout', message: 'Request to 127.0.0.1 timed out after 200 ms' });
  });

  it('passes on the caller cancelling while the body is read', async () => {
    const server = await trickling(Array(50).fill('x'));
    const controller = new AbortController();
    const egress = toolEgress({ allowList: ['127.0.0.1'] });
    const res = await egress.fetch(`http://127.0.0.1:${server.port}/`, {
      stream: true,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 100);
    const error = await readAll(res.body!).catch((e: unknown) => e);
    expect((error as Error).name).toBe('AbortError');
  });

  it('counts the bytes as they arrive against the limit', async () => {
    const server = await trickling(Array(20).fill('y'.repeat(100)));
    const egress = toolEgress({ allowList: ['127.0.0.1'] });
    const res = await egress.fetch(`http://127.0.0.1:${server.port}/`, {
      stream: true,
      maxResponseBytes: 450,
    });
    const error = await readAll(res.body!).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'too_large' });
  });

  it('text() reads a streamed body too', async () => {
    const server = await trickling(['a', 'b', 'c']);
    const res = await toolEgress({ allowList: ['127.0.0.1'] }).fetch(`http://127.0.0.1:${server.port}/`, {
      stream: true,
    });
    expect(await res.text()).toBe('abc');
  });
});

describe('connection pooling', () => {
  const text = async (promise: Promise<{ text(): Promise<string> }>) => (await promise).text();

  it('reuses one connection for sequential requests to the same destination', async () => {
    const server = await startServer((req, res) => res.end(`hello ${req.url}`));
    const lookup = fakeDns({ 'api.example.test': ['127.0.0.1'] });
    const egress = toolEgress({ allowList: ['127.0.0.1'], lookup });
    for (const path of ['/1', '/2', '/3']) {
      expect(await text(egress.fetch(`http://api.example.test:${server.port}${path}`))).toBe(`hello ${path}`);
    }
    expect(server.connections()).toBe(1);
    expect(connectSpy).toHaveBeenCalledTimes(1);
    // Still resolved and checked every time: the pool comes after the check, not instead of it.
    expect(lookup).toHaveBeenCalledTimes(3);
    expect(server.requests.map((r) => r.headers.host)).toEqual(
      Array(3).fill(`api.example.test:${server.port}`),
    );
  });

  it('gives each port and each host name its own sockets', async () => {
    const one = await startServer();
    const two = await startServer();
    const lookup = fakeDns({ 'a.example.test': ['127.0.0.1'], 'b.example.test': ['127.0.0.1'] });
    const egress = toolEgress({ allowList: ['127.0.0.1'], lookup });
    for (let i = 0; i < 2; i++) {
      await egress.fetch(`http://127.0.0.1:${one.port}/`);
      await egress.fetch(`http://127.0.0.1:${two.port}/`);
    }
    expect([one.connections(), two.connections()]).toEqual([1, 1]);
    // Two names on the same address and port never share a socket (nor its Host or TLS name).
    for (let i = 0; i < 2; i++) {
      await egress.fetch(`http://a.example.test:${one.port}/`);
      await egress.fetch(`http://b.example.test:${one.port}/`);
    }
    expect(one.connections()).toBe(3);
    // Nor do two egress instances (each has its own allow-list).
    await toolEgress({ allowList: ['127.0.0.1'] }).fetch(`http://127.0.0.1:${two.port}/`);
    expect(two.connections()).toBe(2);
  });

  it('picks the pool by the checked address set: a changed DNS answer gets new sockets', async () => {
    const server = await startServer();
    const answers = [['127.0.0.1'], ['127.0.0.1', '::1'], ['::1', '127.0.0.1'], ['127.0.0.1']];
    const lookup = vi.fn<LookupFn>(async () =>
      answers.shift()!.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    );
    const egress = toolEgress({ allowList: ['127.0.0.1', '::1'], lookup });
    const url = `http://dns.example.test:${server.port}/`;
    await egress.fetch(url);
    await egress.fetch(url);
    expect(server.connections()).toBe(2);
    // The same set in another order (round-robin DNS) is the same pool, and so is the first answer again.
    await egress.fetch(url);
    await egress.fetch(url);
    expect(server.connections()).toBe(2);
    expect(lookup).toHaveBeenCalledTimes(4);
  });

  it('refuses a name whose answer changed to an unchecked address, with its pooled socket idle', async () => {
    const server = await startServer();
    let calls = 0;
    const lookup = vi.fn<LookupFn>(async () => [
      { address: calls++ === 0 ? '127.0.0.1' : '169.254.169.254', family: 4 },
    ]);
    const egress = toolEgress({ allowList: ['127.0.0.1'], lookup });
    expect((await egress.fetch(`http://rebind.example.test:${server.port}/`)).status).toBe(200);
    expect(server.open()).toBe(1);
    connectSpy.mockClear();
    const error = await failure(egress.fetch(`http://rebind.example.test:${server.port}/again`));
    expect(error.code).toBe('blocked_address');
    expect(server.requests).toHaveLength(1);
    expect(connectSpy).not.toHaveBeenCalled();
  });

  it.each([
    ['times out', { timeoutMs: 150 }, 'timeout'],
    ['is cancelled by the caller', { abortAfterMs: 100 }, 'AbortError'],
    ['grows past the size limit', { maxResponseBytes: 500 }, 'too_large'],
  ])(
    'destroys the socket of a response that %s mid-body: the next request gets a new one',
    async (_what, how, expected) => {
      const server = await startServer((req, res) => {
        if (req.url !== '/partial') return res.end('ok');
        res.writeHead(200); // chunked, no length: the limit is found while reading
        res.write('x'.repeat(1000)); // and then never ends
      });
      const egress = toolEgress({ allowList: ['127.0.0.1'] });
      const base = `http://127.0.0.1:${server.port}`;
      expect(await text(egress.fetch(`${base}/ok`))).toBe('ok');
      const controller = new AbortController();
      if ('abortAfterMs' in how) setTimeout(() => controller.abort(), how.abortAfterMs);
      const error = await egress
        .fetch(`${base}/partial`, { ...how, signal: controller.signal })
        .catch((e: unknown) => e);
      expect(error instanceof EgressError ? error.code : (error as Error).name).toBe(expected);
      // The half-read response's socket (the pooled one, reused) is closed, not handed to the next request.
      expect(server.connections()).toBe(1);
      await vi.waitFor(() => expect(server.open()).toBe(0));
      expect(await text(egress.fetch(`${base}/ok`))).toBe('ok');
      expect(await text(egress.fetch(`${base}/ok`))).toBe('ok');
      expect(server.connections()).toBe(2);
    },
  );

  it('sends a redirect hop through the pool of the host it names, and closes the unread hop', async () => {
    const target = await startServer((_req, res) => res.end('target'));
    const first = await startServer((req, res) => {
      if (req.url === '/go') res.writeHead(302, { location: `http://b.example.test:${target.port}/` });
      res.end('a body nobody reads');
    });
    const lookup = fakeDns({ 'a.example.test': ['127.0.0.1'], 'b.example.test': ['127.0.0.1'] });
    const egress = toolEgress({ allowList: ['127.0.0.1'], lookup });
    expect(await text(egress.fetch(`http://a.example.test:${first.port}/go`))).toBe('target');
    expect(await text(egress.fetch(`http://b.example.test:${target.port}/`))).toBe('target');
    expect(target.connections()).toBe(1);
    // The redirect's socket was destroyed with its unread body; the next request works on a new one.
    await vi.waitFor(() => expect(first.open()).toBe(0));
    expect(await text(egress.fetch(`http://a.example.test:${first.port}/stay`))).toBe('a body nobody reads');
    expect(first.connections()).toBe(2);
  });

  it('refuses a redirect to a destination reserved since its pooled socket was opened', async () => {
    const ours = await startServer();
    const first = await startServer((_req, res) =>
      res.writeHead(307, { location: `http://127.0.0.1:${ours.port}/api/admin` }).end(),
    );
    const reserved = createReservedDestinations();
    const egress = toolEgress({ allowList: ['127.0.0.1'], reserved });
    expect((await egress.fetch(`http://127.0.0.1:${ours.port}/`)).status).toBe(200);
    expect(ours.open()).toBe(1);
    reserved.addLocalPort(ours.port);
    const error = await failure(egress.fetch(`http://127.0.0.1:${first.port}/`));
    expect(error.code).toBe('blocked_address');
    expect(ours.requests.map((r) => r.url)).toEqual(['/']);
    expect(ours.connections()).toBe(1);
  });

  it('queues requests beyond maxSockets (32 per destination) instead of failing them', async () => {
    let inFlight = 0;
    let mostInFlight = 0;
    const server = await startServer((_req, res) => {
      mostInFlight = Math.max(mostInFlight, ++inFlight);
      setTimeout(() => {
        inFlight--;
        res.end('ok');
      }, 30);
    });
    const egress = toolEgress({ allowList: ['127.0.0.1'] });
    const bodies = await Promise.all(
      Array.from({ length: 40 }, () => text(egress.fetch(`http://127.0.0.1:${server.port}/`))),
    );
    expect(bodies).toEqual(Array(40).fill('ok'));
    expect(server.connections()).toBe(32);
    expect(mostInFlight).toBe(32);
  });

  it('counts the wait for a free socket against the request timeout', async () => {
    const server = await startServer((req, res) => {
      if (req.url === '/hold') setTimeout(() => res.end('held'), 400);
      else res.end('ok');
    });
    const egress = toolEgress({ allowList: ['127.0.0.1'], pool: { maxSockets: 1 } });
    const held = egress.fetch(`http://127.0.0.1:${server.port}/hold`);
    const error = await failure(egress.fetch(`http://127.0.0.1:${server.port}/queued`, { timeoutMs: 100 }));
    expect(error.code).toBe('timeout');
    expect(await text(held)).toBe('held');
    // The timed-out request left the queue: the held socket serves the next request.
    expect(await text(egress.fetch(`http://127.0.0.1:${server.port}/next`))).toBe('ok');
    expect(server.requests.map((r) => r.url)).toEqual(['/hold', '/next']);
    expect(server.connections()).toBe(1);
  });

  it('closes idle sockets after idleMs, and never cuts a slow response short', async () => {
    const server = await startServer((req, res) => {
      if (req.url === '/slow') setTimeout(() => res.end('slow'), 300);
      else res.end('ok');
    });
    const egress = toolEgress({ allowList: ['127.0.0.1'], pool: { idleMs: 100 } });
    expect(await text(egress.fetch(`http://127.0.0.1:${server.port}/slow`))).toBe('slow');
    expect(server.open()).toBe(1);
    await vi.waitFor(() => expect(server.open()).toBe(0));
    expect(await text(egress.fetch(`http://127.0.0.1:${server.port}/`))).toBe('ok');
    expect(server.connections()).toBe(2);
  });

  it('evicts the least recently used pool past maxDestinations, closing its idle sockets', async () => {
    const server = await startServer();
    const names = ['a', 'b', 'c'].map((n) => `${n}.example.test`);
    const lookup = fakeDns(Object.fromEntries(names.map((name) => [name, ['127.0.0.1']])));
    const egress = toolEgress({ allowList: ['127.0.0.1'], lookup, pool: { maxDestinations: 2 } });
    const get = (name: string) => egress.fetch(`http://${name}:${server.port}/`);
    await get('a.example.test');
    await get('b.example.test');
    await get('a.example.test'); // a is now the most recently used
    await get('c.example.test'); // evicts b
    expect(server.connections()).toBe(3);
    await vi.waitFor(() => expect(server.open()).toBe(2));
    await get('a.example.test');
    expect(server.connections()).toBe(3);
    await get('b.example.test');
    expect(server.connections()).toBe(4);
  });

  it('lets a request on an evicted pool finish, then closes its socket', async () => {
    const server = await startServer((req, res) => {
      if (req.url === '/slow') setTimeout(() => res.end('slow'), 200);
      else res.end('ok');
    });
    const lookup = fakeDns({ 'a.example.test': ['127.0.0.1'], 'b.example.test': ['127.0.0.1'] });
    const egress = toolEgress({ allowList: ['127.0.0.1'], lookup, pool: { maxDestinations: 1 } });
    const slow = egress.fetch(`http://a.example.test:${server.port}/slow`);
    await vi.waitFor(() => expect(server.open()).toBe(1));
    expect(await text(egress.fetch(`http://b.example.test:${server.port}/`))).toBe('ok');
    expect(await text(slow)).toBe('slow');
    await vi.waitFor(() => expect(server.open()).toBe(1));
  });

  it('close() closes the pooled sockets; a later request opens a new one', async () => {
    const server = await startServer();
    const egress = createEgress({ allowList: ['127.0.0.1'] });
    await egress.for('tool').fetch(`http://127.0.0.1:${server.port}/`);
    expect(server.open()).toBe(1);
    egress.close();
    await vi.waitFor(() => expect(server.open()).toBe(0));
    expect((await egress.for('tool').fetch(`http://127.0.0.1:${server.port}/`)).status).toBe(200);
    expect(server.connections()).toBe(2);
  });

  it('sends a GET again on a new connection when the reused one turns out closed, never a POST', async () => {
    // The server drops the pooled connection when the second request arrives, without answering.
    let dropped = false;
    const server = await startServer((req, res) => {
      if (req.url === '/2' && !dropped) {
        dropped = true;
        req.socket.destroy();
      } else res.end(`answer ${req.url}`);
    });
    const egress = toolEgress({ allowList: ['127.0.0.1'] });
    const base = `http://127.0.0.1:${server.port}`;
    expect(await text(egress.fetch(`${base}/1`))).toBe('answer /1');
    expect(await text(egress.fetch(`${base}/2`))).toBe('answer /2');
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /1', 'GET /2', 'GET /2']);
    expect(server.connections()).toBe(2);

    dropped = false;
    server.requests.length = 0;
    await egress.fetch(`${base}/1`);
    const error = await failure(egress.fetch(`${base}/2`, { method: 'POST', body: 'once' }));
    expect(error.code).toBe('network');
    expect(error.message).toBe('Request to 127.0.0.1 failed: connection reset');
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /1', 'POST /2']);
  });

  it('keeps nothing from a failed TLS handshake and sends each name in its own SNI', async () => {
    const { port, serverNames, connections } = await startTlsServer();
    const lookup = fakeDns({ 'a.example.test': ['127.0.0.1'], 'b.example.test': ['127.0.0.1'] });
    const egress = toolEgress({ allowList: ['127.0.0.1'], lookup });
    for (const name of ['a.example.test', 'a.example.test', 'b.example.test']) {
      expect((await failure(egress.fetch(`https://${name}:${port}/`))).code).toBe('network');
    }
    expect(serverNames).toEqual(['a.example.test', 'a.example.test', 'b.example.test']);
    expect(connections()).toBe(3);
  });
});
