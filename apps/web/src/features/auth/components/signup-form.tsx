import { signupSchema } from '@crewline/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type FieldPath } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import type { z } from 'zod';

import { Spinner } from '@/components/spinner';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/text-field';
import { Form } from '@/components/ui/form';
import { getErrorMessage, parseApiError } from '@/lib/api';
import { carryInvite } from '@/lib/invite-links';
import { isPlanId, PLAN_NAMES } from '@/lib/billing';

import { SIGNUP_FAILED_FALLBACK, useSignup, type SignupBody } from '../api/signup';
import { FormBanner } from '@/components/form-dialog-parts';

type SignupFields = z.input<typeof signupSchema>;

const FIELD_NAMES: readonly FieldPath<SignupFields>[] = [
  'username',
  'email',
  'firstName',
  'lastName',
  'password',
  'confirmPassword',
];

export function SignupForm() {
  const signup = useSignup();
  const [searchParams] = useSearchParams();
  // The landing page's pricing buttons name the plan: the new organization's trial is on it.
  const planParam = searchParams.get('plan')?.trim().toLowerCase();
  const plan = isPlanId(planParam) ? planParam : undefined;
  const form = useForm<SignupFields, unknown, SignupBody>({
    resolver: zodResolver(signupSchema),
    defaultValues: {
      username: '',
      // An invitation link passes the invited address.
      email: searchParams.get('email') ?? '',
      firstName: '',
      lastName: '',
      password: '',
      confirmPassword: '',
      role: 'user',
    },
  });

  const onSubmit = (values: SignupBody) =>
    signup.mutate(plan ? { ...values, plan } : values, {
      onError: (error) => {
        // A 400 names the fields it rejected: show each message under its field too.
        for (const issue of parseApiError(error).errors) {
          const name = issue.path.split('.')[0] as FieldPath<SignupFields>;
          if (FIELD_NAMES.includes(name)) form.setError(name, { type: 'server', message: issue.message });
        }
      },
    });

  const bannerMessage = signup.isError ? getErrorMessage(signup.error, SIGNUP_FAILED_FALLBACK) : null;

  return (
    <div className="space-y-6">
      <Form {...form}>
        <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="space-y-4">
          <FormBanner message={bannerMessage} />
          <input type="hidden" {...form.register('role')} />

          <TextField
            control={form.control}
            name="username"
            label="Username"
            autoComplete="username"
            placeholder="ada"
            autoFocus
          />
          <TextField
            control={form.control}
            name="email"
            label="Email"
            type="email"
            autoComplete="email"
            placeholder="you@company.com"
          />
          <div className="grid items-start gap-4 sm:grid-cols-2">
            <TextField
              control={form.control}
              name="firstName"
              label="First Name"
              autoComplete="given-name"
              placeholder="Ada"
            />
            <TextField
              control={form.control}
              name="lastName"
              label="Last Name"
              autoComplete="family-name"
              placeholder="Lovelace"
            />
          </div>
          <div className="grid items-start gap-4 sm:grid-cols-2">
            <TextField
              control={form.control}
              name="password"
              label="Password"
              type="password"
              autoComplete="new-password"
              placeholder="At least 6 characters"
            />
            <TextField
              control={form.control}
              name="confirmPassword"
              label="Confirm Password"
              type="password"
              autoComplete="new-password"
              placeholder="Repeat password"
            />
          </div>

          <Button
            type="submit"
            className="w-full"
            size="lg"
            disabled={signup.isPending}
            aria-busy={signup.isPending}
          >
            {signup.isPending && <Spinner />}
            Create Account
          </Button>
          <p className="text-center text-xs text-muted-foreground">
            {plan
              ? `Your organization starts with a 14-day free trial of ${PLAN_NAMES[plan]}.`
              : 'Your organization starts with a 14-day free trial of Professional.'}{' '}
            No credit card needed.
          </p>
        </form>
      </Form>

      <p className="text-center text-sm text-muted-foreground">
        Already have an account?{' '}
        <Link
          to={carryInvite('/login', searchParams)}
          className="font-medium text-primary underline-offset-4 hover:underline"
        >
          Sign in
        </Link>
      </p>
    </div>
  );
}
