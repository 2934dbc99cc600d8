// Paste text: a name and the text, added as one text/plain document.
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';

import { FormBanner, FormDialog, FormDialogActions } from '@/components/form-dialog-parts';
import { TextField } from '@/components/text-field';
import { Form } from '@/components/ui/form';
import { parseApiError } from '@/lib/api';
import { applyServerError } from '@/lib/form-errors';

import { useAddTextDocument } from '../api/documents';
import {
  defaultPasteName,
  PASTE_TEXT_FIELDS,
  pasteTextSchema,
  type PasteTextValues,
} from '../knowledge-form';

export function PasteTextDialog({
  knowledgeBaseId,
  open,
  onOpenChange,
}: {
  knowledgeBaseId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Paste Text"
      description="Add text as a document of this knowledge base, as if uploaded as a .txt file."
      className="sm:max-w-2xl"
    >
      <PasteTextForm knowledgeBaseId={knowledgeBaseId} onDone={() => onOpenChange(false)} />
    </FormDialog>
  );
}

function PasteTextForm({ knowledgeBaseId, onDone }: { knowledgeBaseId: string; onDone: () => void }) {
  const add = useAddTextDocument(knowledgeBaseId);
  const [banner, setBanner] = useState<string | null>(null);
  const form = useForm<PasteTextValues>({
    resolver: zodResolver(pasteTextSchema),
    defaultValues: { name: defaultPasteName(), content: '' },
  });

  const onSubmit = (values: PasteTextValues) => {
    setBanner(null);
    add.mutate(
      { ...values, mediaType: 'text/plain' },
      {
        onSuccess: onDone,
        onError: (error) =>
          setBanner(
            applyServerError(
              parseApiError(error),
              PASTE_TEXT_FIELDS,
              (name, message) => form.setError(name, { type: 'server', message }),
              'Failed to add the text',
            ),
          ),
      },
    );
  };

  return (
    <Form {...form}>
      <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="grid gap-4">
        <FormBanner message={banner} />
        <TextField control={form.control} name="name" label="Name" required autoComplete="off" />
        <TextField
          control={form.control}
          name="content"
          label="Text"
          required
          rows={10}
          autoFocus
          placeholder="Paste or type the text your agents should know"
          className="max-h-[50vh] font-mono text-xs"
        />
        <FormDialogActions submitLabel="Add Text" pending={add.isPending} onCancel={onDone} />
      </form>
    </Form>
  );
}
