import { describe, expect, it } from 'vitest';
import { budgetMessages, budgetState, workflowBudgetSchema } from './budgets';
import { costsQuerySchema, usdText } from './spend';

describe('usdText', () => {
  it('writes cents, or four decimals under a cent, rounded half up from micro-dollars', () => {
    expect(usdText(0.52)).toBe('$0.52');
    expect(usdText(12)).toBe('$12.00');
    expect(usdText(0)).toBe('$0.00');
    expect(usdText(0.00085)).toBe('$0.0009');
    expect(usdText(0.0012)).toBe('$0.0012');
    expect(usdText(0.005)).toBe('$0.0050');
    expect(usdText(1.005)).toBe('$1.01');
  });

  it('makes the run budget’s message the issue names', () => {
    expect(budgetMessages.run(0.52, 0.5)).toBe('Budget exceeded: this run spent $0.52 of its $0.50 budget');
  });
});

describe('budgetState', () => {
  it('is ok under 80 %, a warning from 80 %, exceeded at the cap, and ok without one', () => {
    expect(budgetState(7.99, 10)).toBe('ok');
    expect(budgetState(8, 10)).toBe('warning');
    expect(budgetState(10, 10)).toBe('exceeded');
    expect(budgetState(1000, null)).toBe('ok');
  });
});

describe('a workflow’s budget', () => {
  it('takes each part alone and refuses amounts that are not above $0, naming why', () => {
    expect(workflowBudgetSchema.parse({ maxTokensPerRun: 5000 })).toEqual({ maxTokensPerRun: 5000 });
    const refused = (budget: unknown) => workflowBudgetSchema.safeParse(budget).error?.issues[0].message;
    expect(refused({ maxCostPerRunUsd: 0 })).toBe('A budget must be more than $0');
    expect(refused({ monthlyCapUsd: 'ten' })).toBe('A budget must be a number of US dollars');
    expect(refused({ maxTokensPerRun: 1.5 })).toBe(
      'A token budget must be a whole number of tokens, at least 1',
    );
    expect(refused({ onExceeded: 'pause' })).toBe("onExceeded must be 'fail' or 'approval'");
  });
});

describe('the costs query', () => {
  it('defaults to days and refuses a range that is backwards or longer than 366 days', () => {
    expect(costsQuerySchema.parse({})).toEqual({ groupBy: 'day', tz: 'UTC' });
    const refused = (query: unknown) => costsQuerySchema.safeParse(query).error?.issues[0].message;
    expect(refused({ from: '2026-02-01', to: '2026-01-01' })).toBe('from must be before to');
    expect(refused({ from: '2025-01-01', to: '2026-12-01' })).toBe('A range covers at most 366 days');
    expect(refused({ from: '1 Dec 2026' })).toContain('Give from and to as ISO dates');
    expect(costsQuerySchema.parse({ from: '2026-11-01', to: '2026-12-01T00:00:00Z' }).from).toBe(
      '2026-11-01',
    );
  });
});
