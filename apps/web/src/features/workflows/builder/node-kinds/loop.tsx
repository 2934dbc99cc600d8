// The Loop node on the canvas (what runs, until when, at most how many times, and in a run its pass)
// and its part of the Properties panel.
import { LOOP_ITERATIONS, nodeKinds } from '@crewline/contracts';
import type { NodeProps } from '@xyflow/react';
import { Repeat } from 'lucide-react';
import { memo, useId, useMemo } from 'react';

import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { ItemProgressLine } from '@/components/workflow-graph/item-progress';
import { itemProgress } from '@/lib/runs/run-state';

import { ExpressionField } from '../components/expression-field';
import { nodeDisplayName } from '../node-messages';
import { useNodeItems } from '../run-progress';
import type { BuilderNode } from '../types';
import { KindCard } from './kind-card';
import { RunTargetFields, useRunTargetName } from './run-target';
import type { BuilderNodeKind, NodePanelProps } from './types';

const ACCENT = '#f97316';

const loopDataOf = (data: Record<string, unknown>) =>
  nodeKinds.loop.data.safeParse(data).data ?? { run: undefined, until: '', maxIterations: 3 };

/** The loop's pass in the run shown (none before its first pass started). */
function LoopRunProgress({ id }: { id: string }) {
  const items = useNodeItems(id);
  const progress = useMemo(() => (items ? itemProgress(items) : null), [items]);
  return progress?.pass ? <ItemProgressLine kind="loop" progress={progress} /> : null;
}

function LoopNodeComponent({ id, data, selected }: NodeProps<BuilderNode>) {
  const loop = loopDataOf(data);
  const target = useRunTargetName(loop.run);
  return (
    <KindCard
      id={id}
      kind="loop"
      label={data.label}
      Icon={Repeat}
      accent={ACCENT}
      selected={selected}
      className="w-60"
    >
      <div className="space-y-0.5 border-t px-3 py-2 text-[11px]">
        <div className="truncate text-muted-foreground">
          {loop.run ? (target ?? ('agentId' in loop.run ? 'Agent' : 'Workflow')) : 'Nothing to run yet'} · at
          most {loop.maxIterations}×
        </div>
        <div className="truncate">
          <span className="text-muted-foreground">Until </span>
          <span className="font-mono">{loop.until || '…'}</span>
        </div>
      </div>
      <LoopRunProgress id={id} />
    </KindCard>
  );
}

function LoopPanelSettings({ node, set }: NodePanelProps) {
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

export const loopKind: BuilderNodeKind<'loop'> = {
  kind: 'loop',
  Node: memo(LoopNodeComponent),
  Icon: Repeat,
  accent: ACCENT,
  miniMapColor: () => ACCENT,
  PanelSettings: LoopPanelSettings,
};
