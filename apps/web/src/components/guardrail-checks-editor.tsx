// The checks of a guardrail (a Guardrail step's, an agent's input, answer or tool calls'): one card per
// check with its type, an on/off switch, its settings and its action, a menu that adds a check of each
// type, and each card's remove button (docs/product-rules.md, Guardrails). The builder's panel and the
// agent form both edit `GuardrailCheck[]` with it, so it lives here rather than in either feature.
import {
  guardrailActionLabels,
  guardrailCheckLabels,
  guardrailCheckTypeValues,
  moderationCategoryValues,
  nationalIdCountryValues,
  piiEntityLabels,
  piiEntityValues,
  type GuardrailAction,
  type GuardrailCheck,
  type GuardrailCheckType,
} from '@crewline/contracts';
import { Plus, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';

import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { cn } from '@/lib/utils';

/** The contracts' most checks one list may hold. */
const MAX_CHECKS = 20;

type Country = (typeof nationalIdCountryValues)[number];
type Category = (typeof moderationCategoryValues)[number];

const COUNTRY_LABELS: Record<Country, string> = {
  us: 'United States',
  gb: 'United Kingdom',
  es: 'Spain',
  fr: 'France',
  it: 'Italy',
  nl: 'Netherlands',
};

/** What each type looks for, under its name. */
const TYPE_HINTS: Record<GuardrailCheckType, string> = {
  pii: 'Personal data. Redact puts [EMAIL], [CARD]… in its place.',
  secrets: 'API keys and tokens, private keys and connection strings. Redact puts [SECRET] in their place.',
  injection: 'Attempts to override the instructions or jailbreak the model (metered model call).',
  moderation: 'Harmful content, by category (metered model call).',
  rule: 'Your own rule: a CEL expression over text, or topics the text must be about.',
};

/** 'self-harm/intent' → 'Self-harm (intent)'. */
function categoryLabel(category: Category): string {
  const [head, tail] = category.split('/');
  const name = head!.charAt(0).toUpperCase() + head!.slice(1);
  return tail ? `${name} (${tail})` : name;
}

/** Only PII and secrets checks find spans of text, so only they can redact. */
const actionsOf = (type: GuardrailCheckType): readonly GuardrailAction[] =>
  type === 'pii' || type === 'secrets' ? ['block', 'redact', 'flag'] : ['block', 'flag'];

/** A new check of a type, on: PII redacts, the others block. */
function newGuardrailCheck(type: GuardrailCheckType): GuardrailCheck {
  switch (type) {
    case 'pii':
      return { type, enabled: true, action: 'redact' };
    case 'secrets':
      return { type, enabled: true, action: 'block' };
    case 'injection':
      return { type, enabled: true, action: 'block' };
    case 'moderation':
      return { type, enabled: true, action: 'block' };
    case 'rule':
      return { type, enabled: true, label: '', when: '', action: 'block' };
  }
}

/**
 * A list of `values` that means "all" when absent: ticking every box drops it again, so a value the
 * product learns later is looked for too.
 */
function toggled<T extends string>(
  all: readonly T[],
  chosen: readonly T[] | undefined,
  value: T,
  on: boolean,
) {
  const current = chosen ?? all;
  const next = all.filter((v) => (v === value ? on : current.includes(v)));
  return next.length === all.length ? undefined : next;
}

function CheckboxGroup<T extends string>({
  label,
  values,
  labels,
  chosen,
  onChange,
  columns = 'grid-cols-2 @md:grid-cols-3',
}: {
  label: string;
  values: readonly T[];
  labels: (value: T) => string;
  /** Absent: all of them. */
  chosen: readonly T[] | undefined;
  onChange: (next: T[] | undefined) => void;
  /** Its grid's columns, by the width of the card it is in (a narrow panel, a wide dialog). */
  columns?: string;
}) {
  const id = useId();
  const none = chosen !== undefined && chosen.length === 0;
  return (
    <fieldset className="@container space-y-1.5">
      <legend className="mb-1.5 text-xs font-medium">{label}</legend>
      <div className={cn('grid gap-x-3 gap-y-1.5', columns)}>
        {values.map((value) => (
          <div key={value} className="flex items-center gap-1.5">
            <Checkbox
              id={`${id}-${value}`}
              checked={(chosen ?? values).includes(value)}
              onCheckedChange={(on) => onChange(toggled(values, chosen, value, on === true))}
            />
            <Label htmlFor={`${id}-${value}`} className="cursor-pointer text-xs font-normal">
              {labels(value)}
            </Label>
          </div>
        ))}
      </div>
      {none && <p className="text-xs text-destructive">Tick at least one: with none, it finds nothing.</p>}
    </fieldset>
  );
}

/** A score from 0 to 1; empty is the default, 0.5. */
function ThresholdField({
  value,
  onChange,
}: {
  value: number | undefined;
  onChange: (value: number | undefined) => void;
}) {
  const id = useId();
  const [text, setText] = useState(value === undefined ? '' : String(value));
  // An undo (or another change from outside) shows the stored value.
  const parsed = text.trim() === '' ? undefined : Number(text);
  const bad = outOfRange(parsed);
  if (!bad && parsed !== value) setText(value === undefined ? '' : String(value));
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id} className="text-xs">
        Threshold
      </Label>
      <Input
        id={id}
        type="number"
        inputMode="decimal"
        min={0}
        max={1}
        step={0.05}
        placeholder="0.5"
        value={text}
        aria-invalid={bad || undefined}
        className="w-28 tabular-nums"
        onChange={(e) => {
          setText(e.target.value);
          const next = e.target.value.trim() === '' ? undefined : Number(e.target.value);
          if (!outOfRange(next)) onChange(next);
        }}
      />
      <p className={cn('text-xs', bad ? 'text-destructive' : 'text-muted-foreground')}>
        {bad ? 'From 0 to 1.' : 'It finds something from this score (0 to 1); 0.5 when empty.'}
      </p>
    </div>
  );
}

