import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../testing/test-db';
import { EXECUTION_QUEUE, startQueue, type Queue } from './queue';

// pg-boss in several processes sharing one database, as main.ts starts it in each of them.
let database: TestDb;
const started: Queue[] = [];
beforeAll(async () => {
  database = await createTestDb();
});
afterAll(async () => {
  for (const boss of started) await boss.stop({ graceful: false });
  await database?.close();
});

describe('the job queue', () => {
  it('starts in several processes at once on a new database (API and workers started together)', async () => {
    const silent = pino({ level: 'silent' });
    const results = await Promise.allSettled(
      Array.from({ length: 4 }, () => startQueue(database.url, silent)),
    );
    for (const result of results) if (result.status === 'fulfilled') started.push(result.value);
    expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'started'))).toEqual(
      Array(4).fill('started'),
    );
    // pg-boss never retries a run's job (the sweeper re-sends lost runs), and lets it run for hours.
    expect(await started[0].getQueue(EXECUTION_QUEUE)).toMatchObject({
      name: EXECUTION_QUEUE,
      retryLimit: 0,
      expireInSeconds: 6 * 60 * 60,
    });
  });
});
