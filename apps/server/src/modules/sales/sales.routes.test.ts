import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { salesInquiryMessages, type SalesInquiriesResponse } from '@crewline/contracts';
import { salesInquiries, users } from '@crewline/db';
import { startFakeSmtpServer, type FakeSmtpServer } from '../../testing/fake-smtp-server';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { SALES_INQUIRIES_PER_HOUR, salesTooMany } from './sales.service';

/*
 * Talk to Sales: the landing page's form is public and counted per client address; its messages are
 * stored, mailed to SALES_EMAIL through the server's mail transport, and read only by the operator's
 * administrators (OPERATOR_EMAILS, verified).
 */

const OPERATOR = 'ops-admin@crewline.test';
const SALES = 'sales@crewline.test';

let t: TestApp;
let smtp: FakeSmtpServer;

beforeAll(async () => {
  smtp = await startFakeSmtpServer();
  t = await createTestApp({
    config: {
      mail: { smtpUrl: smtp.url, from: 'Crewline <no-reply@crewline.test>' },
      // Listed in another case and with spaces, as an operator may write it.
      sales: { operatorEmails: [OPERATOR, 'second@crewline.test'], salesEmail: SALES },
    },
  });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const valid = {
  name: 'Grace Hopper',
  email: 'grace@navy.example',
  company: 'US Navy',
  message: 'We would like Enterprise for 40 people. Can we talk next week?',
};

const send = (payload: object, remoteAddress = '198.51.100.1') =>
  t.request({ method: 'POST', url: '/api/sales-inquiries', payload, remoteAddress });

const stored = async () => (await t.db.select({ n: count() }).from(salesInquiries))[0].n;

describe('POST /api/sales-inquiries', () => {
  it('stores a valid message signed out, mails it to SALES_EMAIL and says what happens next (202)', async () => {
    const before = await stored();
    const res = await send(valid, '198.51.100.10');

    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({
      message: 'Thanks — we will reply to grace@navy.example within one business day.',
    });
    expect(await stored()).toBe(before + 1);
    const [row] = await t.db.select().from(salesInquiries).where(eq(salesInquiries.email, valid.email));
    expect(row).toMatchObject(valid);

    const mail = await smtp.waitFor(SALES);
    expect(mail.subject).toBe('Talk to Sales: Grace Hopper (US Navy)');
    expect(mail.text).toContain('Work email: grace@navy.example');
    expect(mail.text).toContain(valid.message);
  });

  it('answers 400 naming the fields on invalid input, and stores nothing', async () => {
    const before = await stored();
    const res = await send({ name: ' ', email: 'not-an-email', company: '', message: '' }, '198.51.100.11');

    expect(res.statusCode).toBe(400);
    const body = res.json() as { message: string; errors: { path: string; message: string }[] };
    expect(body.errors).toEqual(
      expect.arrayContaining([
        { path: 'name', message: salesInquiryMessages.nameRequired },
        { path: 'email', message: salesInquiryMessages.invalidEmail },
        { path: 'company', message: salesInquiryMessages.companyRequired },
        { path: 'message', message: salesInquiryMessages.messageRequired },
      ]),
    );
    expect((await send({ ...valid, message: 'x'.repeat(5001) }, '198.51.100.11')).statusCode).toBe(400);
    expect((await send({}, '198.51.100.11')).statusCode).toBe(400);
    expect(await stored()).toBe(before);
  });

  it(`takes ${SALES_INQUIRIES_PER_HOUR} messages an hour from one address, then 429 with Retry-After`, async () => {
    const ip = '203.0.113.7';
    for (let i = 0; i < SALES_INQUIRIES_PER_HOUR; i++) {
      expect((await send({ ...valid, message: `Message ${i}` }, ip)).statusCode).toBe(202);
    }
    const before = await stored();
    const refused = await send(valid, ip);

    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ message: salesTooMany });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await stored()).toBe(before);
    // Another address is not affected.
    expect((await send(valid, '203.0.113.8')).statusCode).toBe(202);
  });
});

describe('GET /api/system/sales-inquiries', () => {
  it('lists the messages, newest first, to an operator administrator only', async () => {
    await send({ ...valid, company: 'Newest Co' }, '198.51.100.20');

    const operator = await t.signup({ email: 'OPS-Admin@crewline.test' });
    await t.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, operator.user.id));
    const res = await t.request({ method: 'GET', url: '/api/system/sales-inquiries', token: operator.token });
    expect(res.statusCode).toBe(200);
    const { inquiries } = res.json() as SalesInquiriesResponse;
    expect(inquiries[0]).toMatchObject({ ...valid, company: 'Newest Co' });
    expect(inquiries.length).toBe(await stored());

    // Anyone else, an owner of their own organization included: 403.
    const owner = await t.signup();
    const other = await t.request({ method: 'GET', url: '/api/system/sales-inquiries', token: owner.token });
    expect(other.statusCode).toBe(403);
    expect(other.json()).toEqual({ message: salesInquiryMessages.operatorOnly });

    // The operator's address, not yet proven by its verification link: 403.
    const unproven = await t.signup({ email: 'second@crewline.test' });
    await t.db.update(users).set({ emailVerifiedAt: null }).where(eq(users.id, unproven.user.id));
    const refused = await t.request({
      method: 'GET',
      url: '/api/system/sales-inquiries',
      token: unproven.token,
    });
    expect(refused.statusCode).toBe(403);

    // Signed out: 401.
    expect((await t.request({ method: 'GET', url: '/api/system/sales-inquiries' })).statusCode).toBe(401);
  });
});
