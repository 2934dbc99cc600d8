import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { ExecutionStatusBadge } from './execution-status-badge';

describe('ExecutionStatusBadge', () => {
  it('names the status, and colours completed green, failed red, running blue, waiting violet and the rest yellow', () => {
    const statuses = ['completed', 'failed', 'running', 'cancelled', 'pending', 'waiting'];
    render(
      <>
        {statuses.map((status) => (
          <ExecutionStatusBadge key={status} status={status} />
        ))}
      </>,
    );
    const badges = screen.getAllByTestId('execution-status');
    expect(badges.map((badge) => [badge.dataset.status, badge.textContent])).toEqual([
      ['completed', 'Completed'],
      ['failed', 'Failed'],
      ['running', 'Running'],
      ['cancelled', 'Cancelled'],
      ['pending', 'Pending'],
      ['waiting', 'Waiting'],
    ]);
    const colour = (badge: HTMLElement) => /text-(\w+)-700/.exec(badge.className)?.[1];
    expect(badges.map(colour)).toEqual(['emerald', 'red', 'blue', 'amber', 'amber', 'violet']);
  });

  it('says Pending when the status is empty', () => {
    render(<ExecutionStatusBadge status="" />);
    expect(screen.getByTestId('execution-status').textContent).toBe('Pending');
  });
});
