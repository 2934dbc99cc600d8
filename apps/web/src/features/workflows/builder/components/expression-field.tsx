// The one field every expression (CEL) and template (`{{ expr }}`) of the builder is typed in: a
// monospaced input that completes the paths upstream of its node (the editor's current graph, saved
// or not), says what is wrong as the user types (the validation's own check, in its words), and
// shows what the expression gave in the workflow's last run. The validation's message about that
// expression (Validate, a blocked save) stays under it too, said once.
import {
  checkCondition,
  checkExpression,
  checkTemplate,
  evaluate,
  expressionPaths,
  ExpressionError,
  renderTemplate,
  templateExpressions,
  type ExpressionPath,
  type ExpressionScope,
} from '@crewline/engine';
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';

import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useAgents } from '@/lib/queries/agents';
import { cn } from '@/lib/utils';

import {
  draftScope,
  insertPath,
  lastRunContext,
  matchingPaths,
  shownValue,
  typedPath,
  type ExpressionSyntax,
} from '../expression-assist';
import { expressionError, nodeDisplayName } from '../node-messages';
import { useBuilderStore } from '../store';
import { useLastRun } from '../use-last-run';

const NO_MESSAGES: readonly string[] = [];
const NO_NAMES: readonly string[] = [];
/** Typing pauses this long before the text is checked and evaluated. */
const CHECK_DELAY_MS = 200;

const CHECKS: Record<ExpressionSyntax, (source: string, scope: ExpressionScope) => string | null> = {
  expression: checkExpression,
  condition: checkCondition,
  template: checkTemplate,
};

/** Whether the text reads item, index or last: a map's or loop's body, whose values only a pass has. */
function readsIteration(text: string, syntax: ExpressionSyntax): boolean {
  const sources = syntax === 'template' ? templateExpressions(text) : [text];
  return sources.some((source) => /(^|[^\w.])(item|index|last)\b/.test(source));
}

type Completion = { typed: { token: string; from: number }; items: ExpressionPath[] };

