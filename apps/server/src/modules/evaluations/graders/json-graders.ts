// The graders that read the answer as JSON: a field equals, the schema is followed (grade-item.ts has the rules).
import type { Grader } from '@crewline/contracts';
import { asJson, cut, jsonEqual, quoted, shownJson, valueAtPath, type Verdict } from './values';

type Of<T extends Grader['type']> = Extract<Grader, { type: T }>;

/** Schema errors a reason lists. */
const ERRORS_SHOWN = 3;

const notJson = (target: unknown): Verdict => ({
  score: 0,
  reason: `The answer is not JSON: ${quoted(target)}`,
});

/**
 * The answer (text holding JSON is parsed) at `field`, or whole, deep-equals `expected` (parsed too
 * when it is text holding JSON, so '{"a":1}' equals {a: 1}); key order does not matter.
 */
export function gradeJsonEquals(grader: Of<'json_equals'>, target: unknown, expected: unknown): Verdict {
  const answer = asJson(target);
  if (!answer.ok) return notJson(target);
  const parsed = asJson(expected);
  const wanted = parsed.ok ? parsed.value : expected;
  const field = grader.field?.trim();
  let value = answer.value;
  if (field) {
    const at = valueAtPath(answer.value, field);
    if (!at.found) return { score: 0, reason: `${field} is missing (expected ${shownJson(wanted)})` };
    value = at.value;
  }
  const what = field ?? 'The answer';
  if (jsonEqual(value, wanted)) return { score: 1, reason: `${what} equals ${shownJson(wanted)}` };
  return { score: 0, reason: `${what} is ${shownJson(value)}, expected ${shownJson(wanted)}` };
}

/** The answer (text holding JSON is parsed) is valid against the grader's JSON Schema. */
export async function gradeJsonSchema(grader: Of<'json_schema'>, target: unknown): Promise<Verdict> {
  const answer = asJson(target);
  if (!answer.ok) return notJson(target);
  // Loading the validator loads Ajv: on first use (docs/architecture.md, Runtime).
  const { schemaValidator, fieldOf } = await import('../../../platform/json-schema');
  let validate: ReturnType<typeof schemaValidator>;
  try {
    validate = schemaValidator(grader.schema);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { score: 0, reason: `The grader's schema is not a valid JSON Schema: ${cut(why)}` };
  }
  if (validate(answer.value)) return { score: 1, reason: 'The answer follows the schema' };
  const errors = validate.errors ?? [];
  const problems = errors.slice(0, ERRORS_SHOWN).map((error) => {
    const field = fieldOf(error.instancePath);
    return `${field ? `"${field}"` : 'the answer'} ${error.message ?? 'does not follow the schema'}`;
  });
  const more = errors.length > ERRORS_SHOWN ? ` (and ${errors.length - ERRORS_SHOWN} more)` : '';
  return { score: 0, reason: cut(`Does not follow the schema: ${problems.join('; ')}${more}`, 500) };
}
