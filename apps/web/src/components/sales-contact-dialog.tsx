// Talk to Sales: the contact form of the landing page and of Enterprise billing without a payment
// provider (POST /api/sales-inquiries, modules/sales). Loaded only when someone asks for it
// (talk-to-sales-button.tsx), so the form, zod and the contracts stay out of the landing page's first
// download.
import { salesInquirySchema, type SalesInquiryData, type SalesInquiryInput } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { zodResolver } from '@hookform/resolvers/zod';
import { CircleCheck } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';

import { FormBanner, FormDialogActions } from '@/components/form-dialog-parts';
import { TextField } from '@/components/text-field';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Form } from '@/components/ui/form';
import { parseApiError } from '@/lib/api';
import { api } from '@/lib/api-call';
import { placeServerError } from '@/lib/form-errors';

const FIELDS = ['name', 'email', 'company', 'message'] as const;
const SEND_FAILED = 'Your message could not be sent. Try again in a moment.';

export interface SalesContactDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function SalesContactDialog({ open, onOpenChange }: SalesContactDialogProps) {
  // What the server said once the message was stored: the form gives way to it.
  const [sent, setSent] = useState<string | null>(null);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        onOpenChange(next);
        if (!next) setSent(null);
      }}
    >
      <DialogContent className="sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>Talk to Sales</DialogTitle>
          <DialogDescription>
            Tell us about your team and what you want to automate. A person from our sales team answers.
          </DialogDescription>
        </DialogHeader>
        {sent ? (
          <div className="space-y-4">
            <p role="status" className="flex items-start gap-2 text-sm text-foreground">
              <CircleCheck
                className="mt-0.5 size-4 shrink-0 text-emerald-600 dark:text-emerald-400"
                aria-hidden="true"
              />
              {sent}
            </p>
            <DialogFooter>
              <Button type="button" onClick={() => onOpenChange(false)}>
                Done
              </Button>
            </DialogFooter>
          </div>
        ) : (
          <SalesContactForm onSent={setSent} onCancel={() => onOpenChange(false)} />
        )}
      </DialogContent>
    </Dialog>
  );
}

function SalesContactForm({ onSent, onCancel }: { onSent: (message: string) => void; onCancel: () => void }) {
  const [pending, setPending] = useState(false);
  const [banner, setBanner] = useState<string | null>(null);
  const form = useForm<SalesInquiryInput, unknown, SalesInquiryData>({
    resolver: zodResolver(salesInquirySchema),
    defaultValues: { name: '', email: '', company: '', message: '' },
  });

  const onSubmit = async (values: SalesInquiryData) => {
    setPending(true);
    setBanner(null);
    try {
      const answer = await api.call(endpoints.sales.submit, { body: values });
      onSent(answer.message);
    } catch (error) {
      const placed = placeServerError(parseApiError(error), FIELDS);
      for (const name of FIELDS) {
        const message = placed.fields[name];
        if (message) form.setError(name, { type: 'server', message });
      }
      setBanner(placed.banner ?? (Object.keys(placed.fields).length > 0 ? null : SEND_FAILED));
    } finally {
      setPending(false);
    }
  };

  return (
    <Form {...form}>
      <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="space-y-4">
        <FormBanner message={banner} />
        <div className="grid items-start gap-4 sm:grid-cols-2">
          <TextField control={form.control} name="name" label="Name" autoComplete="name" autoFocus />
          <TextField control={form.control} name="company" label="Company" autoComplete="organization" />
        </div>
        <TextField
          control={form.control}
          name="email"
          label="Work email"
          type="email"
          autoComplete="email"
          placeholder="you@company.com"
        />
        <TextField
          control={form.control}
          name="message"
          label="Message"
          rows={5}
          placeholder="How many people, which processes, and any questions about plans or security."
        />
        <FormDialogActions submitLabel="Send message" pending={pending} onCancel={onCancel} />
      </form>
    </Form>
  );
}
