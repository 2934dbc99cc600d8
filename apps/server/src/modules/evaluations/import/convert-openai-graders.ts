import { formatNumber, graderSchema, type GraderInput } from '@crewline/contracts';
import type { ImportNotes } from './import-notes';
import { isJsonObject } from './map-fields';

/*
 * OpenAI Evals' graders (an eval's `testing_criteria`) as Crewline's. Their shapes are those of
 * OpenAI's API reference for POST /v1/evals and of the openai-python SDK generated from it
 * (types/eval_create_params.py, types/graders/*.py): every grader has `type` and `name`;
 * - string_check: `input` and `reference` (templates such as "{{sample.output_text}}" and
 *   "{{item.ideal}}", or literal text), `operation` eq | ne | like | ilike (like: contains,
 *   case-sensitive; ilike: contains, ignoring case);
 * - text_similarity: `input`, `reference`, `evaluation_metric` (cosine, fuzzy_match, bleu, gleu,
 *   meteor, rouge_1 … rouge_5, rouge_l), `pass_threshold`;
 * - score_model: `model`, `input` (chat messages whose `content` is text, or `{ type: 'input_text' |
 *   'output_text', text }`), `range` (default [0, 1]), `pass_threshold`, `sampling_params`;
 * - label_model: `model`, `input` (messages), `labels`, `passing_labels`;
 * - python (`source`), multi (`graders`, `calculate_output`), endpoint: no Crewline counterpart.
 * Templates read `item` (the dataset row) and `sample` (the model's answer): a grader that reads the
 * answer (`{{sample.output_text}}`, `{{sample.output_json}}`) keeps Crewline's default target, the
 * run's result; an `{{item.X}}` reference makes X the items' expected answer (see expectedFieldOf).
 */

type Criterion = Record<string, unknown>;

/**
 * The item field the eval compares answers with: the first `{{item.X}}` reference of its graders.
 * Undefined when no grader has one (then the items have no expected answer).
 */
export function expectedFieldOf(criteria: unknown[]): string | undefined {
  for (const criterion of criteria) {
    if (!isJsonObject(criterion) || typeof criterion.reference !== 'string') continue;
    const path = templatePath(criterion.reference);
    if (path?.[0] === 'item' && path.length === 2) return path[1];
  }
  return undefined;
}

export function convertOpenAiGraders(
  criteria: unknown[],
  expectedField: string | undefined,
  notes: ImportNotes,
): GraderInput[] {
  const graders: GraderInput[] = [];
  criteria.forEach((criterion, index) => {
    const source: Criterion = isJsonObject(criterion) ? criterion : {};
    const label = graderLabel(source, index);
    const result = convert(source, expectedField);
    if (typeof result === 'string') {
      notes.note(`${label}: ${result}`);
      return;
    }
    const name = typeof source.name === 'string' ? source.name.trim().slice(0, 100) : '';
    const grader: GraderInput = name ? { ...result.grader, name } : result.grader;
    const checked = graderSchema.safeParse(grader);
    if (!checked.success) {
      notes.note(`${label}: ${checked.error.issues[0]?.message ?? 'it could not be converted'}`);
      return;
    }
    graders.push(grader);
    if (result.note) notes.note(`${label}: ${result.note}`);
  });
  return graders;
}

/** "Grader 'Exact answer' (string_check, ne)", or "Grader 3 (python)" for one without a name. */
function graderLabel(criterion: Criterion, index: number): string {
  const kind = [criterion.type, criterion.operation ?? criterion.evaluation_metric]
    .filter((part) => typeof part === 'string')
    .join(', ');
  const name =
    typeof criterion.name === 'string' && criterion.name.trim() ? `'${criterion.name.trim()}'` : index + 1;
  return `Grader ${name} (${kind || 'no type'})`;
}

/** The grader, with a note on what of it was not taken over; or why it was not converted at all. */
type Conversion = { grader: GraderInput; note?: string } | string;

function convert(criterion: Criterion, expectedField: string | undefined): Conversion {
  switch (criterion.type) {
    case 'string_check':
      return stringCheck(criterion, expectedField);
    case 'text_similarity':
      return textSimilarity(criterion, expectedField);
    case 'score_model':
      return scoreModel(criterion, expectedField);
    case 'label_model':
      return labelModel(criterion, expectedField);
    case 'python':
      return 'Crewline has no Python grader';
    case 'multi':
      return 'Crewline has no grader that combines other graders';
    default:
      return 'Crewline has no grader of this kind';
  }
}

function stringCheck(criterion: Criterion, expectedField: string | undefined): Conversion {
  const compared = comparison(criterion, expectedField);
  if (typeof compared === 'string') return compared;
  const literal = compared.expected;
  switch (criterion.operation) {
    case 'eq':
      return { grader: { type: 'exact', caseSensitive: true, ...compared } };
    case 'like':
    case 'ilike':
      if (typeof literal === 'string' && literal.includes('%')) {
        return 'its reference has % wildcards, which Crewline\'s "contains" does not read';
      }
      return { grader: { type: 'contains', caseSensitive: criterion.operation === 'like', ...compared } };
    case 'ne':
      return 'Crewline has no "not equal" grader';
    default:
      return 'its operation is not eq, ne, like or ilike';
  }
}

const METRIC_NAMES: Record<string, string> = {
  fuzzy_match: 'fuzzy match',
  bleu: 'BLEU',
  gleu: 'GLEU',
  meteor: 'METEOR',
  rouge_l: 'ROUGE-L',
};

