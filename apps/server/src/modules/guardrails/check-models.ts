import type { GuardrailModel, TokenUsage } from '@crewline/contracts';
import { noUsage } from '@crewline/engine';
import type { JSONSchema7 } from 'ai';
import type { ModerationScores } from '../../platform/llm';
import {
  CLASSIFIER_MAX_TOKENS,
  classifierModeration,
  classifierPrompt,
  classifierSchema,
  classifierScore,
  type ClassifierQuestion,
} from './classifier';
import type { CheckModels } from './run-checks';

/** One classifier call as the caller makes it: on which model, with which prompt and answer schema. */
export type ClassifierRequest = GuardrailModel & {
  maxTokens: number;
  system: string;
  user: string;
  outputSchema: JSONSchema7;
};

/**
 * How the guardrails reach a model, given by their caller (a run's step, "Test this node", an
 * agent's step): `ask` makes one call, metered and within the caller's budgets, and answers its
 * parsed JSON and its usage (with its cost); `moderate` is OpenAI's moderation endpoint, when the
 * caller has an OpenAI connection for it.
 */
export type ClassifierCalls = {
  model: GuardrailModel;
  ask(request: ClassifierRequest): Promise<{ data: unknown; usage: TokenUsage }>;
  moderate?(text: string): Promise<ModerationScores>;
};

/**
 * The model-backed checks on a model (docs/decisions/0047-guardrail-detectors.md): prompt injection
 * and topics by the classifier prompt; moderation by OpenAI's endpoint when the model is OpenAI's
 * (free of charge), else by the classifier prompt.
 */
export function createCheckModels(calls: ClassifierCalls): CheckModels {
  const classify = async (question: ClassifierQuestion, text: string, topics?: string[]) => {
    const prompt = classifierPrompt(question, text, topics);
    return calls.ask({
      ...calls.model,
      maxTokens: CLASSIFIER_MAX_TOKENS,
      ...prompt,
      outputSchema: classifierSchema(question),
    });
  };
  return {
    async classify(question, text, topics) {
      const { data, usage } = await classify(question, text, topics);
      return { score: classifierScore(data), usage };
    },
    async moderate(text) {
      if (calls.moderate && calls.model.provider === 'openai')
        return { scores: await calls.moderate(text), usage: noUsage };
      const { data, usage } = await classify('moderation', text);
      return { scores: classifierModeration(data), usage };
    },
  };
}
