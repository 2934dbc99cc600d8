import { describe, expect, it } from 'vitest';
import { createEventBus } from '../../platform/events';
import { createWatchedWorkflows, WATCH_TTL_MS, watchKey } from './watched-workflows';

describe('watched workflows', () => {
  it('holds an announcement for WATCH_TTL_MS, renewed by the next one', () => {
    const events = createEventBus();
    let now = 1_000_000;
    const watched = createWatchedWorkflows(events, () => now);
    expect(watched.isWatched('org', 'wf')).toBe(false);

    events.publishWatching([watchKey('org', 'wf')]);
    expect(watched.isWatched('org', 'wf')).toBe(true);
    // Another organization's workflow of the same id is another key.
    expect(watched.isWatched('other', 'wf')).toBe(false);

    now += WATCH_TTL_MS - 1;
    expect(watched.isWatched('org', 'wf')).toBe(true);
    events.publishWatching([watchKey('org', 'wf')]);
    now += WATCH_TTL_MS - 1;
    expect(watched.isWatched('org', 'wf')).toBe(true);
    now += 1;
    expect(watched.isWatched('org', 'wf')).toBe(false);
  });

  it('stops listening when closed', () => {
    const events = createEventBus();
    const watched = createWatchedWorkflows(events);
    watched.close();
    events.publishWatching([watchKey('org', 'wf')]);
    expect(watched.isWatched('org', 'wf')).toBe(false);
  });
});
