// A chat app through the OpenAI-compatible endpoint (issue 41, docs/product-rules.md, Chat apps): the
// time to the first token of a streamed reply, and to its end, at CONCURRENCY chats at once.
//
// The real server (main.ts, ROLE=all) in a child process with the flags `npm start` gives it and its
// own embedded PostgreSQL in DATA_DIR (fsync on, as `npm start` has it). The model is the instant fake
// OpenAI-compatible server in this process. One account, through the API: an active one-agent
// workflow published as a chat app (rate limits raised out of the way), an API key, then
// CONCURRENCY closed-loop clients, each sending `POST /v1/chat/completions` with `stream: true` and
// reading the Server-Sent Events: WARMUP_CHATS chats not counted, then CHATS measured.
//
// First token: from the request's start to the first chunk with text. With an instant model a step's
// answer ends within the step stream's first 100 ms, so no delta is published (step-stream.ts) and
// the reply's text comes whole after the run ended: the first token is the run's round trip (queue,
// claim, model call, result stored, ended event heard by the request).
//
// Also the widget's size (apps/web/dist/widget.js, gzip) when the web app is built.
import { chmodSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { startFakeLlmServer } from '../apps/server/src/testing/fake-llm-server';
import {
  expectStatus,
  prepareAccount,
  request,
  startServer,
  stopServer,
  type Server,
} from './execution-throughput';
import { latencyStats } from './figures';
import { connectToServerDatabase } from './server-database';

const envNumber = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
};
const CONCURRENCY = envNumber('CHAT_BENCH_CONCURRENCY', 20);
const CHATS = envNumber('CHAT_BENCH_CHATS', 1000);
const WARMUP_CHATS = 100;
const ALONE_CHATS = 100;
const SLUG = 'bench-chat';

const round = (n: number) => Math.round(n * 100) / 100;

type Chat = { firstTokenMs: number; doneMs: number; text: string };

