import { Building2, Coins, CreditCard, KeyRound, ScrollText, UserRound, Wrench } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';

import { PageContainer, PageHeader } from '@/components/page-header';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { toast } from '@/components/ui/use-toast';
import { useAuth } from '@/lib/session';
import { useDocumentTitle } from '@/lib/use-document-title';

import { ApiKeysTab } from '../components/api-keys-tab';
import { AuditTab } from '../components/audit-tab';
import { BillingTab } from '../components/billing-tab';
import { BudgetCard } from '../components/budget-card';
import { OrganizationTab } from '../components/organization-tab';
import { PricesCard } from '../components/prices-card';
import { ProfileTab } from '../components/profile-tab';
import { ToolsTab } from '../components/tools-tab';
import {
  parseSettingsTab,
  readMicrosoftReturn,
  searchForTab,
  SETTINGS_TABS,
  type SettingsTab,
} from '../settings-tabs';
import { canManageTeam } from '../team-permissions';

const tabIcons = {
  profile: UserRound,
  billing: CreditCard,
  organization: Building2,
  tools: Wrench,
  costs: Coins,
  'api-keys': KeyRound,
  audit: ScrollText,
} as const;

/** Profile & Settings: Profile, Billing, Organization, Tools, Costs, API keys and (owners) Audit; `?tab=tools` opens a tab. */
export function ProfilePage() {
  useDocumentTitle('Profile & Settings');
  const { user, organization } = useAuth();
  const [searchParams, setSearchParams] = useSearchParams();
  const tab = parseSettingsTab(searchParams.get('tab'));
  const tabList = useRef<HTMLDivElement>(null);
  const signedIn = !!user;
  // The audit log is the owners' (the API answers others 403).
  const owner = organization?.role === 'owner';

  // On a phone too narrow for the tabs the row scrolls: keep the open one in view.
  useEffect(() => {
    const list = tabList.current;
    const active = list?.querySelector<HTMLElement>('[role="tab"][data-state="active"]');
    if (!list || !active || list.scrollWidth <= list.clientWidth) return;
    list.scrollLeft = active.offsetLeft - (list.clientWidth - active.offsetWidth) / 2;
  }, [tab, signedIn]);

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
        description="Your account, billing, organization, the connections your agents use, model prices and budgets, and API keys"
      />

      <Tabs
        value={tab}
        onValueChange={(value) =>
          setSearchParams(searchForTab(searchParams, value as SettingsTab), { replace: true })
        }
        className="gap-6"
      >
        {/* The tabs share the row; on a phone too narrow for them it scrolls. */}
        <TabsList
          ref={tabList}
          className="relative flex h-10 w-full justify-start overflow-x-auto sm:inline-flex sm:w-fit"
        >
          {SETTINGS_TABS.filter(({ value }) => value !== 'audit' || owner).map(({ value, label }) => {
            const Icon = tabIcons[value];
            return (
              <TabsTrigger key={value} value={value} className="flex-1 px-1.5 sm:px-4">
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
        <TabsContent value="costs">
          {organization ? (
            <div className="grid gap-6">
              <BudgetCard manager={canManageTeam(organization.role)} />
              <PricesCard manager={canManageTeam(organization.role)} />
            </div>
          ) : (
            <NoOrganization />
          )}
        </TabsContent>
        <TabsContent value="api-keys">
          {organization ? <ApiKeysTab organization={organization} /> : <NoOrganization />}
        </TabsContent>
        <TabsContent value="audit">
          {organization && owner ? (
            <AuditTab organizationId={organization.id} />
          ) : (
            <p className="rounded-xl border border-dashed px-6 py-10 text-center text-sm text-muted-foreground">
              Only owners see the audit log.
            </p>
          )}
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
