// A Code step's console: the `console.log` lines its sandbox captured (at most CODE_LOG_LINES_MAX, each
// cut at CODE_LOG_LINE_MAX characters), in order, monospace. The first few show; the rest behind
// 'Show all', so a chatty step does not push its result out of view. Lines are text, never HTML.
import { useState } from 'react';

import { Button } from '@/components/ui/button';

/** Lines shown before 'Show all n lines'. */
const CONSOLE_SHOWN = 20;

export function StepConsole({ logs }: { logs: readonly string[] }) {
  const [all, setAll] = useState(false);
  if (logs.length === 0) return <p className="text-xs text-muted-foreground">Nothing was logged.</p>;
  const shown = all ? logs : logs.slice(0, CONSOLE_SHOWN);
  return (
    <div className="space-y-1">
      <ol
        className="max-h-64 divide-y divide-border/50 overflow-auto rounded-md border bg-muted/40 font-mono text-xs leading-relaxed"
        aria-label="Console lines"
        data-testid="step-console"
      >
        {shown.map((line, index) => (
          <li key={index} className="px-2.5 py-0.5 break-words whitespace-pre-wrap">
            {line}
          </li>
        ))}
      </ol>
      {logs.length > CONSOLE_SHOWN && (
        <Button
          type="button"
          variant="link"
          size="sm"
          className="h-auto p-0 text-xs"
          aria-expanded={all}
          onClick={() => setAll((open) => !open)}
        >
          {all ? 'Show fewer lines' : `Show all ${logs.length} lines`}
        </Button>
      )}
    </div>
  );
}
