import { nodeKinds, workflowMessages as m, type EvaluatedExpression } from '@crewline/contracts';
import { checkExpression, evaluate } from '../expressions';
import { nodeName } from '../step-name';
import { evaluatingIn, noModelResult } from './no-model';
import type { EngineNodeKind } from './types';

/** What later expressions read as `vars.<name>`: an identifier. */
const VARIABLE_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

export const assignmentsOf = (data: Record<string, unknown> | undefined) =>
  nodeKinds.transform.data.safeParse(data ?? {}).data?.assignments ?? [];

/**
 * Sets named values into the run's `vars`, in order: a later value may read an earlier one. Its
 * step's data is the object it set.
 */
export const transformKind: EngineNodeKind<'transform'> = {
  kind: 'transform',
  validate(nodes, { scopeOf }) {
    const errors: string[] = [];
    for (const node of nodes) {
      const name = nodeName(node);
      const scope = scopeOf(node.id);
      const set = new Set<string>();
      for (const { name: variable, value } of assignmentsOf(node.data)) {
        if (!VARIABLE_NAME.test(variable)) errors.push(m.badVariableName(name, variable));
        else if (set.has(variable)) errors.push(m.duplicateVariable(name, variable));
        const reason = value.trim()
          ? checkExpression(value, { ...scope, vars: [...scope.vars, ...set] })
          : 'is empty';
        if (reason) errors.push(m.badExpression(name, value.trim() || `vars.${variable}`, reason));
        set.add(variable);
      }
    }
    return errors;
  },
  executor: {
    async execute({ node, expressions }) {
      const values: Record<string, unknown> = {};
      const evaluated: EvaluatedExpression[] = [];
      for (const { name, value } of assignmentsOf(node.data)) {
        values[name] = evaluatingIn(`Transform "${nodeName(node)}"`, () =>
          evaluate(value, { ...expressions, vars: { ...expressions.vars, ...values } }),
        );
        evaluated.push({ name, expression: value, value: values[name] });
      }
      return noModelResult('transform', values, evaluated);
    },
  },
  sets: (output) =>
    typeof output.data === 'object' && output.data !== null ? (output.data as Record<string, unknown>) : {},
  relays: () => 'incoming',
};
