import { accountMessages, type InvitationPreview } from '@crewline/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { CircleAlert, LogIn, MailWarning, MailX, UserPlus, Users } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';

import { Brand } from '@/components/brand';
import { FullPageSpinner } from '@/components/full-page-spinner';
import { Spinner } from '@/components/spinner';
import { ThemeToggle } from '@/components/theme-toggle';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader } from '@/components/ui/card';
import { clearStoredAuth, getErrorMessage, isApiStatus } from '@/lib/api';
import { formatDate } from '@/lib/format';
import {
  invitationPath,
  invitationSentence,
  loginHrefForInvite,
  signupHrefForInvite,
} from '@/lib/invite-links';
import { revokeSessionToken, useAuth } from '@/lib/session';
import { useDocumentTitle } from '@/lib/use-document-title';

import { useAcceptInvitation, useInvitationPreview, useResendVerification } from '../api/invitation';
import { asksInviterForLink, NO_MAIL_VERIFY_HINT } from '../verify-first';

const ACCEPT_FAILED = 'The invitation could not be accepted. Try again.';

/** /invite/:token, signed in or out: what the invitation is, and how to accept it. */
export function InvitePage() {
  useDocumentTitle('Invitation');
  const { token = '' } = useParams();
  const preview = useInvitationPreview(token);

  let body: ReactNode;
  if (preview.isLoading) body = <FullPageSpinner />;
  else if (preview.isError || !preview.data) {
    body = isApiStatus(preview.error, 404) || !preview.error ? <InvalidInvitation /> : <LoadFailed />;
  } else body = <InvitationCard token={token} preview={preview.data} />;

  return (
    <div className="flex min-h-svh flex-col bg-muted/30 dark:bg-background">
      <header className="mx-auto flex h-16 w-full max-w-5xl items-center justify-between px-4 sm:px-6">
        <Link
          to="/"
          className="rounded-md focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
        >
          <Brand />
        </Link>
        <ThemeToggle />
      </header>
      <main
        id="main"
        className="flex flex-1 items-start justify-center px-4 pt-8 pb-16 sm:items-center sm:pt-0"
      >
        {body}
      </main>
    </div>
  );
}

function InvalidInvitation() {
  const { isAuthenticated } = useAuth();
  return (
    <Card className="w-full max-w-md text-center">
      <CardHeader className="justify-items-center">
        <span className="mb-2 grid size-12 place-items-center rounded-full bg-muted text-muted-foreground">
          <MailX className="size-5" aria-hidden="true" />
        </span>
        <h1 className="text-xl leading-tight font-semibold">This invitation is no longer valid</h1>
        <CardDescription>
          It was already used, was revoked or has expired. Ask the person who invited you for a new link.
        </CardDescription>
      </CardHeader>
      <CardFooter className="justify-center">
        <Button asChild>
          <Link to={isAuthenticated ? '/dashboard' : '/'}>
            {isAuthenticated ? 'Go to your dashboard' : 'Go to the home page'}
          </Link>
        </Button>
      </CardFooter>
    </Card>
  );
}

function LoadFailed() {
  return (
    <Card className="w-full max-w-md text-center">
      <CardHeader className="justify-items-center">
        <h1 className="text-xl leading-tight font-semibold">The invitation could not be loaded</h1>
        <CardDescription>Check your connection and try again.</CardDescription>
      </CardHeader>
      <CardFooter className="justify-center">
        <Button type="button" onClick={() => window.location.reload()}>
          Try again
        </Button>
      </CardFooter>
    </Card>
  );
}

