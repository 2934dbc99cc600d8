// The demo page's state (docs/product-rules.md): one card per demo tool, edited, saved, toggled and
// tested without any server. A pure reducer, plus the timer that ends a test.
import { isMaskedSecret } from '@/lib/secret-mask';

import {
  DEMO_TEST_DELAY_MS,
  DEMO_TOOLS,
  demoToolById,
  type DemoFieldDef,
  type DemoToolDef,
  type DemoToolId,
} from './demo-tools';

/** What the card's badge says. A test in progress keeps the previous status (see `testing`). */
export type DemoStatus = 'untested' | 'connected' | 'error';

export type DemoValues = Record<string, string>;

export interface DemoCardState {
  /** The saved values; secrets in full, masked only when shown. */
  values: DemoValues;
  isActive: boolean;
  status: DemoStatus;
  testing: boolean;
  /** The latest outcome in words, read out by the card's status line. */
  message: string;
  /** The values being edited, or null in read-only mode. */
  draft: DemoValues | null;
  /** Field errors of the last Save, by field key. */
  errors: Record<string, string>;
}

export type DemoState = Record<DemoToolId, DemoCardState>;

export type DemoAction =
  | { type: 'edit'; id: DemoToolId }
  | { type: 'change'; id: DemoToolId; key: string; value: string }
  | { type: 'save'; id: DemoToolId }
  | { type: 'cancel'; id: DemoToolId }
  | { type: 'toggle'; id: DemoToolId }
  | { type: 'testStarted'; id: DemoToolId }
  | { type: 'testFinished'; id: DemoToolId };

export const MESSAGES = {
  untested: 'Not tested yet.',
  testing: 'Testing the connection…',
  succeeded: 'Connection successful.',
  saved: 'Settings saved.',
  failed: (reasons: string[]) => `Test failed. ${reasons.join(' ')}`,
} as const;

/* ----------------------------------------------------------------------------------------------
 * Secrets
 * -------------------------------------------------------------------------------------------- */

const SECRET_MASK = '••••••••';

/**
 * How a saved secret is shown, like the real connections: the mask, with the last 4 characters only
 * when at least 8 others stay hidden.
 */
export function maskSecret(secret: string): string {
  if (secret === '') return '';
  const characters = Array.from(secret);
  return characters.length < 12 ? SECRET_MASK : SECRET_MASK + characters.slice(-4).join('');
}

/* ----------------------------------------------------------------------------------------------
 * Validation
 * -------------------------------------------------------------------------------------------- */

/** Pinecone's own rule for index names. */
const INDEX_NAME = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
const INDEX_NAME_MAX = 45;
const MAX_VECTOR_DIMENSION = 20000;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function fieldError(field: DemoFieldDef, raw: string): string | null {
  const value = raw.trim();
  if (value === '') return field.required ? `${field.label} is required.` : null;
  if (field.kind === 'select' && !field.options?.some((option) => option.value === value)) {
    return `Choose a ${field.label}.`;
  }
  if (field.kind === 'number') {
    const n = /^\d+$/.test(value) ? Number(value) : NaN;
    if (!(n >= 1 && n <= MAX_VECTOR_DIMENSION)) {
      return `${field.label} must be a whole number from 1 to ${MAX_VECTOR_DIMENSION}.`;
    }
  }
  if (field.kind === 'email' && !EMAIL.test(value)) return `${field.label} must be an email address.`;
  if (field.key === 'indexName') {
    if (value.length > INDEX_NAME_MAX) return `${field.label} must be at most ${INDEX_NAME_MAX} characters.`;
    if (!INDEX_NAME.test(value)) {
      return `${field.label} may only hold lowercase letters, numbers and hyphens, and cannot start or end with a hyphen.`;
    }
  }
  return null;
}

/** The field errors of a card's values, by field key, in the card's field order. */
export function validateDemoValues(def: DemoToolDef, values: DemoValues): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const field of def.fields) {
    const error = fieldError(field, values[field.key] ?? '');
    if (error) errors[field.key] = error;
  }
  return errors;
}

