import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEgress } from './egress';
import { EgressError } from './egress-error';
import { egressFetch } from './fetch-adapter';

let server: http.Server;
let base: string;
const seen: { method?: string; body: string; auth?: string }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method, body, auth: req.headers.authorization });
      res.writeHead(201, { 'content-type': 'application/json', 'x-test': 'yes' });
      res.end(JSON.stringify({ ok: true }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('egressFetch', () => {
  it('behaves like fetch for an allowed destination', async () => {
    const fetchViaEgress = egressFetch(createEgress({ allowList: ['127.0.0.1'] }).for('model'));
    const res = await fetchViaEgress(`${base}/v1/chat`, {
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: JSON.stringify({ hello: 'world' }),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-test')).toBe('yes');
    expect(await res.json()).toEqual({ ok: true });
    expect(seen.at(-1)).toEqual({ method: 'POST', body: '{"hello":"world"}', auth: 'Bearer k' });
  });

  it('refuses what the egress module refuses', async () => {
    const before = seen.length;
    const fetchViaEgress = egressFetch(createEgress().for('model'));
    await expect(fetchViaEgress(`${base}/v1/chat`)).rejects.toBeInstanceOf(EgressError);
    expect(seen.length).toBe(before);
  });
});
