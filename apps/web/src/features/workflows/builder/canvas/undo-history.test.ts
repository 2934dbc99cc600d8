import { describe, expect, it } from 'vitest';

import { type BuilderSnapshot, DEFAULT_SETTINGS } from '../workflow-save';
import { EMPTY_HISTORY, HISTORY_LIMIT, record, redo, undo } from './undo-history';

const snap = (name: string): BuilderSnapshot => ({
  settings: { ...DEFAULT_SETTINGS, name },
  nodes: [],
  edges: [],
});

describe('undo history', () => {
  it('steps back and forward through recorded states', () => {
    let h = record(EMPTY_HISTORY, snap('a'));
    h = record(h, snap('b'));
    const back = undo(h, snap('c'))!;
    expect(back.snapshot.settings.name).toBe('b');
    const forward = redo(back.history, back.snapshot)!;
    expect(forward.snapshot.settings.name).toBe('c');
    expect(forward.history.past.map((s) => s.settings.name)).toEqual(['a', 'b']);
  });

  it('has nothing to undo or redo when empty', () => {
    expect(undo(EMPTY_HISTORY, snap('x'))).toBeNull();
    expect(redo(EMPTY_HISTORY, snap('x'))).toBeNull();
  });

  it('joins consecutive changes with the same key into one step', () => {
    let h = record(EMPTY_HISTORY, snap(''), 'settings:name');
    h = record(h, snap('R'), 'settings:name');
    h = record(h, snap('Re'), 'settings:name');
    expect(h.past.map((s) => s.settings.name)).toEqual(['']);
    h = record(h, snap('Res'), 'settings:description');
    h = record(h, snap('Res'), 'settings:name');
    expect(h.past).toHaveLength(3);
  });

  it('starts a new step for the same field after an undo or another kind of change', () => {
    let h = record(EMPTY_HISTORY, snap(''), 'settings:name');
    h = record(h, snap('x'));
    h = record(h, snap('y'), 'settings:name');
    expect(h.past).toHaveLength(3);
    const back = undo(h, snap('z'))!;
    expect(record(back.history, snap('y'), 'settings:name').past).toHaveLength(3);
  });

  it('forgets the redo steps when a new change comes in', () => {
    let h = record(EMPTY_HISTORY, snap('a'));
    h = undo(h, snap('b'))!.history;
    expect(h.future).toHaveLength(1);
    expect(record(h, snap('a')).future).toEqual([]);
  });

  it(`keeps at most ${HISTORY_LIMIT} steps, dropping the oldest`, () => {
    let h = EMPTY_HISTORY;
    for (let i = 0; i < HISTORY_LIMIT + 20; i++) h = record(h, snap(String(i)));
    expect(h.past).toHaveLength(HISTORY_LIMIT);
    expect(h.past[0]!.settings.name).toBe('20');
  });
});
