import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { RUN_RING, RunBadge } from './run-badge';

describe('a node’s run mark', () => {
  it('marks a node the run waits at (an approval, a delay) Waiting, in its own colour', () => {
    render(<RunBadge run={{ status: 'waiting' }} />);
    const badge = screen.getByTestId('node-run-status');
    expect(badge.textContent).toBe('Waiting');
    expect(badge.className).toContain('text-violet-700');
    expect(RUN_RING.waiting).toContain('ring-violet-500');
    expect(RUN_RING.waiting).not.toBe(RUN_RING.running);
  });
});
