import { loginSchema, type LoginInput } from '@crewline/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import type { z } from 'zod';

import { Spinner } from '@/components/spinner';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/text-field';
import { Form } from '@/components/ui/form';
import { getErrorMessage } from '@/lib/api';
import { carryInvite } from '@/lib/invite-links';

import { LOGIN_FAILED_FALLBACK, useLogin } from '../api/login';
import { FormBanner } from '@/components/form-dialog-parts';

export function LoginForm() {
  const login = useLogin();
  const [searchParams] = useSearchParams();
  const form = useForm<z.input<typeof loginSchema>, unknown, LoginInput>({
    resolver: zodResolver(loginSchema),
    // An invitation link passes the invited address.
    defaultValues: { email: searchParams.get('email') ?? '', password: '' },
  });

  const onSubmit = (values: LoginInput) => login.mutate(values);
  const bannerMessage = login.isError ? getErrorMessage(login.error, LOGIN_FAILED_FALLBACK) : null;

  return (
    <div className="space-y-6">
      <Form {...form}>
        <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="space-y-4">
          <FormBanner message={bannerMessage} />

          <TextField
            control={form.control}
            name="email"
            label="Email"
            type="email"
            autoComplete="email"
            placeholder="you@company.com"
            autoFocus
          />
          <TextField
            control={form.control}
            name="password"
            label="Password"
            type="password"
            autoComplete="current-password"
            placeholder="••••••••"
          />
          <p className="-mt-2 text-right text-sm">
            <Link
              to="/forgot-password"
              className="font-medium text-primary underline-offset-4 hover:underline"
            >
              Forgot password?
            </Link>
          </p>

          <Button
            type="submit"
            className="w-full"
            size="lg"
            disabled={login.isPending}
            aria-busy={login.isPending}
          >
            {login.isPending && <Spinner />}
            Sign In
          </Button>
        </form>
      </Form>

      <p className="text-center text-sm text-muted-foreground">
        Don&apos;t have an account?{' '}
        <Link
          to={carryInvite('/signup', searchParams)}
          className="font-medium text-primary underline-offset-4 hover:underline"
        >
          Sign up
        </Link>
      </p>
    </div>
  );
}
