import { describe, expect, it } from 'vitest';
import { BudgetExceededError } from '../../platform/errors';
import { budgetHooks, runBudget } from './budget-guard';
import type { CappedScope, Settled } from './spend-counters.repository';

/*
 * The budget hooks one model request answers to (docs/product-rules.md, Costs), against counters kept
 * in memory: the run's own budget with each call's worst case, reservations in the capped scopes,
 * settling the real cost, and a cap marked spent when a call is refused at it from 80 % on.
 */

const price = { inputPerMillion: 2, cachedInputPerMillion: 1, outputPerMillion: 10 };
const month = new Date('2026-12-01T00:00:00Z');
const org: CappedScope = { scope: 'organization', scopeId: '', capMicros: 1000 };

/** Counters of one scope in memory, refusing a reservation past the cap as the conditional update does. */
function counters(spent = 0) {
  const state = { spent, reserved: 0, exhausted: false, settled: [] as number[] };
  return {
    state,
    async reserve(_o: string, scopes: CappedScope[], _m: Date, micros: number, force = false) {
      const [scope] = scopes;
      if (!scope) return {};
      if (!force && state.spent + state.reserved + micros > scope.capMicros)
        return { refused: { ...scope, spentMicros: state.spent } };
      state.reserved += micros;
      return {};
    },
    async release(_o: string, _s: CappedScope[], _m: Date, micros: number) {
      state.reserved -= micros;
    },
    async settle(_o: string, scopes: CappedScope[], _m: Date, reserved: number, spentMicros: number) {
      state.reserved -= reserved;
      state.spent += spentMicros;
      state.settled.push(spentMicros);
      return [] as Settled[];
    },
    async exhausted(_o: string, scope: CappedScope) {
      if (state.exhausted) return undefined;
      state.exhausted = true;
      return { ...scope, spentMicros: state.spent, newAlert: 100 as const };
    },
  };
}

const usage = (prompt: number, completion: number) => ({
  promptTokens: prompt,
  completionTokens: completion,
  totalTokens: prompt + completion,
});

describe('a request’s budget hooks', () => {
  it('refuse a call whose worst case would pass the run’s budget, in the budget’s words', async () => {
    const run = runBudget({ maxCostPerRunUsd: 0.001 }, { micros: 400, tokens: 0 })!;
    const hooks = budgetHooks({
      counters: counters(),
      organizationId: 'o',
      scopes: [],
      month,
      price,
      run,
      alert: () => {},
    });
    // 100 input and 50 output tokens: 200 + 500 micro-dollars, over the 600 left.
    await expect(hooks.beforeCall({ inputTokens: 100, outputTokens: 50 })).rejects.toThrow(
      'Budget exceeded: this run spent $0.0004 of its $0.0010 budget',
    );
    // 50 output tokens fit: 200 + 250 = 450 of the 600 left; the real usage is then counted.
    await hooks.beforeCall({ inputTokens: 100, outputTokens: 25 });
    await hooks.afterCall(usage(80, 20));
    expect(run.spentMicros).toBe(400 + 160 + 200);
    expect(run.tokens).toBe(100);
  });

  it('check a run whose budget asks for approval only before its step’s first call', async () => {
    const run = runBudget({ maxCostPerRunUsd: 0.0001, onExceeded: 'approval' }, { micros: 0, tokens: 0 })!;
    const first = budgetHooks({
      counters: counters(),
      organizationId: 'o',
      scopes: [],
      month,
      price,
      run,
      firstOfStep: true,
      alert: () => {},
    });
    await expect(first.beforeCall({ inputTokens: 100, outputTokens: 100 })).rejects.toBeInstanceOf(
      BudgetExceededError,
    );
    const later = budgetHooks({
      counters: counters(),
      organizationId: 'o',
      scopes: [],
      month,
      price,
      run,
      firstOfStep: false,
      alert: () => {},
    });
    await later.beforeCall({ inputTokens: 100, outputTokens: 100 });
  });

  it('reserve the worst case, settle the real cost, and take back what a failed call reserved', async () => {
    const c = counters();
    const hooks = budgetHooks({
      counters: c,
      organizationId: 'o',
      scopes: [org],
      month,
      price,
      alert: () => {},
    });
    await hooks.beforeCall({ inputTokens: 100, outputTokens: 50 });
    expect(c.state.reserved).toBe(700);
    await hooks.afterCall(usage(100, 10));
    expect(c.state).toMatchObject({ reserved: 0, spent: 300 });
    // A second call of the same request is not refused at the cap (its step finishes)…
    await hooks.beforeCall({ inputTokens: 100, outputTokens: 100 });
    expect(c.state.reserved).toBe(1200);
    // …and a call that failed takes its reservation back.
    await hooks.finish();
    expect(c.state).toMatchObject({ reserved: 0, spent: 300 });
  });

  it('mark the cap spent, and alert once, when a call is refused from 80 % on; below, only refuse the call', async () => {
    const alerts: Settled[][] = [];
    const low = counters(500);
    const atHalf = budgetHooks({
      counters: low,
      organizationId: 'o',
      scopes: [org],
      month,
      price,
      alert: (a) => alerts.push(a),
    });
    await expect(atHalf.beforeCall({ inputTokens: 0, outputTokens: 60 })).rejects.toMatchObject({
      scope: 'organization',
      spentUsd: 0.0005,
    });
    expect(low.state.exhausted).toBe(false);

    const high = counters(850);
    for (let i = 0; i < 2; i++) {
      const hooks = budgetHooks({
        counters: high,
        organizationId: 'o',
        scopes: [org],
        month,
        price,
        alert: (a) => alerts.push(a),
      });
      await expect(hooks.beforeCall({ inputTokens: 0, outputTokens: 20 })).rejects.toThrow(
        'Budget exceeded: your organization spent $0.0009 of its $0.0010 monthly budget',
      );
    }
    expect(high.state.exhausted).toBe(true);
    expect(alerts).toEqual([[{ ...org, spentMicros: 850, newAlert: 100 }]]);
  });

  it('count nothing the caps can see for a model without a price', async () => {
    const c = counters();
    const hooks = budgetHooks({
      counters: c,
      organizationId: 'o',
      scopes: [org],
      month,
      price: undefined,
      alert: () => {},
    });
    await hooks.beforeCall({ inputTokens: 10_000, outputTokens: 10_000 });
    await hooks.afterCall(usage(10_000, 10_000));
    expect(c.state).toMatchObject({ reserved: 0, spent: 0 });
  });
});
