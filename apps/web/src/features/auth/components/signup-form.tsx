import { signupSchema } from '@crewline/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type FieldPath } from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';

import { Spinner } from '@/components/spinner';
import { Button } from '@/components/ui/button';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { getErrorMessage, parseApiError } from '@/lib/api';

import { SIGNUP_FAILED_FALLBACK, useSignup, type SignupBody } from '../api/signup';
import { FormErrorBanner } from './form-error-banner';

type SignupFields = z.input<typeof signupSchema>;

const FIELD_NAMES: readonly FieldPath<SignupFields>[] = [
  'username',
  'email',
  'firstName',
  'lastName',
  'password',
  'confirmPassword',
];

const textFields: {
  name: Exclude<FieldPath<SignupFields>, 'role'>;
  label: string;
  type: string;
  autoComplete: string;
  placeholder?: string;
}[] = [
  { name: 'firstName', label: 'First Name', type: 'text', autoComplete: 'given-name', placeholder: 'Ada' },
  {
    name: 'lastName',
    label: 'Last Name',
    type: 'text',
    autoComplete: 'family-name',
    placeholder: 'Lovelace',
  },
];

export function SignupForm() {
  const signup = useSignup();
  const form = useForm<SignupFields, unknown, SignupBody>({
    resolver: zodResolver(signupSchema),
    defaultValues: {
      username: '',
      email: '',
      firstName: '',
      lastName: '',
      password: '',
      confirmPassword: '',
      role: 'user',
    },
  });

  const onSubmit = (values: SignupBody) =>
    signup.mutate(values, {
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
          <FormErrorBanner message={bannerMessage} />
          <input type="hidden" {...form.register('role')} />

          <FormField
            control={form.control}
            name="username"
            render={({ field }) => (
              <FormItem>
                <FormLabel>Username</FormLabel>
                <FormControl>
                  <Input autoComplete="username" placeholder="ada" autoFocus {...field} />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />

          <FormField
            control={form.control}
            name="email"
            render={({ field }) => (
              <FormItem>
                <FormLabel>Email</FormLabel>
                <FormControl>
                  <Input type="email" autoComplete="email" placeholder="you@company.com" {...field} />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />

          <div className="grid items-start gap-4 sm:grid-cols-2">
            {textFields.map((config) => (
              <FormField
                key={config.name}
                control={form.control}
                name={config.name}
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>{config.label}</FormLabel>
                    <FormControl>
                      <Input
                        type={config.type}
                        autoComplete={config.autoComplete}
                        placeholder={config.placeholder}
                        {...field}
                        value={field.value ?? ''}
                      />
                    </FormControl>
                    <FormMessage />
                  </FormItem>
                )}
              />
            ))}
          </div>

          <div className="grid items-start gap-4 sm:grid-cols-2">
            <FormField
              control={form.control}
              name="password"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>Password</FormLabel>
                  <FormControl>
                    <Input
                      type="password"
                      autoComplete="new-password"
                      placeholder="At least 6 characters"
                      {...field}
                    />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            <FormField
              control={form.control}
              name="confirmPassword"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>Confirm Password</FormLabel>
                  <FormControl>
                    <Input
                      type="password"
                      autoComplete="new-password"
                      placeholder="Repeat password"
                      {...field}
                    />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
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
            Your organization starts on the free tier. No credit card needed.
          </p>
        </form>
      </Form>

      <p className="text-center text-sm text-muted-foreground">
        Already have an account?{' '}
        <Link to="/login" className="font-medium text-primary underline-offset-4 hover:underline">
          Sign in
        </Link>
      </p>
    </div>
  );
}
