import { moderationCategoryValues, type ModerationCategory } from '@crewline/contracts';
import { LlmCallError, LlmConfigurationError } from './errors';
import { requestProviderJson } from './provider-request';
import type { LlmConnection } from './types';

/** OpenAI's current moderation model (text and images; free of charge). */
const MODERATION_MODEL = 'omni-moderation-latest';

export type ModerationScores = Partial<Record<ModerationCategory, number>>;

/**
 * OpenAI's moderation endpoint (`POST {baseUrl}/moderations`): each category's score (0 to 1) for
 * `input`. Only an OpenAI connection has it; other connections moderate with a classifier prompt.
 */
export async function fetchModeration(
  connection: LlmConnection,
  input: string,
  options: { fetch: typeof globalThis.fetch; signal: AbortSignal },
): Promise<ModerationScores> {
  if (connection.provider !== 'openai')
    throw new LlmConfigurationError('Only an OpenAI connection has a moderation endpoint.');
  const body = await requestProviderJson(connection, '/moderations', {
    ...options,
    body: { model: MODERATION_MODEL, input },
  });
  const scores = (body as { results?: { category_scores?: Record<string, unknown> }[] } | undefined)
    ?.results?.[0]?.category_scores;
  if (!scores || typeof scores !== 'object')
    throw new LlmCallError(
      'OpenAI sent a moderation result that could not be read',
      'openai',
      'invalid-response',
    );
  const out: ModerationScores = {};
  for (const category of moderationCategoryValues) {
    const score = scores[category];
    if (typeof score === 'number' && Number.isFinite(score)) out[category] = Math.min(1, Math.max(0, score));
  }
  return out;
}
