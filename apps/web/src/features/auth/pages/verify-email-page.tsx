import { accountMessages } from '@crewline/contracts';
import { CircleCheck, MailX } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';

import { FullPageSpinner } from '@/components/full-page-spinner';
import { Spinner } from '@/components/spinner';
import { Button } from '@/components/ui/button';
import { getErrorMessage, isApiStatus } from '@/lib/api';
import { useAuth } from '@/lib/session';
import { useDocumentTitle } from '@/lib/use-document-title';

import { useVerifyEmail } from '../api/account-links';
import { useResendVerification } from '../api/resend-verification';
import { AuthLayout } from '../components/auth-layout';

/** /verify-email?token=: verifies on open (once: the token is single use), signed in or out. */
export function VerifyEmailPage() {
  useDocumentTitle('Verify email');
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const { isAuthenticated } = useAuth();
  const verify = useVerifyEmail();
  const resend = useResendVerification();
  const started = useRef(false);

  useEffect(() => {
    // Strict mode mounts twice: a second call would find the token used.
    if (started.current || !token) return;
    started.current = true;
    verify.mutate(token);
  }, [token, verify]);

  const next = isAuthenticated ? '/dashboard' : '/login';
  let body;
  if (token && (verify.isIdle || verify.isPending)) body = <FullPageSpinner />;
  else if (verify.isSuccess) {
    body = (
      <div className="space-y-4">
        <p role="status" className="flex items-center gap-2 rounded-lg border bg-muted/40 p-4 text-sm">
          <CircleCheck className="size-4 shrink-0 text-emerald-600" aria-hidden="true" />
          {accountMessages.emailVerified}
        </p>
        <Button asChild className="w-full" size="lg">
          <Link to={next}>{isAuthenticated ? 'Go to your dashboard' : 'Sign in'}</Link>
        </Button>
      </div>
    );
  } else {
    const message =
      !token || isApiStatus(verify.error, 410)
        ? accountMessages.linkGone
        : getErrorMessage(verify.error, 'The link could not be checked. Try again.');
    body = (
      <div className="space-y-4">
        <p role="alert" className="flex items-center gap-2 rounded-lg border bg-muted/40 p-4 text-sm">
          <MailX className="size-4 shrink-0 text-destructive" aria-hidden="true" />
          {message}
        </p>
        {isAuthenticated && (
          <Button
            type="button"
            className="w-full"
            size="lg"
            disabled={resend.isPending || resend.isSuccess}
            onClick={() => resend.mutate()}
          >
            {resend.isPending && <Spinner />}
            {resend.isSuccess ? 'Verification email sent' : 'Send a new link'}
          </Button>
        )}
        <Button asChild className="w-full" size="lg" variant="outline">
          <Link to={next}>{isAuthenticated ? 'Go to your dashboard' : 'Sign in'}</Link>
        </Button>
      </div>
    );
  }

  return (
    <AuthLayout title="Verify your email" description="Confirming that this address is yours.">
      {body}
    </AuthLayout>
  );
}
