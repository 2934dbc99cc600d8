// The expression language of workflows: CEL and `{{ expr }}` templates (docs/decisions/0040-cel-expressions.md).
export { ExpressionError, type ExpressionContext, type ExpressionScope } from './types';
export {
  EXPRESSION_CACHE_SIZE,
  checkCondition,
  checkExpression,
  checkTemplate,
  compileExpression,
  evaluate,
  evaluateCondition,
  renderTemplate,
  templateExpressions,
} from './expressions';
export { expressionPaths, type ExpressionPath } from './paths';
