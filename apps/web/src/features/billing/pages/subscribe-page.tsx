import { CreditCard } from 'lucide-react';

import { ComingSoonPage } from '@/components/coming-soon';
import { useAuth } from '@/lib/session';

export function SubscribePage() {
  const { organization } = useAuth();
  const plan = organization?.plan;

  return (
    <ComingSoonPage
      title="Subscribe"
      description="Plans and billing are coming to this workspace soon."
      icon={CreditCard}
      heading="Subscriptions are on their way"
      summary={`${
        plan ? `Your organization is on the ${plan.charAt(0).toUpperCase()}${plan.slice(1)} plan. ` : ''
      }Paid plans, each with a 14-day free trial, will be available here.`}
      upcoming={[
        'Starter, Professional and Enterprise plans, billed per organization',
        'A 14-day free trial on every plan',
        'Manage your payment method and invoices',
        'Cancel anytime: the plan runs to the end of the billing period',
      ]}
    />
  );
}
