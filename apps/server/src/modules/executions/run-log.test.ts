import { describe, expect, it } from 'vitest';
import { createRunLog, logLine } from './run-log';

describe("an attempt's run log", () => {
  it('stamps each line, naming its step when there is one', () => {
    const line = logLine('info', 'Run started');
    expect(line).toEqual({ at: expect.any(String), level: 'info', message: 'Run started' });
    expect(new Date(line.at).toISOString()).toBe(line.at);
    expect(logLine('warn', 'tool failed', 'n1')).toMatchObject({ nodeId: 'n1' });
  });

  it("hands each line once to a step's statement, and the rest to the run's end", () => {
    const log = createRunLog();
    log.add('info', 'Run started');
    log.add('info', 'Writer finished', 'n1');
    const first = log.claim();
    expect(first.lines.map((l) => l.message)).toEqual(['Run started', 'Writer finished']);
    log.add('info', 'Editor finished', 'n2');
    expect(log.claim().lines.map((l) => l.message)).toEqual(['Editor finished']);
    log.add('info', 'Run completed');
    expect(log.unstored().map((l) => l.message)).toEqual(['Run completed']);
  });

  it('takes back the lines of a statement that failed, so none is lost', () => {
    const log = createRunLog();
    log.add('info', 'Run started');
    const claimed = log.claim();
    expect(log.unstored()).toEqual([]);
    claimed.release();
    expect(log.unstored().map((l) => l.message)).toEqual(['Run started']);
  });

  it("answers a step's own lines and whether a line was written", () => {
    const log = createRunLog();
    log.add('info', 'Run started');
    log.add('warn', 'Writer used the tool notes (it failed)', 'n1');
    log.add('error', 'The model refused', 'n2');
    log.claim();
    expect(log.ofStep('n1').map((l) => l.message)).toEqual(['Writer used the tool notes (it failed)']);
    expect(log.has('error', 'The model refused')).toBe(true);
    expect(log.has('info', 'The model refused')).toBe(false);
  });
});
