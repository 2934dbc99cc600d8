import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEgress } from '../../platform/egress';
import type { Config } from '../../platform/env';
import { testConfig } from '../../testing/test-config';
import { type DeliveryTarget, createOutputDelivery } from './output-delivery';

// A stand-in for a customer's webhook and for the SendGrid API: records what it was sent.
// /hook answers 200, /broken answers 500, /v3/mail/send answers 202 like SendGrid.
let server: http.Server;
let base: string;
let received: {
  method?: string;
  url?: string;
  auth?: string;
  contentType?: string;
  idempotencyKey?: string;
  body: string;
}[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({
        method: req.method,
        url: req.url,
        auth: req.headers.authorization,
        contentType: req.headers['content-type'],
        idempotencyKey: req.headers['idempotency-key'] as string | undefined,
        body,
      });
      const status = req.url === '/v3/mail/send' ? 202 : req.url?.startsWith('/broken') ? 500 : 200;
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(status === 500 ? 'boom' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const organizationId = '11111111-1111-4111-8111-111111111111';
const otherOrganizationId = '22222222-2222-4222-8222-222222222222';
const sendgrid = { apiKey: 'SG.key', fromEmail: 'bot@acme.test', fromName: 'Acme Bot' };

let config: Config;
let orgDir: string;

beforeEach(() => {
  received = [];
  config = testConfig();
  orgDir = path.join(config.dataDir, 'files', organizationId);
});
afterEach(async () => {
  await rm(config.dataDir, { recursive: true, force: true });
});

function delivery(options: { sendgrid?: Record<string, unknown>; allowList?: string[] } = {}) {
  return createOutputDelivery({
    config,
    egress: createEgress({ allowList: options.allowList ?? ['127.0.0.1'] }),
    sendgridSettings: async (id) => {
      expect(id).toBe(organizationId);
      return options.sendgrid;
    },
  });
}

function target(data: Record<string, unknown>): DeliveryTarget {
  return {
    organizationId,
    executionId: '33333333-3333-4333-8333-333333333333',
    workflowId: '44444444-4444-4444-8444-444444444444',
    workflowName: 'Daily report',
    nodeId: 'node-1',
    agentName: 'Writer',
    data,
  };
}

/** Every file under the data folder, relative to it. */
async function filesIn(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

describe('database and nextNode', () => {
  it.each([
    [{ outputDestination: 'database' }],
    [{ outputDestination: 'nextNode', webhookUrl: 'http://127.0.0.1:1/hook', filePath: 'x.txt' }],
    [{}],
    [{ outputDestination: 'somewhere-else' }],
  ])('does nothing for %j', async (data) => {
    const result = await delivery({ sendgrid: { ...sendgrid, baseUrl: base } }).deliver(target(data), 'out');
    expect(result).toBeUndefined();
    expect(received).toEqual([]);
    expect(await filesIn(config.dataDir)).toEqual([]);
  });
});

describe('file', () => {
  it("writes the content into the organization's folder, creating parent folders", async () => {
    const result = await delivery().deliver(
      target({ outputDestination: 'file', filePath: 'reports/2024/daily.md', outputFormat: 'markdown' }),
      '# Report\n\nAll green.',
    );
    expect(result).toBe('Wrote reports/2024/daily.md');
    expect(await readFile(path.join(orgDir, 'reports/2024/daily.md'), 'utf8')).toBe('# Report\n\nAll green.');
    expect(await filesIn(config.dataDir)).toEqual([
      path.join('files', organizationId, 'reports/2024/daily.md'),
    ]);
  });

  it('replaces an existing file', async () => {
    const deliver = delivery();
    const data = { outputDestination: 'file', filePath: 'out.txt' };
    await deliver.deliver(target(data), 'first, longer content');
    await deliver.deliver(target(data), 'second');
    expect(await readFile(path.join(orgDir, 'out.txt'), 'utf8')).toBe('second');
  });

  it('pretty-prints JSON output and writes anything else as is', async () => {
    const deliver = delivery();
    await deliver.deliver(
      target({ outputDestination: 'file', filePath: 'a.json', outputFormat: 'json' }),
      '{"a":1,"b":[2]}',
    );
    expect(await readFile(path.join(orgDir, 'a.json'), 'utf8')).toBe(
      '{\n  "a": 1,\n  "b": [\n    2\n  ]\n}\n',
    );
    await deliver.deliver(
      target({ outputDestination: 'file', filePath: 'b.json', outputFormat: 'json' }),
      '```json\n{"ok":true}\n```',
    );
    expect(await readFile(path.join(orgDir, 'b.json'), 'utf8')).toBe('{\n  "ok": true\n}\n');
    await deliver.deliver(
      target({ outputDestination: 'file', filePath: 'c.json', outputFormat: 'json' }),
      'not {json',
    );
    expect(await readFile(path.join(orgDir, 'c.json'), 'utf8')).toBe('not {json');
    await deliver.deliver(
      target({ outputDestination: 'file', filePath: 'd.txt', outputFormat: 'text' }),
      '{"a":1}',
    );
    expect(await readFile(path.join(orgDir, 'd.txt'), 'utf8')).toBe('{"a":1}');
  });

  it('needs a file path', async () => {
    await expect(
      delivery().deliver(target({ outputDestination: 'file', filePath: '  ' }), 'out'),
    ).rejects.toThrow('Agent "Writer" is set to write its output to a file, but no file path is set');
    expect(await filesIn(config.dataDir)).toEqual([]);
  });

  it('refuses paths that leave the folder and writes nothing outside it', async () => {
    const outside = path.join(config.dataDir, 'outside.txt');
    await writeFile(outside, 'server file');
    const otherDir = path.join(config.dataDir, 'files', otherOrganizationId);
    await mkdir(otherDir, { recursive: true });
    await writeFile(path.join(otherDir, 'secret.txt'), 'other org');
    await mkdir(orgDir, { recursive: true });
    await symlink(config.dataDir, path.join(orgDir, 'escape'));
    await symlink(path.join(otherDir, 'secret.txt'), path.join(orgDir, 'linked.txt'));

    const attempts: [string, RegExp][] = [
      ['../../outside.txt', /leads outside the folder/],
      [`../${otherOrganizationId}/secret.txt`, /leads outside the folder/],
      ['reports/../../x.txt', /leads outside the folder/],
      [outside, /must be relative/],
      ['/etc/crewline.txt', /must be relative/],
      ['escape/outside.txt', /leads outside the folder/],
      ['linked.txt', /leads outside the folder/],
      ['C:/x.txt', /drive letters/],
      ['a\\..\\..\\x.txt', /forward slashes/],
    ];
    for (const [filePath, reason] of attempts) {
      const attempt = delivery().deliver(target({ outputDestination: 'file', filePath }), 'overwritten!');
      await expect(attempt, filePath).rejects.toThrow(
        /^Agent "Writer" could not write its output to the file /,
      );
      await expect(attempt, filePath).rejects.toThrow(reason);
    }
    expect(await readFile(outside, 'utf8')).toBe('server file');
    expect(await readFile(path.join(otherDir, 'secret.txt'), 'utf8')).toBe('other org');
    expect(existsSync('/etc/crewline.txt')).toBe(false);
    expect((await filesIn(config.dataDir)).sort()).toEqual(
      [path.join('files', otherOrganizationId, 'secret.txt'), 'outside.txt'].sort(),
    );
  });

  it('never shows the absolute server path in its errors', async () => {
    const error = await delivery()
      .deliver(target({ outputDestination: 'file', filePath: '../../outside.txt' }), 'x')
      .catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).not.toContain(config.dataDir);
  });
});

describe('webhook', () => {
  it('POSTs the output as JSON, with a key that is the same when a resumed run delivers it again', async () => {
    const result = await delivery().deliver(
      target({
        outputDestination: 'webhook',
        webhookUrl: `${base}/hook?token=secret`,
        outputFormat: 'markdown',
      }),
      '# Done',
    );
    expect(result).toBe(`POSTed to ${base}/…`);
    expect(result).not.toContain('secret');
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      method: 'POST',
      url: '/hook?token=secret',
      contentType: 'application/json',
      idempotencyKey: '33333333-3333-4333-8333-333333333333:node-1',
    });
    expect(JSON.parse(received[0].body)).toEqual({
      executionId: '33333333-3333-4333-8333-333333333333',
      workflowId: '44444444-4444-4444-8444-444444444444',
      workflowName: 'Daily report',
      nodeId: 'node-1',
      agentName: 'Writer',
      format: 'markdown',
      content: '# Done',
    });
  });

  it('fails with the status when the webhook answers with an error', async () => {
    await expect(
      delivery().deliver(target({ outputDestination: 'webhook', webhookUrl: `${base}/broken` }), 'out'),
    ).rejects.toThrow(
      `Agent "Writer" could not send its output to the webhook ${base}/…: it answered with HTTP status 500`,
    );
    expect(received).toHaveLength(1);
  });

  it('refuses private addresses the allow-list does not name', async () => {
    await expect(
      delivery({ allowList: [] }).deliver(
        target({ outputDestination: 'webhook', webhookUrl: `${base}/hook` }),
        'out',
      ),
    ).rejects.toThrow(
      `Agent "Writer" could not send its output to the webhook ${base}/…: Destination not allowed`,
    );
    expect(received).toEqual([]);
  });

  it.each([
    ['', /no webhook URL is set/],
    ['not a url', /"not a url" is not a valid URL/],
    ['ftp://example.com/x', /must start with http:\/\/ or https:\/\//],
  ])('refuses the webhook URL %j', async (webhookUrl, reason) => {
    await expect(
      delivery().deliver(target({ outputDestination: 'webhook', webhookUrl }), 'out'),
    ).rejects.toThrow(reason);
    expect(received).toEqual([]);
  });

  it('stops when the run is cancelled', async () => {
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));
    await expect(
      delivery().deliver(target({ outputDestination: 'webhook', webhookUrl: `${base}/hook` }), 'out', {
        signal: controller.signal,
      }),
    ).rejects.toThrow('cancelled');
    expect(received).toEqual([]);
  });
});

