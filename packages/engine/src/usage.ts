import { addCosts, type TokenUsage } from '@crewline/contracts';

/** The tokens of a step that calls no model. */
export const noUsage: TokenUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };

/** A count both figures may lack: their sum, absent when neither has it. */
const addOptional = (key: 'cachedInputTokens' | 'calls', a: TokenUsage, b: TokenUsage) =>
  a[key] === undefined && b[key] === undefined ? {} : { [key]: (a[key] ?? 0) + (b[key] ?? 0) };

/** Two steps' (or calls') usage together: tokens summed, costs summed exactly (unknown if either is). */
export const addUsage = (a: TokenUsage, b: TokenUsage): TokenUsage => ({
  promptTokens: a.promptTokens + b.promptTokens,
  completionTokens: a.completionTokens + b.completionTokens,
  totalTokens: a.totalTokens + b.totalTokens,
  ...addOptional('cachedInputTokens', a, b),
  ...addOptional('calls', a, b),
  ...addCosts(a, b),
});
