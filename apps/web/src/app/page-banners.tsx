import { VerifyEmailBanner } from '@/features/auth/components/verify-email-banner';

import { BudgetBanner } from './budget-banner';

/**
 * The banners above signed-in pages: an unverified email address on every one, the organization's
 * budget on the app areas (`budget`; pages outside them, such as the tool demo, ask the server
 * nothing). One chunk that the shell loads after the first paint (the dashboard's first JavaScript
 * has no room for them); each renders nothing when it has nothing to say.
 */
export function PageBanners({ budget }: { budget: boolean }) {
  return (
    <>
      <VerifyEmailBanner />
      {budget && <BudgetBanner />}
    </>
  );
}
