// The evaluation form's values as typed (every number a text until it is sent), the request body they
// make, and the field errors of what cannot be sent: the contracts' createEvaluationSchema checks the
// body, and each of its issues is shown under the field its path names ('graders.2.rubric').
import {
  createEvaluationSchema,
  DEFAULT_EMBEDDING_MODEL,
  DEFAULT_GRADER_TARGET,
  type CreateEvaluationInput,
  type Evaluation,
  type Grader,
  type GraderInput,
  type GraderType,
} from '@crewline/contracts';
import { DEFAULT_LLM_MODEL, DEFAULT_LLM_PROVIDER } from '@crewline/contracts/vocabulary';

export type JudgeScale = 'pass_fail' | '1-5';

/** One grader as the form holds it: the fields of every type, the ones its type reads are sent. */
export type GraderDraft = {
  /** The list's key (a grader has no id). */
  key: string;
  type: GraderType;
  name: string;
  target: string;
  expected: string;
  weight: string;
  threshold: string;
  caseSensitive: boolean;
  field: string;
  schema: string;
  tolerance: string;
  relative: boolean;
  /** The similarity grader's embedding connection, or the judge's model provider. */
  provider: string;
  model: string;
  rubric: string;
  scale: JudgeScale;
  maxUsd: string;
  maxMs: string;
};

export type EvaluationDraft = {
  name: string;
  workflowId: string;
  datasetId: string;
  graders: GraderDraft[];
  /** The pass threshold in percent. */
  passPercent: string;
  nightly: boolean;
  /** The nightly run's alert threshold in percent. */
  alertPercent: string;
};

/** Field errors by path: `name`, `graders`, `graders.0.schema`, `passPercent`. */
export type DraftErrors = Record<string, string>;

let keys = 0;
const nextKey = () => `grader-${++keys}`;

/** What a new grader of `type` starts with. */
export function newGrader(type: GraderType): GraderDraft {
  const similarity = type === 'similarity';
  return {
    key: nextKey(),
    type,
    name: '',
    target: '',
    expected: '',
    weight: '',
    threshold: '',
    caseSensitive: false,
    field: '',
    schema: '',
    tolerance: '0',
    relative: false,
    provider: similarity ? 'openai' : DEFAULT_LLM_PROVIDER,
    model: similarity ? DEFAULT_EMBEDDING_MODEL : DEFAULT_LLM_MODEL,
    rubric: '',
    scale: 'pass_fail',
    maxUsd: '',
    maxMs: '',
  };
}

/** A new evaluation: one exact-match grader, every grader must pass, no nightly run. */
export function emptyDraft(): EvaluationDraft {
  return {
    name: '',
    workflowId: '',
    datasetId: '',
    graders: [newGrader('exact')],
    passPercent: '100',
    nightly: false,
    alertPercent: '90',
  };
}

const text = (value: unknown) => (value === undefined || value === null ? '' : String(value));
const percent = (share: number) => String(Math.round(share * 1000) / 10);

/** A grader's stored `expected` as the field shows it: text as it is, anything else as JSON. */
function expectedText(expected: unknown): string {
  if (expected === undefined || expected === null) return '';
  return typeof expected === 'string' ? expected : JSON.stringify(expected);
}

/** The form's values for an evaluation being changed. */
export function draftFromEvaluation(evaluation: Evaluation): EvaluationDraft {
  return {
    name: evaluation.name,
    workflowId: evaluation.workflowId,
    datasetId: evaluation.datasetId,
    graders: evaluation.graders.map((grader) => draftFromGrader(grader)),
    passPercent: percent(evaluation.passThreshold),
    nightly: evaluation.schedule?.nightly ?? false,
    alertPercent: percent(evaluation.schedule?.minPassRate ?? 0.9),
  };
}

/** A stored (or imported) grader as the form holds it. */
export function draftFromGrader(grader: Grader): GraderDraft {
  const draft = newGrader(grader.type);
  draft.name = text(grader.name);
  draft.target = text(grader.target);
  draft.expected = expectedText(grader.expected);
  draft.weight = text(grader.weight);
  draft.threshold = text(grader.threshold);
  switch (grader.type) {
    case 'exact':
    case 'contains':
    case 'regex':
      draft.caseSensitive = grader.caseSensitive ?? false;
      break;
    case 'json_equals':
      draft.field = text(grader.field);
      break;
    case 'json_schema':
      draft.schema = JSON.stringify(grader.schema, null, 2);
      break;
    case 'numeric':
      draft.tolerance = text(grader.tolerance);
      draft.relative = grader.relative ?? false;
      break;
    case 'similarity':
      draft.provider = grader.provider;
      draft.model = grader.model;
      break;
    case 'llm_judge':
      draft.rubric = grader.rubric;
      draft.scale = grader.scale;
      draft.provider = grader.provider;
      draft.model = grader.model;
      break;
    case 'max_cost':
      draft.maxUsd = text(grader.maxUsd);
      break;
    case 'max_latency':
      draft.maxMs = text(grader.maxMs);
      break;
  }
  return draft;
}

/** Reads the form's texts, noting what is not a number or not JSON under its path. */
class Reader {
  readonly errors: DraftErrors = {};

