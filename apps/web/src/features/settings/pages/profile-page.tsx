import { Building2, CreditCard, UserRound, Wrench } from 'lucide-react';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';

import { PageContainer, PageHeader } from '@/components/page-header';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { toast } from '@/components/ui/use-toast';
import { useAuth } from '@/lib/session';
import { useDocumentTitle } from '@/lib/use-document-title';

import { BillingTab } from '../components/billing-tab';
import { OrganizationTab } from '../components/organization-tab';
import { ProfileTab } from '../components/profile-tab';
import { ToolsTab } from '../components/tools-tab';
import {
  parseSettingsTab,
  readMicrosoftReturn,
  searchForTab,
  SETTINGS_TABS,
  type SettingsTab,
} from '../settings-tabs';

const tabIcons = { profile: UserRound, billing: CreditCard, organization: Building2, tools: Wrench } as const;

/** Profile & Settings: Profile, Billing, Organization and Tools; `?tab=tools` opens a tab. */
export function ProfilePage() {
  useDocumentTitle('Profile & Settings');
  const { user, organization } = useAuth();
  const [searchParams, setSearchParams] = useSearchParams();
  const tab = parseSettingsTab(searchParams.get('tab'));

  // Back from the Microsoft sign-in: say how it went, then drop the parameters from the address.
  useEffect(() => {
    const back = readMicrosoftReturn(searchParams);
    if (!back) return;
    if (back.outcome === 'error') {
      toast({
        variant: 'destructive',
        title: 'Connection Error',
        description: 'Failed to connect Microsoft 365 account',
      });
    } else {
      toast({
        title: 'Microsoft 365 Connected',
        description: 'Email monitoring is now active for your workflows',
      });
    }
    setSearchParams(back.rest, { replace: true });
  }, [searchParams, setSearchParams]);

  if (!user) return null;

  return (
    <PageContainer className="space-y-6 sm:space-y-8">
      <PageHeader
        title="Profile & Settings"
        description="Your account, billing, organization and the connections your agents use"
      />

      <Tabs
        value={tab}
        onValueChange={(value) =>
          setSearchParams(searchForTab(searchParams, value as SettingsTab), { replace: true })
        }
        className="gap-6"
      >
        <TabsList className="grid h-10 w-full grid-cols-4 sm:inline-flex sm:w-fit">
          {SETTINGS_TABS.map(({ value, label }) => {
            const Icon = tabIcons[value];
            return (
              <TabsTrigger key={value} value={value} className="px-2 sm:px-4">
                <Icon className="hidden sm:block" aria-hidden="true" />
                {label}
              </TabsTrigger>
            );
          })}
        </TabsList>

        <TabsContent value="profile">
          <div className="max-w-3xl">
            <ProfileTab user={user} />
          </div>
        </TabsContent>
        <TabsContent value="billing">
          {organization ? <BillingTab organization={organization} /> : <NoOrganization />}
        </TabsContent>
        <TabsContent value="organization">
          <div className="max-w-3xl">
            {organization ? (
              <OrganizationTab organization={organization} viewerId={user.id} />
            ) : (
              <NoOrganization />
            )}
          </div>
        </TabsContent>
        <TabsContent value="tools">
          <ToolsTab />
        </TabsContent>
      </Tabs>
    </PageContainer>
  );
}

function NoOrganization() {
  return (
    <p className="rounded-xl border border-dashed px-6 py-10 text-center text-sm text-muted-foreground">
      Your account does not belong to an organization.
    </p>
  );
}
