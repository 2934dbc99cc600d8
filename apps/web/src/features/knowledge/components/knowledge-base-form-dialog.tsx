// Create Knowledge Base (name, description, embedding connection and model) and Edit (name and
// description: the model stays, as the stored vectors were made with it).
import type { KnowledgeBase } from '@crewline/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';

import { EmbeddingConnectionFields } from '@/components/embedding-connection-fields';
import { FormBanner, FormDialog, FormDialogActions } from '@/components/form-dialog-parts';
import { TextField } from '@/components/text-field';
import { Form } from '@/components/ui/form';
import { parseApiError } from '@/lib/api';
import { applyServerError } from '@/lib/form-errors';

import { useCreateKnowledgeBase, useUpdateKnowledgeBase } from '../api/knowledge-bases';
import { knowledgeBasePath } from '../knowledge-display';
import {
  createKnowledgeBody,
  emptyKnowledgeForm,
  KNOWLEDGE_FORM_FIELDS,
  knowledgeFormFrom,
  knowledgeFormSchema,
  updateKnowledgeBody,
  type KnowledgeFormOutput,
  type KnowledgeFormValues,
} from '../knowledge-form';

export function KnowledgeBaseFormDialog({
  open,
  onOpenChange,
  base,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The knowledge base to rename; null to create one. */
  base: KnowledgeBase | null;
}) {
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={base ? 'Edit Knowledge Base' : 'Create Knowledge Base'}
      description={
        base
          ? 'Rename it or change its description. Its embedding model stays, as its chunks were embedded with it.'
          : 'Upload documents to it, then search them or give them to your agents.'
      }
      className="sm:max-w-lg"
    >
      <KnowledgeBaseForm base={base} onDone={() => onOpenChange(false)} />
    </FormDialog>
  );
}

function KnowledgeBaseForm({ base, onDone }: { base: KnowledgeBase | null; onDone: () => void }) {
  const navigate = useNavigate();
  const create = useCreateKnowledgeBase();
  const update = useUpdateKnowledgeBase();
  const pending = create.isPending || update.isPending;
  const [banner, setBanner] = useState<string | null>(null);
  const form = useForm<KnowledgeFormValues, unknown, KnowledgeFormOutput>({
    resolver: zodResolver(knowledgeFormSchema),
    defaultValues: base ? knowledgeFormFrom(base) : emptyKnowledgeForm(),
  });

  const onError = (error: unknown) => {
    const setFieldError = (name: (typeof KNOWLEDGE_FORM_FIELDS)[number], message: string) =>
      form.setError(name, { type: 'server', message });
    setBanner(
      applyServerError(
        parseApiError(error),
        KNOWLEDGE_FORM_FIELDS,
        setFieldError,
        base ? 'Failed to update knowledge base' : 'Failed to create knowledge base',
      ),
    );
  };

  const onSubmit = (values: KnowledgeFormOutput) => {
    setBanner(null);
    if (base) {
      update.mutate({ id: base.id, input: updateKnowledgeBody(values) }, { onSuccess: onDone, onError });
      return;
    }
    create.mutate(createKnowledgeBody(values), {
      onSuccess: (created) => {
        onDone();
        // Straight to the new knowledge base, where its documents are added.
        if (created?.id) void navigate(knowledgeBasePath(created.id));
      },
      onError,
    });
  };

  return (
    <Form {...form}>
      <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="grid gap-4">
        <FormBanner message={banner} />
        <TextField
          control={form.control}
          name="name"
          label="Name"
          required
          autoComplete="off"
          autoFocus
          placeholder="e.g. Product handbook"
        />
        <TextField
          control={form.control}
          name="description"
          label="Description"
          rows={3}
          placeholder="What its documents are about"
        />
        {!base && (
          <EmbeddingConnectionFields
            control={form.control}
            providerName="embeddingProvider"
            modelName="embeddingModel"
            disabled={pending}
          />
        )}
        <FormDialogActions
          submitLabel={base ? 'Save Changes' : 'Create Knowledge Base'}
          pending={pending}
          onCancel={onDone}
        />
      </form>
    </Form>
  );
}
