// The Code node's editor: CodeMirror 6 (through @uiw/react-codemirror) with JavaScript highlighting and
// line numbers, in the app's light or dark theme. Loaded lazily by code-panel.tsx: CodeMirror is only
// downloaded when a Code node's panel opens (the builder's first download stays as it was).
import { javascript } from '@codemirror/lang-javascript';
import CodeMirror, { EditorView, Prec } from '@uiw/react-codemirror';
import { useMemo } from 'react';

import { useTheme } from '@/app/theme';

/**
 * The app's surfaces and borders around CodeMirror's own syntax colours (light, or One Dark): above
 * the theme's own background, so the editor sits on the panel like the other fields.
 */
const appSurface = Prec.highest(
  EditorView.theme({
    '&': { backgroundColor: 'var(--background)', fontSize: '12px' },
    '&.cm-focused': { outline: 'none' },
    '.cm-gutters': {
      backgroundColor: 'var(--muted)',
      color: 'var(--muted-foreground)',
      borderRight: '1px solid var(--border)',
    },
    '.cm-content, .cm-gutter': { fontFamily: 'var(--font-mono, ui-monospace, monospace)' },
  }),
);

const language = javascript();

const setup = { lineNumbers: true, foldGutter: false, highlightActiveLineGutter: true } as const;

export function CodeEditor({
  value,
  labelledBy,
  describedBy,
  onChange,
}: {
  value: string;
  /** The id of the field's label: the editor's text area is named by it. */
  labelledBy: string;
  describedBy?: string;
  onChange: (value: string) => void;
}) {
  const { resolvedTheme } = useTheme();
  // The editable area is what a screen reader (and getByRole('textbox')) reaches: the label names it.
  const extensions = useMemo(
    () => [
      language,
      EditorView.lineWrapping,
      appSurface,
      EditorView.contentAttributes.of({
        'aria-labelledby': labelledBy,
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
      }),
    ],
    [labelledBy, describedBy],
  );
  return (
    <CodeMirror
      value={value}
      theme={resolvedTheme}
      extensions={extensions}
      basicSetup={setup}
      minHeight="10rem"
      maxHeight="24rem"
      className="overflow-hidden rounded-md border focus-within:ring-2 focus-within:ring-ring/50"
      data-testid="code-editor"
      onChange={onChange}
    />
  );
}
