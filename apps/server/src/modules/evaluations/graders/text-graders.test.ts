import { graderSchema, type Grader, type GraderInput } from '@crewline/contracts';
import { describe, expect, it } from 'vitest';
import { gradeContains, gradeExact, gradeRegex } from './text-graders';

const grader = <T extends Grader['type']>(input: GraderInput & { type: T }) =>
  graderSchema.parse(input) as Extract<Grader, { type: T }>;

describe('exact', () => {
  it('passes equal texts once trimmed, and counts case by default', () => {
    expect(gradeExact(grader({ type: 'exact' }), '  Paris\n', 'Paris')).toEqual({
      score: 1,
      reason: 'Matches "Paris"',
    });
    expect(gradeExact(grader({ type: 'exact' }), 'paris', 'Paris')).toEqual({
      score: 0,
      reason: 'Expected "Paris", got "paris"',
    });
  });

  it('ignores case when told', () => {
    expect(gradeExact(grader({ type: 'exact', caseSensitive: false }), 'PARIS', 'paris')).toEqual({
      score: 1,
      reason: 'Matches "paris" (ignoring case)',
    });
  });

  it('compares other values by their JSON', () => {
    expect(gradeExact(grader({ type: 'exact' }), { a: 1 }, '{"a":1}').score).toBe(1);
    expect(gradeExact(grader({ type: 'exact' }), 42, '42').score).toBe(1);
  });

  it('quotes a long answer cut at 200 characters', () => {
    const { reason } = gradeExact(grader({ type: 'exact' }), 'x'.repeat(5000), 'short');
    expect(reason).toBe(`Expected "short", got "${'x'.repeat(199)}…"`);
  });
});

describe('contains', () => {
  it('ignores case by default', () => {
    expect(gradeContains(grader({ type: 'contains' }), 'The capital is PARIS.', 'paris')).toEqual({
      score: 1,
      reason: 'Contains "paris" (ignoring case)',
    });
    expect(gradeContains(grader({ type: 'contains' }), 'The capital is Lyon.', 'Paris')).toEqual({
      score: 0,
      reason: 'Does not contain "Paris" (ignoring case): got "The capital is Lyon."',
    });
  });

  it('counts case when told', () => {
    const g = grader({ type: 'contains', caseSensitive: true });
    expect(gradeContains(g, 'The capital is PARIS.', 'Paris').score).toBe(0);
    expect(gradeContains(g, 'The capital is Paris.', 'Paris')).toEqual({
      score: 1,
      reason: 'Contains "Paris"',
    });
  });
});

describe('regex', () => {
  it('finds the pattern anywhere, counting case by default', async () => {
    const g = grader({ type: 'regex' });
    expect(await gradeRegex(g, 'Order #A-1234 shipped', 'A-\\d{4}')).toEqual({
      score: 1,
      reason: 'Matches /A-\\d{4}/',
    });
    expect(await gradeRegex(g, 'order #a-1234 shipped', 'A-\\d{4}')).toEqual({
      score: 0,
      reason: 'Does not match /A-\\d{4}/: got "order #a-1234 shipped"',
    });
  });

  it('ignores case when caseSensitive is false', async () => {
    const g = grader({ type: 'regex', caseSensitive: false });
    expect(await gradeRegex(g, 'order #a-1234 shipped', 'A-\\d{4}')).toEqual({
      score: 1,
      reason: 'Matches /A-\\d{4}/i',
    });
  });

  it('scores 0 and says why when the pattern does not compile', async () => {
    expect(await gradeRegex(grader({ type: 'regex' }), 'anything', '(unclosed')).toEqual({
      score: 0,
      reason: 'The pattern /(unclosed/ is not a valid regular expression: missing closing ): `(unclosed`',
    });
    // RE2 has no backreferences.
    expect((await gradeRegex(grader({ type: 'regex' }), 'aa', '(a)\\1')).reason).toMatch(
      /is not a valid regular expression: invalid escape sequence/,
    );
  });

  it('runs in linear time on a pattern that backtracks in JavaScript', async () => {
    const started = performance.now();
    const verdict = await gradeRegex(grader({ type: 'regex' }), `${'a'.repeat(50_000)}!`, '^(a+)+$');
    expect(verdict.score).toBe(0);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
