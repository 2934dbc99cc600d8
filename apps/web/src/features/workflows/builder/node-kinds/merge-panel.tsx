// The Merge node's part of the Properties panel: the mode.
import { mergeModeValues } from '@crewline/contracts';

import { SelectField } from '../components/fields';
import { MODE_LABELS, modeOf, type MergeMode } from './merge';
import type { NodePanelProps } from './types';

const MODE_HINTS: Record<MergeMode, string> = {
  all: 'Waits for every incoming path that was taken (a skipped path never blocks it) and passes on all their answers.',
  first: 'Goes on with the first path that arrives.',
};

export function MergePanelSettings({ node, set }: NodePanelProps) {
  const mode = modeOf(node.data);
  return (
    <SelectField
      label="Mode"
      value={mode}
      options={mergeModeValues}
      labels={MODE_LABELS}
      hint={MODE_HINTS[mode]}
      onChange={(next) => set({ mode: next })}
    />
  );
}
