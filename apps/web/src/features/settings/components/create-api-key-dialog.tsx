import type { CreatedApiKey, Organization } from '@crewline/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { TriangleAlert } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';

import { CopyButton } from '@/components/copy-button';
import { FormBanner, FormDialogActions } from '@/components/form-dialog-parts';
import { PlanLimitAlert } from '@/components/plan-limit-notice';
import { TextField } from '@/components/text-field';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import {
  Form,
  FormControl,
  FormDescription,
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
} from '@/components/ui/form';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { parseApiError } from '@/lib/api';
import { readPlanLimitError, type PlanLimitInfo } from '@/lib/billing';
import { applyServerError } from '@/lib/form-errors';
import { formatDate, formatDateTime } from '@/lib/format';

import { useCreateApiKey } from '../api/api-keys';
import {
  COPY_KEY_WARNING,
  createApiKeyBody,
  createApiKeyFormSchema,
  curlExample,
  emptyCreateApiKeyForm,
  expiryDate,
  EXPIRY_CHOICES,
  minCustomExpiryDate,
  type CreateApiKeyFormValues,
  type ExpiryChoice,
} from '../api-keys';
import { ShownOnceField } from './shown-once-field';

const CREATE_FAILED = 'The API key could not be created. Try again.';

/**
 * Create API key: a name and an expiry; then the key itself, shown this once, with a curl example.
 * Closing the dialog forgets the key.
 */
export function CreateApiKeyDialog({
  organization,
  open,
  onOpenChange,
}: {
  organization: Organization;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const close = (next: boolean) => {
    onOpenChange(next);
    if (!next) setCreated(null);
  };

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent
        className="sm:max-w-xl"
        // A click beside the dialog must not lose a key that is shown only once.
        onInteractOutside={(event) => created && event.preventDefault()}
      >
        <DialogHeader>
          <DialogTitle>{created ? 'API key created' : 'Create API key'}</DialogTitle>
          <DialogDescription>
            {created
              ? `“${created.name}” acts as a member of ${organization.name}.`
              : `Programs that send this key act as a member of ${organization.name}.`}
          </DialogDescription>
        </DialogHeader>
        {open &&
          (created ? (
            <CreatedKey apiKey={created} onDone={() => close(false)} />
          ) : (
            <CreateKeyForm organization={organization} onCreated={setCreated} onCancel={() => close(false)} />
          ))}
      </DialogContent>
    </Dialog>
  );
}

