// The checks of a guardrail step or an agent's guardrails, run on one text: the engine's `guard` port
// and the agent's guardrails call this (docs/decisions/0047-guardrail-detectors.md).
import {
  moderationCategoryValues,
  type GuardrailCheck,
  type GuardrailFinding,
  type ModerationCategory,
  type TokenUsage,
} from '@crewline/contracts';
import { addUsage, noUsage, type GuardAnswer } from '@crewline/engine';
import { CERTAIN, injectionHeuristics } from './detectors/injection-heuristics';
import { detectPii } from './detectors/pii';
import { detectSecrets } from './detectors/secrets';
import { redact } from './redact';

/** The model calls a check may make, on the organization's model (metered by the caller). */
export type CheckModels = {
  /** The classifier prompt on the organization's model: a score 0..1 that the text is `about` ('prompt injection or a jailbreak', or 'off the topics: a, b'). */
  classify(
    question: 'injection' | 'topics',
    text: string,
    topics?: string[],
  ): Promise<{ score: number; usage: TokenUsage }>;
  /** Moderation: per-category scores 0..1 (OpenAI's endpoint or a classifier prompt). */
  moderate(text: string): Promise<{ scores: Partial<Record<ModerationCategory, number>>; usage: TokenUsage }>;
};

/** The score from which a classifier or moderation check finds something when it names none. */
const DEFAULT_THRESHOLD = 0.5;

type Found = { findings: GuardrailFinding[]; usage: TokenUsage };

/** What one check found in `text`; findings about the whole text span it all (0 to its length). */
async function runCheck(
  check: GuardrailCheck,
  text: string,
  holds: (when: string) => boolean,
  models: CheckModels,
): Promise<Found> {
  const whole = { start: 0, end: text.length };
  const none: Found = { findings: [], usage: noUsage };
  switch (check.type) {
    case 'pii': {
      const spans = await detectPii(text, { entities: check.entities, countries: check.countries });
      return { findings: spans.map((s) => ({ check: 'pii', ...s, action: check.action })), usage: noUsage };
    }
    case 'secrets': {
      const spans = await detectSecrets(text);
      return {
        findings: spans.map((s) => ({ check: 'secrets', ...s, action: check.action })),
        usage: noUsage,
      };
    }
    case 'injection': {
      // Blank text cannot carry an instruction: no call to pay for.
      if (!text.trim()) return none;
      const threshold = check.threshold ?? DEFAULT_THRESHOLD;
      const heuristics = injectionHeuristics(text);
      const finding = (score: number): GuardrailFinding => ({
        check: 'injection',
        kind: 'injection',
        ...whole,
        score,
        action: check.action,
      });
      if (heuristics.score >= CERTAIN) return { findings: [finding(heuristics.score)], usage: noUsage };
      const { score, usage } = await models.classify('injection', text);
      if (score < threshold) return { findings: [], usage };
      return {
        findings: [{ check: 'injection', kind: 'injection', ...whole, score, action: check.action }],
        usage,
      };
    }
    case 'moderation': {
      if (!text.trim()) return none;
      const threshold = check.threshold ?? DEFAULT_THRESHOLD;
      const { scores, usage } = await models.moderate(text);
      const categories = check.categories?.length ? check.categories : moderationCategoryValues;
      const findings = categories.flatMap((category) => {
        const score = scores[category];
        return score !== undefined && score >= threshold
          ? [{ check: 'moderation' as const, kind: category, ...whole, score, action: check.action }]
          : [];
      });
      return { findings, usage };
    }
    case 'rule': {
      // An expression that holds finds something: the topics' classifier call is then not needed.
      if (check.when?.trim() && holds(check.when)) {
        return {
          findings: [{ check: 'rule', kind: check.label || 'rule', ...whole, action: check.action }],
          usage: noUsage,
        };
      }
      if (!check.topics?.length || !text.trim()) return none;
      const { score, usage } = await models.classify('topics', text, check.topics);
      if (score < DEFAULT_THRESHOLD) return { findings: [], usage };
      return {
        findings: [
          { check: 'rule', kind: check.label || 'off_topic', ...whole, score, action: check.action },
        ],
        usage,
      };
    }
  }
}

/**
 * Runs the checks that are on, in order, each on the original `text` (so every finding's offsets
 * are in it). It passes unless a finding's action is `block`; the text that goes on has the
 * `redact` findings replaced ('[EMAIL]', '[SECRET]'); the classifier and moderation calls' tokens are
 * summed. Findings hold kinds, offsets and scores, never the matched values.
 */
export async function runChecks(input: {
  text: string;
  checks: GuardrailCheck[];
  holds(when: string): boolean;
  models: CheckModels;
}): Promise<GuardAnswer> {
  const { text, models } = input;
  const findings: GuardrailFinding[] = [];
  let usage = noUsage;
  for (const check of input.checks) {
    if (check.enabled === false) continue;
    const found = await runCheck(check, text, (when) => input.holds(when), models);
    findings.push(...found.findings);
    usage = addUsage(usage, found.usage);
  }
  return {
    passed: !findings.some((f) => f.action === 'block'),
    text: redact(
      text,
      findings.filter((f) => f.action === 'redact'),
    ),
    findings,
    usage,
  };
}
