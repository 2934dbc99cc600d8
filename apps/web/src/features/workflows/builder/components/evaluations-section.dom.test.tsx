import type { Evaluation, Session, Workflow } from '@crewline/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { clearStoredAuth, setAuthToken } from '@/lib/auth-token';

import { agentFixture, at, openBuilder, workflowFixture } from '@/testing/builder';
import { answerGet } from '@/testing/msw-server';
import { aSession } from '@/testing/session';

import { GATE_HELP, GATE_MESSAGES, GATE_SWITCH_LABEL } from '../activation-gate';

const agents = [agentFixture({ id: 'a1', name: 'Researcher', role: 'Researches', goal: 'Facts' })];

const workflow = (fields: Partial<Workflow> = {}) =>
  workflowFixture({
    name: 'Weekly report',
    status: 'active',
    nodes: [
      { id: 'start', type: 'start', position: { x: 100, y: 100 }, data: { label: 'Start' } },
      { id: 'n1', type: 'agent', agentId: 'a1', position: { x: 100, y: 250 }, data: { label: 'Researcher' } },
      { id: 'end', type: 'end', position: { x: 100, y: 400 }, data: { label: 'End' } },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'n1' },
      { id: 'e2', source: 'n1', target: 'end' },
    ],
    ...fields,
  });

const evaluation = (fields: Pick<Evaluation, 'id' | 'name'> & Partial<Evaluation>): Evaluation => ({
  workflowId: 'wf-1',
  workflowName: 'Weekly report',
  datasetId: 'ds-1',
  datasetName: 'Report cases',
  graders: [{ type: 'exact', name: 'Same answer' }],
  passThreshold: 1,
  schedule: null,
  lastRun: null,
  createdAt: at,
  updatedAt: at,
  ...fields,
});

const evaluations = [
  evaluation({
    id: 'ev-1',
    name: 'Answers stay right',
    lastRun: { id: 'run-1', status: 'completed', passRate: 0.5, createdAt: at },
  }),
  evaluation({ id: 'ev-2', name: 'Tone' }),
];

// Signed in: the viewer's role comes with the session.
beforeEach(() => setAuthToken('token'));
afterEach(() => clearStoredAuth());

beforeAll(() => {
  // Radix's Select reaches for pointer capture and scrolling, which the DOM here lacks.
  Element.prototype.hasPointerCapture ??= () => false;
  Element.prototype.releasePointerCapture ??= () => undefined;
  Element.prototype.scrollIntoView ??= () => undefined;
});

async function openSection(wf: Workflow, role: Session['organization']['role'] = 'admin') {
  const opened = await openBuilder({
    workflow: wf,
    agents,
    handlers: [
      answerGet<Evaluation[]>('/api/evaluations', evaluations),
      answerGet<Session>('/api/auth/me', aSession({ role })),
    ],
  });
  await opened.user.click(screen.getByRole('tab', { name: 'Settings' }));
  const section = await screen.findByRole('region', { name: 'Evaluations' });
  // The role comes with the session: an owner's or admin's gate fields are enabled once it is read.
  if (role !== 'member') {
    await waitFor(() =>
      expect(
        (within(section).getByRole('switch', { name: GATE_SWITCH_LABEL }) as HTMLButtonElement).disabled,
      ).toBe(false),
    );
  }
  return { ...opened, section };
}

describe("the builder's Evaluations section (Settings tab)", () => {
  it("lists the workflow's evaluations, and saves the gate it sets with Save Draft, without a status", async () => {
    const { section, sent, user } = await openSection(workflow({ config: { retries: 2 } }));

    // Each evaluation with its last run's pass rate, linked to its page; and the way to a new one.
    const list = await within(section).findByRole('list', { name: 'Evaluations of this workflow' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual(['Answers stay right50 %', 'ToneNever run']);
    expect(within(rows[0]!).getByRole('link').getAttribute('href')).toBe('/evaluations/ev-1');
    expect(within(section).getByRole('link', { name: 'New evaluation' }).getAttribute('href')).toBe(
      '/evaluations',
    );
    expect(within(section).getByText(GATE_HELP)).toBeTruthy();

    // The gate on, without an evaluation chosen: Save Draft names what is missing and sends nothing.
    const gateSwitch = within(section).getByRole('switch', { name: GATE_SWITCH_LABEL });
    expect(gateSwitch.getAttribute('aria-checked')).toBe('false');
    await user.click(gateSwitch);
    expect(await within(section).findByText(GATE_MESSAGES.evaluationRequired)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /Save Draft/ }));
    expect(sent).toHaveLength(0);

    await user.click(within(section).getByLabelText('Evaluation'));
    await user.click(await screen.findByRole('option', { name: 'Answers stay right' }));
    const minimum = within(section).getByLabelText('Minimum pass rate') as HTMLInputElement;
    await user.clear(minimum);
    await user.type(minimum, '80');
    await user.click(screen.getByRole('button', { name: /Save Draft/ }));

    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.config).toEqual({
      retries: 2,
      activationGate: { evaluationId: 'ev-1', minPassRate: 0.8 },
    });
    // An existing workflow's Save Draft sends no status: behind the gate, 'active' would be an activation.
    expect(sent[0]).not.toHaveProperty('status');
  });

  it('shows a saved gate, and turned off it leaves config.activationGate out', async () => {
    const { section, sent, user } = await openSection(
      workflow({ config: { activationGate: { evaluationId: 'ev-2', minPassRate: 0.9 } } }),
    );
    const gateSwitch = within(section).getByRole('switch', { name: GATE_SWITCH_LABEL });
    expect(gateSwitch.getAttribute('aria-checked')).toBe('true');
    expect(within(section).getByLabelText('Evaluation').textContent).toBe('Tone');
    expect((within(section).getByLabelText('Minimum pass rate') as HTMLInputElement).value).toBe('90');

    await user.click(gateSwitch);
    expect(within(section).queryByLabelText('Minimum pass rate')).toBeNull();
    await user.click(screen.getByRole('button', { name: /Save Draft/ }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.config).toEqual({});
  });

  it('shows a member the gate without letting them change it', async () => {
    const { section } = await openSection(
      workflow({ config: { activationGate: { evaluationId: 'ev-1', minPassRate: 0.8 } } }),
      'member',
    );
    const gateSwitch = await within(section).findByRole('switch', { name: GATE_SWITCH_LABEL });
    expect(gateSwitch.getAttribute('aria-checked')).toBe('true');
    expect((gateSwitch as HTMLButtonElement).disabled).toBe(true);
    expect(within(section).getByLabelText('Minimum pass rate').closest('fieldset')?.disabled).toBe(true);
    expect(within(section).getByText('Only owners and admins change the activation gate.')).toBeTruthy();
  });
});