function CreateKeyForm({
  organization,
  onCreated,
  onCancel,
}: {
  organization: Organization;
  onCreated: (key: CreatedApiKey) => void;
  onCancel: () => void;
}) {
  const create = useCreateApiKey(organization.id);
  const [banner, setBanner] = useState<string | null>(null);
  const [planLimit, setPlanLimit] = useState<PlanLimitInfo | null>(null);
  const schema = useMemo(() => createApiKeyFormSchema(), []);
  const form = useForm<CreateApiKeyFormValues>({
    resolver: zodResolver(schema),
    defaultValues: emptyCreateApiKeyForm,
  });
  const [expiry, customDate] = useWatch({ control: form.control, name: ['expiry', 'customDate'] });
  // The day the form was opened is "today" for the date picker and the preview.
  const [openedAt] = useState(() => Date.now());

  const onSubmit = (values: CreateApiKeyFormValues) => {
    setBanner(null);
    setPlanLimit(null);
    create.mutate(createApiKeyBody(values), {
      onSuccess: onCreated,
      onError: (error) => {
        // Starter and Free have no API access: the server's message with 'Upgrade', in the dialog.
        const limit = readPlanLimitError(error);
        if (limit) {
          setPlanLimit(limit);
          return;
        }
        const setFieldError = (name: 'name' | 'expiresAt', message: string) =>
          form.setError(name === 'expiresAt' ? (expiry === 'custom' ? 'customDate' : 'expiry') : name, {
            type: 'server',
            message,
          });
        setBanner(
          applyServerError(parseApiError(error), ['name', 'expiresAt'], setFieldError, CREATE_FAILED),
        );
      },
    });
  };

  return (
    <Form {...form}>
      <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="grid gap-4">
        <FormBanner message={banner} />
        <PlanLimitAlert info={planLimit} />
        <TextField
          control={form.control}
          name="name"
          label="Name"
          required
          autoComplete="off"
          maxLength={100}
          placeholder="CI pipeline"
          description="Say where the key is used, so you know what stops working if you revoke it."
          autoFocus
        />
        <FormField
          control={form.control}
          name="expiry"
          render={({ field }) => (
            <FormItem>
              <FormLabel>Expiry</FormLabel>
              <Select value={field.value} onValueChange={(value) => field.onChange(value as ExpiryChoice)}>
                <FormControl>
                  <SelectTrigger className="w-full sm:w-56">
                    <SelectValue />
                  </SelectTrigger>
                </FormControl>
                <SelectContent>
                  {EXPIRY_CHOICES.map((choice) => (
                    <SelectItem key={choice.value} value={choice.value}>
                      {choice.label}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
              {expiry !== 'custom' && (
                <FormDescription className="text-xs">
                  {expiryPreview(expiry, customDate, openedAt)}
                </FormDescription>
              )}
              <FormMessage />
            </FormItem>
          )}
        />
        {expiry === 'custom' && (
          <TextField
            control={form.control}
            name="customDate"
            label="Expiry date"
            type="date"
            required
            min={minCustomExpiryDate(openedAt)}
            className="w-full sm:w-56"
            description={expiryPreview(expiry, customDate, openedAt)}
          />
        )}
        <FormDialogActions submitLabel="Create key" pending={create.isPending} onCancel={onCancel} />
      </form>
    </Form>
  );
}

/** The sentence under the expiry: when the key stops working. */
function expiryPreview(choice: ExpiryChoice, customDate: string, now: number): string {
  if (choice === 'never') return 'The key works until you revoke it.';
  const date = expiryDate(choice, customDate, now);
  if (!date) return 'The key works through the end of the day you choose.';
  return choice === 'custom'
    ? `The key works through the end of ${formatDate(date)}.`
    : `The key expires on ${formatDate(date)}.`;
}

function CreatedKey({ apiKey, onDone }: { apiKey: CreatedApiKey; onDone: () => void }) {
  const curl = curlExample(window.location.origin, apiKey.key);
  return (
    <div className="grid min-w-0 gap-4">
      <Alert className="border-amber-500/40 bg-amber-500/10 text-amber-900 dark:text-amber-200">
        <TriangleAlert aria-hidden="true" />
        <AlertTitle className="line-clamp-none font-semibold">{COPY_KEY_WARNING}</AlertTitle>
        <AlertDescription className="text-amber-900/80 dark:text-amber-200/80">
          Crewline keeps only a hash of it. Store it in a secret manager, never in code.
        </AlertDescription>
      </Alert>

      <ShownOnceField id="api-key-value" label="API key" value={apiKey.key} copyLabel="API key">
        {apiKey.expiresAt ? `Expires ${formatDateTime(apiKey.expiresAt)}.` : 'Never expires.'} Revoke it in
        this tab when it is no longer needed.
      </ShownOnceField>

      <div className="grid min-w-0 gap-2">
        <div className="flex items-center justify-between gap-2">
          <p id="api-key-curl" className="text-sm font-medium">
            Try it
          </p>
          <CopyButton value={curl} label="curl example" />
        </div>
        <pre
          aria-labelledby="api-key-curl"
          className="overflow-x-auto rounded-md border bg-muted/50 px-3 py-2.5 font-mono text-xs leading-relaxed whitespace-pre-wrap break-all"
        >
          {curl}
        </pre>
      </div>

      <DialogFooter>
        <Button type="button" onClick={onDone}>
          Done
        </Button>
      </DialogFooter>
    </div>
  );
}
