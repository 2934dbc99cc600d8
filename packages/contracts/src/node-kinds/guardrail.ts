// The Guardrail node and an agent's guardrails: checks that block, redact or flag text
// (docs/decisions/0047-guardrail-detectors.md).
import { z } from 'zod';
import { DEFAULT_AI_TOOL_MODEL, DEFAULT_LLM_PROVIDER, llmProviderValues } from '../vocabulary/providers';
import { kindData, type NodeKindDefinition } from './data';

export const guardrailActionValues = ['block', 'redact', 'flag'] as const;
export type GuardrailAction = (typeof guardrailActionValues)[number];

export const piiEntityValues = ['email', 'phone', 'card', 'iban', 'ip', 'national_id'] as const;
export type PiiEntity = (typeof piiEntityValues)[number];

/** The countries whose national identifiers the PII check knows (ISO 3166 alpha-2, lower case). */
export const nationalIdCountryValues = ['us', 'gb', 'es', 'fr', 'it', 'nl'] as const;

/** The moderation categories, as OpenAI's moderation endpoint names them. */
export const moderationCategoryValues = [
  'harassment',
  'harassment/threatening',
  'hate',
  'hate/threatening',
  'illicit',
  'illicit/violent',
  'self-harm',
  'self-harm/intent',
  'self-harm/instructions',
  'sexual',
  'sexual/minors',
  'violence',
  'violence/graphic',
] as const;
export type ModerationCategory = (typeof moderationCategoryValues)[number];

export const guardrailCheckTypeValues = ['pii', 'secrets', 'injection', 'moderation', 'rule'] as const;
export type GuardrailCheckType = (typeof guardrailCheckTypeValues)[number];

const action = z.enum(guardrailActionValues);
/** Checks whose finding is a score, not a span: they block or flag, never redact. */
const blockOrFlag = z.enum(['block', 'flag']);
const threshold = z.number().min(0).max(1).optional().meta({
  description: 'The score (0 to 1) from which the check finds something; default 0.5.',
});
const enabled = z.boolean().default(true).meta({ description: 'A check that is off is kept but not run.' });

export const guardrailCheckSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('pii'),
    enabled,
    entities: z.array(z.enum(piiEntityValues)).max(piiEntityValues.length).optional().meta({
      description: 'What to look for; all of them when absent.',
    }),
    countries: z.array(z.enum(nationalIdCountryValues)).max(nationalIdCountryValues.length).optional().meta({
      description: 'Whose national identifiers `national_id` looks for; all it knows when absent.',
    }),
    action,
  }),
  z.object({ type: z.literal('secrets'), enabled, action }),
  z.object({ type: z.literal('injection'), enabled, threshold, action: blockOrFlag }),
  z.object({
    type: z.literal('moderation'),
    enabled,
    categories: z
      .array(z.enum(moderationCategoryValues))
      .max(moderationCategoryValues.length)
      .optional()
      .meta({
        description: 'The categories that count; all of them when absent.',
      }),
    threshold,
    action: blockOrFlag,
  }),
  z.object({
    type: z.literal('rule'),
    enabled,
    label: z.string().max(200).optional(),
    when: z.string().max(5000).optional().meta({
      description:
        'CEL over `text` and the run state (`input`, `nodes`, `vars`, `run`): the rule finds something when it is true.',
    }),
    topics: z.array(z.string().min(1).max(200)).max(20).optional().meta({
      description:
        'A topic allow-list: the classifier prompt finds something when the text is about none of them.',
    }),
    action: blockOrFlag,
  }),
]);
export type GuardrailCheck = z.infer<typeof guardrailCheckSchema>;
/** A check as a client may send it (`enabled` defaults to on). */
export type GuardrailCheckInput = z.input<typeof guardrailCheckSchema>;

export const guardrailChecksSchema = z.array(guardrailCheckSchema).max(20);

/** An agent's guardrails: checks on what it is asked, on what it answers, and on its tool calls' arguments and results. */
export const agentGuardrailsSchema = z
  .object({
    input: guardrailChecksSchema.optional(),
    output: guardrailChecksSchema.optional(),
    tools: guardrailChecksSchema.optional(),
  })
  .meta({
    description:
      "Checks on the agent's input, its output, and its tool calls' arguments and results. A `block` fails the step with 'Blocked by guardrail: <check>'.",
  });
export type AgentGuardrails = z.infer<typeof agentGuardrailsSchema>;

/**
 * What a check found: its kind (`email`, `aws_access_key`, `injection`, `violence`, a rule's label)
 * and where, as offsets in the checked text (0 and its length for a finding about the whole text).
 * Never the matched value.
 */
