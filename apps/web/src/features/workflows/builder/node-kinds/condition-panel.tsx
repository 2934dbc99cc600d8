// The Condition node's part of the Properties panel: its branches in the order they are tried (add,
// remove, move up or down, label, `when` expression), then the fixed else row.
import { ELSE_BRANCH, type ConditionBranch } from '@crewline/contracts';
import { ArrowDown, ArrowUp } from 'lucide-react';
import { useId } from 'react';

import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';

import { branchesOf, newBranch } from '../builder-nodes';
import { ExpressionField } from '../components/expression-field';
import { nodeDisplayName } from '../node-messages';
import { useBuilderStore } from '../store';
import { RemoveRowButton, RowList } from './row-list';
import type { NodePanelProps } from './types';

/** The contracts' most branches a condition may have. */
const MAX_BRANCHES = 20;

function BranchRow({
  branch,
  index,
  count,
  nodeId,
  nodeName,
  onChange,
  onMove,
  onRemove,
}: {
  branch: ConditionBranch;
  index: number;
  count: number;
  nodeId: string;
  nodeName: string;
  onChange: (patch: Partial<ConditionBranch>) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const labelId = useId();
  const name = branch.label || `Branch ${index + 1}`;
  return (
    <li className="space-y-2 rounded-lg border bg-muted/30 p-2.5" aria-label={`Branch ${index + 1}`}>
      <div className="flex items-center gap-1">
        <span className="grid size-5 shrink-0 place-items-center rounded-full bg-amber-500/15 text-[11px] font-semibold text-amber-700 dark:text-amber-300">
          {index + 1}
        </span>
        <span className="min-w-0 flex-1 truncate text-xs font-medium">{name}</span>
        <Button
          variant="ghost"
          size="icon"
          className="size-7"
          disabled={index === 0}
          onClick={() => onMove(-1)}
          aria-label={`Move ${name} up`}
        >
          <ArrowUp aria-hidden="true" />
        </Button>
        <Button
          variant="ghost"
          size="icon"
          className="size-7"
          disabled={index === count - 1}
          onClick={() => onMove(1)}
          aria-label={`Move ${name} down`}
        >
          <ArrowDown aria-hidden="true" />
        </Button>
        <RemoveRowButton label={name} onClick={onRemove} className="size-7" />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={labelId}>Branch label</Label>
        <Input id={labelId} value={branch.label} onChange={(e) => onChange({ label: e.target.value })} />
      </div>
      <ExpressionField
        label="When"
        value={branch.when}
        quotedAs={branch.when || `"${branch.label}"`}
        nodeId={nodeId}
        nodeName={nodeName}
        syntax="condition"
        placeholder='nodes.classify.data.category == "billing"'
        onChange={(when) => onChange({ when })}
      />
    </li>
  );
}

export function ConditionPanelSettings({ node, set }: NodePanelProps) {
  const branches = branchesOf(node.data);
  const nodeName = nodeDisplayName(node);
  const elseConnected = useBuilderStore((s) =>
    s.edges.some((e) => e.source === node.id && e.sourceHandle === ELSE_BRANCH),
  );
  const update = (next: ConditionBranch[], step: string | null) => set({ branches: next }, step);

  return (
    <section className="space-y-2.5" aria-label="Branches">
      <div className="flex items-center justify-between">
        <h3 className="text-sm font-medium">Branches</h3>
        <span className="text-xs text-muted-foreground">Tried in order</span>
      </div>
      <p className="text-xs text-muted-foreground">
        The first branch whose expression is true is taken; the others are skipped.
      </p>
      <RowList
        items={branches}
        stepPrefix="branches"
        keyOf={(branch) => branch.id}
        write={update}
        newItem={() => newBranch(branches)}
        addLabel="Add branch"
        addDisabled={branches.length >= MAX_BRANCHES}
      >
        {(branch, index, edit) => (
          <BranchRow
            branch={branch}
            index={index}
            count={branches.length}
            nodeId={node.id}
            nodeName={nodeName}
            onMove={(by) => {
              const next = [...branches];
              next.splice(index, 1);
              next.splice(index + by, 0, branch);
              update(next, null);
            }}
            {...edit}
          />
        )}
      </RowList>
      <div className="rounded-lg border border-dashed p-2.5" data-testid="else-row">
        <p className="text-xs font-medium">Else</p>
        <p className="text-xs text-muted-foreground">
          {elseConnected
            ? 'Taken when no branch is.'
            : 'Taken when no branch is. Connect its handle to a step: a condition needs an else path.'}
        </p>
      </div>
    </section>
  );
}
