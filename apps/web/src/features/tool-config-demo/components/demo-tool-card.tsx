import { CircleAlert, CircleCheck, CircleDashed, FlaskConical, Pencil, type LucideIcon } from 'lucide-react';
import { useEffect, useRef, type FormEvent } from 'react';

import { SettingsList } from '@/components/settings-list';
import { Spinner } from '@/components/spinner';
import { StatusBadge, type StatusTone } from '@/components/status-badge';
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
import { Switch } from '@/components/ui/switch';
import { cn } from '@/lib/utils';

import { maskSecret, type DemoAction, type DemoCardState, type DemoStatus } from '../demo-state';
import type { DemoFieldDef, DemoToolDef, DemoToolId } from '../demo-tools';
import { DemoField, demoFieldId } from './demo-field';

const statusTone: Record<DemoStatus, StatusTone> = { untested: 'gray', connected: 'green', error: 'red' };

/** How a saved value reads in read-only mode: secrets masked, select values by their label. */
function shownValue(field: DemoFieldDef, value: string): { text: string; muted: boolean; mono: boolean } {
  if (value === '') return { text: 'Not set', muted: true, mono: false };
  if (field.kind === 'secret') return { text: maskSecret(value), muted: false, mono: true };
  if (field.kind === 'select') {
    const label = field.options?.find((option) => option.value === value)?.label ?? value;
    return { text: label, muted: false, mono: false };
  }
  return { text: value, muted: false, mono: false };
}

function StatusLine({ card }: { card: DemoCardState }) {
  const Icon = card.testing
    ? null
    : card.status === 'connected'
      ? CircleCheck
      : card.status === 'error'
        ? CircleAlert
        : CircleDashed;
  return (
    // Announced to screen readers whenever a test starts or ends, or a save goes through.
    <p
      role="status"
      className={cn(
        'flex min-w-0 items-start gap-1.5 text-xs',
        card.testing || card.status === 'untested'
          ? 'text-muted-foreground'
          : card.status === 'connected'
            ? 'text-emerald-700 dark:text-emerald-400'
            : 'text-destructive',
      )}
    >
      {Icon ? (
        <Icon className="mt-px size-3.5 shrink-0" aria-hidden="true" />
      ) : (
        <Spinner className="mt-px size-3.5" />
      )}
      <span>{card.message}</span>
    </p>
  );
}

/**
 * One demo tool: read-only values with Test and Edit, or its fields with Cancel and Save. The active
 * switch works in both modes. Nothing leaves the page.
 */
export function DemoToolCard({
  def,
  card,
  icon: Icon,
  tone,
  dispatch,
  onTest,
}: {
  def: DemoToolDef;
  card: DemoCardState;
  icon: LucideIcon;
  /** Classes of the icon tile. */
  tone: string;
  dispatch: (action: DemoAction) => void;
  onTest: (id: DemoToolId) => void;
}) {
  const id = def.id;
  const titleId = `demo-${id}-title`;
  const formId = `demo-${id}-form`;
  const editing = card.draft !== null;
  const editButton = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(editing);
  const focusErrorsAfterSave = useRef(false);

  // Focus follows the mode: the first field on Edit, back to Edit after Save or Cancel.
  useEffect(() => {
    if (editing === wasEditing.current) return;
    wasEditing.current = editing;
    if (editing) document.getElementById(demoFieldId(id, def.fields[0].key))?.focus();
    else editButton.current?.focus();
  }, [editing, id, def.fields]);

  // A refused Save puts the cursor in the first field to fix.
  useEffect(() => {
    if (!focusErrorsAfterSave.current) return;
    focusErrorsAfterSave.current = false;
    const first = def.fields.find((field) => card.errors[field.key]);
    if (first) document.getElementById(demoFieldId(id, first.key))?.focus();
  }, [card.errors, def.fields, id]);

  const onSave = (event: FormEvent) => {
    event.preventDefault();
    focusErrorsAfterSave.current = true;
    dispatch({ type: 'save', id });
  };

  return (
    <Card
      role="region"
      aria-labelledby={titleId}
      className={cn('gap-5', editing && 'ring-2 ring-primary/20')}
      data-testid={`demo-card-${id}`}
    >
      <CardHeader className="gap-x-3 has-data-[slot=card-action]:grid-cols-[auto_minmax(0,1fr)_auto]">
        <span className={cn('row-span-2 grid size-10 place-items-center rounded-lg', tone)}>
          <Icon className="size-5" aria-hidden="true" />
        </span>
        <div className="flex min-w-0 flex-wrap items-center gap-2 self-center">
          <CardTitle id={titleId}>{def.title}</CardTitle>
          <StatusBadge label={card.status} tone={statusTone[card.status]} />
        </div>
        <CardDescription className="col-span-2 col-start-2">{def.description}</CardDescription>
        <CardAction className="col-start-3 row-span-1 flex items-center gap-2 self-center">
          <span
            className={cn(
              'text-xs font-medium',
              card.isActive ? 'text-emerald-600 dark:text-emerald-400' : 'text-muted-foreground',
            )}
            aria-hidden="true"
          >
            {card.isActive ? 'Active' : 'Inactive'}
          </span>
          <Switch
            checked={card.isActive}
            aria-label={`${def.title} active`}
            onCheckedChange={() => dispatch({ type: 'toggle', id })}
          />
        </CardAction>
      </CardHeader>

      <CardContent className="flex-1">
        {card.draft === null ? (
          <SettingsList
            settings={def.fields.map((field) => ({
              key: field.key,
              label: field.label,
              ...shownValue(field, card.values[field.key] ?? ''),
            }))}
          />
        ) : (
          <form id={formId} noValidate onSubmit={onSave} className="grid gap-4" aria-labelledby={titleId}>
            {def.fields.map((field) => (
              <DemoField
                key={field.key}
                toolId={id}
                field={field}
                value={card.draft?.[field.key] ?? ''}
                error={card.errors[field.key]}
                onChange={(value) => dispatch({ type: 'change', id, key: field.key, value })}
              />
            ))}
          </form>
        )}
      </CardContent>

      <CardFooter className="flex-wrap justify-between gap-x-4 gap-y-3 border-t [.border-t]:pt-5">
        <StatusLine card={card} />
        {/* Keyed: were the Edit button reused as Save (a submit button), the click that opens edit mode
            would also submit the form it just opened. */}
        {editing ? (
          <div key="edit-actions" className="ml-auto flex gap-2">
            <Button
              type="button"
              variant="outline"
              size="sm"
              onClick={() => dispatch({ type: 'cancel', id })}
            >
              Cancel
            </Button>
            <Button type="submit" form={formId} size="sm">
              Save
            </Button>
          </div>
        ) : (
          <div key="view-actions" className="ml-auto flex gap-2">
            {/* Not disabled while testing, so the keyboard focus stays on it until the result. */}
            <Button
              variant="outline"
              size="sm"
              aria-disabled={card.testing || undefined}
              aria-busy={card.testing || undefined}
              className="aria-disabled:opacity-60"
              onClick={() => {
                if (!card.testing) onTest(id);
              }}
            >
              {card.testing ? <Spinner /> : <FlaskConical aria-hidden="true" />}
              {card.testing ? 'Testing…' : 'Test'}
            </Button>
            <Button
              ref={editButton}
              variant="outline"
              size="sm"
              disabled={card.testing}
              onClick={() => dispatch({ type: 'edit', id })}
            >
              <Pencil aria-hidden="true" />
              Edit
            </Button>
          </div>
        )}
      </CardFooter>
    </Card>
  );
}
