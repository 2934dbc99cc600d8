import { ELSE_BRANCH, nodeKinds, workflowMessages as m, type EvaluatedExpression } from '@crewline/contracts';
import { checkExpression, evaluateCondition } from '../expressions';
import { nodeName } from '../step-name';
import { evaluatingIn, noModelResult } from './no-model';
import type { EngineNodeKind } from './types';

const branchesOf = (data: Record<string, unknown> | undefined) =>
  nodeKinds.condition.data.safeParse(data ?? {}).data?.branches ?? [];

/** The taken branch of a condition's step: `{ branch }`. */
const branchOf = (data: unknown) =>
  typeof data === 'object' && data !== null ? (data as { branch?: unknown }).branch : undefined;

/**
 * Chooses one path: the first branch whose expression is true, else the else path, which must be
 * connected so a run always has somewhere to go (docs/product-rules.md, Workflows that decide).
 */
export const conditionKind: EngineNodeKind<'condition'> = {
  kind: 'condition',
  validate(nodes, { outgoing, scopeOf }) {
    const errors: string[] = [];
    for (const node of nodes) {
      const name = nodeName(node);
      const branches = branchesOf(node.data);
      if (branches.length === 0) errors.push(m.noBranches(name));
      const ids = new Set(branches.map((b) => b.id));
      if (ids.size < branches.length || ids.has(ELSE_BRANCH)) errors.push(m.duplicateBranch(name));
      const scope = scopeOf(node.id);
      for (const branch of branches) {
        const reason = branch.when.trim() ? checkExpression(branch.when, scope) : 'is empty';
        if (reason) errors.push(m.badExpression(name, branch.when.trim() || `"${branch.label}"`, reason));
      }
      const handles = outgoing(node.id).map((e) => e.sourceHandle ?? null);
      if (handles.some((h) => h === null || (h !== ELSE_BRANCH && !ids.has(h))))
        errors.push(m.unknownBranch(name));
      if (!handles.includes(ELSE_BRANCH)) errors.push(m.elseRequired(name));
    }
    return errors;
  },
  executor: {
    async execute({ node, expressions }) {
      const evaluated: EvaluatedExpression[] = [];
      let branch = ELSE_BRANCH;
      for (const each of branchesOf(node.data)) {
        const value = evaluatingIn(`Condition "${nodeName(node)}"`, () =>
          evaluateCondition(each.when, expressions),
        );
        evaluated.push({ name: each.label || each.id, expression: each.when, value });
        if (value) {
          branch = each.id;
          break;
        }
      }
      return noModelResult('condition', { branch }, evaluated);
    },
  },
  takes: (output, handle) => handle !== null && handle !== undefined && branchOf(output.data) === handle,
  relays: () => 'incoming',
};
