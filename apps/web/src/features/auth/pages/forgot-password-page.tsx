import { accountMessages, forgotPasswordSchema, type ForgotPasswordInput } from '@crewline/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { MailCheck } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';

import { FormBanner } from '@/components/form-dialog-parts';
import { Spinner } from '@/components/spinner';
import { TextField } from '@/components/text-field';
import { Button } from '@/components/ui/button';
import { Form } from '@/components/ui/form';
import { getErrorMessage } from '@/lib/api';
import { useDocumentTitle } from '@/lib/use-document-title';

import { useForgotPassword } from '../api/account-links';
import { AuthLayout } from '../components/auth-layout';

/** /forgot-password: asks for the address; the answer is the same whether or not an account uses it. */
export function ForgotPasswordPage() {
  useDocumentTitle('Forgot password');
  const forgot = useForgotPassword();
  const form = useForm<z.input<typeof forgotPasswordSchema>, unknown, ForgotPasswordInput>({
    resolver: zodResolver(forgotPasswordSchema),
    defaultValues: { email: '' },
  });

  return (
    <AuthLayout
      title="Forgot your password?"
      description="Enter the email address of your account and we will send you a link to set a new password."
    >
      {forgot.isSuccess ? (
        <div role="status" className="flex gap-3 rounded-lg border bg-muted/40 p-4 text-sm">
          <MailCheck className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
          <p>{accountMessages.resetLinkSent} The link works for 1 hour.</p>
        </div>
      ) : (
        <Form {...form}>
          <form
            onSubmit={form.handleSubmit((values) => forgot.mutate(values))}
            noValidate
            className="space-y-4"
          >
            <FormBanner message={forgot.isError ? getErrorMessage(forgot.error, 'Try again.') : null} />
            <TextField
              control={form.control}
              name="email"
              label="Email"
              type="email"
              autoComplete="email"
              placeholder="you@company.com"
              autoFocus
            />
            <Button
              type="submit"
              className="w-full"
              size="lg"
              disabled={forgot.isPending}
              aria-busy={forgot.isPending}
            >
              {forgot.isPending && <Spinner />}
              Send reset link
            </Button>
          </form>
        </Form>
      )}
      <p className="text-center text-sm text-muted-foreground">
        <Link to="/login" className="font-medium text-primary underline-offset-4 hover:underline">
          Back to sign in
        </Link>
      </p>
    </AuthLayout>
  );
}
