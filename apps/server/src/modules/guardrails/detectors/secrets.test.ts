import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { detectSecrets } from './secrets';

// Tokens are put together at run time, so this file holds nothing a secret scanner would stop.
const join = (...parts: string[]) => parts.join('');
const chars = (pattern: string, length: number) =>
  pattern.repeat(Math.ceil(length / pattern.length)).slice(0, length);

const found = async (text: string) =>
  (await detectSecrets(text)).map((s) => `${s.kind}:${text.slice(s.start, s.end)}`);

describe('detectSecrets', () => {
  it('finds OpenAI and Anthropic API keys', async () => {
    const openai = join('sk-', 'proj-', chars('Ab3dEfGh1jKl', 48));
    const legacy = join('sk-', chars('Zy9xWv8uTs7r', 20), 'T3Blbk', 'FJ', chars('Qp6oNm5lKj4i', 20));
    const anthropic = join('sk-', 'ant-api03-', chars('aB3_cD4-', 93), 'AA');
    expect(await found(`keys: ${openai}, ${legacy} and ${anthropic}.`)).toEqual([
      `openai_api_key:${openai}`,
      `openai_api_key:${legacy}`,
      `anthropic_api_key:${anthropic}`,
    ]);
  });

  it('finds an AWS access key id and the secret key next to it, exactly', async () => {
    const id = join('AKIA', 'Z5GMHYJKQWERTY12');
    const secret = join('wJalrXUtnFEMI/K7MDENG', '/bPxRfiCYzzAMPLEKEY');
    const text = `aws_access_key_id=${id}\naws_secret_access_key = ${secret}\n`;
    expect(await found(text)).toEqual([`aws_access_key:${id}`, `aws_secret_key:${secret}`]);
    // A labelled secret key without its id nearby.
    expect(await found(`SecretAccessKey: "${secret}"`)).toEqual([`aws_secret_key:${secret}`]);
  });

  it('finds GitHub, GitLab, Slack, npm, Stripe and Google tokens', async () => {
    const tokens = {
      github_token: join('ghp', '_', chars('a1B2c3D4e5', 36)),
      gitlab_token: join('glpat', '-', chars('Ab3dEfGh1j', 20)),
      slack_token: join('xoxb', '-123456789012-1234567890123-', chars('AbCdEfGh', 24)),
      npm_token: join('npm', '_', chars('a1B2c3D4e5', 36)),
      stripe_key: join('sk', '_live_', chars('4eC39HqLyjWDarjt', 24)),
      google_api_key: join('AI', 'za', chars('SyA1b2C3d4E5f6G7h8I9j0', 35)),
    };
    const text = Object.values(tokens).join(' and ');
    expect(await found(text)).toEqual(Object.entries(tokens).map(([kind, value]) => `${kind}:${value}`));
    const fineGrained = join('github', '_pat_', chars('11ABCDEFG0abcdefghij', 82));
    expect(await found(`token ${fineGrained}`)).toEqual([`github_token:${fineGrained}`]);
    const test = join('rk', '_test_', chars('4eC39HqLyjWDarjt', 24));
    expect(await found(test)).toEqual([`stripe_key:${test}`]);
  });

  it('finds JWTs whose header names an algorithm, not any dotted eyJ string', async () => {
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const jwt = [
      part({ alg: 'HS256', typ: 'JWT' }),
      part({ sub: '1234567890' }),
      chars('dozjgNryP4J3jVmN', 43),
    ].join('.');
    expect(await found(`Authorization: Bearer ${jwt}`)).toEqual([`jwt:${jwt}`]);
    const notJwt = [part({ kind: 'note' }), part({ sub: '1' }), 'abcdefghijkl'].join('.');
    expect(await found(notJwt)).toEqual([]);
  });

  it('finds a private key block', async () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString().trim();
    expect(await found(`Here it is:\n${pem}\nthanks`)).toEqual([`private_key:${pem}`]);
  });

  it('finds connection strings with a password, not those without one or with a placeholder', async () => {
    const urls = [
      'postgres://bob:hunter22@db.example.com:5432/app',
      'mysql://app:S3cure-pw@10.0.0.5/shop',
      'mongodb+srv://al:Pw9xQ@c0.mongodb.net/x?retryWrites=true',
      'redis://:s3cretPw@cache:6379/0',
      'amqp://guest:Gu3st!@mq.example.com/vhost',
    ];
    expect(await found(urls.join('\n'))).toEqual(urls.map((u) => `connection_string:${u}`));
    expect(
      await found('postgres://db.example.com/app redis://cache:6379 postgres://user:${DB_PASSWORD}@db/app'),
    ).toEqual([]);
  });

  it('is not switched off by a secretlint-disable comment in the text', async () => {
    const token = join('ghp', '_', chars('a1B2c3D4e5', 36));
    expect(await found(`// secretlint-disable\n${token}\n// secretlint-enable`)).toEqual([
      `github_token:${token}`,
    ]);
  });

  it('finds nothing in ordinary words, UUIDs, hashes and placeholders', async () => {
    const text = [
      'The skeleton key of a skill set: sk-learn and sk_test are words here.',
      'Request 123e4567-e89b-12d3-a456-426614174000, commit 9fceb02d0ae598e95dc970b74767f19372d61af8.',
      'sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855, base64 aGVsbG8gd29ybGQ=',
      'Set OPENAI_API_KEY=sk-... and AWS_SECRET_ACCESS_KEY=<your key> in .env',
      'The AKIA prefix names AWS access keys; eyJ starts most JSON in base64.',
    ].join('\n');
    expect(await found(text)).toEqual([]);
  });

  it('gives offsets in UTF-16 code units of the text', async () => {
    const token = join('npm', '_', chars('a1B2c3D4e5', 36));
    const text = `😀😀 ${token}`;
    expect(await detectSecrets(text)).toEqual([{ kind: 'npm_token', start: 5, end: 5 + token.length }]);
  });
});
