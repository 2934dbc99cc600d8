import { nodeKinds, workflowMessages as m } from '@crewline/contracts';
import { WorkflowRunError } from '../errors';
import { checkExpression, evaluate } from '../expressions';
import { nodeName } from '../step-name';
import { evaluatingIn, noModelResult } from './no-model';
import type { EngineNodeKind } from './types';

const delayData = (data: Record<string, unknown> | undefined) =>
  nodeKinds.delay.data.safeParse(data ?? {}).data ?? {};

/** A time an expression gave: a CEL timestamp (a Date), an ISO string or epoch milliseconds. */
function instantOf(value: unknown): number | undefined {
  const time =
    value instanceof Date
      ? value.getTime()
      : typeof value === 'string'
        ? Date.parse(value)
        : typeof value === 'number' || typeof value === 'bigint'
          ? Number(value)
          : NaN;
  return Number.isFinite(time) ? time : undefined;
}

/**
 * Waits for a duration or until a time, durably (docs/product-rules.md, People in the loop): the wait
 * port stores its end and the run holds no worker; a time already past goes on at once.
 */
export const delayKind: EngineNodeKind<'delay'> = {
  kind: 'delay',
  validate(nodes, { scopeOf }) {
    const errors: string[] = [];
    for (const node of nodes) {
      const name = nodeName(node);
      const { seconds, until } = delayData(node.data);
      if (seconds === undefined && !until?.trim()) errors.push(m.delayNeedsTime(name));
      else if (seconds === undefined && until) {
        const reason = checkExpression(until, scopeOf(node.id));
        if (reason) errors.push(m.badExpression(name, until, reason));
      }
    }
    return errors;
  },
  executor: {
    async execute({ step, node, expressions }, ports) {
      const name = nodeName(node);
      if (!ports.waits || !ports.now)
        throw new WorkflowRunError(m.cannotWaitHere(nodeKinds.delay.label, name));
      const { seconds, until: expression } = delayData(node.data);
      const where = `Delay "${name}"`;
      let until: number;
      if (seconds !== undefined) until = ports.now() + seconds * 1000;
      else {
        const value = evaluatingIn(where, () => evaluate(expression ?? '', expressions));
        const instant = instantOf(value);
        if (instant === undefined)
          throw new WorkflowRunError(
            `${where}: ${expression} did not give a time (a timestamp or an ISO date)`,
          );
        until = instant;
      }
      const waited = await ports.waits.delay(step, { until, title: name });
      const at = new Date(waited.until).toISOString();
      return noModelResult('delay', { until: at }, [
        { name: 'until', expression: expression ?? `${seconds} s`, value: at },
      ]);
    },
  },
  // A delay passes on what came before it.
  relays: () => 'incoming',
};
