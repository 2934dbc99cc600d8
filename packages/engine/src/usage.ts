import { addCosts, type TokenUsage } from '@crewline/contracts';

/** The tokens of a step that calls no model. */
export const noUsage: TokenUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };

/** Two steps' (or calls') usage together: tokens summed, costs summed exactly (unknown if either is). */
export const addUsage = (a: TokenUsage, b: TokenUsage): TokenUsage => ({
  promptTokens: a.promptTokens + b.promptTokens,
  completionTokens: a.completionTokens + b.completionTokens,
  totalTokens: a.totalTokens + b.totalTokens,
  ...addCosts(a, b),
});
