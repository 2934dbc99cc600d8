// The Loop node's part of the Properties panel: what runs, until when and at most how many times.
import { LOOP_ITERATIONS } from '@crewline/contracts';
import { useId } from 'react';

import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';

import { ExpressionField } from '../components/expression-field';
import { nodeDisplayName } from '../node-messages';
import { loopDataOf } from './loop';
import { RunTargetFields } from './run-target';
import type { NodePanelProps } from './types';

export function LoopPanelSettings({ node, set }: NodePanelProps) {
  const maxId = useId();
  const loop = loopDataOf(node.data);
  const nodeName = nodeDisplayName(node);
  const inRange = loop.maxIterations >= LOOP_ITERATIONS.min && loop.maxIterations <= LOOP_ITERATIONS.max;
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
      <div className="space-y-1.5">
        <Label htmlFor={maxId}>At most</Label>
        <Input
          id={maxId}
          type="number"
          min={LOOP_ITERATIONS.min}
          max={LOOP_ITERATIONS.max}
          step={1}
          value={loop.maxIterations}
          aria-invalid={!inRange || undefined}
          onChange={(e) => {
            const value = e.target.valueAsNumber;
            if (Number.isInteger(value)) set({ maxIterations: value });
          }}
        />
        <p className={inRange ? 'text-xs text-muted-foreground' : 'text-xs text-destructive'}>
          From {LOOP_ITERATIONS.min} to {LOOP_ITERATIONS.max} passes; reaching it completes the loop.
        </p>
      </div>
    </>
  );
}
