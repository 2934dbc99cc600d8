import { accountMessages, messages, resetPasswordSchema } from '@crewline/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';

import { FormBanner } from '@/components/form-dialog-parts';
import { Spinner } from '@/components/spinner';
import { TextField } from '@/components/text-field';
import { Button } from '@/components/ui/button';
import { Form } from '@/components/ui/form';
import { toast } from '@/components/ui/use-toast';
import { clearStoredAuth, getErrorMessage, isApiStatus } from '@/lib/api';
import { useDocumentTitle } from '@/lib/use-document-title';

import { useResetPassword } from '../api/account-links';
import { AuthLayout } from '../components/auth-layout';

// The server's rule for the password, plus the confirmation the form asks for.
const formSchema = z
  .object({ password: resetPasswordSchema.shape.password, confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, {
    message: messages.passwordsDontMatch,
    path: ['confirmPassword'],
  });
type FormFields = z.infer<typeof formSchema>;

/** /reset-password?token=: a new password; on success every session has ended, so sign in again. */
export function ResetPasswordPage() {
  useDocumentTitle('Set a new password');
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const navigate = useNavigate();
  const reset = useResetPassword();
  const form = useForm<FormFields>({
    resolver: zodResolver(formSchema),
    defaultValues: { password: '', confirmPassword: '' },
  });
  const gone = !token || (reset.isError && isApiStatus(reset.error, 410));

  const onSubmit = (values: FormFields) =>
    reset.mutate(
      { token, password: values.password },
      {
        onSuccess: (answer) => {
          // The reset signed this browser out too (if it was signed in).
          clearStoredAuth();
          toast({ title: answer.message });
          navigate('/login', { replace: true });
        },
      },
    );

  return (
    <AuthLayout
      title="Set a new password"
      description="Choose the password you will sign in with from now on."
    >
      {gone ? (
        <div className="space-y-4">
          <FormBanner message={accountMessages.linkGone} />
          <Button asChild className="w-full" size="lg">
            <Link to="/forgot-password">Send a new link</Link>
          </Button>
        </div>
      ) : (
        <Form {...form}>
          <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="space-y-4">
            <FormBanner message={reset.isError ? getErrorMessage(reset.error, 'Try again.') : null} />
            <TextField
              control={form.control}
              name="password"
              label="New password"
              type="password"
              autoComplete="new-password"
              placeholder="••••••••"
              autoFocus
            />
            <TextField
              control={form.control}
              name="confirmPassword"
              label="Confirm new password"
              type="password"
              autoComplete="new-password"
              placeholder="••••••••"
            />
            <Button
              type="submit"
              className="w-full"
              size="lg"
              disabled={reset.isPending}
              aria-busy={reset.isPending}
            >
              {reset.isPending && <Spinner />}
              Set new password
            </Button>
          </form>
        </Form>
      )}
    </AuthLayout>
  );
}
