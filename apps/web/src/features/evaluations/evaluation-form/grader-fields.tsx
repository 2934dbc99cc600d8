// One grader of the evaluation form: what it reads (target, CEL), what it compares with, its weight
// and threshold, and the fields of its type.
import { graderTypeLabels } from '@crewline/contracts';
import {
  builtInModels,
  llmProviderLabels,
  llmProviderValues,
  type LlmProvider,
} from '@crewline/contracts/vocabulary';
import { Trash2 } from 'lucide-react';
import { useId } from 'react';

import { IconButton } from '@/components/icon-button';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Textarea } from '@/components/ui/textarea';
import { EMBEDDING_PROVIDERS, embeddingProviderLabel } from '@/lib/embedding-connections';
import { useProviders } from '@/lib/queries/providers';

import type { DraftErrors, GraderDraft, JudgeScale } from './evaluation-draft';
import { TARGET_PLACEHOLDER } from './evaluation-draft';
import { Field } from './field';

type Change = (patch: Partial<GraderDraft>) => void;

const SCALE_LABELS: Record<JudgeScale, string> = { pass_fail: 'Pass/fail', '1-5': '1–5' };

/** The models each provider offers (GET /api/llm/providers), the built-in lists until it answers. */
function modelsByProvider(raw: unknown): Record<string, readonly string[]> {
  const models: Record<string, readonly string[]> = { ...builtInModels };
  if (raw && typeof raw === 'object') {
    for (const [provider, entry] of Object.entries(raw as Record<string, { models?: unknown }>)) {
      if (Array.isArray(entry?.models))
        models[provider] = entry.models.filter((m): m is string => typeof m === 'string');
    }
  }
  return models;
}

function CheckboxField({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="flex items-center gap-2 self-end pb-2">
      <Checkbox id={id} checked={checked} onCheckedChange={(value) => onChange(value === true)} />
      <Label htmlFor={id} className="font-normal">
        {label}
      </Label>
    </div>
  );
}

