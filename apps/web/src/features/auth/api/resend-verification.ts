// Its own module, apart from account-links.ts: the verification banner above every signed-in page
// uses it, so it loads with the page banners' small chunk (app/page-banners.tsx) and calls through
// lib/session.ts's plain client rather than the endpoint descriptors (which carry zod).
import { useMutation } from '@tanstack/react-query';

import { toast } from '@/components/ui/use-toast';
import { getErrorMessage } from '@/lib/api';
import { requestVerificationEmail } from '@/lib/session';

/** POST /api/auth/resend-verification (signed in): a new link to the account's address. */
export function useResendVerification() {
  return useMutation({
    mutationFn: requestVerificationEmail,
    onSuccess: (answer) => toast({ title: answer.message }),
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: 'The email could not be sent',
        description: getErrorMessage(error, 'Try again in a moment.'),
      }),
  });
}
