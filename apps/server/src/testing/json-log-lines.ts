import { Writable } from 'node:stream';

/**
 * A stream for a test's pino logger: `lines` holds every log line written to it, parsed, so a suite
 * can check what the server logged (and what it never logged).
 */
export function jsonLogLines<Line = Record<string, unknown>>() {
  const lines: Line[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, stream };
}
