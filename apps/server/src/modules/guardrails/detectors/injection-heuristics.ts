// A cheap first pass for prompt injection and jailbreaks (docs/decisions/0047-guardrail-detectors.md):
// phrases that only an attack has reason to write. A score of 0.9 or more is certain enough to skip
// the classifier call; below it, the classifier decides. Ordinary uses of the same words ("please
// ignore the typo", "the system prompt we discussed") stay low.
import type { Span } from './spans';

/** At or above this, the heuristics are sure: the guardrail need not ask the model. */
export const CERTAIN = 0.9;

type Signal = { name: string; weight: number; pattern: RegExp };

const earlier = String.raw`(?:previous|prior|above|preceding|earlier|former|original|initial|system|developer)`;
const orders = String.raw`(?:instructions?|prompts?|rules|directions|directives|guidelines|commands|context|constraints|guardrails)`;

/** The phrases, each with how sure it makes us (several together add up). */
const signals: Signal[] = [
  {
    name: 'ignore_instructions',
    weight: 0.92,
    pattern: new RegExp(
      String.raw`\b(?:ignore|disregard|forget|override|bypass|skip|drop)\s+(?:all\s+|any\s+|every\s+|the\s+|your\s+|my\s+|of\s+)*(?:of\s+)?(?:the\s+|your\s+)?${earlier}\s+${orders}`,
      'giu',
    ),
  },
  {
    name: 'ignore_everything',
    weight: 0.9,
    pattern:
      /\b(?:ignore|disregard|forget)\s+(?:everything|all(?:\s+that)?)\s+(?:above|before|prior|you\s+(?:were|have\s+been)\s+told)\b/giu,
  },
  {
    name: 'ignore_system_prompt',
    weight: 0.92,
    pattern:
      /\b(?:ignore|disregard|forget|override|bypass)\s+(?:the\s+|your\s+|all\s+)?(?:system|developer)\s+(?:prompt|message|instructions?)/giu,
  },
  {
    // The same in French, Spanish, Italian and German.
    name: 'ignore_instructions_translated',
    weight: 0.92,
    pattern:
      /\b(?:ignor(?:e[zr]|a|are|ate|iere|ieren)|ignore\s+(?:les|toutes)|olvida|oublie[zr]?|vergiss)\s+(?:\p{L}+\s+){0,3}(?:instructions|instrucciones|istruzioni|anweisungen|consignes)\b/giu,
  },
  {
    name: 'dan',
    weight: 0.95,
    pattern: /\b(?:you\s+are|you're|act\s+as|become)\s+(?:now\s+)?(?:a\s+)?DAN\b|\bdo\s+anything\s+now\b/giu,
  },
  {
    name: 'developer_mode',
    weight: 0.9,
    pattern:
      /\b(?:developer|god|jailbreak|unrestricted|dan)\s+mode\s+(?:enabled|on|activated)\b|\b(?:enable|activate|enter)\s+(?:developer|god|jailbreak|unrestricted)\s+mode\b/giu,
  },
  { name: 'jailbreak', weight: 0.6, pattern: /\bjailbr(?:eak|oken)\b/giu },
  {
    // Chat-template control tokens and role headers a user's text has no reason to hold.
    name: 'role_tags',
    weight: 0.95,
    pattern:
      /<\|(?:im_start|im_end|system|start_header_id|end_header_id|eot_id)\|>|<<\s*SYS\s*>>|\[\/?INST\]/giu,
  },
  {
    name: 'system_header',
    weight: 0.6,
    pattern: /^\s*(?:#{2,}\s*)?(?:system|assistant)\s*(?:prompt)?\s*:/gimu,
  },
  {
    name: 'new_instructions',
    weight: 0.55,
    pattern: /\b(?:new|updated|real|actual|true)\s+(?:system\s+)?instructions\s*:/giu,
  },
  {
    name: 'no_restrictions',
    weight: 0.7,
    pattern:
      /\b(?:without|no|free\s+of|free\s+from|not\s+bound\s+by)\s+(?:any\s+)?(?:restrictions|filters|limitations|guidelines|content\s+polic(?:y|ies)|ethical\s+guidelines|rules)\b/giu,
  },
  {
    name: 'pretend',
    weight: 0.45,
    pattern:
      /\b(?:pretend|imagine|act\s+as\s+if|from\s+now\s+on)\b[^.\n]{0,40}\b(?:you\s+are|you\s+have|you\s+can|you\s+will)\b/giu,
  },
  {
    name: 'reveal_prompt',
    weight: 0.75,
    pattern:
      /\b(?:reveal|print|show|repeat|output|leak|tell\s+me)\s+(?:me\s+)?(?:your|the)\s+(?:full\s+|entire\s+|hidden\s+|secret\s+|initial\s+|original\s+)?(?:system\s+prompt|instructions|hidden\s+prompt|initial\s+prompt)\b/giu,
  },
  {
    name: 'decode_and_follow',
    weight: 0.7,
    pattern: /\bdecode\b[^.\n]{0,60}\b(?:follow|execute|run|obey|do\s+what|carry\s+out)\b/giu,
  },
];

/** Characters that hide words from a pattern without showing: zero-width spaces, joiners, soft hyphens. */
const invisible = /[\u00AD\u180E\u200B-\u200F\u2060-\u2064\uFEFF]/u;

/** The text without invisible characters, and where each of its characters was in the original. */
function visible(text: string): { text: string; at: number[] } {
  const at: number[] = [];
  let out = '';
  for (let i = 0; i < text.length; i++) {
    if (invisible.test(text[i])) continue;
    out += text[i];
    at.push(i);
  }
  at.push(text.length);
  return { text: out, at };
}

/** Base64 blobs long enough to hide a sentence. */
const base64Blob =
  /(?<![A-Za-z0-9+/=])(?:[A-Za-z0-9+/]{4}){6,}(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?(?![A-Za-z0-9+/=])/g;

/** A blob's decoded text when it is mostly printable text, else undefined. */
function decoded(blob: string): string | undefined {
  const out = Buffer.from(blob, 'base64').toString('utf8');
  const printable = out.replace(/[^\x20-\x7E\n\r\t\u00A0-\uFFFF]/g, '').length;
  return printable / Math.max(out.length, 1) > 0.95 && /[a-z]{3}/i.test(out) ? out : undefined;
}

export type InjectionHeuristics = { score: number; spans: Span[] };

/** Several weak signals add up like independent evidence: 1 − Π(1 − weight). */
const combined = (weights: number[]) => 1 - weights.reduce((rest, w) => rest * (1 - w), 1);

function scan(text: string, depth: number): InjectionHeuristics {
  const { text: seen, at } = visible(text);
  const spans: Span[] = [];
  const weights = new Map<string, number>();
  for (const { name, weight, pattern } of signals) {
    for (const m of seen.matchAll(pattern)) {
      spans.push({ kind: name, start: at[m.index], end: at[m.index + m[0].length - 1] + 1 });
      weights.set(name, weight);
    }
  }
  // An instruction hidden in base64: scored as if it were written out, its span the whole blob.
  if (depth === 0) {
    for (const m of seen.matchAll(base64Blob)) {
      const hidden = decoded(m[0]);
      if (!hidden) continue;
      const inner = scan(hidden, depth + 1);
      if (inner.score === 0) continue;
      spans.push({
        kind: 'encoded_instructions',
        start: at[m.index],
        end: at[m.index + m[0].length - 1] + 1,
      });
      weights.set('encoded_instructions', Math.max(weights.get('encoded_instructions') ?? 0, inner.score));
      // Asking to decode and follow a blob that hides an instruction is certain.
      if (weights.has('decode_and_follow'))
        weights.set('encoded_instructions', Math.max(inner.score, CERTAIN));
    }
  }
  const score = Math.round(combined([...weights.values()]) * 1000) / 1000;
  return { score, spans: spans.sort((a, b) => a.start - b.start) };
}

/**
 * How likely `text` is a prompt injection or a jailbreak (0 to 1) and the phrases that say so
 * (kinds such as 'ignore_instructions', 'role_tags', offsets in `text`). CERTAIN or more: sure.
 */
export function injectionHeuristics(text: string): InjectionHeuristics {
  return scan(text, 0);
}
