// The Map node's part of the Properties panel: the list it goes over, what runs for each item, how
// many at a time and what an item's failure does.
import { MAP_CONCURRENCY, onItemErrorValues } from '@crewline/contracts';

import { ExpressionField } from '../components/expression-field';
import { SelectField } from '../components/fields';
import { nodeDisplayName } from '../node-messages';
import { IntegerRangeField } from './integer-range-field';
import { mapDataOf } from './map';
import { RunTargetFields } from './run-target';
import type { NodePanelProps } from './types';

type OnItemError = (typeof onItemErrorValues)[number];
const ON_ITEM_ERROR_LABELS: Record<OnItemError, string> = {
  fail: 'Stop the map',
  continue: 'Keep the error and go on',
};

export function MapPanelSettings({ node, set }: NodePanelProps) {
  const map = mapDataOf(node.data);
  const nodeName = nodeDisplayName(node);
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
      <IntegerRangeField
        label="At a time"
        value={map.concurrency}
        range={MAP_CONCURRENCY}
        hint={`From ${MAP_CONCURRENCY.min} to ${MAP_CONCURRENCY.max} items run at the same time.`}
        onChange={(concurrency) => set({ concurrency })}
      />
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
