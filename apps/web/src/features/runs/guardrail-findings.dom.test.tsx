import type { EvaluationRecord, GuardrailResult } from '@crewline/contracts';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { GuardrailFindings } from './guardrail-findings';
import { StepInspector } from './step-inspector';

const redacted: GuardrailResult = {
  passed: true,
  text: 'Write to [EMAIL] please, card [CARD]',
  findings: [
    { check: 'pii', kind: 'email', start: 9, end: 24, action: 'redact' },
    { check: 'pii', kind: 'card', start: 37, end: 56, action: 'redact' },
    { check: 'injection', kind: 'injection', start: 0, end: 56, score: 0.62, action: 'flag' },
  ],
};

/** The findings table as rows of cell texts, the header first. */
const table = () =>
  within(screen.getByTestId('guardrail-findings-table'))
    .getAllByRole('row')
    .map((row) =>
      within(row)
        .getAllByRole(row.querySelector('th') ? 'columnheader' : 'cell')
        .map((c) => c.textContent),
    );

describe('a guardrail step’s findings', () => {
  it('shows Passed, the text that went on with its redactions marked, and each finding without its value', () => {
    render(<GuardrailFindings data={redacted} />);
    expect(screen.getByText('Passed')).toBeTruthy();
    expect(screen.getByText('Text that went on')).toBeTruthy();
    const text = screen.getByTestId('guardrail-text');
    expect(text.textContent).toBe('Write to [EMAIL] please, card [CARD]');
    expect([...text.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['[EMAIL]', '[CARD]']);
    expect(table()).toEqual([
      ['Check', 'Kind', 'Position', 'Action', 'Score'],
      ['PII', 'Email', '9–24', 'Redact', ''],
      ['PII', 'Card', '37–56', 'Redact', ''],
      ['Prompt injection', 'Injection', '0–56', 'Flag', '0.62'],
    ]);
  });

  it('a blocked text: Blocked, the text as checked, and no Score column when no finding has one', () => {
    render(
      <GuardrailFindings
        data={{
          passed: false,
          text: 'key sk-… here',
          findings: [{ check: 'secrets', kind: 'openai_api_key', start: 4, end: 55, action: 'block' }],
        }}
      />,
    );
    expect(screen.getByText('Blocked')).toBeTruthy();
    expect(screen.getByText('Text checked')).toBeTruthy();
    expect(table()).toEqual([
      ['Check', 'Kind', 'Position', 'Action'],
      ['Secrets', 'Openai api key', '4–55', 'Block'],
    ]);
  });

  it('nothing found says so, with no table', () => {
    render(<GuardrailFindings data={{ passed: true, text: 'Hello', findings: [] }} />);
    expect(screen.getByText('Nothing found.')).toBeTruthy();
    expect(screen.queryByTestId('guardrail-findings-table')).toBeNull();
  });

  it('in the step inspector: the findings instead of the raw data and the evaluated list', async () => {
    const evaluation: EvaluationRecord = { kind: 'guardrail', evaluated: [], result: redacted };
    const user = userEvent.setup();
    render(<StepInspector kind="guardrail" data={redacted} evaluation={evaluation} />);
    await user.click(screen.getByRole('button', { name: /Inspect step/ }));
    expect(screen.getByTestId('guardrail-text').textContent).toBe('Write to [EMAIL] please, card [CARD]');
    expect(screen.queryByText('Nothing was evaluated.')).toBeNull();
    expect(screen.queryByRole('tree', { name: 'Step data' })).toBeNull();
    expect(screen.queryByText('Data')).toBeNull();
  });
});
