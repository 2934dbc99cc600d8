import { Button } from '@/components/ui/button';
import { useAuth } from '@/lib/session';

import { useResendVerification } from '../api/resend-verification';

/**
 * Above every signed-in page while the account's email is unverified: everything works, but accepting
 * an invitation needs a verified address. Kept tiny (the shell's bundle budget).
 */
export function VerifyEmailBanner() {
  const { user } = useAuth();
  const resend = useResendVerification();
  if (!user || user.emailVerified) return null;
  return (
    <div
      role="status"
      className="flex flex-wrap items-center justify-center gap-x-3 gap-y-1 border-b bg-amber-50 px-4 py-2 text-center text-sm text-amber-900 dark:bg-amber-950/40 dark:text-amber-100"
    >
      <span>
        Your email address <span className="font-medium">{user.email}</span> is not verified yet. Verify it to
        accept invitations.
      </span>
      <Button
        type="button"
        size="sm"
        variant="outline"
        className="h-7"
        disabled={resend.isPending || resend.isSuccess}
        onClick={() => resend.mutate()}
      >
        {resend.isSuccess ? 'Sent' : 'Resend'}
      </Button>
    </div>
  );
}
