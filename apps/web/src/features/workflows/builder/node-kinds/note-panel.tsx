// The Note node's part of the Properties panel: its text.
import { TextField } from '../components/fields';
import { textOf } from './note';
import type { NodePanelProps } from './types';

export function NotePanelSettings({ node, set }: NodePanelProps) {
  return (
    <TextField
      label="Text"
      multiline
      value={textOf(node.data)}
      placeholder="What the people reading this workflow should know"
      onChange={(text) => set({ text })}
    />
  );
}