/** One streamed chat: the times of its first text and of `[DONE]`, and the text the chunks carried. */
function streamedChat(base: string, key: string, message: string): Promise<Chat> {
  const body = JSON.stringify({ model: SLUG, stream: true, messages: [{ role: 'user', content: message }] });
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}/v1/chat/completions`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          accept: 'text/event-stream',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        if (res.statusCode !== 200) {
          let error = '';
          res.on('data', (c: Buffer) => (error += c.toString()));
          res.on('end', () => reject(new Error(`chat: ${res.statusCode} ${error}`)));
          return;
        }
        let buffer = '';
        let text = '';
        let firstTokenMs: number | undefined;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let end;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const event = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = event.replace(/^data: /, '');
            if (data === '[DONE]') {
              resolve({ firstTokenMs: firstTokenMs ?? NaN, doneMs: performance.now() - started, text });
              continue;
            }
            const parsed = JSON.parse(data) as {
              choices?: { delta?: { content?: string } }[];
              error?: unknown;
            };
            if (parsed.error) reject(new Error(`chat: ${JSON.stringify(parsed.error)}`));
            const piece = parsed.choices?.[0]?.delta?.content ?? '';
            if (piece && firstTokenMs === undefined) firstTokenMs = performance.now() - started;
            text += piece;
          }
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** `total` chats by `concurrency` closed-loop clients. */
async function chats(base: string, key: string, total: number, label: string, concurrency = CONCURRENCY) {
  const results: Chat[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const n = next++;
        const chat = await streamedChat(base, key, `${label} ${n}: hello`);
        if (!chat.text.includes(`${label} ${n}: hello`)) throw new Error(`unexpected reply: ${chat.text}`);
        results.push(chat);
      }
    }),
  );
  return { results, seconds: (performance.now() - started) / 1000 };
}

/** The widget's size as a browser downloads it (gzip), or null before the web app is built. */
function widgetSize() {
  const file = path.join(import.meta.dirname, '..', 'apps', 'web', 'dist', 'widget.js');
  if (!existsSync(file)) return null;
  const source = readFileSync(file);
  return { bytes: source.length, gzipBytes: gzipSync(source, { level: 9 }).length };
}

export async function runChatBench() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'crewline-bench-chat-'));
  chmodSync(dataDir, 0o755);
  const fake = await startFakeLlmServer();
  let server: Server | undefined;
  const killServer = () => server?.child.kill('SIGKILL');
  process.on('exit', killServer);
  try {
    server = await startServer(
      'all',
      {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        HOST: '127.0.0.1',
        PORT: '0',
        EGRESS_ALLOW_LIST: `127.0.0.1:${fake.port}`,
        // One key makes every request: its own per-minute limit is raised out of the way.
        API_KEY_MAX_PER_MINUTE: '1000000',
      },
      dataDir,
      0,
    );
    const base = server.url!;
    const { db, settings } = await connectToServerDatabase(path.join(dataDir, 'all-0'));
    await db.end();
    const account = await prepareAccount(base, fake, 1);
    await expectStatus(
      request(
        base,
        'PUT',
        `/api/workflows/${account.workflowId}/publishing`,
        {
          chat: {
            enabled: true,
            slug: SLUG,
            name: 'Bench chat',
            access: 'link',
            rateLimitPerMinute: 10_000,
            appRateLimitPerMinute: 10_000,
          },
        },
        account.token,
      ),
      200,
      'publishing',
    );
    const created = await expectStatus(
      request(
        base,
        'POST',
        `/api/organizations/${account.organizationId}/api-keys`,
        { name: 'Bench' },
        account.token,
      ),
      201,
      'API key',
    );
    const key = created.key as string;

    await chats(base, key, WARMUP_CHATS, 'Warm-up');
    // One chat at a time first: what a single person waits, with nothing queued before them.
    const alone = await chats(base, key, ALONE_CHATS, 'Alone', 1);
    const aloneFirstToken = latencyStats(alone.results.map((r) => r.firstTokenMs));
    console.log(`one at a time: first token (ms)`, aloneFirstToken);
    const loadAtStart = round(os.loadavg()[0]);
    const { results, seconds } = await chats(base, key, CHATS, 'Chat');
    const firstToken = latencyStats(results.map((r) => r.firstTokenMs));
    const done = latencyStats(results.map((r) => r.doneMs));
    console.log(`${CHATS} chats at ${CONCURRENCY}: ${round(CHATS / seconds)} chats/s`);
    console.log('first token (ms)', firstToken);
    console.log('done (ms)', done);
    const widget = widgetSize();
    if (widget) console.log(`widget.js: ${widget.bytes} B, ${widget.gzipBytes} B gzip`);
    await stopServer(server);
    return {
      serverCommand: `node --max-semi-space-size=8 --import tsx apps/server/src/main.ts (ROLE=all), DATA_DIR in ${os.tmpdir()}`,
      database: {
        ...settings,
        what: 'the embedded PostgreSQL the server starts in its DATA_DIR, as `npm start` has it',
      },
      model: 'the instant fake OpenAI-compatible server (apps/server/src/testing/fake-llm-server.ts)',
      concurrency: CONCURRENCY,
      chats: CHATS,
      warmupChats: WARMUP_CHATS,
      oneAtATime: { chats: ALONE_CHATS, firstTokenMs: aloneFirstToken },
      chatsPerSecond: round(CHATS / seconds),
      firstTokenMs: firstToken,
      doneMs: done,
      loadAverage1m: { atStart: loadAtStart, atEnd: round(os.loadavg()[0]) },
      widget,
      note:
        'POST /v1/chat/completions with stream: true and an API key: ALONE_CHATS one at a time, then CHATS by ' +
        'CONCURRENCY closed-loop clients (their first token includes the wait behind the others). First token: ' +
        'the first chunk with text. With an instant model the step ends inside the step stream’s first 100 ms, ' +
        'so its text arrives whole once the run ended: first token ≈ the run’s round trip.',
    };
  } finally {
    process.off('exit', killServer);
    killServer();
    await fake.close();
  }
}
