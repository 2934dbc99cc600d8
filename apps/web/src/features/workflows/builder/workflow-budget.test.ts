import { budgetMessages } from '@crewline/contracts';
import { describe, expect, it } from 'vitest';

import { budgetOf, budgetProblems, configOf, EMPTY_BUDGET_DRAFT, splitConfig } from './workflow-budget';

const draft = (patch: Partial<typeof EMPTY_BUDGET_DRAFT>) => ({ ...EMPTY_BUDGET_DRAFT, ...patch });

describe('a workflow budget in the builder', () => {
  it('reads config.budget into the fields and keeps every other config key apart', () => {
    const { budget, otherConfig } = splitConfig({
      budget: { maxCostPerRunUsd: 0.5, monthlyCapUsd: 20, onExceeded: 'approval' },
      retries: 2,
    });
    expect(budget).toEqual({
      maxCostPerRunUsd: '0.5',
      maxTokensPerRun: '',
      monthlyCapUsd: '20',
      onExceeded: 'approval',
    });
    expect(otherConfig).toEqual({ retries: 2 });
    // No config, or a budget that is not an object: empty fields.
    expect(splitConfig(undefined)).toEqual({ budget: EMPTY_BUDGET_DRAFT, otherConfig: {} });
    expect(splitConfig({ budget: 'lots' }).budget).toEqual(EMPTY_BUDGET_DRAFT);
  });

  it('leaves the key of an empty field out, and the budget out when every field is empty', () => {
    expect(budgetOf(draft({ maxTokensPerRun: ' 5000 ', monthlyCapUsd: '' }))).toEqual({
      maxTokensPerRun: 5000,
    });
    expect(budgetOf(EMPTY_BUDGET_DRAFT)).toBeUndefined();
    expect(configOf({ retries: 2 }, EMPTY_BUDGET_DRAFT)).toEqual({ retries: 2 });
    expect(configOf({ retries: 2 }, draft({ monthlyCapUsd: '20', onExceeded: 'fail' }))).toEqual({
      retries: 2,
      budget: { monthlyCapUsd: 20, onExceeded: 'fail' },
    });
  });

  it("names what is wrong with each field in the contract's words", () => {
    expect(
      budgetProblems(draft({ maxCostPerRunUsd: '0.5', maxTokensPerRun: '1000', monthlyCapUsd: '20' })),
    ).toEqual({});
    expect(
      budgetProblems(draft({ maxCostPerRunUsd: 'five', maxTokensPerRun: '1.5', monthlyCapUsd: '0' })),
    ).toEqual({
      maxCostPerRunUsd: budgetMessages.amount,
      maxTokensPerRun: budgetMessages.tokens,
      monthlyCapUsd: budgetMessages.positive,
    });
    expect(budgetProblems(draft({ monthlyCapUsd: '2000000' }))).toEqual({
      monthlyCapUsd: budgetMessages.tooLarge,
    });
  });
});
