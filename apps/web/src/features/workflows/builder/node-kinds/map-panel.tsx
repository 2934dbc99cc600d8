// The Map node's part of the Properties panel: the list it goes over, what runs for each item, how
// many at a time and what an item's failure does.
import { MAP_CONCURRENCY, onItemErrorValues } from '@crewline/contracts';
import { useId } from 'react';

import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';

import { ExpressionField } from '../components/expression-field';
import { SelectField } from '../components/fields';
import { nodeDisplayName } from '../node-messages';
import { mapDataOf } from './map';
import { RunTargetFields } from './run-target';
import type { NodePanelProps } from './types';

type OnItemError = (typeof onItemErrorValues)[number];
const ON_ITEM_ERROR_LABELS: Record<OnItemError, string> = {
  fail: 'Stop the map',
  continue: 'Keep the error and go on',
};

export function MapPanelSettings({ node, set }: NodePanelProps) {
  const concurrencyId = useId();
  const map = mapDataOf(node.data);
  const nodeName = nodeDisplayName(node);
  const inRange = map.concurrency >= MAP_CONCURRENCY.min && map.concurrency <= MAP_CONCURRENCY.max;
  return (
    <>
      <ExpressionField
        label="Items"
        value={map.items}
        quotedAs={map.items.trim() || 'items'}
        nodeId={node.id}
        nodeName={nodeName}
        syntax="expression"
        placeholder="nodes.search.data.leads"
        hint="A list; the map runs once for each of its items (at most 1,000)."
        onChange={(items) => set({ items })}
      />
      <RunTargetFields
        run={map.run}
        nodeId={node.id}
        nodeName={nodeName}
        onChange={(run, step) => set({ run }, step)}
      />
      <div className="space-y-1.5">
        <Label htmlFor={concurrencyId}>At a time</Label>
        <Input
          id={concurrencyId}
          type="number"
          min={MAP_CONCURRENCY.min}
          max={MAP_CONCURRENCY.max}
          step={1}
          value={map.concurrency}
          aria-invalid={!inRange || undefined}
          onChange={(e) => {
            const value = e.target.valueAsNumber;
            if (Number.isInteger(value)) set({ concurrency: value });
          }}
        />
        <p className={inRange ? 'text-xs text-muted-foreground' : 'text-xs text-destructive'}>
          From {MAP_CONCURRENCY.min} to {MAP_CONCURRENCY.max} items run at the same time.
        </p>
      </div>
      <SelectField
        label="When an item fails"
        value={map.onItemError}
        options={onItemErrorValues}
        labels={ON_ITEM_ERROR_LABELS}
        onChange={(onItemError) => set({ onItemError })}
      />
    </>
  );
}
