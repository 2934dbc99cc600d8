import {
  MAP_CONCURRENCY,
  MAP_MAX_ITEMS,
  nodeKinds,
  workflowMessages as m,
  type StepItemResult,
} from '@crewline/contracts';
import { RunWaiting, WorkflowRunError } from '../errors';
import { checkExpression, evaluate } from '../expressions';
import { nodeName } from '../step-name';
import { evaluatingIn, noModelResult } from './no-model';
import { runTarget, runTargetErrors } from './run-target';
import type { EngineNodeKind } from './types';

const mapData = (data: Record<string, unknown> | undefined) => nodeKinds.map.data.safeParse(data ?? {}).data;

const typeName = (value: unknown) =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'a list'
      : `a ${typeof value === 'object' ? 'map' : typeof value}`;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Runs an agent (or a workflow) for each item of a list, at most `concurrency` at a time, each item
 * its own child step `map[3]`; its data is the items' results in item order. An item that fails
 * stops the map (`fail`: no new item starts, those running finish and are kept) or is kept as an
 * error (`continue`). A resumed or retried run reuses every finished item.
 */
export const mapKind: EngineNodeKind<'map'> = {
  kind: 'map',
  validate(nodes, context) {
    const errors: string[] = [];
    for (const node of nodes) {
      const name = nodeName(node);
      const data = mapData(node.data);
      if (!data) continue;
      const scope = context.scopeOf(node.id);
      const reason = data.items.trim() ? checkExpression(data.items, scope) : 'is empty';
      if (reason) errors.push(m.badExpression(name, data.items.trim() || 'items', reason));
      errors.push(...runTargetErrors({ kind: 'Map', name }, data.run, scope, context));
      if (data.concurrency < MAP_CONCURRENCY.min || data.concurrency > MAP_CONCURRENCY.max)
        errors.push(m.mapConcurrency(name));
    }
    return errors;
  },
  executor: {
    async execute(task, ports) {
      const { node, expressions } = task;
      const name = nodeName(node);
      const data = mapData(node.data);
      if (!data?.run) throw new WorkflowRunError(m.noRunTarget('Map', name));
      const target = data.run;
      const where = `Map "${name}"`;
      const items = evaluatingIn(where, () => evaluate(data.items, expressions));
      if (!Array.isArray(items))
        throw new WorkflowRunError(`${where}: items gave ${typeName(items)}, not a list`);
      const most = task.run.mapItems ?? MAP_MAX_ITEMS;
      if (items.length > most) throw new WorkflowRunError(m.tooManyItems(name, items.length, most));
      await task.run.items?.(task.step, items.length);
      // A test of the node takes the first few items; the record still says how many there were.
      const taken = task.run.limit === undefined ? items : items.slice(0, task.run.limit);

      const results: StepItemResult[] = new Array(taken.length);
      let next = 0;
      let stopped: unknown;
      let failed: StepItemResult | undefined;
      const worker = async () => {
        while (next < taken.length && stopped === undefined && !failed) {
          const index = next++;
          const scope = { ...expressions, item: taken[index], index, last: index === items.length - 1 };
          try {
            const out = await runTarget(task, ports, {
              target,
              stepId: `${node.id}[${index}]`,
              scope,
              where,
            });
            results[index] = { index, status: 'completed', content: out.content, data: out.data ?? null };
          } catch (error) {
            // A cancel or a stopping worker stops the map; it is no item's failure.
            if (ports.stops?.(error) || error instanceof RunWaiting || stopped !== undefined) {
              stopped ??= error;
              return;
            }
            results[index] = { index, status: 'failed', content: '', data: null, error: messageOf(error) };
            if (data.onItemError === 'fail') failed ??= results[index];
          }
        }
      };
      const concurrency = Math.min(Math.max(data.concurrency, MAP_CONCURRENCY.min), MAP_CONCURRENCY.max);
      await Promise.all(Array.from({ length: Math.min(concurrency, taken.length) }, worker));
      if (stopped !== undefined) throw stopped;
      if (failed)
        throw new WorkflowRunError(
          `${where}: item ${failed.index + 1} of ${items.length} failed: ${failed.error}`,
        );

      const content = results
        .map((r) => r.content)
        .filter(Boolean)
        .join('\n\n');
      return noModelResult(
        'map',
        results,
        [{ name: 'items', expression: data.items, value: items.length }],
        content,
      );
    },
  },
};
