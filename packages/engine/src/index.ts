export * from './estimate';
export * from './prompt';
export * from './validation';
export * from './schedule';
export * from './plan';
export * from './run-workflow';
export { approvalStepResult, guardrailRuleErrors, nodeAgentId } from './node-kinds';
export * from './test-node';
export { nodeName } from './step-name';
// The builder checks, completes and previews expressions as they are typed (its expression fields).
export {
  ExpressionError,
  checkCondition,
  checkExpression,
  checkTemplate,
  evaluate,
  evaluateCondition,
  expressionPaths,
  renderTemplate,
  templateExpressions,
  type ExpressionContext,
  type ExpressionPath,
  type ExpressionScope,
} from './expressions';
export { addUsage, noUsage } from './usage';
export { checkGraderTarget, evaluateGraderTarget, type GradingContext } from './expressions/grading';
