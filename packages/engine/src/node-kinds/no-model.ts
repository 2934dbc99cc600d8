import type { EvaluatedExpression, NodeKind } from '@crewline/contracts';
import { WorkflowRunError } from '../errors';
import { ExpressionError } from '../expressions';
import { noUsage } from '../usage';
import type { StepResult } from './types';

/**
 * Evaluates for the node named `where` ('Condition "Route"'): an expression that cannot be
 * evaluated fails the run with the workflow's own error, naming the node, the expression and why.
 */
export function evaluatingIn<T>(where: string, evaluate: () => T): T {
  try {
    return evaluate();
  } catch (error) {
    if (error instanceof ExpressionError) throw new WorkflowRunError(`${where}: ${error.message}`);
    throw error;
  }
}

/** The result of a step that calls no model: no tokens, its data, and what it evaluated. */
export function noModelResult(
  kind: NodeKind,
  data: unknown,
  evaluated: EvaluatedExpression[],
  content = '',
): StepResult {
  return {
    content,
    data,
    metadata: {},
    usage: noUsage,
    evaluation: { kind, evaluated, result: data },
  };
}
