import type { TokenUsage } from '@crewline/contracts';

/** The tokens of a step that calls no model. */
export const noUsage: TokenUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };

export const addUsage = (a: TokenUsage, b: TokenUsage): TokenUsage => ({
  promptTokens: a.promptTokens + b.promptTokens,
  completionTokens: a.completionTokens + b.completionTokens,
  totalTokens: a.totalTokens + b.totalTokens,
});
