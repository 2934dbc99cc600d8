import type { GuardrailFinding } from '@crewline/contracts';
import { describe, expect, it } from 'vitest';
import type { AgentCall, GuardCall, RunDefinition, RunPorts } from '../run-workflow';
import { runWorkflow } from '../run-workflow';
import { guardrailKind } from './guardrail';
import { validationContext } from './kind-fixtures';

const usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
const pii = { type: 'pii', action: 'redact' } as const;

const errorsOf = (data: Record<string, unknown>, handles: (string | null)[] = ['pass', 'fail']) =>
  guardrailKind.validate(
    [{ id: 'screen', type: 'guardrail', data: { label: 'Screen', ...data } }],
    validationContext({
      outgoing: () => handles.map((h) => ({ source: 'screen', target: 'x', sourceHandle: h })),
    }),
  );

describe('validating a guardrail', () => {
  it('accepts checks with a pass and a fail path', () => {
    expect(errorsOf({ checks: [pii] })).toEqual([]);
  });

  it('needs a check that is on, both paths, and rules that read as conditions over the text', () => {
    expect(errorsOf({ checks: [] })).toEqual(['Guardrail "Screen" has no checks: add at least one']);
    expect(errorsOf({ checks: [{ ...pii, enabled: false }] })).toEqual([
      'Guardrail "Screen" has no checks: add at least one',
    ]);
    expect(errorsOf({ checks: [pii] }, ['pass'])).toEqual([
      'Guardrail "Screen" needs a pass path and a fail path',
    ]);
    expect(errorsOf({ checks: [pii] }, ['pass', 'fail', null])).toEqual([
      'Guardrail "Screen": its paths must leave from pass or fail',
    ]);
    expect(errorsOf({ checks: [{ type: 'rule', action: 'block' }] })).toEqual([
      'Guardrail "Screen": a custom rule needs an expression or topics',
    ]);
    expect(errorsOf({ checks: [{ type: 'rule', when: 'size(text) > 10', action: 'block' }] })).toEqual([]);
    const [bad] = errorsOf({ checks: [{ type: 'rule', when: 'size(text) + 1', action: 'block' }] });
    expect(bad).toMatch(/^Node "Screen": size\(text\) \+ 1 — .*not true or false/);
  });
});

/** Start → screen → pass: reply | fail: apologise → end. */
const screened = (data: Record<string, unknown>): RunDefinition => ({
  processType: 'sequential',
  agents: {
    a1: {
      id: 'a1',
      name: 'Writer',
      role: 'Writer',
      goal: 'Write',
      llmProvider: 'openai',
      llmModel: 'gpt-4o',
    },
  },
  nodes: [
    { id: 'start', type: 'start' },
    { id: 'screen', type: 'guardrail', data: { label: 'Screen', checks: [pii], ...data } },
    { id: 'reply', type: 'agent', agentId: 'a1', data: { label: 'Reply' } },
    { id: 'apologise', type: 'agent', agentId: 'a1', data: { label: 'Apologise' } },
    { id: 'end', type: 'end' },
  ],
  edges: [
    { source: 'start', target: 'screen' },
    { source: 'screen', target: 'reply', sourceHandle: 'pass' },
    { source: 'screen', target: 'apologise', sourceHandle: 'fail' },
    { source: 'reply', target: 'end' },
    { source: 'apologise', target: 'end' },
  ],
});

/** Ports whose guard redacts or blocks an email the way the server's checks do. */
function ports(action: 'redact' | 'block') {
  const asked: AgentCall[] = [];
  const guarded: GuardCall[] = [];
  const port: RunPorts = {
    now: () => 0,
    async callAgent(call) {
      asked.push(call);
      return { content: `${call.step.nodeId} done`, usage };
    },
    async guard(call) {
      guarded.push(call);
      const at = call.text.indexOf('ana@example.com');
      const findings: GuardrailFinding[] =
        at < 0 ? [] : [{ check: 'pii', kind: 'email', start: at, end: at + 15, action }];
      const text =
        action === 'redact' && at >= 0 ? call.text.replace('ana@example.com', '[EMAIL]') : call.text;
      return { passed: action !== 'block' || at < 0, text, findings, usage };
    },
  };
  return { port, asked, guarded };
}

describe('a guardrail in a run', () => {
  it('screens the input: the steps after it see the redacted text, never the original', async () => {
    const { port, asked, guarded } = ports('redact');
    const { output } = await runWorkflow(
      screened({}),
      { input: { message: 'Write to ana@example.com please' } },
      port,
    );
    expect(guarded[0].text).toContain('ana@example.com');
    expect(guarded[0].model).toEqual({ provider: 'openai', model: 'gpt-4o-mini' });
    expect(output.screen.data).toEqual({
      passed: true,
      text: expect.stringContaining('[EMAIL]'),
      findings: [
        { check: 'pii', kind: 'email', start: expect.any(Number), end: expect.any(Number), action: 'redact' },
      ],
    });
    expect(asked.map((c) => c.step.nodeId)).toEqual(['reply']);
    expect(asked[0].user).toContain('[EMAIL]');
    expect(asked[0].user).not.toContain('ana@example.com');
    expect(output.apologise.status).toBe('skipped');
  });

  it('takes the fail path when a check blocks', async () => {
    const { port, asked } = ports('block');
    const { output } = await runWorkflow(
      screened({ checks: [{ ...pii, action: 'block' }] }),
      { input: 'Write to ana@example.com please' },
      port,
    );
    expect(output.screen.data).toMatchObject({ passed: false });
    expect(asked.map((c) => c.step.nodeId)).toEqual(['apologise']);
    expect(output.reply.status).toBe('skipped');
  });

  it('checks its target expression, and a custom rule reads the text and the run', async () => {
    const { port, guarded } = ports('redact');
    await runWorkflow(
      screened({
        target: 'input.body',
        checks: [
          pii,
          { type: 'rule', when: 'text.contains("urgent") && run.trigger == "manual"', action: 'flag' },
        ],
      }),
      { input: { body: 'urgent: mail ana@example.com' } },
      port,
    );
    expect(guarded[0].text).toBe('urgent: mail ana@example.com');
    expect(guarded[0].checks.map((c) => c.type)).toEqual(['pii', 'rule']);
    expect(guarded[0].holds('text.contains("urgent") && run.trigger == "manual"')).toBe(true);
  });

  it('fails its run where there are no guardrails to run', async () => {
    const { port } = ports('redact');
    delete port.guard;
    await expect(runWorkflow(screened({}), { input: 'hi' }, port)).rejects.toThrow(
      'Guardrail "Screen" cannot run here: this run has no guardrails',
    );
  });
});
