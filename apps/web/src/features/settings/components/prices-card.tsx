import type { ModelPrice } from '@crewline/contracts';
import {
  llmProviderLabels,
  llmProviderNames,
  llmProviderValues,
  type LlmProvider,
} from '@crewline/contracts/vocabulary';
import { Coins, Pencil, Trash2 } from 'lucide-react';
import { useId, useRef, useState, type RefObject } from 'react';

import { FormBanner } from '@/components/form-dialog-parts';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { parseApiError } from '@/lib/api';
import { cn } from '@/lib/utils';

import { usePrices, useRemovePrice, useSetPrice } from '../api/prices';
import {
  draftOf,
  EMPTY_PRICE_DRAFT,
  formatCheckedDate,
  formatPrice,
  priceBodyOf,
  PRICES_READ_ONLY,
  type PriceDraft,
} from '../prices';

const PRICES_HELP =
  'What model calls cost, in US dollars per 1M tokens. Built-in prices are the providers’ list prices on the day checked; your own price replaces one or adds a local or custom model. A model without a price has an unknown cost.';
const SAVE_FAILED = 'The price could not be saved. Try again.';

const th = 'px-3 py-2 text-left text-xs font-medium whitespace-nowrap text-muted-foreground';
const td = 'px-3 py-2.5 align-middle whitespace-nowrap';
const num = 'text-right tabular-nums';

/**
 * Settings → Costs: the model prices in force for the organization. Admins and owners set their own
 * price for a model (over the built-in one, or for a model with none) and remove it; members read.
 */
export function PricesCard({ manager }: { manager: boolean }) {
  const prices = usePrices();
  const remove = useRemovePrice();
  const [draft, setDraft] = useState<PriceDraft>(EMPTY_PRICE_DRAFT);
  // The row whose Edit filled the form, while its provider and model stay as they were.
  const [editing, setEditing] = useState<Pick<ModelPrice, 'provider' | 'model'> | null>(null);
  const firstPrice = useRef<HTMLInputElement>(null);

  const edit = (price: ModelPrice) => {
    setDraft(draftOf(price));
    setEditing({ provider: price.provider, model: price.model });
    // The form is below the table: bring it into view on a phone.
    requestAnimationFrame(() => firstPrice.current?.focus());
  };

  const onRemove = (price: ModelPrice) =>
    remove.mutate(price, {
      onSuccess: () =>
        toast({
          title: 'Price removed',
          description: `The built-in price of ${price.model}, if any, applies again.`,
        }),
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: 'Price not removed',
          description: parseApiError(error).message ?? 'Try again.',
        }),
    });

  return (
    <Card data-testid="prices-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Coins className="size-4 text-muted-foreground" aria-hidden="true" />
          Model prices
        </CardTitle>
        <CardDescription>{PRICES_HELP}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        {prices.isPending ? (
          <Skeleton className="h-48 w-full" />
        ) : prices.isError ? (
          <FormBanner message="The model prices could not be loaded." />
        ) : (
          <PricesTable
            prices={prices.data}
            manager={manager}
            onEdit={edit}
            onRemove={onRemove}
            removing={remove.isPending}
          />
        )}
        {manager ? (
          <PriceForm
            draft={draft}
            onChange={(next) => {
              setDraft(next);
              if (editing && (next.provider !== editing.provider || next.model.trim() !== editing.model))
                setEditing(null);
            }}
            editing={editing !== null}
            onDone={() => {
              setDraft(EMPTY_PRICE_DRAFT);
              setEditing(null);
            }}
            firstPrice={firstPrice}
          />
        ) : (
          <p className="text-sm text-muted-foreground">{PRICES_READ_ONLY}</p>
        )}
      </CardContent>
    </Card>
  );
}

type RowProps = {
  manager: boolean;
  onEdit: (price: ModelPrice) => void;
  onRemove: (price: ModelPrice) => void;
  removing: boolean;
};