const outOfRange = (n: number | undefined) => n !== undefined && (Number.isNaN(n) || n < 0 || n > 1);

const splitTopics = (text: string) =>
  text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);

/** A rule's topics as comma-separated text, kept as typed (a trailing comma stays while typing). */
function TopicsField({ topics, onChange }: { topics: string[]; onChange: (topics: string[]) => void }) {
  const id = useId();
  const [text, setText] = useState(() => topics.join(', '));
  if (splitTopics(text).join('\n') !== topics.join('\n')) setText(topics.join(', '));
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id} className="text-xs">
        Topics
      </Label>
      <Input
        id={id}
        value={text}
        placeholder="Billing, Orders, Shipping"
        onChange={(e) => {
          setText(e.target.value);
          onChange(splitTopics(e.target.value));
        }}
      />
      <p className="text-xs text-muted-foreground">
        Comma-separated: it finds something when the text is about none of them.
      </p>
    </div>
  );
}

type Edit = (patch: Partial<GuardrailCheck>, step?: string | null) => void;

function CheckSettings({ check, edit }: { check: GuardrailCheck; edit: Edit }) {
  const labelId = useId();
  const whenId = useId();
  switch (check.type) {
    case 'pii':
      return (
        <>
          <CheckboxGroup
            label="Look for"
            values={piiEntityValues}
            labels={(e) => piiEntityLabels[e]}
            chosen={check.entities}
            onChange={(entities) => edit({ entities }, null)}
          />
          {(check.entities ?? piiEntityValues).includes('national_id') && (
            <CheckboxGroup
              label="National IDs of"
              values={nationalIdCountryValues}
              labels={(c) => COUNTRY_LABELS[c]}
              chosen={check.countries}
              onChange={(countries) => edit({ countries }, null)}
            />
          )}
        </>
      );
    case 'secrets':
      return null;
    case 'injection':
      return (
        <ThresholdField value={check.threshold} onChange={(threshold) => edit({ threshold }, 'threshold')} />
      );
    case 'moderation':
      return (
        <>
          <CheckboxGroup
            label="Categories"
            values={moderationCategoryValues}
            labels={categoryLabel}
            chosen={check.categories}
            onChange={(categories) => edit({ categories }, null)}
            columns="grid-cols-1 @sm:grid-cols-2"
          />
          <ThresholdField
            value={check.threshold}
            onChange={(threshold) => edit({ threshold }, 'threshold')}
          />
        </>
      );
    case 'rule':
      return (
        <>
          <div className="space-y-1.5">
            <Label htmlFor={labelId} className="text-xs">
              Rule label
            </Label>
            <Input
              id={labelId}
              value={check.label ?? ''}
              placeholder="No refunds talk"
              onChange={(e) => edit({ label: e.target.value }, 'label')}
            />
            <p className="text-xs text-muted-foreground">How findings and blocks name this rule.</p>
          </div>
          <div className="space-y-1.5">
            <Label htmlFor={whenId} className="text-xs">
              When
            </Label>
            <Input
              id={whenId}
              value={check.when ?? ''}
              placeholder='text.contains("refund")'
              spellCheck={false}
              autoComplete="off"
              className="font-mono text-xs"
              onChange={(e) => edit({ when: e.target.value }, 'when')}
            />
            <p className="text-xs text-muted-foreground">
              CEL over <code className="font-mono">text</code> and the run (
              <code className="font-mono">input</code>, <code className="font-mono">nodes</code>,{' '}
              <code className="font-mono">vars</code>): it finds something when true.
            </p>
          </div>
          <TopicsField topics={check.topics ?? []} onChange={(topics) => edit({ topics }, 'topics')} />
          {!check.when?.trim() && !check.topics?.length && (
            <p className="text-xs text-destructive">Give it an expression or topics.</p>
          )}
        </>
      );
  }
}