function textSimilarity(criterion: Criterion, expectedField: string | undefined): Conversion {
  const metric = criterion.evaluation_metric;
  if (metric !== 'cosine') {
    const metricName =
      typeof metric === 'string' ? (METRIC_NAMES[metric] ?? metric.replace(/^rouge_(\d)$/, 'ROUGE-$1')) : '';
    return metricName ? `Crewline has no ${metricName} grader` : 'it names no evaluation metric';
  }
  const compared = comparison(criterion, expectedField);
  if (typeof compared === 'string') return compared;
  const grader: GraderInput = { type: 'similarity', ...compared };
  const pass = criterion.pass_threshold;
  if (typeof pass !== 'number') return { grader };
  // A cosine similarity is at most 1; Crewline's threshold is a share (0–1).
  if (pass >= 0 && pass <= 1) return { grader: { ...grader, threshold: pass } };
  return {
    grader,
    note: `its pass threshold ${pass} is not between 0 and 1, the grader passes at its default`,
  };
}

/**
 * What a string_check or text_similarity grader compares: its input must be the answer (Crewline's
 * default target); its reference is the item's expected answer, or literal text the grader keeps.
 */
function comparison(criterion: Criterion, expectedField: string | undefined): { expected?: string } | string {
  if (typeof criterion.input !== 'string' || !readsAnswer(criterion.input)) {
    const what =
      typeof criterion.input === 'string' ? criterion.input : criterion.input ? 'a value' : 'nothing';
    return `it checks ${what} rather than the answer`;
  }
  const reference = criterion.reference;
  if (typeof reference !== 'string') return 'it has no reference';
  if (!/\{\{/.test(reference)) return { expected: reference };
  const path = templatePath(reference);
  if (!path) return 'its reference mixes text and templates';
  if (path[0] !== 'item' || path.length !== 2)
    return `it compares with ${reference.trim()}, not an item's field`;
  if (path[1] !== expectedField) {
    const expected = expectedField
      ? `the items' expected answer is item.${expectedField}`
      : 'the items have none';
    return `it compares with item.${path[1]}, and ${expected}`;
  }
  return {};
}

function readsAnswer(template: string): boolean {
  const path = templatePath(template);
  return (
    path?.length === 2 && path[0] === 'sample' && (path[1] === 'output_text' || path[1] === 'output_json')
  );
}

/** score_model: a judge on Crewline's 1–5 scale, whose score is (n − 1) / 4. */
function scoreModel(criterion: Criterion, expectedField: string | undefined): Conversion {
  const judged = judge(criterion, expectedField);
  if (typeof judged === 'string') return judged;
  const grader: GraderInput = { type: 'llm_judge', scale: '1-5', ...judged };
  const pass = criterion.pass_threshold;
  if (typeof pass !== 'number') return { grader };
  const range = Array.isArray(criterion.range) ? criterion.range : [0, 1];
  if (range[0] === 1 && range[1] === 5) {
    return { grader: { ...grader, threshold: Math.min(1, Math.max(0, (pass - 1) / 4)) } };
  }
  return {
    grader,
    note: `its pass threshold ${pass} on the range ${range.join('–')} was not taken over (the judge scores 1–5 and passes at its default)`,
  };
}

/** label_model: a pass/fail judge told which labels pass. */
function labelModel(criterion: Criterion, expectedField: string | undefined): Conversion {
  const passing = Array.isArray(criterion.passing_labels)
    ? criterion.passing_labels.filter((label) => typeof label === 'string')
    : [];
  if (passing.length === 0) return 'it names no passing labels';
  const judged = judge(criterion, expectedField);
  if (typeof judged === 'string') return judged;
  const rubric = `${judged.rubric}\n\nPass when the label is one of: ${passing.join(', ')}.`;
  return { grader: { type: 'llm_judge', scale: 'pass_fail', ...judged, rubric } };
}

const RUBRIC_MAX_LENGTH = 8000;

/** The judge's model and rubric: the prompt's messages, their templates put in words. */
function judge(
  criterion: Criterion,
  expectedField: string | undefined,
): { rubric: string; provider: 'openai'; model: string } | string {
  if (typeof criterion.model !== 'string' || !criterion.model.trim()) return 'it names no model';
  const messages = Array.isArray(criterion.input) ? criterion.input : [];
  const rubric = messages
    .map((message) => (isJsonObject(message) ? contentText(message.content) : ''))
    .map((text) => text.trim())
    .filter(Boolean)
    .join('\n\n')
    .replace(TEMPLATES, (template: string, path: string) => templateWords(path, expectedField) ?? template);
  if (!rubric) return 'its prompt has no text';
  if (rubric.length > RUBRIC_MAX_LENGTH)
    return `its prompt is longer than ${formatNumber(RUBRIC_MAX_LENGTH)} characters`;
  return { rubric, provider: 'openai', model: criterion.model.trim() };
}

/** A message's text: a string, `{ type: 'input_text' | 'output_text', text }`, or a list of them (images left out). */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map(contentText).filter(Boolean).join('\n');
  if (isJsonObject(content) && typeof content.text === 'string') return content.text;
  return '';
}

const TEMPLATES = /\{\{\s*([\w.]+)\s*\}\}/g;

/** The judge sees the item's input, its expected answer and the answer: templates become those words. */
function templateWords(path: string, expectedField: string | undefined): string | undefined {
  const [namespace, field, ...rest] = path.split('.');
  if (namespace === 'sample') return 'the answer';
  if (namespace !== 'item') return undefined;
  if (field === undefined) return 'the input';
  if (field === expectedField && rest.length === 0) return 'the expected answer';
  return `the input's ${[field, ...rest].join('.')}`;
}

/** The dotted path of a reference that is exactly one template ("{{ item.ideal }}" → ['item', 'ideal']). */
function templatePath(text: string): string[] | undefined {
  const match = /^\s*\{\{\s*([\w.]+)\s*\}\}\s*$/.exec(text);
  return match ? match[1].split('.') : undefined;
}
