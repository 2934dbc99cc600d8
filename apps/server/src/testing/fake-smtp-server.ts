import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A message the fake received, as a test reads it. */
export type ReceivedMail = {
  /** The envelope: who logged in, MAIL FROM and RCPT TO. */
  user: string;
  envelopeFrom: string;
  envelopeTo: string[];
  /** The headers and body as written. */
  from: string;
  to: string;
  subject: string;
  text: string;
};

export type FakeSmtpServer = {
  /** smtp://user:pass@127.0.0.1:port: what SMTP_URL is set to. */
  url: string;
  port: number;
  inbox: ReceivedMail[];
  /** Resolves with the first message to `to` that matches (waits up to 10 s for it). */
  waitFor(to: string, match?: (mail: ReceivedMail) => boolean): Promise<ReceivedMail>;
  /** The HTTP port answering GET /messages (browser tests read the inbox there); with `httpPort` only. */
  httpUrl?: string;
  close(): Promise<void>;
};

/**
 * An SMTP server for tests that behaves like a real relay on what matters here: it requires AUTH with
 * the one user and password it was given (anything else is refused with 535, and mail without a login
 * with 530) and keeps every accepted message. No TLS: the test client sends AUTH on the plain socket.
 */
export async function startFakeSmtpServer(
  options: { port?: number; user?: string; pass?: string; httpPort?: number } = {},
): Promise<FakeSmtpServer> {
  const user = options.user ?? 'mailer';
  const pass = options.pass ?? 'mail-secret';
  const inbox: ReceivedMail[] = [];
  const waiters = new Set<() => void>();

  const server = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    size: 1024 * 1024,
    onAuth(auth, _session, callback) {
      if (auth.username === user && auth.password === pass) return callback(null, { user });
      return callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          inbox.push({
            user: String(session.user),
            envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            envelopeTo: session.envelope.rcptTo.map((r) => r.address),
            from: parsed.from?.text ?? '',
            to: [parsed.to ?? []]
              .flat()
              .map((a) => a.text)
              .join(', '),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
          });
          waiters.forEach((wake) => wake());
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;

  function find(to: string, match?: (mail: ReceivedMail) => boolean) {
    return inbox.find((m) => m.envelopeTo.includes(to.toLowerCase()) && (!match || match(m)));
  }

  let http: Server | undefined;
  if (options.httpPort !== undefined) {
    // GET /messages?to=address: the messages to that address, oldest first.
    http = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://fake');
      if (url.pathname === '/health') return void res.writeHead(200).end('ok');
      if (url.pathname !== '/messages') return void res.writeHead(404).end();
      const to = (url.searchParams.get('to') ?? '').toLowerCase();
      const messages = inbox.filter((m) => !to || m.envelopeTo.includes(to));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(messages));
    });
    await new Promise<void>((resolve) => http!.listen(options.httpPort, '127.0.0.1', resolve));
  }

  return {
    url: `smtp://${encodeURIComponent(user)}:${encodeURIComponent(pass)}@127.0.0.1:${port}`,
    port,
    inbox,
    httpUrl: http ? `http://127.0.0.1:${(http.address() as AddressInfo).port}` : undefined,
    waitFor(to, match) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const mail = find(to, match);
          if (!mail) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(mail);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no mail to ${to} arrived`));
        }, 10_000);
        waiters.add(check);
        check();
      });
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (http) await new Promise<void>((resolve) => http!.close(() => resolve()));
    },
  };
}

/** The link of a message's text that starts with `prefix` (e.g. `${publicUrl}/verify-email?token=`). */
export function linkIn(mail: ReceivedMail, prefix: string): string {
  const found = mail.text.split(/\s+/).find((word) => word.startsWith(prefix));
  if (!found) throw new Error(`no link starting with ${prefix} in: ${mail.text}`);
  return found;
}

// As a program: the browser tests start it as a Playwright webServer.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const arg = (name: string) => {
    const at = process.argv.indexOf(`--${name}`);
    return at === -1 ? undefined : process.argv[at + 1];
  };
  const fake = await startFakeSmtpServer({
    port: Number(arg('port') ?? 5499),
    httpPort: Number(arg('http-port') ?? 5498),
    user: arg('user'),
    pass: arg('pass'),
  });
  console.log(
    `fake SMTP server on ${fake.url.replace(/:[^:@]*@/, ':[redacted]@')}, inbox on ${fake.httpUrl}`,
  );
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => void fake.close().then(() => process.exit(0)));
  }
}
