import type { GuardrailCheck } from '@crewline/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';

import { renderWithApp } from '@/testing/render';

import { GuardrailChecksEditor } from './guardrail-checks-editor';

/** The editor over a list it owns; `changes` collects each list it hands back, with its undo step. */
function renderEditor(initial: GuardrailCheck[] = []) {
  const changes: { checks: GuardrailCheck[]; step: string | null }[] = [];
  function Harness() {
    const [checks, setChecks] = useState(initial);
    return (
      <GuardrailChecksEditor
        label="Checks"
        value={checks}
        onChange={(next, step) => {
          changes.push({ checks: next, step });
          setChecks(next);
        }}
      />
    );
  }
  const user = userEvent.setup();
  renderWithApp(<Harness />);
  const last = () => changes.at(-1)!.checks;
  return { user, changes, last };
}

const card = (name: string) => screen.getByRole('listitem', { name });

async function addCheck(user: ReturnType<typeof userEvent.setup>, type: string) {
  await user.click(screen.getByRole('button', { name: /^Add check/ }));
  await user.click(await screen.findByRole('menuitem', { name: type }));
}

/** The options the card's Action select offers. */
async function actionOptions(user: ReturnType<typeof userEvent.setup>, scope: HTMLElement) {
  await user.click(within(scope).getByLabelText('Action'));
  const options = (await screen.findAllByRole('option')).map((o) => o.textContent);
  await user.keyboard('{Escape}');
  return options;
}

describe('the guardrail checks editor', () => {
  it('adds each of the five types from its menu, PII redacting and the others blocking', async () => {
    const { user, last } = renderEditor();
    expect(screen.getByText('No checks yet.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /^Add check/ }));
    expect((await screen.findAllByRole('menuitem')).map((i) => i.textContent)).toEqual([
      'PII',
      'Secrets',
      'Prompt injection',
      'Moderation',
      'Custom rule',
    ]);
    await user.click(screen.getByRole('menuitem', { name: 'PII' }));
    await addCheck(user, 'Prompt injection');
    expect(last()).toEqual([
      { type: 'pii', enabled: true, action: 'redact' },
      { type: 'injection', enabled: true, action: 'block' },
    ]);
    expect(card('Check 1: PII')).toBeTruthy();
    expect(card('Check 2: Prompt injection')).toBeTruthy();
  });

  it('offers Redact only to PII and secrets checks', async () => {
    const { user } = renderEditor([
      { type: 'pii', enabled: true, action: 'redact' },
      { type: 'secrets', enabled: true, action: 'block' },
      { type: 'moderation', enabled: true, action: 'flag' },
    ]);
    expect(await actionOptions(user, card('Check 1: PII'))).toEqual(['Block', 'Redact', 'Flag']);
    expect(await actionOptions(user, card('Check 2: Secrets'))).toEqual(['Block', 'Redact', 'Flag']);
    expect(await actionOptions(user, card('Check 3: Moderation'))).toEqual(['Block', 'Flag']);
  });

  it('a PII check: all entities by default; unticking one lists the others; countries only with National ID', async () => {
    const { user, last } = renderEditor([{ type: 'pii', enabled: true, action: 'redact' }]);
    const pii = card('Check 1: PII');
    const entity = (name: string) => within(pii).getByRole('checkbox', { name });
    for (const name of ['Email', 'Phone', 'Card', 'IBAN', 'IP address', 'National ID'])
      expect(entity(name).getAttribute('aria-checked')).toBe('true');
    expect(within(pii).getByRole('checkbox', { name: 'Spain' })).toBeTruthy();

    await user.click(entity('Phone'));
    expect(last()[0]).toMatchObject({ entities: ['email', 'card', 'iban', 'ip', 'national_id'] });
    await user.click(within(pii).getByRole('checkbox', { name: 'Spain' }));
    expect(last()[0]).toMatchObject({ countries: ['us', 'gb', 'fr', 'it', 'nl'] });

    await user.click(entity('National ID'));
    expect(within(pii).queryByRole('checkbox', { name: 'Spain' })).toBeNull();
    // Ticking every entity again means all of them: the list goes, so kinds added later count too.
    await user.click(entity('Phone'));
    await user.click(entity('National ID'));
    expect(last()[0]).not.toHaveProperty('entities', expect.anything());
  });

  it('switches a check off (kept, its settings hidden) and removes one', async () => {
    const { user, last } = renderEditor([
      { type: 'secrets', enabled: true, action: 'block' },
      { type: 'injection', enabled: true, threshold: 0.7, action: 'flag' },
    ]);
    await user.click(screen.getByRole('switch', { name: 'Secrets check on' }));
    expect(last()[0]).toEqual({ type: 'secrets', enabled: false, action: 'block' });
    expect(within(card('Check 1: Secrets')).getByText('Off: kept, but not run.')).toBeTruthy();
    expect(within(card('Check 1: Secrets')).queryByLabelText('Action')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Remove Secrets check' }));
    expect(last()).toEqual([{ type: 'injection', enabled: true, threshold: 0.7, action: 'flag' }]);
    expect((screen.getByLabelText('Threshold') as HTMLInputElement).value).toBe('0.7');
  });

  it('a threshold outside 0–1 is flagged and not kept; typing one joins its keystrokes in one undo step', async () => {
    const { user, changes, last } = renderEditor([{ type: 'injection', enabled: true, action: 'block' }]);
    const threshold = screen.getByLabelText('Threshold');
    await user.type(threshold, '1.5');
    expect(screen.getByText('From 0 to 1.')).toBeTruthy();
    expect(threshold.getAttribute('aria-invalid')).toBe('true');
    expect(last()[0]).toMatchObject({ threshold: 1 });
    await user.clear(threshold);
    await user.type(threshold, '0.8');
    expect(last()[0]).toMatchObject({ threshold: 0.8 });
    expect(new Set(changes.map((c) => c.step))).toEqual(new Set(['checks:0:threshold']));
  });

  it('a custom rule: a label, a CEL expression and topics; with neither it says what it needs', async () => {
    const { user, last } = renderEditor();
    await addCheck(user, 'Custom rule');
    const rule = card('Check 1: Custom rule');
    expect(within(rule).getByText('Give it an expression or topics.')).toBeTruthy();
    expect(await actionOptions(user, rule)).toEqual(['Block', 'Flag']);
    await user.type(within(rule).getByLabelText('Rule label'), 'Refunds');
    await user.type(within(rule).getByLabelText('When'), 'text.contains("refund")');
    await user.type(within(rule).getByLabelText('Topics'), 'Billing, Orders');
    expect(last()[0]).toEqual({
      type: 'rule',
      enabled: true,
      label: 'Refunds',
      when: 'text.contains("refund")',
      topics: ['Billing', 'Orders'],
      action: 'block',
    });
    expect(within(rule).queryByText('Give it an expression or topics.')).toBeNull();
    expect(within(rule).getByText('Custom rule: Refunds')).toBeTruthy();
  });
});
