import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeSmtpServer, type FakeSmtpServer } from '../../testing/fake-smtp-server';
import { createReservedDestinations } from '../egress';
import { ConfigError, loadConfig } from '../env';
import { createMailer } from './mailer';

let smtp: FakeSmtpServer;
beforeAll(async () => {
  smtp = await startFakeSmtpServer({ user: 'relay user', pass: 'p@ss:word/1' });
});
afterAll(() => smtp.close());

const from = 'Crewline <no-reply@crewline.test>';

describe('the server mail transport', () => {
  it('logs in with the user and password of SMTP_URL and delivers From, To, subject and text', async () => {
    const mailer = createMailer({ settings: { smtpUrl: smtp.url, from } });
    expect(mailer.configured).toBe(true);
    await mailer.send({ to: 'ada@example.com', subject: 'Hello', text: 'Open https://app.test/x?token=abc' });
    const mail = await smtp.waitFor('ada@example.com');
    expect(mail).toMatchObject({
      user: 'relay user',
      envelopeFrom: 'no-reply@crewline.test',
      envelopeTo: ['ada@example.com'],
      from: '"Crewline" <no-reply@crewline.test>',
      to: 'ada@example.com',
      subject: 'Hello',
    });
    expect(mail.text.trim()).toBe('Open https://app.test/x?token=abc');
  });

  it('fails when the server refuses the credentials, as a real relay does', async () => {
    const wrong = smtp.url.replace(/:[^:@]*@/, ':wrong@');
    const mailer = createMailer({ settings: { smtpUrl: wrong, from } });
    await expect(mailer.send({ to: 'bea@example.com', subject: 'S', text: 'T' })).rejects.toThrow(/535/);
    expect(smtp.inbox.filter((m) => m.envelopeTo.includes('bea@example.com'))).toEqual([]);
  });

  it('never connects to the product’s own reserved destinations', async () => {
    const reserved = createReservedDestinations({ localPorts: [smtp.port] });
    const mailer = createMailer({ settings: { smtpUrl: smtp.url, from }, reserved });
    await expect(mailer.send({ to: 'cy@example.com', subject: 'S', text: 'T' })).rejects.toThrow(
      /not allowed/,
    );
  });

  it('is off without SMTP_URL', async () => {
    const mailer = createMailer({ settings: { smtpUrl: undefined, from } });
    expect(mailer.configured).toBe(false);
    await expect(mailer.send({ to: 'a@b.c', subject: 'S', text: 'T' })).rejects.toThrow(/SMTP_URL/);
  });
});

describe('mail configuration', () => {
  const dataDir = () => mkdtempSync(path.join(os.tmpdir(), 'crewline-env-'));

  it('reads SMTP_URL and MAIL_FROM, with a sender on the public host by default', () => {
    const config = loadConfig({
      DATA_DIR: dataDir(),
      SMTP_URL: 'smtps://u:p@mail.example.com',
      MAIL_FROM: 'Acme <ops@acme.test>',
    });
    expect(config.mail).toEqual({ smtpUrl: 'smtps://u:p@mail.example.com', from: 'Acme <ops@acme.test>' });
    const fallback = loadConfig({ DATA_DIR: dataDir(), PUBLIC_URL: 'https://crew.acme.test' });
    expect(fallback.mail).toEqual({ smtpUrl: undefined, from: 'Crewline <no-reply@crew.acme.test>' });
  });

  it('refuses a malformed SMTP_URL or MAIL_FROM at start-up, without repeating the URL', () => {
    for (const SMTP_URL of ['http://u:secretpw@mail.example.com', 'not a url', 'mail.example.com:587']) {
      const attempt = () => loadConfig({ DATA_DIR: dataDir(), SMTP_URL });
      expect(attempt).toThrow(ConfigError);
      expect(attempt).toThrow(/SMTP_URL: SMTP_URL must be a URL like smtp:\/\/user:pass@host:587/);
      expect(attempt).not.toThrow(/secretpw/);
    }
    expect(() => loadConfig({ DATA_DIR: dataDir(), MAIL_FROM: 'nobody' })).toThrow(/MAIL_FROM must be/);
  });
});