export const guardrailFindingSchema = z.object({
  check: z.enum(guardrailCheckTypeValues),
  kind: z.string().max(200),
  start: z.number().int().min(0),
  end: z.number().int().min(0),
  /** Classifier and moderation findings: the score that crossed the threshold. */
  score: z.number().min(0).max(1).optional(),
  /** What the check did about it. */
  action: z.enum(guardrailActionValues),
});
export type GuardrailFinding = z.infer<typeof guardrailFindingSchema>;

/** A guardrail step's `data`: whether it passed, the text that goes on (redacted where asked), and what was found. */
export const guardrailResultSchema = z.object({
  passed: z.boolean(),
  text: z.string(),
  findings: z.array(guardrailFindingSchema),
});
export type GuardrailResult = z.infer<typeof guardrailResultSchema>;

/** The model a guardrail step's classifier checks run on (an agent's guardrails use the agent's own). */
export const guardrailModelSchema = z.object({
  provider: z.enum(llmProviderValues),
  model: z.string().trim().min(1).max(200),
});
export type GuardrailModel = z.infer<typeof guardrailModelSchema>;
export const DEFAULT_GUARDRAIL_MODEL: GuardrailModel = {
  provider: DEFAULT_LLM_PROVIDER,
  model: DEFAULT_AI_TOOL_MODEL,
};

/** The paths out of a guardrail (its edges' `sourceHandle`). */
export const guardrailPathValues = ['pass', 'fail'] as const;

/**
 * An agent node's optional second path (its edge's `sourceHandle`): taken instead of its usual one
 * when one of the agent's guardrails blocks, so the run goes on there rather than failing.
 */
export const AGENT_BLOCKED_PATH = 'fail';

/** How actions and PII entities are named to people (the checks editor, the step inspector). */
export const guardrailActionLabels: Record<GuardrailAction, string> = {
  block: 'Block',
  redact: 'Redact',
  flag: 'Flag',
};
export const piiEntityLabels: Record<PiiEntity, string> = {
  email: 'Email',
  phone: 'Phone',
  card: 'Card',
  iban: 'IBAN',
  ip: 'IP address',
  national_id: 'National ID',
};

/** How each check is named to people ('Blocked by guardrail: PII'). */
export const guardrailCheckLabels: Record<GuardrailCheckType, string> = {
  pii: 'PII',
  secrets: 'Secrets',
  injection: 'Prompt injection',
  moderation: 'Moderation',
  rule: 'Custom rule',
};

/** What a redaction puts in place of a finding, by its kind: `[EMAIL]`, `[CARD]`, `[SECRET]`. */
export const redactionOf = (check: GuardrailCheckType, kind: string): string =>
  check === 'secrets' ? '[SECRET]' : `[${kind.toUpperCase()}]`;

export const guardrailMessages = {
  blocked: (check: string) => `Blocked by guardrail: ${check}`,
  noChecks: (name: string) => `Guardrail "${name}" has no checks: add at least one`,
  ruleEmpty: (name: string) => `Guardrail "${name}": a custom rule needs an expression or topics`,
  pathsRequired: (name: string) => `Guardrail "${name}" needs a pass path and a fail path`,
  unknownPath: (name: string) => `Guardrail "${name}": its paths must leave from pass or fail`,
} as const;

/**
 * `{ target?, checks }`: the target (CEL; the previous step's text when absent) is checked by each
 * check that is on; out paths `pass` and `fail`. Its step's `data` is `{ passed, text, findings }`.
 */
export const guardrailNodeKind = {
  kind: 'guardrail',
  label: 'Guardrail',
  help: 'Checks text for PII, secrets, prompt injection, harmful content or your own rules; passes or fails.',
  removable: true,
  step: true,
  sequentialOnly: true,
  data: kindData({
    target: z.string().max(5000).optional().meta({
      description: "CEL: the text to check. The previous step's text when absent.",
    }),
    checks: guardrailChecksSchema.default([]),
    classifier: guardrailModelSchema.optional().meta({
      description: `The model the classifier checks run on (prompt injection, topics, and moderation without OpenAI's endpoint); ${DEFAULT_AI_TOOL_MODEL} on the OpenAI connection when absent.`,
    }),
  }).meta({
    description:
      "Checks text and takes the `pass` or `fail` path (edge `sourceHandle`). `redact` replaces what was found (`[EMAIL]`, `[CARD]`, `[SECRET]`) in the text that goes on; `block` takes the fail path; `flag` only records. Its step's `data` is `{ passed, text, findings: [{ check, kind, start, end }] }` (never the matched values).",
    examples: [
      {
        label: 'Screen the answer',
        checks: [
          { type: 'pii', entities: ['email', 'card'], action: 'redact' },
          { type: 'secrets', action: 'block' },
          { type: 'injection', threshold: 0.7, action: 'flag' },
        ],
      },
    ],
  }),
} as const satisfies NodeKindDefinition<'guardrail'>;
