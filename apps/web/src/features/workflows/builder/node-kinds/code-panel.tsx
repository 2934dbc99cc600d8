// The Code node's part of the Properties panel: its JavaScript in a code editor (CodeMirror, loaded
// only when this panel opens: code-editor.tsx), what the code reads, and its time and memory limits
// (empty: the default; the sandbox's limits are the contracts').
import { CODE_MEMORY_MB, CODE_TIMEOUT_MS } from '@crewline/contracts';
import { lazy, Suspense, useId, useState } from 'react';

import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';

import { codeDataOf } from './code-data';
import type { NodePanelProps } from './types';

const CodeEditor = lazy(async () => ({ default: (await import('./code-editor')).CodeEditor }));

/** The contracts' smallest time limit (the largest is CODE_TIMEOUT_MS.max). */
const TIMEOUT_MIN_MS = 10;

/** A limit as typed: empty is the default (undefined), else the number (a save refuses one out of range). */
const limitOf = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text));

/** Whether a limit is one a step may have: the default, or a whole number within [min, max]. */
const limitInRange = (value: number | undefined, min: number, max: number): boolean =>
  value === undefined || (Number.isInteger(value) && value >= min && value <= max);

function LimitField({
  label,
  value,
  min,
  max,
  fallback,
  onChange,
}: {
  label: string;
  value: number | undefined;
  min: number;
  max: number;
  fallback: number;
  onChange: (value: number | undefined) => void;
}) {
  const id = useId();
  // The text as typed ('5000', not 5e3); a value out of range is written and flagged (the save refuses it).
  const [text, setText] = useState(value === undefined ? '' : String(value));
  const [synced, setSynced] = useState(value);
  if (synced !== value) {
    // An undo or another edit changed the value underneath.
    setSynced(value);
    setText(value === undefined ? '' : String(value));
  }
  const valid = limitInRange(limitOf(text), min, max);
  return (
    <div className="min-w-0 flex-1 space-y-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        type="number"
        inputMode="numeric"
        min={min}
        max={max}
        step={1}
        value={text}
        placeholder={String(fallback)}
        aria-invalid={!valid || undefined}
        aria-describedby={valid ? undefined : `${id}-error`}
        onChange={(event) => {
          const next = event.target.value;
          setText(next);
          const read = limitOf(next);
          if (read !== value) {
            setSynced(read);
            onChange(read);
          }
        }}
      />
      {!valid && (
        <p id={`${id}-error`} className="text-xs text-destructive">
          A whole number from {min.toLocaleString('en-US')} to {max.toLocaleString('en-US')}.
        </p>
      )}
    </div>
  );
}

export function CodePanelSettings({ node, set }: NodePanelProps) {
  const labelId = useId();
  const hintId = useId();
  const { source, timeoutMs, memoryMb } = codeDataOf(node.data);
  return (
    <>
      <div className="space-y-1.5">
        <Label id={labelId}>Code</Label>
        <Suspense
          fallback={
            <div className="grid min-h-40 place-items-center rounded-md border bg-muted/30 text-xs text-muted-foreground">
              Loading the editor…
            </div>
          }
        >
          <CodeEditor
            value={source}
            labelledBy={labelId}
            describedBy={hintId}
            onChange={(next) => set({ source: next }, 'source')}
          />
        </Suspense>
        <p id={hintId} className="text-xs text-muted-foreground">
          Reads input, nodes and vars; return a JSON value. console.log lines go to the step&apos;s logs.
        </p>
      </div>
      <div className="flex gap-3">
        <LimitField
          label="Time limit (ms)"
          value={timeoutMs}
          min={TIMEOUT_MIN_MS}
          max={CODE_TIMEOUT_MS.max}
          fallback={CODE_TIMEOUT_MS.default}
          onChange={(next) => set({ timeoutMs: next }, 'timeoutMs')}
        />
        <LimitField
          label="Memory limit (MiB)"
          value={memoryMb}
          min={1}
          max={CODE_MEMORY_MB.max}
          fallback={CODE_MEMORY_MB.default}
          onChange={(next) => set({ memoryMb: next }, 'memoryMb')}
        />
      </div>
    </>
  );
}