function InvitationCard({ token, preview }: { token: string; preview: InvitationPreview }) {
  const { isAuthenticated, user } = useAuth();

  return (
    <Card className="w-full max-w-md">
      <CardHeader className="justify-items-center text-center">
        <span className="mb-2 grid size-12 place-items-center rounded-full bg-primary/10 text-primary">
          <Users className="size-5" aria-hidden="true" />
        </span>
        <h1 className="text-xl leading-tight font-semibold">Join {preview.organization.name}</h1>
        <CardDescription className="text-base text-balance">{invitationSentence(preview)}</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-2 rounded-lg border bg-muted/40 px-4 py-3 text-sm">
          <div className="flex justify-between gap-4">
            <dt className="text-muted-foreground">For</dt>
            <dd className="truncate font-medium">{preview.email}</dd>
          </div>
          <div className="flex justify-between gap-4">
            <dt className="text-muted-foreground">Expires</dt>
            <dd className="font-medium">{formatDate(preview.expiresAt)}</dd>
          </div>
        </dl>
      </CardContent>
      <CardFooter className="flex-col items-stretch gap-3">
        {isAuthenticated && user ? (
          <AcceptSection
            token={token}
            signedInAs={user.email}
            verificationMailed={!asksInviterForLink(preview)}
            // The invited address, not yet verified: accepting waits for the link mailed to it.
            mustVerify={!user.emailVerified && user.email.toLowerCase() === preview.email.toLowerCase()}
          />
        ) : (
          <>
            <p className="text-center text-sm text-muted-foreground">
              Sign up or log in with <span className="font-medium text-foreground">{preview.email}</span> to
              accept.
            </p>
            <Button asChild size="lg">
              <Link to={signupHrefForInvite(token, preview.email)}>
                <UserPlus aria-hidden="true" />
                Sign up
              </Link>
            </Button>
            <Button asChild size="lg" variant="outline">
              <Link to={loginHrefForInvite(token, preview.email)}>
                <LogIn aria-hidden="true" />
                Log in
              </Link>
            </Button>
          </>
        )}
      </CardFooter>
    </Card>
  );
}

function AcceptSection({
  token,
  signedInAs,
  verificationMailed,
  mustVerify,
}: {
  token: string;
  signedInAs: string;
  /** False without a mail transport: the inviter hands out the verification link. */
  verificationMailed: boolean;
  mustVerify: boolean;
}) {
  const accept = useAcceptInvitation(token);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [signingOut, setSigningOut] = useState(false);
  const unverified =
    mustVerify ||
    (accept.isError && getErrorMessage(accept.error, '') === accountMessages.verifyToAcceptInvitation);
  const wrongAccount = accept.isError && isApiStatus(accept.error, 403) && !unverified;

  // Back to this invitation signed out, to sign up or log in with the invited address.
  const signOut = async () => {
    setSigningOut(true);
    await revokeSessionToken();
    clearStoredAuth();
    navigate(invitationPath(token), { replace: true });
    queryClient.clear();
  };

  return (
    <>
      {unverified ? (
        <VerifyFirst email={signedInAs} mailed={verificationMailed} />
      ) : (
        accept.isError && (
          <Alert variant="destructive">
            <CircleAlert aria-hidden="true" />
            <AlertDescription>{getErrorMessage(accept.error, ACCEPT_FAILED)}</AlertDescription>
          </Alert>
        )
      )}
      <p className="text-center text-sm text-muted-foreground">
        Signed in as <span className="font-medium text-foreground">{signedInAs}</span>
      </p>
      <Button
        type="button"
        size="lg"
        disabled={accept.isPending || signingOut}
        aria-busy={accept.isPending}
        onClick={() => accept.mutate()}
      >
        {accept.isPending && <Spinner />}
        Accept invitation
      </Button>
      {wrongAccount && (
        <Button
          type="button"
          variant="outline"
          size="lg"
          disabled={signingOut}
          onClick={() => void signOut()}
        >
          {signingOut && <Spinner />}
          Sign out and use another account
        </Button>
      )}
    </>
  );
}

/**
 * The invited address is the user's but unverified: the link mailed to it comes first, or without a
 * mail transport (Resend would send nothing) the one the inviter can get for it.
 */
function VerifyFirst({ email, mailed }: { email: string; mailed: boolean }) {
  const resend = useResendVerification();
  if (!mailed) {
    return (
      <Alert>
        <MailWarning aria-hidden="true" />
        <AlertDescription>
          <p>
            {accountMessages.verifyToAcceptInvitation} {NO_MAIL_VERIFY_HINT}
          </p>
        </AlertDescription>
      </Alert>
    );
  }
  return (
    <Alert>
      <MailWarning aria-hidden="true" />
      <AlertDescription className="space-y-2">
        <p>
          {accountMessages.verifyToAcceptInvitation} Open the link we sent to{' '}
          <span className="font-medium text-foreground">{email}</span>, then accept here.
        </p>
        <Button
          type="button"
          size="sm"
          variant="outline"
          disabled={resend.isPending || resend.isSuccess}
          onClick={() => resend.mutate()}
        >
          {resend.isPending && <Spinner />}
          {resend.isSuccess ? 'Verification email sent' : 'Resend verification email'}
        </Button>
      </AlertDescription>
    </Alert>
  );
}