describe('email', () => {
  it("sends the output through the organization's SendGrid configuration", async () => {
    const result = await delivery({ sendgrid: { ...sendgrid, baseUrl: base } }).deliver(
      target({
        outputDestination: 'email',
        emailRecipients: ' ops@acme.test, boss@acme.test;ops@acme.test ',
      }),
      'All green.',
    );
    expect(result).toBe('Emailed ops@acme.test, boss@acme.test');
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'POST', url: '/v3/mail/send', auth: 'Bearer SG.key' });
    expect(JSON.parse(received[0].body)).toEqual({
      personalizations: [{ to: [{ email: 'ops@acme.test' }, { email: 'boss@acme.test' }] }],
      from: { email: 'bot@acme.test', name: 'Acme Bot' },
      subject: 'Crewline: Daily report — Writer',
      content: [{ type: 'text/plain', value: 'All green.' }],
    });
  });

  it('says where to configure SendGrid when there is no configuration', async () => {
    await expect(
      delivery().deliver(target({ outputDestination: 'email', emailRecipients: 'ops@acme.test' }), 'out'),
    ).rejects.toThrow(/^Agent "Writer" could not email its output to ops@acme.test: .*Settings → Tools/);
    expect(received).toEqual([]);
  });

  it('fails with SendGrid’s answer when it refuses the email', async () => {
    await expect(
      delivery({ sendgrid: { ...sendgrid, baseUrl: `${base}/broken` } }).deliver(
        target({ outputDestination: 'email', emailRecipients: 'ops@acme.test' }),
        'out',
      ),
    ).rejects.toThrow(/could not email its output to ops@acme.test: SendGrid refused the email \(500\)/);
  });

  it.each([
    ['', /no recipients are set/],
    [' , ; ', /no recipients are set/],
    ['ops@acme.test, not-an-address', /"not-an-address" is not a valid email address/],
  ])('refuses the recipients %j', async (emailRecipients, reason) => {
    await expect(
      delivery({ sendgrid: { ...sendgrid, baseUrl: base } }).deliver(
        target({ outputDestination: 'email', emailRecipients }),
        'out',
      ),
    ).rejects.toThrow(reason);
    expect(received).toEqual([]);
  });
});
