// The Loop node's part of the Properties panel: what runs, until when and at most how many times.
import { LOOP_ITERATIONS } from '@crewline/contracts';

import { ExpressionField } from '../components/expression-field';
import { nodeDisplayName } from '../node-messages';
import { IntegerRangeField } from './integer-range-field';
import { loopDataOf } from './loop';
import { RunTargetFields } from './run-target';
import type { NodePanelProps } from './types';

export function LoopPanelSettings({ node, set }: NodePanelProps) {
  const loop = loopDataOf(node.data);
  const nodeName = nodeDisplayName(node);
  return (
    <>
      <RunTargetFields
        run={loop.run}
        nodeId={node.id}
        nodeName={nodeName}
        onChange={(run, step) => set({ run }, step)}
      />
      <ExpressionField
        label="Until"
        value={loop.until}
        quotedAs={loop.until.trim() || 'until'}
        nodeId={node.id}
        nodeName={nodeName}
        syntax="condition"
        iteration
        placeholder="last.data.approved == true"
        hint="Checked after each pass; last is the pass that just finished."
        onChange={(until) => set({ until })}
      />
      <IntegerRangeField
        label="At most"
        value={loop.maxIterations}
        range={LOOP_ITERATIONS}
        hint={`From ${LOOP_ITERATIONS.min} to ${LOOP_ITERATIONS.max} passes; reaching it completes the loop.`}
        onChange={(maxIterations) => set({ maxIterations })}
      />
    </>
  );
}