export function ExpressionField({
  label,
  value,
  onChange,
  nodeId,
  nodeName,
  syntax,
  iteration = false,
  earlierVars = NO_NAMES,
  quotedAs = value,
  placeholder,
  multiline = false,
  hideLabel = false,
  hint,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** The node the expression belongs to: its upstream is what the expression may read. */
  nodeId: string;
  /** The node as the validation's messages name it (nodeDisplayName). */
  nodeName: string;
  /** How the text is read: a CEL expression, a condition (true or false), or a `{{ }}` template. */
  syntax: ExpressionSyntax;
  /** A map's or loop's body (its prompt, a loop's until): item, index and last are defined. */
  iteration?: boolean;
  /** Names the node itself set before this field (a transform's earlier values), read as `vars.<name>`. */
  earlierVars?: readonly string[];
  /** The expression as the messages quote it: its text, or what names it when it is empty. */
  quotedAs?: string;
  placeholder?: string;
  multiline?: boolean;
  /** The label is read by assistive technology only (a row whose column says what it is). */
  hideLabel?: boolean;
  hint?: string;
}) {
  const id = useId();
  const listId = `${id}-paths`;
  const optionId = (index: number) => `${id}-path-${index}`;
  const control = useRef<HTMLInputElement & HTMLTextAreaElement>(null);

  // Strings from the store, so moving a node (or typing elsewhere) re-renders only when they change.
  // An agent step without its own schema follows its agent's: its fields complete and check too.
  const agents = useAgents().data;
  const agentSchema = useMemo(() => {
    const schemas = new Map((agents ?? []).map((a) => [a.id, a.outputSchema ?? undefined]));
    return (agentId: string) => schemas.get(agentId);
  }, [agents]);
  const scopeKey = useBuilderStore((s) =>
    JSON.stringify(draftScope(s.nodes, s.edges, nodeId, iteration, agentSchema)),
  );
  const labelsKey = useBuilderStore((s) =>
    JSON.stringify(Object.fromEntries(s.nodes.map((n) => [n.id, nodeDisplayName(n)]))),
  );
  const earlierKey = JSON.stringify(earlierVars);
  const earlier = useMemo(() => JSON.parse(earlierKey) as string[], [earlierKey]);
  const scope = useMemo(() => {
    const upstream = JSON.parse(scopeKey) as ExpressionScope;
    return earlier.length > 0 ? { ...upstream, vars: [...upstream.vars, ...earlier] } : upstream;
  }, [scopeKey, earlier]);
  const labels = useMemo(() => JSON.parse(labelsKey) as Record<string, string>, [labelsKey]);
  const paths = useMemo(() => expressionPaths(scope), [scope]);

  // ----- Errors as you type, and the validation's message ------------------------------------
  const messages = useBuilderStore((s) => s.validation?.errors ?? NO_MESSAGES);
  const validated = expressionError(messages, nodeName, quotedAs);
  const settled = useDebouncedValue(value, CHECK_DELAY_MS);
  const checked = useMemo(
    () => (settled.trim() ? CHECKS[syntax](settled, scope) : null),
    [settled, scope, syntax],
  );
  const errorId = `${id}-error`;

  // ----- The last run's value -----------------------------------------------------------------
  const lastRun = useLastRun();
  const preview = useMemo(() => {
    if (!lastRun || !settled.trim() || checked || readsIteration(settled, syntax)) return null;
    const context = lastRunContext(lastRun, scope);
    // A transform's earlier values, as this run's step set them.
    const own = lastRun.output[nodeId]?.data;
    for (const name of earlier)
      if (own && typeof own === 'object' && name in own)
        context.vars[name] = (own as Record<string, unknown>)[name];
    try {
      const result = syntax === 'template' ? renderTemplate(settled, context) : evaluate(settled, context);
      return { text: shownValue(result, syntax), failed: false };
    } catch (error) {
      return { text: error instanceof ExpressionError ? error.reason : String(error), failed: true };
    }
  }, [lastRun, settled, checked, scope, syntax, nodeId, earlier]);
  const previewId = `${id}-last-run`;

  // ----- Completion ---------------------------------------------------------------------------
  const [completion, setCompletion] = useState<Completion | null>(null);
  const [active, setActive] = useState(0);
  const caretAfter = useRef<number | null>(null);

  const suggest = (text: string, caret: number, always = false) => {
    const typed = typedPath(text, caret, syntax);
    const items = typed && (typed.token || always) ? matchingPaths(paths, typed.token) : [];
    setCompletion(typed && items.length > 0 ? { typed, items } : null);
    setActive(0);
  };
  const choose = (path: string) => {
    if (!completion) return;
    const next = insertPath(value, completion.typed, path);
    caretAfter.current = next.caret;
    setCompletion(null);
    onChange(next.text);
  };
  // The caret goes after the inserted path once the new text is rendered.
  useLayoutEffect(() => {
    if (caretAfter.current === null || !control.current) return;
    control.current.setSelectionRange(caretAfter.current, caretAfter.current);
    caretAfter.current = null;
  });
  // The list opens in sight (the panel scrolls if it must), and the active path stays in it.
  const opened = completion !== null;
  useEffect(() => {
    if (opened) document.getElementById(listId)?.scrollIntoView?.({ block: 'nearest' });
  }, [opened, listId]);
  useEffect(() => {
    if (completion) document.getElementById(`${id}-path-${active}`)?.scrollIntoView?.({ block: 'nearest' });
  }, [active, completion, id]);

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    if (e.key === ' ' && e.ctrlKey) {
      e.preventDefault();
      suggest(value, e.currentTarget.selectionStart ?? value.length, true);
      return;
    }
    if (!completion) return;
    const count = completion.items.length;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((i) => (i + (e.key === 'ArrowDown' ? 1 : count - 1)) % count);
    } else if (e.key === 'Enter' || e.key === 'Tab') {
      e.preventDefault();
      choose(completion.items[active]!.path);
    } else if (e.key === 'Escape') {
      // Closes the list only (not the panel or the dialog around it).
      e.preventDefault();
      e.stopPropagation();
      setCompletion(null);
    } else if (e.key === 'ArrowLeft' || e.key === 'ArrowRight' || e.key === 'Home' || e.key === 'End') {
      setCompletion(null);
    }
  };

  // While the user types (or picks a path: the text is a path not finished yet), no reason is shown.
  const live = settled === value && !completion ? checked : null;
  const errors = [...new Set([live, validated].filter((e): e is string => !!e))];
  const describedBy = [errors.length > 0 && errorId, preview && previewId].filter(Boolean).join(' ');

  const controlProps = {
    id,
    ref: control,
    value,
    placeholder,
    spellCheck: false,
    autoComplete: 'off',
    role: 'combobox',
    'aria-autocomplete': 'list' as const,
    'aria-expanded': opened,
    'aria-controls': opened ? listId : undefined,
    'aria-activedescendant': opened ? optionId(active) : undefined,
    'aria-invalid': errors.length > 0 ? true : undefined,
    'aria-describedby': describedBy || undefined,
    onChange: (e: { target: { value: string; selectionStart: number | null } }) => {
      onChange(e.target.value);
      suggest(e.target.value, e.target.selectionStart ?? e.target.value.length);
    },
    onKeyDown,
    onBlur: () => setCompletion(null),
    className: cn('font-mono text-xs', errors.length > 0 && 'border-destructive'),
  };
  return (
    <div className="min-w-0 space-y-1.5">
      <Label htmlFor={id} className={cn(hideLabel && 'sr-only')}>
        {label}
      </Label>
      <div className="relative">
        {multiline ? <Textarea rows={4} {...controlProps} /> : <Input {...controlProps} />}
        {completion && (
          <ul
            id={listId}
            role="listbox"
            aria-label={`Paths for ${label}`}
            className="absolute inset-x-0 top-full z-50 mt-1 max-h-64 overflow-y-auto rounded-md border bg-popover p-1 text-popover-foreground shadow-md"
          >
            {completion.items.map((item, index) => (
              <li
                key={item.path}
                id={optionId(index)}
                role="option"
                aria-selected={index === active}
                // Keeps the focus (and the list) in the field until the click chooses.
                onMouseDown={(e) => e.preventDefault()}
                onMouseMove={() => setActive(index)}
                onClick={() => choose(item.path)}
                className={cn(
                  'cursor-pointer rounded-sm px-2 py-1',
                  index === active && 'bg-accent text-accent-foreground',
                )}
              >
                <div className="truncate font-mono text-xs">
                  <span className="font-semibold">{item.path.slice(0, completion.typed.token.length)}</span>
                  {item.path.slice(completion.typed.token.length)}
                </div>
                <div className="truncate text-[11px] text-muted-foreground" title={item.detail}>
                  {[item.nodeId && labels[item.nodeId], item.detail].filter(Boolean).join(' · ')}
                </div>
              </li>
            ))}
          </ul>
        )}
      </div>
      {errors.length > 0 && (
        <div id={errorId}>
          {errors.map((error) => (
            <p key={error} className="text-xs break-words text-destructive" data-testid="expression-error">
              {error}
            </p>
          ))}
        </div>
      )}
      {hint && errors.length === 0 && <p className="text-xs text-muted-foreground">{hint}</p>}
      {preview && (
        <p
          id={previewId}
          className={cn('text-xs break-words text-muted-foreground', preview.failed && 'italic')}
          data-testid="expression-last-run"
        >
          Last run: <span className={cn(!preview.failed && 'font-mono')}>{preview.text}</span>
        </p>
      )}
    </div>
  );
}
