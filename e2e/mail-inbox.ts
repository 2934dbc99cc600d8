// The browser tests' mail server (apps/server/src/testing/fake-smtp-server.ts, started by
// playwright.config.ts): the e2e server sends through it (SMTP_URL) and the specs read its inbox over HTTP.
import { expect, type APIRequestContext } from '@playwright/test';

const smtpPort = Number(process.env.E2E_FAKE_SMTP_PORT ?? 5499);
const inboxPort = Number(process.env.E2E_FAKE_SMTP_HTTP_PORT ?? 5498);
export const fakeSmtp = {
  port: smtpPort,
  inboxPort,
  user: 'e2e-mailer',
  pass: 'e2e-mail-secret',
  url: `smtp://e2e-mailer:e2e-mail-secret@127.0.0.1:${smtpPort}`,
  inbox: `http://127.0.0.1:${inboxPort}`,
};

type Mail = { from: string; to: string; subject: string; text: string };

/** The mails to `to` received so far, oldest first. */
export async function mailsTo(request: APIRequestContext, to: string): Promise<Mail[]> {
  const res = await request.get(`${fakeSmtp.inbox}/messages?to=${encodeURIComponent(to)}`);
  expect(res.ok()).toBe(true);
  return (await res.json()) as Mail[];
}

/**
 * Waits for a mail to `to` holding a link to `path` (e.g. `/verify-email`) that is not one of `seen`,
 * and answers that link.
 */
export async function mailedLink(
  request: APIRequestContext,
  to: string,
  path: string,
  seen: string[] = [],
): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const links = (await mailsTo(request, to)).flatMap((m) =>
          m.text
            .split(/\s+/)
            .filter((word) => new URL(word, 'http://x').pathname === path && word.includes('token=')),
        );
        link = links.find((l) => !seen.includes(l));
        return link;
      },
      { message: `a mail to ${to} with a ${path} link` },
    )
    .toBeTruthy();
  return link!;
}

/** Opens the verification link mailed to a new account through the API, as its owner would. */
export async function verifyEmailOf(request: APIRequestContext, email: string): Promise<void> {
  const link = await mailedLink(request, email, '/verify-email');
  const res = await request.post('/api/auth/verify-email', {
    data: { token: new URL(link).searchParams.get('token') },
  });
  expect(res.status()).toBe(200);
}
