import { describe, expect, it } from 'vitest';

import { shortcutApplies, shortcutFor } from './shortcuts';

const key = (
  k: string,
  mods: Partial<Record<'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey', boolean>> = {},
) => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...mods,
});

const fakeElement = (match: (selector: string) => boolean) =>
  ({
    isContentEditable: false,
    closest: (sel: string) => (match(sel) ? {} : null),
  }) as unknown as EventTarget;

describe('builder shortcuts', () => {
  it('maps Ctrl and Cmd combinations', () => {
    expect(shortcutFor(key('z', { ctrlKey: true }))).toBe('undo');
    expect(shortcutFor(key('z', { metaKey: true }))).toBe('undo');
    expect(shortcutFor(key('Z', { ctrlKey: true, shiftKey: true }))).toBe('redo');
    expect(shortcutFor(key('y', { ctrlKey: true }))).toBe('redo');
    expect(shortcutFor(key('c', { metaKey: true }))).toBe('copy');
    expect(shortcutFor(key('v', { ctrlKey: true }))).toBe('paste');
    expect(shortcutFor(key('d', { ctrlKey: true }))).toBe('duplicate');
    expect(shortcutFor(key('s', { ctrlKey: true }))).toBe('save');
    expect(shortcutFor(key('Delete'))).toBe('delete');
    expect(shortcutFor(key('Backspace'))).toBe('delete');
    expect(shortcutFor(key('?', { shiftKey: true }))).toBe('help');
  });

  it('ignores plain letters and other combinations', () => {
    expect(shortcutFor(key('z'))).toBeNull();
    expect(shortcutFor(key('c', { ctrlKey: true, altKey: true }))).toBeNull();
    expect(shortcutFor(key('v', { ctrlKey: true, shiftKey: true }))).toBeNull();
  });

  it('leaves text fields their own keys, except Save', () => {
    const input = fakeElement((sel) => sel.includes('input'));
    expect(shortcutApplies('undo', input)).toBe(false);
    expect(shortcutApplies('delete', input)).toBe(false);
    expect(shortcutApplies('help', input)).toBe(false);
    expect(shortcutApplies('save', input)).toBe(true);
  });

  it('works when the canvas or the page has focus, not inside a dialog', () => {
    expect(
      shortcutApplies(
        'undo',
        fakeElement(() => false),
      ),
    ).toBe(true);
    expect(shortcutApplies('undo', null)).toBe(true);
    expect(
      shortcutApplies(
        'delete',
        fakeElement((sel) => sel.includes('dialog')),
      ),
    ).toBe(false);
  });
});