/* ----------------------------------------------------------------------------------------------
 * Reducer
 * -------------------------------------------------------------------------------------------- */

export function initialDemoState(): DemoState {
  return Object.fromEntries(
    DEMO_TOOLS.map((def) => [
      def.id,
      {
        values: { ...def.initialValues },
        isActive: def.initiallyActive,
        status: 'untested',
        testing: false,
        message: MESSAGES.untested,
        draft: null,
        errors: {},
      } satisfies DemoCardState,
    ]),
  ) as DemoState;
}

/** Edit mode starts from the saved values, with saved secrets shown as their mask. */
function draftOf(def: DemoToolDef, values: DemoValues): DemoValues {
  const draft: DemoValues = {};
  for (const field of def.fields) {
    const value = values[field.key] ?? '';
    draft[field.key] = field.kind === 'secret' ? maskSecret(value) : value;
  }
  return draft;
}

/** The values a Save keeps: trimmed, and a secret still showing its mask keeps the saved secret. */
function resolveDraft(def: DemoToolDef, draft: DemoValues, saved: DemoValues): DemoValues {
  const values: DemoValues = {};
  for (const field of def.fields) {
    const value = (draft[field.key] ?? '').trim();
    values[field.key] = field.kind === 'secret' && isMaskedSecret(value) ? (saved[field.key] ?? '') : value;
  }
  return values;
}

function withoutKey(errors: Record<string, string>, key: string): Record<string, string> {
  if (!(key in errors)) return errors;
  const rest = { ...errors };
  delete rest[key];
  return rest;
}

function reduceCard(def: DemoToolDef, card: DemoCardState, action: DemoAction): DemoCardState {
  switch (action.type) {
    case 'edit':
      // A running test is about the saved values: they cannot change under it.
      if (card.draft || card.testing) return card;
      return { ...card, draft: draftOf(def, card.values), errors: {} };
    case 'change':
      if (!card.draft) return card;
      return {
        ...card,
        draft: { ...card.draft, [action.key]: action.value },
        errors: withoutKey(card.errors, action.key),
      };
    case 'cancel':
      return card.draft ? { ...card, draft: null, errors: {} } : card;
    case 'save': {
      if (!card.draft) return card;
      const values = resolveDraft(def, card.draft, card.values);
      const errors = validateDemoValues(def, values);
      if (Object.keys(errors).length > 0) return { ...card, errors };
      return { ...card, values, draft: null, errors: {}, status: 'connected', message: MESSAGES.saved };
    }
    case 'toggle':
      return { ...card, isActive: !card.isActive };
    case 'testStarted': {
      // Test checks the saved values; an edit in progress is saved or cancelled first.
      if (card.draft || card.testing) return card;
      const errors = validateDemoValues(def, card.values);
      const reasons = Object.values(errors);
      if (reasons.length > 0) return { ...card, status: 'error', message: MESSAGES.failed(reasons) };
      return { ...card, testing: true, message: MESSAGES.testing };
    }
    case 'testFinished':
      if (!card.testing) return card;
      return { ...card, testing: false, status: 'connected', message: MESSAGES.succeeded };
  }
}

export function demoReducer(state: DemoState, action: DemoAction): DemoState {
  const card = state[action.id];
  const next = reduceCard(demoToolById(action.id), card, action);
  return next === card ? state : { ...state, [action.id]: next };
}

/**
 * Starts a card's test: an invalid card fails at once, a valid one succeeds after the demo delay.
 * Returns what stops the pending timer (the page leaving).
 */
export function startDemoTest(
  dispatch: (action: DemoAction) => void,
  id: DemoToolId,
  delay = DEMO_TEST_DELAY_MS,
): () => void {
  dispatch({ type: 'testStarted', id });
  // Always scheduled: the reducer ignores the end of a test that failed at once or never started.
  const timer = setTimeout(() => dispatch({ type: 'testFinished', id }), delay);
  return () => clearTimeout(timer);
}
