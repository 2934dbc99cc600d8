import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';

import { applyJsonText, type JsonEditorState } from '../tool-form';

/**
 * The free configuration editor of categories without fields of their own. Invalid JSON is
 * ignored: the last valid object stays the value that will be saved (docs/product-rules.md).
 */
export function JsonConfigEditor({
  id,
  label,
  state,
  onChange,
  error,
  hint,
}: {
  id: string;
  label: string;
  state: JsonEditorState;
  onChange: (state: JsonEditorState) => void;
  error?: string;
  hint: string;
}) {
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Textarea
        id={id}
        value={state.text}
        onChange={(event) => onChange(applyJsonText(state, event.target.value))}
        spellCheck={false}
        rows={6}
        className="max-h-72 min-h-32 font-mono text-xs leading-relaxed md:text-xs"
        placeholder={'{\n  "key": "value"\n}'}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${errorId} ${hintId}` : hintId}
      />
      {error && (
        <p id={errorId} className="text-sm wrap-anywhere text-destructive">
          {error}
        </p>
      )}
      <p id={hintId} className="text-xs text-muted-foreground" aria-live="polite">
        {state.valid ? hint : 'Not valid JSON yet: the last valid configuration is what will be saved.'}
      </p>
    </div>
  );
}
