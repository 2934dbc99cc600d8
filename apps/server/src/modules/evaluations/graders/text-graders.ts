// The graders that compare texts: exact match, contains, regular expression (grade-item.ts has the rules).
import type { Grader } from '@crewline/contracts';
import { cut, quoted, textOf, type Verdict } from './values';

type Of<T extends Grader['type']> = Extract<Grader, { type: T }>;

/** Equal texts once trimmed; case counts unless `caseSensitive` is false. */
export function gradeExact(grader: Of<'exact'>, target: unknown, expected: unknown): Verdict {
  const caseSensitive = grader.caseSensitive ?? true;
  const answer = textOf(target).trim();
  const wanted = textOf(expected).trim();
  const equal = caseSensitive ? answer === wanted : answer.toLowerCase() === wanted.toLowerCase();
  if (equal)
    return { score: 1, reason: `Matches ${quoted(wanted)}${caseSensitive ? '' : ' (ignoring case)'}` };
  return { score: 0, reason: `Expected ${quoted(wanted)}, got ${quoted(answer)}` };
}

/** The answer holds the expected text; case is ignored unless `caseSensitive` is true. */
export function gradeContains(grader: Of<'contains'>, target: unknown, expected: unknown): Verdict {
  const caseSensitive = grader.caseSensitive ?? false;
  const answer = textOf(target);
  const wanted = textOf(expected);
  const found = caseSensitive ? answer.includes(wanted) : answer.toLowerCase().includes(wanted.toLowerCase());
  const how = caseSensitive ? '' : ' (ignoring case)';
  if (found) return { score: 1, reason: `Contains ${quoted(wanted)}${how}` };
  return { score: 0, reason: `Does not contain ${quoted(wanted)}${how}: got ${quoted(answer)}` };
}

/**
 * `expected` is the pattern, found anywhere in the answer. RE2 (re2js, loaded on first use): linear
 * time, so a pattern cannot stall the server on a long answer; no backreferences or lookarounds.
 */
export async function gradeRegex(grader: Of<'regex'>, target: unknown, expected: unknown): Promise<Verdict> {
  const { RE2JS } = await import('re2js');
  const caseSensitive = grader.caseSensitive ?? true;
  const pattern = textOf(expected);
  const shown = `/${cut(pattern)}/${caseSensitive ? '' : 'i'}`;
  let compiled: InstanceType<typeof RE2JS>;
  try {
    compiled = RE2JS.compile(pattern, caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE);
  } catch (error) {
    const why = (error instanceof Error ? error.message : String(error)).replace(
      /^error parsing regexp:\s*/,
      '',
    );
    return { score: 0, reason: `The pattern ${shown} is not a valid regular expression: ${cut(why)}` };
  }
  const answer = textOf(target);
  if (compiled.test(answer)) return { score: 1, reason: `Matches ${shown}` };
  return { score: 0, reason: `Does not match ${shown}: got ${quoted(answer)}` };
}
