// Save as Template, for a saved workflow (the builder) and a saved agent (its edit page): name,
// description, category and tags of a template only the organization sees in Template Marketplace.
// The values and the request are in lib/save-as-template.ts.
import type { AgentTemplate, WorkflowTemplate } from '@crewline/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { useForm, useWatch, type UseFormReturn } from 'react-hook-form';

import { FormBanner, FormDialog, FormDialogActions } from '@/components/form-dialog-parts';
import { TextField } from '@/components/text-field';
import { Alert, AlertDescription } from '@/components/ui/alert';
import {
  Form,
  FormControl,
  FormDescription,
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
} from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { apiRequest, parseApiError } from '@/lib/api';
import { applyServerError } from '@/lib/form-errors';
import { queryKeys } from '@/lib/queries/keys';
import {
  SAVE_AS_TEMPLATE_FIELDS,
  SAVE_TEMPLATE_FAILED,
  saveAsTemplateBody,
  saveAsTemplateDefaults,
  saveAsTemplateFormSchema,
  saveAsTemplatePath,
  TEMPLATE_CATEGORY_SUGGESTIONS,
  templateSavedToast,
  type SaveAsTemplateFormOutput,
  type SaveAsTemplateFormValues,
  type TemplateSource,
  type TemplateSourceKind,
} from '@/lib/save-as-template';
import { cn } from '@/lib/utils';

/** What the template keeps, and what stays behind (the server's rules, templates.service.ts). */
const KEPT: Record<TemplateSourceKind, string> = {
  workflow: 'It keeps the steps, trigger and agent definitions; tools, connections and secrets stay behind.',
  agent: 'It keeps the role, goal, instructions and model; tools and connections stay behind.',
};

export interface SaveAsTemplateDialogProps {
  kind: TemplateSourceKind;
  /** The saved workflow's or agent's id. */
  sourceId: string;
  /** Its saved name, description and template category and tags: the form's starting values. */
  source: TemplateSource;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The editor holds changes not saved yet: the template is made from the last saved version. */
  unsavedChanges?: boolean;
}

export function SaveAsTemplateDialog({ open, onOpenChange, ...props }: SaveAsTemplateDialogProps) {
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Save as Template"
      description={
        <>
          Add this {props.kind} to your organization&apos;s Template Marketplace. {KEPT[props.kind]}
        </>
      }
      className="sm:max-w-lg"
    >
      <SaveAsTemplateForm {...props} onDone={() => onOpenChange(false)} />
    </FormDialog>
  );
}

function SaveAsTemplateForm({
  kind,
  sourceId,
  source,
  unsavedChanges,
  onDone,
}: Omit<SaveAsTemplateDialogProps, 'open' | 'onOpenChange'> & { onDone: () => void }) {
  const queryClient = useQueryClient();
  const [banner, setBanner] = useState<string | null>(null);
  const form = useForm<SaveAsTemplateFormValues, unknown, SaveAsTemplateFormOutput>({
    resolver: zodResolver(saveAsTemplateFormSchema),
    defaultValues: saveAsTemplateDefaults(source),
  });
  const save = useMutation({
    mutationFn: (values: SaveAsTemplateFormOutput) =>
      apiRequest<WorkflowTemplate | AgentTemplate>(
        'POST',
        saveAsTemplatePath(kind, sourceId),
        saveAsTemplateBody(values),
      ),
  });

  const onSubmit = (values: SaveAsTemplateFormOutput) => {
    setBanner(null);
    save.mutate(values, {
      onSuccess: (template) => {
        void queryClient.invalidateQueries({ queryKey: queryKeys.templates.all });
        toast(templateSavedToast(template?.name ?? values.name));
        onDone();
      },
      onError: (error) => {
        const setFieldError = (name: (typeof SAVE_AS_TEMPLATE_FIELDS)[number], message: string) =>
          form.setError(name, { type: 'server', message });
        setBanner(
          applyServerError(
            parseApiError(error),
            SAVE_AS_TEMPLATE_FIELDS,
            setFieldError,
            SAVE_TEMPLATE_FAILED,
          ),
        );
      },
    });
  };

  return (
    <Form {...form}>
      <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="grid gap-4">
        <FormBanner message={banner} />
        {unsavedChanges && (
          <Alert className="border-amber-500/40 bg-amber-500/5">
            <TriangleAlert className="text-amber-600 dark:text-amber-400" aria-hidden="true" />
            <AlertDescription>
              This {kind} has unsaved changes. The template is made from its last saved version: to include
              them, cancel and save the {kind} first.
            </AlertDescription>
          </Alert>
        )}
        <TextField control={form.control} name="name" label="Name" required autoComplete="off" autoFocus />
        <TextField
          control={form.control}
          name="description"
          label="Description"
          rows={3}
          placeholder={`What the ${kind} does, for whoever uses the template`}
        />
        <CategoryField form={form} />
        <TextField
          control={form.control}
          name="tags"
          label="Tags"
          autoComplete="off"
          placeholder="e.g. research, seo, weekly"
          description="Comma-separated, up to 10."
        />
        <FormDialogActions submitLabel="Save Template" pending={save.isPending} onCancel={onDone} />
      </form>
    </Form>
  );
}

/** A text field with the marketplace's categories one click away; any other category may be typed in. */
function CategoryField({
  form,
}: {
  form: UseFormReturn<SaveAsTemplateFormValues, unknown, SaveAsTemplateFormOutput>;
}) {
  const value = useWatch({ control: form.control, name: 'category' });
  // A suggested category is always valid: checking it clears a 'Category is required' shown before.
  const pick = (category: string) =>
    form.setValue('category', category, { shouldDirty: true, shouldTouch: true, shouldValidate: true });
  return (
    <FormField
      control={form.control}
      name="category"
      render={({ field }) => (
        <FormItem>
          <FormLabel>
            Category
            <span aria-hidden="true" className="-ml-1 text-destructive">
              *
            </span>
          </FormLabel>
          <FormControl>
            <Input
              {...field}
              aria-required
              autoComplete="off"
              placeholder="Pick one below or type your own"
            />
          </FormControl>
          <div role="group" aria-label="Suggested categories" className="flex flex-wrap gap-1.5">
            {TEMPLATE_CATEGORY_SUGGESTIONS.map((category) => {
              const selected = value.trim().toLowerCase() === category.toLowerCase();
              return (
                <button
                  key={category}
                  type="button"
                  aria-pressed={selected}
                  onClick={() => pick(category)}
                  className={cn(
                    'rounded-full border px-2.5 py-0.5 text-xs font-medium transition-colors focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-1 focus-visible:ring-offset-background focus-visible:outline-none',
                    selected
                      ? 'border-primary bg-primary text-primary-foreground'
                      : 'border-border bg-background text-muted-foreground hover:bg-muted hover:text-foreground',
                  )}
                >
                  {category}
                </button>
              );
            })}
          </div>
          <FormDescription className="sr-only">
            Choose one of the suggested categories or type a category of your own.
          </FormDescription>
          <FormMessage />
        </FormItem>
      )}
    />
  );
}