  /** A number, undefined when empty. */
  number(value: string, path: string): number | undefined {
    const trimmed = value.trim();
    if (!trimmed) return undefined;
    const number = Number(trimmed);
    if (!Number.isFinite(number)) {
      this.errors[path] = 'Enter a number';
      return undefined;
    }
    return number;
  }

  /** A required number; NaN (refused by the schema) when empty. */
  required(value: string, path: string): number {
    const number = this.number(value, path);
    if (number === undefined && !this.errors[path]) this.errors[path] = 'Required';
    return number ?? Number.NaN;
  }

  jsonObject(value: string, path: string): Record<string, unknown> {
    try {
      const parsed: unknown = JSON.parse(value);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
        return parsed as Record<string, unknown>;
    } catch {
      // reported below
    }
    this.errors[path] = 'Enter a JSON object';
    return {};
  }
}

/**
 * A grader's `expected` from its field: empty is the item's own; JSON values for the graders that
 * compare values (a JSON field, a number), text for the others.
 */
function expectedValue(type: GraderType, value: string): unknown {
  if (!value.trim()) return undefined;
  if (type === 'numeric' || type === 'json_equals') {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }
  return value;
}

function graderBody(draft: GraderDraft, index: number, read: Reader): GraderInput {
  const path = `graders.${index}`;
  const base = {
    ...(draft.name.trim() ? { name: draft.name.trim() } : {}),
    ...(draft.target.trim() ? { target: draft.target.trim() } : {}),
    expected: expectedValue(draft.type, draft.expected),
    weight: read.number(draft.weight, `${path}.weight`),
    threshold: read.number(draft.threshold, `${path}.threshold`),
  };
  switch (draft.type) {
    case 'exact':
    case 'contains':
    case 'regex':
      return { type: draft.type, ...base, caseSensitive: draft.caseSensitive };
    case 'json_equals':
      return { type: 'json_equals', ...base, ...(draft.field.trim() ? { field: draft.field.trim() } : {}) };
    case 'json_schema':
      return { type: 'json_schema', ...base, schema: read.jsonObject(draft.schema, `${path}.schema`) };
    case 'numeric':
      return {
        type: 'numeric',
        ...base,
        tolerance: read.number(draft.tolerance, `${path}.tolerance`) ?? 0,
        relative: draft.relative,
      };
    case 'similarity':
      return {
        type: 'similarity',
        ...base,
        provider: draft.provider as 'openai',
        model: draft.model.trim(),
      };
    case 'llm_judge':
      return {
        type: 'llm_judge',
        ...base,
        rubric: draft.rubric,
        scale: draft.scale,
        provider: draft.provider as 'openai',
        model: draft.model.trim(),
      };
    case 'max_cost':
      return { type: 'max_cost', ...base, maxUsd: read.required(draft.maxUsd, `${path}.maxUsd`) };
    case 'max_latency':
      return { type: 'max_latency', ...base, maxMs: read.required(draft.maxMs, `${path}.maxMs`) };
  }
}

/** Drops the keys whose value is undefined (JSON would drop them anyway; the tests compare bodies). */
function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** Where a schema issue is shown: the pass threshold's share under its percent field. */
function issuePath(path: readonly PropertyKey[]): string {
  const joined = path.map(String).join('.');
  if (joined === 'passThreshold') return 'passPercent';
  if (joined.startsWith('schedule')) return 'alertPercent';
  return joined || 'form';
}

/**
 * The create request the form's values make, or the errors to show. `body` is what
 * createEvaluationSchema accepts (the form sends its input, the server applies the defaults).
 */
export function evaluationBody(
  draft: EvaluationDraft,
): { body: CreateEvaluationInput; errors: null } | { body: null; errors: DraftErrors } {
  const read = new Reader();
  const passPercent = read.required(draft.passPercent, 'passPercent');
  const alertPercent = draft.nightly ? read.required(draft.alertPercent, 'alertPercent') : 0;
  const body: CreateEvaluationInput = {
    name: draft.name,
    workflowId: draft.workflowId,
    datasetId: draft.datasetId,
    graders: draft.graders.map((grader, index) => defined(graderBody(grader, index, read))),
    passThreshold: passPercent / 100,
    schedule: draft.nightly ? { nightly: true, minPassRate: alertPercent / 100 } : null,
  };
  const errors: DraftErrors = { ...read.errors };
  if (!draft.workflowId) errors.workflowId ??= 'A workflow is required';
  if (!draft.datasetId) errors.datasetId ??= 'A dataset is required';
  const checked = createEvaluationSchema.safeParse(body);
  if (!checked.success) {
    for (const issue of checked.error.issues) {
      const path = issuePath(issue.path);
      if (path.startsWith('passPercent') || path.startsWith('alertPercent')) {
        errors[path] ??= 'Enter a percentage from 0 to 100';
      } else {
        errors[path] ??= issue.message;
      }
    }
  }
  return Object.keys(errors).length > 0 ? { body: null, errors } : { body, errors: null };
}

/** The placeholder of a grader's target: what it reads when it names none. */
export const TARGET_PLACEHOLDER = DEFAULT_GRADER_TARGET;
