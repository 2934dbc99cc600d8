import { VerifyEmailBanner } from '@/features/auth/components/verify-email-banner';

import { BudgetBanner } from './budget-banner';

/**
 * The banners above every signed-in page: an unverified email address, the organization's budget.
 * One chunk that the shell loads after the first paint (the dashboard's first JavaScript has no
 * room for them); each renders nothing when it has nothing to say.
 */
export function PageBanners() {
  return (
    <>
      <VerifyEmailBanner />
      <BudgetBanner />
    </>
  );
}
