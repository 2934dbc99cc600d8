import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeSendgrid = Awaited<ReturnType<typeof startFakeSendgrid>>;

/** A message the fake took: its recipients, sender, subject and plain text. */
export type SentEmail = { to: string[]; from: string; subject: string; text: string };

const isEmail = (value: unknown) => typeof value === 'string' && /^[^\s@]+@[^\s@]+$/.test(value);

/** SendGrid's error body: `{ errors: [{ message, field }] }`. */
const errors = (message: string, field: string | null = null) =>
  JSON.stringify({ errors: [{ message, field }] });

/**
 * The SendGrid v3 mail API on 127.0.0.1 (`baseUrl` of a SendGrid connection), checking what it
 * checks: `POST /v3/mail/send` with `Authorization: Bearer <the one key it was given>` (401
 * otherwise), a JSON body with at least one personalization of valid `to` addresses, a valid
 * `from.email`, a non-empty `subject` and `content` of `{ type, value }` (400 naming the field
 * otherwise). It answers 202 with no body, as SendGrid does, and keeps each message.
 */
export async function startFakeSendgrid(apiKey: string) {
  const sent: SentEmail[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const answer = (status: number, body = '') => {
        res.writeHead(status, body ? { 'content-type': 'application/json' } : {});
        res.end(body);
      };
      if (req.method !== 'POST' || req.url !== '/v3/mail/send') return answer(404, errors('Not found'));
      if (req.headers.authorization !== `Bearer ${apiKey}`)
        return answer(401, errors('The provided authorization grant is invalid, expired, or revoked'));
      let body: {
        personalizations?: { to?: { email?: unknown }[] }[];
        from?: { email?: unknown };
        subject?: unknown;
        content?: { type?: unknown; value?: unknown }[];
      };
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return answer(400, errors('Invalid JSON'));
      }
      const to = (body.personalizations ?? []).flatMap((p) => p.to ?? []).map((r) => r.email);
      if (to.length === 0 || !to.every(isEmail))
        return answer(400, errors('Each to must have a valid email', 'personalizations.0.to'));
      if (!isEmail(body.from?.email)) return answer(400, errors('The from email is not valid', 'from.email'));
      if (typeof body.subject !== 'string' || body.subject.trim() === '')
        return answer(400, errors('The subject is required', 'subject'));
      const text = body.content?.find((c) => c.type === 'text/plain')?.value;
      if (typeof text !== 'string' || text === '')
        return answer(400, errors('Content must have a text/plain value', 'content'));
      sent.push({ to: to as string[], from: body.from!.email as string, subject: body.subject, text });
      answer(202);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sent,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
