// The Transform node's part of the Properties panel: its assignments in order (a later value may
// read an earlier one as `vars.<name>`), each a name and a CEL value.
import { useId } from 'react';

import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/utils';

import { assignmentsOf } from '../builder-nodes';
import { ExpressionField } from '../components/expression-field';
import { nodeDisplayName } from '../node-messages';
import { RemoveRowButton, RowList } from './row-list';
import type { NodePanelProps } from './types';

/** What later expressions read as `vars.<name>` (the engine's rule, said as the user types). */
const VARIABLE_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;
/** The contracts' most assignments a transform may have. */
const MAX_ASSIGNMENTS = 50;

function AssignmentRow({
  index,
  name,
  value,
  earlier,
  nodeId,
  nodeName,
  onChange,
  onRemove,
}: {
  index: number;
  name: string;
  value: string;
  /** The names set before this one: its value may read them as `vars.<name>`. */
  earlier: string[];
  nodeId: string;
  nodeName: string;
  onChange: (patch: { name?: string; value?: string }) => void;
  onRemove: () => void;
}) {
  const nameId = useId();
  const badName = name !== '' && !VARIABLE_NAME.test(name);
  return (
    <li className="space-y-2 rounded-lg border bg-muted/30 p-2.5" aria-label={`Value ${index + 1}`}>
      <div className="flex items-end gap-1.5">
        <div className="min-w-0 flex-1 space-y-1.5">
          <Label htmlFor={nameId}>Name</Label>
          <Input
            id={nameId}
            value={name}
            placeholder="total"
            spellCheck={false}
            aria-invalid={badName || undefined}
            className={cn('font-mono text-xs', badName && 'border-destructive')}
            onChange={(e) => onChange({ name: e.target.value })}
          />
        </div>
        <RemoveRowButton label={name || `value ${index + 1}`} onClick={onRemove} />
      </div>
      {badName && <p className="text-xs text-destructive">Letters, digits and _, starting with a letter.</p>}
      <ExpressionField
        label="Value"
        value={value}
        quotedAs={value || `vars.${name}`}
        nodeId={nodeId}
        nodeName={nodeName}
        syntax="expression"
        earlierVars={earlier}
        placeholder="nodes.order.data.amount * 2"
        onChange={(next) => onChange({ value: next })}
      />
    </li>
  );
}

export function TransformPanelSettings({ node, set }: NodePanelProps) {
  const assignments = assignmentsOf(node.data);
  const nodeName = nodeDisplayName(node);
  const update = (next: typeof assignments, step: string | null) => set({ assignments: next }, step);
  return (
    <section className="space-y-2.5" aria-label="Values">
      <h3 className="text-sm font-medium">Values</h3>
      <p className="text-xs text-muted-foreground">
        Each value is set in order into <code className="font-mono">vars</code>; later steps read it as{' '}
        <code className="font-mono">vars.name</code>.
      </p>
      <RowList
        items={assignments}
        stepPrefix="assignments"
        write={update}
        newItem={() => ({ name: '', value: '' })}
        addLabel="Add value"
        addDisabled={assignments.length >= MAX_ASSIGNMENTS}
      >
        {(a, index, edit) => (
          <AssignmentRow
            index={index}
            name={a.name}
            value={a.value}
            earlier={assignments
              .slice(0, index)
              .map((each) => each.name)
              .filter(Boolean)}
            nodeId={node.id}
            nodeName={nodeName}
            {...edit}
          />
        )}
      </RowList>
    </section>
  );
}
