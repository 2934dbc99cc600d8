import {
  DEFAULT_GUARDRAIL_MODEL,
  guardrailMessages as g,
  guardrailPathValues,
  guardrailResultSchema,
  nodeKinds,
  workflowMessages as m,
  type EvaluatedExpression,
  type GuardrailCheckInput,
  type GuardrailResult,
} from '@crewline/contracts';
import { WorkflowRunError } from '../errors';
import {
  checkCondition,
  checkExpression,
  evaluate,
  evaluateCondition,
  type ExpressionScope,
} from '../expressions';
import { inputText } from '../prompt';
import { nodeName } from '../step-name';
import { evaluatingIn } from './no-model';
import type { EngineNodeKind } from './types';

const guardrailData = (data: Record<string, unknown> | undefined) =>
  nodeKinds.guardrail.data.safeParse(data ?? {}).data ?? {
    target: undefined,
    checks: [],
    classifier: undefined,
  };

/**
 * What is wrong with a list of checks' custom rules (a guardrail step's, an agent's): a rule with
 * neither an expression nor topics, an expression that does not check as a condition over `text`
 * and what `scope` offers. `name` is the guardrail's, as messages name it.
 */
export function guardrailRuleErrors(
  name: string,
  checks: readonly GuardrailCheckInput[],
  scope: ExpressionScope,
): string[] {
  const errors: string[] = [];
  for (const check of checks) {
    if (check.type !== 'rule') continue;
    if (!check.when?.trim() && !check.topics?.length) errors.push(g.ruleEmpty(name));
    if (check.when?.trim()) {
      const reason = checkCondition(check.when, { ...scope, text: true });
      if (reason) errors.push(m.badExpression(name, check.when, reason));
    }
  }
  return errors;
}

const passedOf = (data: unknown) => guardrailResultSchema.safeParse(data).data?.passed;

const asText = (value: unknown): string =>
  typeof value === 'string' ? value : value === null || value === undefined ? '' : JSON.stringify(value);

/**
 * Checks a text (its target, else the text of the step before it, else the run's input) with the
 * checks that are on, through the `guard` port (detectors, classifier and moderation calls; a custom
 * rule's CEL is evaluated here, over `text` and the run's state), and takes the `pass` or `fail`
 * path. Its text is what goes on, redacted where a check asked: the steps after it read it, not the
 * original (docs/product-rules.md, Guardrails).
 */
export const guardrailKind: EngineNodeKind<'guardrail'> = {
  kind: 'guardrail',
  validate(nodes, { outgoing, scopeOf }) {
    const errors: string[] = [];
    for (const node of nodes) {
      const name = nodeName(node);
      const { target, checks } = guardrailData(node.data);
      const on = checks.filter((c) => c.enabled);
      if (on.length === 0) errors.push(g.noChecks(name));
      const scope = scopeOf(node.id);
      if (target?.trim()) {
        const reason = checkExpression(target, scope);
        if (reason) errors.push(m.badExpression(name, target, reason));
      }
      errors.push(...guardrailRuleErrors(name, checks, scope));
      const handles = outgoing(node.id).map((e) => e.sourceHandle ?? null);
      if (handles.some((h) => !guardrailPathValues.includes(h as never))) errors.push(g.unknownPath(name));
      if (!handles.includes('pass') || !handles.includes('fail')) errors.push(g.pathsRequired(name));
    }
    return errors;
  },
  executor: {
    async execute({ step, node, expressions, inputs }, ports) {
      const name = nodeName(node);
      const { target, checks, classifier } = guardrailData(node.data);
      if (!ports.guard)
        throw new WorkflowRunError(`Guardrail "${name}" cannot run here: this run has no guardrails`);
      const evaluated: EvaluatedExpression[] = [];
      let text: string;
      if (target?.trim()) {
        text = asText(evaluatingIn(`Guardrail "${name}"`, () => evaluate(target, expressions)));
      } else {
        const before = inputs.at(-1)?.output;
        text = before ? before.content || asText(before.data) : inputText(expressions.input);
      }
      const answer = await ports.guard({
        step,
        text,
        checks: checks.filter((c) => c.enabled),
        model: classifier ?? DEFAULT_GUARDRAIL_MODEL,
        holds: (when) =>
          evaluatingIn(`Guardrail "${name}"`, () => evaluateCondition(when, { ...expressions, text })),
      });
      const data: GuardrailResult = { passed: answer.passed, text: answer.text, findings: answer.findings };
      // The checked text is recorded as it goes on (redacted), never as it came.
      if (target?.trim()) evaluated.push({ name: 'target', expression: target, value: answer.text });
      return {
        content: answer.text,
        data,
        metadata: {},
        usage: answer.usage,
        evaluation: { kind: 'guardrail', evaluated, result: data },
      };
    },
  },
  // With no target and no step before it, it checks the run's input: what it lets through stands for it.
  screensInput: (node, hasInputs) => !hasInputs && !guardrailData(node.data).target?.trim(),
  takes: (output, handle) => handle === (passedOf(output.data) === false ? 'fail' : 'pass'),
  outputSchema: () => ({
    type: 'object',
    properties: {
      passed: { type: 'boolean' },
      text: { type: 'string' },
      findings: { type: 'array' },
    },
  }),
};