/** A table from sm up, a list of small cards below (a phone has no room for eight columns). */
function PricesTable({ prices, ...actions }: { prices: ModelPrice[] } & RowProps) {
  const { manager } = actions;
  return (
    <>
      <div className="-mx-3 hidden overflow-x-auto sm:block">
        <table className="w-full text-sm" aria-label="Model prices">
          <thead>
            <tr>
              <th className={th}>Provider</th>
              <th className={th}>Model</th>
              <th className={cn(th, 'text-right')}>Input</th>
              <th className={cn(th, 'text-right')}>Cached input</th>
              <th className={cn(th, 'text-right')}>Output</th>
              <th className={th}>Checked</th>
              <th className={th}>Source</th>
              {manager && (
                <th className={th}>
                  <span className="sr-only">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {prices.map((price) => (
              <tr key={`${price.provider} ${price.model}`} aria-label={rowName(price)} className="border-t">
                <td className={td}>{llmProviderLabels[price.provider]}</td>
                <td className={cn(td, 'font-mono text-xs')}>{price.model}</td>
                <td className={cn(td, num)}>{formatPrice(price.inputPerMillion)}</td>
                <td className={cn(td, num)}>{formatPrice(price.cachedInputPerMillion)}</td>
                <td className={cn(td, num)}>{formatPrice(price.outputPerMillion)}</td>
                <td className={td}>{formatCheckedDate(price.checkedAt)}</td>
                <td className={td}>
                  <SourceBadge price={price} />
                </td>
                {manager && (
                  <td className={cn(td, 'text-right')}>
                    <div className="flex justify-end gap-1">
                      <RowActions price={price} {...actions} />
                    </div>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <ul aria-label="Model prices" className="divide-y sm:hidden">
        {prices.map((price) => (
          <li
            key={`${price.provider} ${price.model}`}
            aria-label={rowName(price)}
            className="grid gap-2 py-3 first:pt-0 last:pb-0"
          >
            <div className="flex items-start justify-between gap-2">
              <div className="min-w-0">
                <p className="font-mono text-xs break-all">{price.model}</p>
                <p className="text-xs text-muted-foreground">
                  {llmProviderLabels[price.provider]} · checked {formatCheckedDate(price.checkedAt)}
                </p>
              </div>
              <SourceBadge price={price} />
            </div>
            <dl className="grid grid-cols-3 gap-2 text-sm">
              <Figure label="Input" value={price.inputPerMillion} />
              <Figure label="Cached input" value={price.cachedInputPerMillion} />
              <Figure label="Output" value={price.outputPerMillion} />
            </dl>
            {manager && (
              <div className="-ml-2 flex gap-1">
                <RowActions price={price} {...actions} />
              </div>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}

const rowName = (price: ModelPrice) => `${llmProviderLabels[price.provider]} ${price.model}`;

function SourceBadge({ price }: { price: ModelPrice }) {
  const own = price.source === 'organization';
  return <Badge variant={own ? 'default' : 'outline'}>{own ? 'Your price' : 'Built-in'}</Badge>;
}

function Figure({ label, value }: { label: string; value: number }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="tabular-nums">{formatPrice(value)}</dd>
    </div>
  );
}

/** Edit (every row) and Remove (the organization's own rows). */
function RowActions({
  price,
  onEdit,
  onRemove,
  removing,
}: { price: ModelPrice } & Omit<RowProps, 'manager'>) {
  return (
    <>
      <Button
        type="button"
        variant="ghost"
        size="sm"
        aria-label={`Edit the price of ${price.model}`}
        onClick={() => onEdit(price)}
      >
        <Pencil aria-hidden="true" />
        Edit
      </Button>
      {price.source === 'organization' && (
        <Button
          type="button"
          variant="ghost"
          size="sm"
          className="text-destructive hover:bg-destructive/10 hover:text-destructive"
          aria-label={`Remove your price of ${price.model}`}
          disabled={removing}
          onClick={() => onRemove(price)}
        >
          <Trash2 aria-hidden="true" />
          Remove
        </Button>
      )}
    </>
  );
}

/** The figures of a price, each with the server's complaint about it, if any. */
const PRICE_FIELDS = [
  { key: 'input', path: 'inputPerMillion', label: 'Input' },
  { key: 'cachedInput', path: 'cachedInputPerMillion', label: 'Cached input' },
  { key: 'output', path: 'outputPerMillion', label: 'Output' },
] as const;

function PriceForm({
  draft,
  onChange,
  editing,
  onDone,
  firstPrice,
}: {
  draft: PriceDraft;
  onChange: (draft: PriceDraft) => void;
  editing: boolean;
  onDone: () => void;
  firstPrice: RefObject<HTMLInputElement | null>;
}) {
  const save = useSetPrice();
  const [banner, setBanner] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const id = useId();
  const title = editing ? 'Edit price' : 'Add price';

  const submit = () => {
    setBanner(null);
    setFieldErrors({});
    save.mutate(priceBodyOf(draft), {
      onSuccess: (saved) => {
        onDone();
        toast({ title: 'Price saved', description: `${saved.model}: your price applies from now on.` });
      },
      onError: (error) => {
        const parsed = parseApiError(error);
        const byPath = Object.fromEntries(parsed.errors.map((e) => [e.path, e.message]));
        setFieldErrors(byPath);
        // A problem no field shows (or none named) goes in the banner.
        const known = ['provider', 'model', ...PRICE_FIELDS.map((f) => f.path)];
        if (!parsed.errors.some((e) => known.includes(e.path))) setBanner(parsed.message ?? SAVE_FAILED);
      },
    });
  };

  const fieldError = (path: string) =>
    fieldErrors[path] ? (
      <p id={`${id}-${path}-error`} className="text-sm text-destructive">
        {fieldErrors[path]}
      </p>
    ) : null;
  const invalid = (path: string) =>
    fieldErrors[path] ? { 'aria-invalid': true, 'aria-describedby': `${id}-${path}-error` } : {};

  return (
    <form
      aria-label={title}
      className="grid gap-4 border-t pt-5"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <div className="space-y-1">
        <h3 className="text-sm font-medium">{title}</h3>
        <p className="text-sm text-muted-foreground">
          US dollars per 1M tokens. Leave the cached input price empty when the provider gives no discount.
        </p>
      </div>
      <FormBanner message={banner} />
      <div className="grid gap-4 sm:grid-cols-[12rem_minmax(0,1fr)]">
        <div className="grid content-start gap-2">
          <Label htmlFor={`${id}-provider`}>Provider</Label>
          <Select
            value={draft.provider}
            onValueChange={(value) => onChange({ ...draft, provider: value as LlmProvider })}
          >
            <SelectTrigger id={`${id}-provider`} className="w-full" {...invalid('provider')}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {llmProviderValues.map((provider) => (
                <SelectItem key={provider} value={provider}>
                  {llmProviderNames[provider]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          {fieldError('provider')}
        </div>
        <div className="grid content-start gap-2">
          <Label htmlFor={`${id}-model`}>Model</Label>
          <Input
            id={`${id}-model`}
            value={draft.model}
            onChange={(event) => onChange({ ...draft, model: event.target.value })}
            placeholder="gpt-4o, llama3.1:8b"
            spellCheck={false}
            autoCapitalize="none"
            autoComplete="off"
            className="font-mono"
            {...invalid('model')}
          />
          {fieldError('model')}
        </div>
      </div>
      <div className="grid gap-4 sm:grid-cols-3">
        {PRICE_FIELDS.map(({ key, path, label }, index) => (
          <div key={key} className="grid content-start gap-2">
            <Label htmlFor={`${id}-${key}`}>{label}</Label>
            <Input
              id={`${id}-${key}`}
              ref={index === 0 ? firstPrice : undefined}
              type="number"
              inputMode="decimal"
              step="any"
              value={draft[key]}
              onChange={(event) => onChange({ ...draft, [key]: event.target.value })}
              placeholder={key === 'cachedInput' ? 'Same as input' : '0.00'}
              {...invalid(path)}
            />
            {fieldError(path)}
          </div>
        ))}
      </div>
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save price'}
        </Button>
        {editing && (
          <Button type="button" variant="outline" size="sm" onClick={onDone}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}
