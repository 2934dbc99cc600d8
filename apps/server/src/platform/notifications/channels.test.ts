import { describe, expect, it } from 'vitest';
import type { RealtimeEvent } from '@crewline/contracts';
import { channels, quoteChannel, type Channel } from './channels';

const event = (agentId: string): RealtimeEvent => ({ type: 'agent_created', organizationId: 'org', agentId });

describe('the channel registry', () => {
  it('names every channel once, each a plain identifier LISTEN takes', () => {
    const names = Object.values(channels).map((channel) => channel.name);
    expect(names).toEqual([
      'crewline_events',
      'crewline_sessions',
      'crewline_watch',
      'crewline_jobs',
      'crewline_knowledge',
    ]);
    for (const name of names) expect(quoteChannel(name)).toBe(`"${name}"`);
    expect(() => quoteChannel('bad; DROP TABLE users')).toThrow(/invalid notification channel/);
  });

  it('reads back what it writes, on every channel', () => {
    const roundTrip = <P>(channel: Channel<P>, payload: P) => channel.decode(channel.encode(payload));
    expect(roundTrip(channels.events, [event('a')])).toEqual([event('a')]);
    expect(roundTrip(channels.events, [event('a'), event('b')])).toEqual([event('a'), event('b')]);
    expect(roundTrip(channels.sessions, { type: 'session_ended', sessionId: 's' })).toEqual({
      type: 'session_ended',
      sessionId: 's',
    });
    expect(roundTrip(channels.watch, ['org/wf'])).toEqual(['org/wf']);
    expect(roundTrip(channels.runs, { type: 'cancelled', executionId: 'run' })).toEqual({
      type: 'cancelled',
      executionId: 'run',
    });
    expect(roundTrip(channels.knowledge, 'doc')).toBe('doc');
  });

  it('sends one event as itself, several as an array in order (as other processes read them)', () => {
    expect(channels.events.encode([event('a')])).toBe(JSON.stringify(event('a')));
    expect(channels.events.encode([event('a'), event('b')])).toBe(JSON.stringify([event('a'), event('b')]));
  });

  it('refuses payloads that are not its own: a browser event is no run control, and the reverse', () => {
    expect(() => channels.runs.decode(JSON.stringify(event('a')))).toThrow();
    expect(() => channels.runs.decode(JSON.stringify({ type: 'paused', executionId: 'run' }))).toThrow();
    expect(() => channels.events.decode(JSON.stringify({ type: 'queued', executionId: 'run' }))).toThrow();
    expect(() => channels.sessions.decode('not json')).toThrow();
    expect(() => channels.watch.decode('{"not":"a list"}')).toThrow();
  });
});
