import type { FastifyServerOptions } from 'fastify';

// Credentials never reach a log line: headers that carry them and any body field that could.
export const redactPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.confirmPassword',
  '*.token',
  '*.apiKey',
  '*.connectionString',
  '*.jwtSecret',
  '*.encryptionKey',
];

export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return { level, redact: { paths: redactPaths, censor: '[redacted]' } };
}
