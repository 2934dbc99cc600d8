import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeChatWebhook = Awaited<ReturnType<typeof startFakeChatWebhook>>;

/** Slack's incoming-webhook path: /services/<team>/<bot>/<secret>; Teams' is /webhookb2/<…>. */
const SLACK_PATH = /^\/services\/T[A-Z0-9]+\/B[A-Z0-9]+\/[A-Za-z0-9]+$/;
const TEAMS_PATH = /^\/webhookb2\/[A-Za-z0-9@-]+\/IncomingWebhook\/[A-Za-z0-9]+\/[A-Za-z0-9-]+$/;

/**
 * A Slack and Microsoft Teams incoming webhook on 127.0.0.1, checking what they check: a POST with a
 * JSON body to a known path (Slack: `no_service` otherwise), a `text` that is a non-empty string
 * (Slack: `no_text`; Teams: "Text is required."), and nothing that is not JSON (`invalid_payload`).
 * Slack answers `ok`, Teams `1`. It keeps each accepted message's text, by service.
 */
export async function startFakeChatWebhook() {
  const received: { service: 'slack' | 'teams'; text: string }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const service = SLACK_PATH.test(req.url ?? '')
        ? 'slack'
        : TEAMS_PATH.test(req.url ?? '')
          ? 'teams'
          : null;
      const answer = (status: number, body: string) => {
        res.writeHead(status, { 'content-type': 'text/plain' });
        res.end(body);
      };
      if (!service) return answer(404, 'no_service');
      if (req.method !== 'POST') return answer(405, 'invalid_method');
      if (!req.headers['content-type']?.startsWith('application/json')) return answer(400, 'invalid_payload');
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return answer(400, 'invalid_payload');
      }
      const text = (body as { text?: unknown } | null)?.text;
      if (typeof text !== 'string' || text.trim() === '')
        return answer(400, service === 'slack' ? 'no_text' : 'Text is required.');
      received.push({ service, text });
      answer(200, service === 'slack' ? 'ok' : '1');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    /** A Slack incoming-webhook URL on this server (its last part is the secret). */
    slackUrl: `${base}/services/T0001/B0002/s3cr3tToken`,
    /** A Teams incoming-webhook URL on this server. */
    teamsUrl: `${base}/webhookb2/11111111-2222@33333333/IncomingWebhook/abcdef0123/44444444-5555`,
    base,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