function CheckCard({
  check,
  index,
  edit,
  onRemove,
}: {
  check: GuardrailCheck;
  index: number;
  edit: Edit;
  onRemove: () => void;
}) {
  const switchId = useId();
  const actionId = useId();
  const name = guardrailCheckLabels[check.type];
  const title = check.type === 'rule' && check.label?.trim() ? `${name}: ${check.label.trim()}` : name;
  return (
    <li
      className={cn('space-y-3 rounded-lg border bg-muted/30 p-3', !check.enabled && 'opacity-70')}
      aria-label={`Check ${index + 1}: ${name}`}
      data-testid="guardrail-check"
    >
      <div className="flex items-start gap-2">
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-medium" title={title}>
            {title}
          </p>
          <p className="text-xs text-muted-foreground">{TYPE_HINTS[check.type]}</p>
        </div>
        <div className="flex shrink-0 items-center gap-1.5 pt-0.5">
          <Label htmlFor={switchId} className="text-xs font-normal text-muted-foreground">
            {check.enabled ? 'On' : 'Off'}
          </Label>
          <Switch
            id={switchId}
            aria-label={`${name} check on`}
            checked={check.enabled}
            onCheckedChange={(enabled) => edit({ enabled }, null)}
          />
        </div>
        <Button
          type="button"
          variant="ghost"
          size="icon"
          className="-mt-1 size-8 shrink-0 text-destructive hover:bg-destructive/10 hover:text-destructive"
          aria-label={`Remove ${name} check`}
          onClick={onRemove}
        >
          <Trash2 aria-hidden="true" />
        </Button>
      </div>
      {check.enabled ? (
        <>
          <CheckSettings check={check} edit={edit} />
          <div className="space-y-1.5">
            <Label htmlFor={actionId} className="text-xs">
              Action
            </Label>
            <Select
              value={check.action}
              onValueChange={(action) => edit({ action } as Partial<GuardrailCheck>, null)}
            >
              <SelectTrigger id={actionId} className="w-full sm:w-44">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {actionsOf(check.type).map((action) => (
                  <SelectItem key={action} value={action}>
                    {guardrailActionLabels[action]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
        </>
      ) : (
        <p className="text-xs text-muted-foreground">Off: kept, but not run.</p>
      )}
    </li>
  );
}

/**
 * `value`'s checks, each editable, with 'Add check'. `onChange` gets the whole new list and, for
 * typing, an undo step that joins the keystrokes of one field (`checks:<index>:<field>`); null for a
 * step of its own (the builder's store; the agent form ignores it).
 */
export function GuardrailChecksEditor({
  value,
  onChange,
  label,
  empty = 'No checks yet.',
}: {
  value: readonly GuardrailCheck[];
  onChange: (next: GuardrailCheck[], step: string | null) => void;
  /** Names the list for assistive technology ('Checks', 'On its input'). */
  label: string;
  /** What an empty list says. */
  empty?: string;
}) {
  const write = (index: number, patch: Partial<GuardrailCheck>, step?: string | null) =>
    onChange(
      value.map((check, i) => (i === index ? ({ ...check, ...patch } as GuardrailCheck) : check)),
      step ? `checks:${index}:${step}` : null,
    );
  return (
    <div className="space-y-2.5">
      {value.length === 0 ? (
        <p className="rounded-lg border border-dashed px-3 py-2.5 text-xs text-muted-foreground">{empty}</p>
      ) : (
        <ol className="space-y-2" aria-label={label}>
          {value.map((check, index) => (
            <CheckCard
              key={index}
              check={check}
              index={index}
              edit={(patch, step) => write(index, patch, step)}
              onRemove={() =>
                onChange(
                  value.filter((_, i) => i !== index),
                  null,
                )
              }
            />
          ))}
        </ol>
      )}
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button
            type="button"
            variant="outline"
            size="sm"
            className="w-full"
            disabled={value.length >= MAX_CHECKS}
            aria-label={`Add check (${label})`}
          >
            <Plus aria-hidden="true" />
            Add check
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="start" className="w-56">
          {guardrailCheckTypeValues.map((type) => (
            <DropdownMenuItem key={type} onSelect={() => onChange([...value, newGuardrailCheck(type)], null)}>
              {guardrailCheckLabels[type]}
            </DropdownMenuItem>
          ))}
        </DropdownMenuContent>
      </DropdownMenu>
    </div>
  );
}