function SelectField<V extends string>({
  label,
  value,
  options,
  onChange,
  error,
}: {
  label: string;
  value: V;
  options: readonly { value: V; label: string }[];
  onChange: (value: V) => void;
  error?: string;
}) {
  return (
    <Field label={label} error={error}>
      {(control) => (
        <Select value={value} onValueChange={(next) => onChange(next as V)}>
          <SelectTrigger className="w-full" {...control}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {options.map((option) => (
              <SelectItem key={option.value} value={option.value}>
                {option.label}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      )}
    </Field>
  );
}

function TextInput({
  label,
  value,
  onChange,
  error,
  hint,
  placeholder,
  inputMode,
  className,
  mono,
  list,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  hint?: string;
  placeholder?: string;
  inputMode?: 'decimal' | 'numeric';
  className?: string;
  mono?: boolean;
  list?: string;
}) {
  return (
    <Field label={label} error={error} hint={hint} className={className}>
      {(control) => (
        <Input
          {...control}
          value={value}
          placeholder={placeholder}
          inputMode={inputMode}
          autoComplete="off"
          spellCheck={mono ? false : undefined}
          className={mono ? 'font-mono' : undefined}
          list={list}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  );
}

/** Judge: its rubric, its scale, and the model that judges (from the organization's connections). */
function JudgeFields({
  grader,
  onChange,
  errors,
}: {
  grader: GraderDraft;
  onChange: Change;
  errors: Errors;
}) {
  const catalogue = useProviders(modelsByProvider);
  const listId = useId();
  const catalogued: Record<string, readonly string[]> = catalogue.data ?? builtInModels;
  const models = catalogued[grader.provider] ?? [];
  return (
    <>
      <Field label="Rubric" error={errors('rubric')} className="sm:col-span-2">
        {(control) => (
          <Textarea
            {...control}
            rows={3}
            value={grader.rubric}
            placeholder="What a good answer does, and what fails it"
            onChange={(event) => onChange({ rubric: event.target.value })}
          />
        )}
      </Field>
      <SelectField
        label="Scale"
        value={grader.scale}
        options={(['pass_fail', '1-5'] as const).map((value) => ({ value, label: SCALE_LABELS[value] }))}
        onChange={(scale) => onChange({ scale })}
      />
      <SelectField
        label="Judge provider"
        value={grader.provider as LlmProvider}
        options={llmProviderValues.map((value) => ({ value, label: llmProviderLabels[value] }))}
        onChange={(provider) => onChange({ provider, model: builtInModels[provider][0] ?? '' })}
        error={errors('provider')}
      />
      <TextInput
        label="Judge model"
        value={grader.model}
        onChange={(model) => onChange({ model })}
        error={errors('model')}
        mono
        list={models.length > 0 ? listId : undefined}
      />
      {models.length > 0 && (
        <datalist id={listId}>
          {models.map((model) => (
            <option key={model} value={model} />
          ))}
        </datalist>
      )}
    </>
  );
}

type Errors = (field: string) => string | undefined;

function TypeFields({ grader, onChange, errors }: { grader: GraderDraft; onChange: Change; errors: Errors }) {
  switch (grader.type) {
    case 'exact':
    case 'contains':
    case 'regex':
      return (
        <CheckboxField
          label="Case sensitive"
          checked={grader.caseSensitive}
          onChange={(caseSensitive) => onChange({ caseSensitive })}
        />
      );
    case 'json_equals':
      return (
        <TextInput
          label="Field"
          value={grader.field}
          onChange={(field) => onChange({ field })}
          error={errors('field')}
          placeholder="e.g. order.status (the whole value when empty)"
          mono
        />
      );
    case 'json_schema':
      return (
        <Field label="JSON Schema" error={errors('schema')} className="sm:col-span-2">
          {(control) => (
            <Textarea
              {...control}
              rows={4}
              className="font-mono text-xs"
              spellCheck={false}
              value={grader.schema}
              placeholder='{ "type": "object", "required": ["answer"] }'
              onChange={(event) => onChange({ schema: event.target.value })}
            />
          )}
        </Field>
      );
    case 'numeric':
      return (
        <>
          <TextInput
            label="Tolerance"
            value={grader.tolerance}
            onChange={(tolerance) => onChange({ tolerance })}
            error={errors('tolerance')}
            inputMode="decimal"
          />
          <CheckboxField
            label="Relative (a share of expected)"
            checked={grader.relative}
            onChange={(relative) => onChange({ relative })}
          />
        </>
      );
    case 'similarity':
      return (
        <>
          <SelectField
            label="Embedding connection"
            value={grader.provider}
            options={EMBEDDING_PROVIDERS.map((value) => ({ value, label: embeddingProviderLabel(value) }))}
            onChange={(provider) => onChange({ provider })}
            error={errors('provider')}
          />
          <TextInput
            label="Embedding model"
            value={grader.model}
            onChange={(model) => onChange({ model })}
            error={errors('model')}
            mono
          />
        </>
      );
    case 'llm_judge':
      return <JudgeFields grader={grader} onChange={onChange} errors={errors} />;
    case 'max_cost':
      return (
        <TextInput
          label="Max cost (USD)"
          value={grader.maxUsd}
          onChange={(maxUsd) => onChange({ maxUsd })}
          error={errors('maxUsd')}
          inputMode="decimal"
          placeholder="e.g. 0.05"
        />
      );
    case 'max_latency':
      return (
        <TextInput
          label="Max time (ms)"
          value={grader.maxMs}
          onChange={(maxMs) => onChange({ maxMs })}
          error={errors('maxMs')}
          inputMode="numeric"
          placeholder="e.g. 30000"
        />
      );
  }
}

/** A grader's card in the list: its type as the title, remove, and its fields. */
export function GraderFields({
  grader,
  index,
  errors,
  onChange,
  onRemove,
}: {
  grader: GraderDraft;
  index: number;
  errors: DraftErrors;
  onChange: Change;
  onRemove: () => void;
}) {
  const label = graderTypeLabels[grader.type];
  const error: Errors = (field) => errors[`graders.${index}.${field}`];
  const ceiling = grader.type === 'max_cost' || grader.type === 'max_latency';
  return (
    <li
      className="space-y-3 rounded-lg border bg-muted/20 p-3"
      aria-label={`Grader ${index + 1}: ${label}`}
      data-testid="grader"
    >
      <div className="flex items-center justify-between gap-2">
        <p className="text-sm font-medium">
          <span className="text-muted-foreground tabular-nums">{index + 1}.</span> {label}
        </p>
        <IconButton
          icon={<Trash2 aria-hidden="true" />}
          tooltip="Remove grader"
          label={`Remove grader ${index + 1} (${label})`}
          onClick={onRemove}
          destructive
        />
      </div>
      {errors[`graders.${index}`] && <p className="text-xs text-destructive">{errors[`graders.${index}`]}</p>}
      <div className="grid gap-3 sm:grid-cols-2">
        {!ceiling && (
          <>
            <TextInput
              label="Target"
              value={grader.target}
              onChange={(target) => onChange({ target })}
              error={error('target')}
              placeholder={TARGET_PLACEHOLDER}
              hint="A CEL expression over run, nodes and item"
              mono
            />
            <TextInput
              label={grader.type === 'regex' ? 'Pattern' : 'Expected'}
              value={grader.expected}
              onChange={(expected) => onChange({ expected })}
              error={error('expected')}
              placeholder="The item's expected answer"
            />
          </>
        )}
        <TypeFields grader={grader} onChange={onChange} errors={error} />
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <TextInput
          label="Weight"
          value={grader.weight}
          onChange={(weight) => onChange({ weight })}
          error={error('weight')}
          inputMode="decimal"
          placeholder="1"
        />
        <TextInput
          label="Threshold"
          value={grader.threshold}
          onChange={(threshold) => onChange({ threshold })}
          error={error('threshold')}
          inputMode="decimal"
          placeholder="Its type's default"
          hint="The score (0–1) it must reach to pass"
        />
      </div>
    </li>
  );
}
