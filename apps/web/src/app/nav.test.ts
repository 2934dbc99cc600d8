import { describe, expect, it } from 'vitest';

import { isNavItemActive, isNavVisible } from './nav';

describe('isNavVisible', () => {
  it('shows the navigation on / and on every app area', () => {
    for (const path of [
      '/',
      '/dashboard',
      '/agents',
      '/agents/edit/42',
      '/workflows',
      '/workflows/new',
      '/workflows/edit/abc',
      '/tools',
      '/knowledge',
      '/knowledge/kb1',
      '/templates',
      '/evaluations',
      '/evaluations/datasets/d1',
      '/analytics',
      '/inbox',
      '/settings/profile',
      '/subscribe',
    ]) {
      expect(isNavVisible(path), path).toBe(true);
    }
  });

  it('hides it elsewhere', () => {
    for (const path of ['/login', '/signup', '/tool-config-demo', '/docs', '/nope', '/Dashboard', '']) {
      expect(isNavVisible(path), path).toBe(false);
    }
  });
});

describe('isNavItemActive', () => {
  it('marks Dashboard active at / and /dashboard', () => {
    expect(isNavItemActive('/dashboard', '/')).toBe(true);
    expect(isNavItemActive('/dashboard', '/dashboard')).toBe(true);
    expect(isNavItemActive('/agents', '/')).toBe(false);
  });

  it('marks a section active on its sub-pages only', () => {
    expect(isNavItemActive('/workflows', '/workflows/edit/1')).toBe(true);
    expect(isNavItemActive('/tools', '/tool-config-demo')).toBe(false);
    expect(isNavItemActive('/agents', '/agentsx')).toBe(false);
    expect(isNavItemActive('/evaluations', '/evaluations/runs/r1')).toBe(true);
  });
});
