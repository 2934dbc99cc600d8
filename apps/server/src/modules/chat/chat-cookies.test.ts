import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { createChatCookies } from './chat-cookies';

const SECRET = 'a-test-secret-of-enough-length-0123456789';

/** A bare app that sets the chat's cookies and reads them back, as the chat routes do. */
function appWith(publicUrl: string, secret = SECRET) {
  const cookies = createChatCookies({ secret, publicUrl });
  const app = Fastify();
  app.post('/visit', async (_request, reply) => {
    cookies.setVisitor(reply, 'visitor-1');
    cookies.setUnlocked(reply, 'vault', '$argon2id$hash-1');
    return {};
  });
  app.get('/who', async (request) => ({
    visitor: cookies.visitorOf(request),
    unlocked: cookies.isUnlocked(request, 'vault', '$argon2id$hash-1'),
    unlockedAfterChange: cookies.isUnlocked(request, 'vault', '$argon2id$hash-2'),
  }));
  return app;
}

async function visit(publicUrl: string) {
  const res = await appWith(publicUrl).inject({ method: 'POST', url: '/visit' });
  return res.headers['set-cookie'] as string[];
}

const pairs = (lines: string[]) => lines.map((line) => line.split(';')[0]).join('; ');

describe('chat cookies', () => {
  it('are third-party cookies on an https public URL: SameSite=None; Secure; Partitioned', async () => {
    const [visitor, unlock] = await visit('https://crewline.example.com');
    expect(visitor).toMatch(/^crewline_chat_visitor=visitor-1\.[\w-]{43}; /);
    for (const line of [visitor, unlock]) {
      expect(line).toContain('HttpOnly');
      expect(line).toContain('Secure');
      expect(line).toContain('Partitioned');
      expect(line).toContain('SameSite=None');
    }
    expect(visitor).toContain('Path=/api/chat;');
    expect(unlock).toContain('Path=/api/chat/vault;');
    expect(unlock).toContain(`Max-Age=${30 * 86_400}`);
  });

  it('are Lax and not Secure on http', async () => {
    const [visitor] = await visit('http://localhost:5000');
    expect(visitor).toContain('SameSite=Lax');
    expect(visitor).not.toContain('Secure');
    expect(visitor).not.toContain('Partitioned');
  });

  it('are read back only as signed, and an unlock only for the password it was given for', async () => {
    const lines = await visit('http://localhost:5000');
    const app = appWith('http://localhost:5000');
    const who = async (cookie: string) => (await app.inject({ url: '/who', headers: { cookie } })).json();
    expect(await who(pairs(lines))).toEqual({
      visitor: 'visitor-1',
      unlocked: true,
      unlockedAfterChange: false,
    });

    // Another id under the same signature, or a cookie signed with another secret, is nobody's.
    const forged = pairs(lines).replace('visitor-1.', 'visitor-2.');
    expect(await who(forged)).toMatchObject({ visitor: null });
    const elsewhere = await appWith(
      'http://localhost:5000',
      'another-secret-of-enough-length-9876543210',
    ).inject({ method: 'POST', url: '/visit' });
    expect(await who(pairs(elsewhere.headers['set-cookie'] as string[]))).toEqual({
      visitor: null,
      unlocked: false,
      unlockedAfterChange: false,
    });
    expect(await who('crewline_chat_visitor=garbage')).toMatchObject({ visitor: null });
  });
});
