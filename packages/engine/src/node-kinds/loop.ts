import {
  LOOP_ITERATIONS,
  nodeKinds,
  workflowMessages as m,
  type EvaluatedExpression,
  type StepItemResult,
} from '@crewline/contracts';
import { WorkflowRunError } from '../errors';
import { checkCondition, evaluateCondition } from '../expressions';
import { nodeName } from '../step-name';
import { evaluatingIn, noModelResult } from './no-model';
import { runTarget, runTargetErrors } from './run-target';
import type { EngineNodeKind } from './types';

const loopData = (data: Record<string, unknown> | undefined) =>
  nodeKinds.loop.data.safeParse(data ?? {}).data;

/**
 * Runs an agent (or a workflow) again and again, each pass its own child step `loop#2`, until its
 * `until` condition over `last` (the pass that just finished) is true, at most `maxIterations`
 * times (reaching it completes the node). Its data is every pass; its text the last pass's.
 */
export const loopKind: EngineNodeKind<'loop'> = {
  kind: 'loop',
  validate(nodes, context) {
    const errors: string[] = [];
    for (const node of nodes) {
      const name = nodeName(node);
      const data = loopData(node.data);
      if (!data) continue;
      const scope = context.scopeOf(node.id);
      const reason = data.until.trim()
        ? checkCondition(data.until, { ...scope, iteration: true })
        : 'is empty';
      if (reason) errors.push(m.badExpression(name, data.until.trim() || 'until', reason));
      errors.push(...runTargetErrors({ kind: 'Loop', name }, data.run, scope, context));
      if (data.maxIterations < LOOP_ITERATIONS.min || data.maxIterations > LOOP_ITERATIONS.max)
        errors.push(m.loopIterations(name));
    }
    return errors;
  },
  executor: {
    async execute(task, ports) {
      const { node, expressions } = task;
      const name = nodeName(node);
      const data = loopData(node.data);
      if (!data?.run) throw new WorkflowRunError(m.noRunTarget('Loop', name));
      const where = `Loop "${name}"`;
      const passes: StepItemResult[] = [];
      const evaluated: EvaluatedExpression[] = [];
      const allowed = Math.min(Math.max(data.maxIterations, LOOP_ITERATIONS.min), LOOP_ITERATIONS.max);
      // A test of the node runs the first few passes at most.
      const times = Math.min(allowed, task.run.limit ?? allowed);
      for (let index = 0; index < times; index++) {
        const last = passes.at(-1) ?? null;
        const out = await runTarget(task, ports, {
          target: data.run,
          stepId: `${node.id}#${index + 1}`,
          scope: { ...expressions, item: last?.data ?? null, index, last },
          where,
        });
        const pass: StepItemResult = {
          index,
          status: 'completed',
          content: out.content,
          data: out.data ?? null,
        };
        passes.push(pass);
        const done = evaluatingIn(where, () =>
          evaluateCondition(data.until, { ...expressions, index, last: pass }),
        );
        evaluated.push({ name: `until, after pass ${index + 1}`, expression: data.until, value: done });
        if (done) break;
      }
      return noModelResult('loop', passes, evaluated, passes.at(-1)?.content ?? '');
    },
  },
};
