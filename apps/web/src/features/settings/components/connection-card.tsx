import type { Connection } from '@crewline/contracts';
import { ChevronRight, CircleAlert, Pencil, type LucideIcon } from 'lucide-react';
import { useState, type FormEvent } from 'react';

import { SettingsList } from '@/components/settings-list';
import { Spinner } from '@/components/spinner';
import { Button } from '@/components/ui/button';
import {
  Card,
  CardAction,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/components/ui/use-toast';
import { getErrorMessage, parseApiError } from '@/lib/api';
import { formatRelativeTime } from '@/lib/format';
import { cn } from '@/lib/utils';

import { useUpdateConnection } from '../api/update-connection';
import {
  buildConnectionConfig,
  cancelEditing,
  displayValue,
  fieldErrorsFromServer,
  modelChoices,
  startEditing,
  updateDraft,
  validateConnectionConfig,
  viewState,
  withErrors,
  type CardState,
  type ConnectionDef,
  type ConnectionFieldDef,
  type ProviderModels,
} from '../connections';
import { SecretInput } from '@/components/secret-input';
import { BlockedHint } from './blocked-hint';

const UPDATE_FAILED = 'Failed to update tool configuration';

function FieldControl({
  def,
  field,
  value,
  error,
  models,
  onChange,
}: {
  def: ConnectionDef;
  field: ConnectionFieldDef;
  value: string;
  error?: string;
  models: ProviderModels;
  onChange: (value: string) => void;
}) {
  const id = `${def.id}-${field.key}`;
  const describedBy =
    [error && `${id}-error`, field.hint && `${id}-hint`].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    'aria-invalid': error ? (true as const) : undefined,
    'aria-describedby': describedBy,
  };

  let control;
  if (field.kind === 'secret') {
    control = (
      <SecretInput
        {...common}
        value={value}
        placeholder={field.placeholder ?? 'Paste the key'}
        onValueChange={onChange}
      />
    );
  } else if (field.kind === 'model' && !def.freeTextModel) {
    const choices = modelChoices(models, def.provider, value);
    control = (
      <Select value={value || undefined} onValueChange={onChange}>
        <SelectTrigger {...common} className="w-full font-mono">
          <SelectValue placeholder="Select a model" />
        </SelectTrigger>
        <SelectContent>
          {choices.map((model) => (
            <SelectItem key={model} value={model} className="font-mono">
              {model}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    );
  } else if (field.kind === 'select') {
    control = (
      <Select value={value || undefined} onValueChange={onChange}>
        <SelectTrigger {...common} className="w-full">
          <SelectValue placeholder="Select" />
        </SelectTrigger>
        <SelectContent>
          {field.options?.map((option) => (
            <SelectItem key={option.value} value={option.value}>
              {option.label}
              {option.value === field.defaultValue && (
                <span className="text-muted-foreground">(default)</span>
              )}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    );
  } else {
    const listId = field.kind === 'model' ? `${id}-models` : undefined;
    const suggestions = field.kind === 'model' ? modelChoices(models, def.provider, '') : [];
    control = (
      <>
        <Input
          {...common}
          type={
            field.kind === 'number'
              ? 'number'
              : field.kind === 'email'
                ? 'email'
                : field.kind === 'url'
                  ? 'url'
                  : 'text'
          }
          inputMode={field.kind === 'number' ? 'numeric' : undefined}
          value={value}
          placeholder={field.placeholder}
          list={suggestions.length > 0 ? listId : undefined}
          autoComplete="off"
          spellCheck={false}
          className={cn((field.kind === 'url' || field.kind === 'model') && 'font-mono')}
          onChange={(e) => onChange(e.target.value)}
        />
        {suggestions.length > 0 && (
          <datalist id={listId}>
            {suggestions.map((model) => (
              <option key={model} value={model} />
            ))}
          </datalist>
        )}
      </>
    );
  }

  return (
    <div className="grid content-start gap-2">
      <Label htmlFor={id}>{field.label}</Label>
      {control}
      {error && (
        <p id={`${id}-error`} className="text-sm wrap-anywhere text-destructive">
          {error}
        </p>
      )}
      {field.hint && !error && (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {field.hint}
        </p>
      )}
    </div>
  );
}

/**
 * One organization connection: read-only values with Edit, or the fields with Save
 * and Cancel (which discards the draft). The active switch saves at once.
 */
export function ConnectionCard({
  def,
  connection,
  models,
  icon: Icon,
  tone,
  readOnlyReason = null,
}: {
  def: ConnectionDef;
  /** Why the viewer may only read it (their role), or null when they may change it. */
  readOnlyReason?: string | null;
  connection: Connection | undefined;
  models: ProviderModels;
  icon: LucideIcon;
  /** Classes of the icon tile. */
  tone: string;
}) {
  const [state, setState] = useState<CardState>(viewState);
  // A role taken away while editing (a live role change) ends the edit: the server would refuse it.
  if (readOnlyReason && state.mode === 'edit') setState(viewState);
  const [advancedOpen, setAdvancedOpen] = useState(false);
  const save = useUpdateConnection();
  const toggle = useUpdateConnection();

  const config = connection?.config ?? {};
  const isActive = connection?.isActive ?? false;
  const titleId = `${def.id}-title`;
  const formId = `${def.id}-form`;
  const basicFields = def.fields.filter((field) => !field.advanced);
  const advancedFields = def.fields.filter((field) => field.advanced);

  const edit = () => {
    const next = startEditing(def, config);
    setState(next);
    setAdvancedOpen(
      next.mode === 'edit' && advancedFields.some((field) => (next.draft[field.key] ?? '').trim() !== ''),
    );
  };

  const focusField = (errors: Record<string, string>) => {
    const first = def.fields.find((field) => errors[field.key]);
    if (first?.advanced) setAdvancedOpen(true);
    if (first) requestAnimationFrame(() => document.getElementById(`${def.id}-${first.key}`)?.focus());
  };

  const onSave = (event: FormEvent) => {
    event.preventDefault();
    if (state.mode !== 'edit') return;
    const next = buildConnectionConfig(def, state.draft, config);
    const errors = validateConnectionConfig(def.id, next);
    if (Object.keys(errors).length > 0) {
      setState(withErrors(state, errors));
      focusField(errors);
      return;
    }
    save.mutate(
      { id: def.id, body: { config: next } },
      {
        onSuccess: () => {
          setState(viewState);
          toast({ title: 'Configuration updated', description: `${def.title} settings were saved.` });
        },
        onError: (error) => {
          const parsed = parseApiError(error);
          if (parsed.status === 400 && parsed.errors.length > 0) {
            const fieldErrors = fieldErrorsFromServer(def, parsed.errors);
            setState((current) => withErrors(current, fieldErrors));
            focusField(fieldErrors);
          }
          toast({
            variant: 'destructive',
            title: 'Update Failed',
            description: getErrorMessage(error, UPDATE_FAILED),
          });
        },
      },
    );
  };

  const onToggle = (checked: boolean) => {
    toggle.mutate(
      { id: def.id, body: { isActive: checked } },
      {
        onSuccess: () =>
          toast({
            title: 'Configuration updated',
            description: `${def.title} is now ${checked ? 'active' : 'inactive'}.`,
          }),
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: 'Update Failed',
            description: getErrorMessage(error, UPDATE_FAILED),
          }),
      },
    );
  };

  const renderField = (field: ConnectionFieldDef) =>
    state.mode === 'edit' && (
      <FieldControl
        key={field.key}
        def={def}
        field={field}
        value={state.draft[field.key] ?? ''}
        error={state.errors[field.key]}
        models={models}
        onChange={(value) => setState((current) => updateDraft(current, field.key, value))}
      />
    );

  return (
    <Card
      role="region"
      aria-labelledby={titleId}
      className={cn('gap-5', state.mode === 'edit' && 'ring-2 ring-primary/20')}
    >
      <CardHeader className="gap-x-3 has-data-[slot=card-action]:grid-cols-[auto_minmax(0,1fr)_auto]">
        <span className={cn('row-span-2 grid size-10 place-items-center rounded-lg', tone)}>
          <Icon className="size-5" aria-hidden="true" />
        </span>
        <CardTitle id={titleId} className="self-center">
          {def.title}
        </CardTitle>
        <CardDescription className="col-span-2 col-start-2">{def.description}</CardDescription>
        <CardAction className="col-start-3 row-span-1 flex items-center gap-2 self-center">
          <span
            className={cn(
              'text-xs font-medium',
              isActive ? 'text-emerald-600 dark:text-emerald-400' : 'text-muted-foreground',
            )}
          >
            {isActive ? 'Active' : 'Inactive'}
          </span>
          <BlockedHint reason={readOnlyReason}>
            <Switch
              checked={isActive}
              aria-label={`${def.title} active`}
              disabled={toggle.isPending || Boolean(readOnlyReason)}
              onCheckedChange={onToggle}
            />
          </BlockedHint>
        </CardAction>
      </CardHeader>

      <CardContent className="flex-1">
        {state.mode === 'view' ? (
          <SettingsList
            settings={def.fields.map((field) => ({
              key: field.key,
              label: field.label,
              ...displayValue(field, config),
            }))}
          />
        ) : (
          <form id={formId} noValidate onSubmit={onSave} className="grid gap-4">
            {state.errors.form && (
              <p role="alert" className="flex items-start gap-2 text-sm text-destructive">
                <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                {state.errors.form}
              </p>
            )}
            {basicFields.map(renderField)}
            {advancedFields.length > 0 && (
              <div className="grid gap-4">
                <button
                  type="button"
                  className="flex w-fit items-center gap-1 text-sm font-medium text-muted-foreground hover:text-foreground"
                  aria-expanded={advancedOpen}
                  aria-controls={`${def.id}-advanced`}
                  onClick={() => setAdvancedOpen((open) => !open)}
                >
                  <ChevronRight
                    className={cn('size-4 transition-transform', advancedOpen && 'rotate-90')}
                    aria-hidden="true"
                  />
                  Advanced settings
                </button>
                <div id={`${def.id}-advanced`} hidden={!advancedOpen} className="grid gap-4">
                  {advancedOpen && advancedFields.map(renderField)}
                </div>
              </div>
            )}
          </form>
        )}
      </CardContent>

      <CardFooter className="justify-between gap-2 border-t [.border-t]:pt-5">
        {state.mode === 'view' ? (
          <>
            <span className="text-xs text-muted-foreground">
              {connection?.updatedAt
                ? `Updated ${formatRelativeTime(connection.updatedAt)}`
                : 'Not configured yet'}
            </span>
            <BlockedHint reason={readOnlyReason}>
              <Button variant="outline" size="sm" onClick={edit} disabled={Boolean(readOnlyReason)}>
                <Pencil aria-hidden="true" />
                Edit
              </Button>
            </BlockedHint>
          </>
        ) : (
          <div className="ml-auto flex gap-2">
            <Button
              type="button"
              variant="outline"
              size="sm"
              disabled={save.isPending}
              onClick={() => setState(cancelEditing())}
            >
              Cancel
            </Button>
            <Button
              type="submit"
              form={formId}
              size="sm"
              disabled={save.isPending}
              aria-busy={save.isPending}
            >
              {save.isPending && <Spinner />}
              Save
            </Button>
          </div>
        )}
      </CardFooter>
    </Card>
  );
}
