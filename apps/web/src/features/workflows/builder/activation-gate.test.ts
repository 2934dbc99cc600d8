import { describe, expect, it } from 'vitest';

import {
  EMPTY_GATE_DRAFT,
  GATE_MESSAGES,
  gateDraftOf,
  gateOf,
  gatePasses,
  gateProblems,
  shortJson,
  withGate,
} from './activation-gate';
import { snapshot } from './builder-snapshot.fixture';
import { preSaveCheck } from './workflow-checks';
import { buildPayload, settingsFromWorkflow } from './workflow-save';

const gate = (patch: Partial<typeof EMPTY_GATE_DRAFT>) => ({ ...EMPTY_GATE_DRAFT, ...patch });

describe('the activation gate in the builder', () => {
  it('shows a saved config.activationGate as a switch that is on and a percentage', () => {
    expect(gateDraftOf({ evaluationId: 'ev-1', minPassRate: 0.8 })).toEqual({
      enabled: true,
      evaluationId: 'ev-1',
      minPassRate: '80',
    });
    expect(gateDraftOf({ evaluationId: 'ev-1', minPassRate: 0.875 }).minPassRate).toBe('87.5');
    // None, null, or something that is not a gate: off.
    expect(gateDraftOf(undefined)).toEqual(EMPTY_GATE_DRAFT);
    expect(gateDraftOf(null).enabled).toBe(false);
    expect(gateDraftOf({ evaluationId: 'ev-1', minPassRate: 3 }).enabled).toBe(false);
  });

  it('saves the percentage as a rate from 0 to 1, and no gate when the switch is off', () => {
    expect(gateOf(gate({ enabled: true, evaluationId: 'ev-1', minPassRate: '80' }))).toEqual({
      evaluationId: 'ev-1',
      minPassRate: 0.8,
    });
    expect(gateOf(gate({ enabled: true, evaluationId: 'ev-1', minPassRate: ' 87.5 % ' }))?.minPassRate).toBe(
      0.875,
    );
    expect(gateOf(gate({ enabled: true, evaluationId: 'ev-1', minPassRate: '0' }))?.minPassRate).toBe(0);
    expect(gateOf(gate({ enabled: false, evaluationId: 'ev-1', minPassRate: '80' }))).toBeNull();
  });

  it('names a missing evaluation and a percentage out of 0–100, only while the gate is on', () => {
    expect(gateProblems(gate({ enabled: true, minPassRate: '120' }))).toEqual({
      evaluationId: GATE_MESSAGES.evaluationRequired,
      minPassRate: GATE_MESSAGES.minPassRate,
    });
    expect(gateProblems(gate({ enabled: true, evaluationId: 'ev-1', minPassRate: 'most' }))).toEqual({
      minPassRate: GATE_MESSAGES.minPassRate,
    });
    expect(gateProblems(gate({ enabled: false, minPassRate: 'most' }))).toEqual({});
    const blocked = preSaveCheck(
      snapshot({ activationGate: gate({ enabled: true, minPassRate: '80' }) }),
      (id) => id === 'a1',
    );
    expect(blocked).toEqual({ title: 'Validation Error', description: GATE_MESSAGES.evaluationRequired });
  });

  it('keeps the gate beside the budget and the other config keys, and drops it when turned off', () => {
    const settings = settingsFromWorkflow({
      name: 'Digest',
      description: null,
      processType: 'sequential',
      triggerType: 'manual',
      triggerConfig: {},
      config: {
        retries: 2,
        budget: { monthlyCapUsd: 20 },
        activationGate: { evaluationId: 'ev-1', minPassRate: 0.9 },
      },
    });
    expect(settings.otherConfig).toEqual({ retries: 2 });
    expect(settings.activationGate).toEqual({ enabled: true, evaluationId: 'ev-1', minPassRate: '90' });
    expect(buildPayload(snapshot(settings)).config).toEqual({
      retries: 2,
      budget: { monthlyCapUsd: 20 },
      activationGate: { evaluationId: 'ev-1', minPassRate: 0.9 },
    });
    const off = { ...settings, activationGate: { ...settings.activationGate, enabled: false } };
    expect(buildPayload(snapshot(off)).config).toEqual({ retries: 2, budget: { monthlyCapUsd: 20 } });
    expect(withGate({ activationGate: { stale: true }, retries: 2 }, EMPTY_GATE_DRAFT)).toEqual({
      retries: 2,
    });
  });

  it("cuts a failed item's input to one short line, and passes at the gate's minimum", () => {
    expect(shortJson({ message: 'Beta prices' })).toBe('{"message":"Beta prices"}');
    const long = shortJson({ message: 'x'.repeat(300) });
    expect(long).toHaveLength(120);
    expect(long.endsWith('…')).toBe(true);
    expect(gatePasses(0.8, 0.8)).toBe(true);
    expect(gatePasses(0.5, 0.8)).toBe(false);
    expect(gatePasses(null, 0)).toBe(false);
  });
});
