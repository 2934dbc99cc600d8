// /oauth/consent (docs/security.md, OAuth for MCP clients): where the server's authorization endpoint
// sends the browser of someone connecting Claude, ChatGPT or another MCP client. Signed in only (a
// signed-out visitor signs in first and comes back here). The member picks one of their organizations
// and allows or denies; either way the browser goes back to the app's registered address, which the
// server checks again with every parameter of the request.
import { oauthMessages, type UserOrganization } from '@crewline/contracts';
import { Building2, Cable, Check, ShieldAlert, X } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';

import { Brand } from '@/components/brand';
import { FormBanner } from '@/components/form-dialog-parts';
import { FullPageSpinner } from '@/components/full-page-spinner';
import { Spinner } from '@/components/spinner';
import { ThemeToggle } from '@/components/theme-toggle';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { getErrorMessage } from '@/lib/api';
import { useUserOrganizations } from '@/lib/organization-switch';
import { useAuth } from '@/lib/session';
import { cn } from '@/lib/utils';
import { useDocumentTitle } from '@/lib/use-document-title';

import { browser, useConsent, useConsentInfo } from '../api/consent';

/** The page's frame: no app chrome, the brand and the theme, one column that suits a phone. */
function Frame({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-svh flex-col bg-muted/30 dark:bg-background">
      <header className="mx-auto flex h-14 w-full max-w-lg items-center justify-between px-4 sm:h-16 sm:px-6">
        <Link
          to="/"
          className="rounded-md focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
        >
          <Brand />
        </Link>
        <ThemeToggle />
      </header>
      <main id="main" className="flex flex-1 justify-center px-3 pt-2 pb-12 sm:px-6 sm:pt-8">
        <div className="w-full max-w-lg">{children}</div>
      </main>
    </div>
  );
}

function Problem({ children }: { children: string }) {
  return (
    <Card className="items-center gap-3 px-6 py-10 text-center" data-testid="oauth-consent-problem">
      <span className="grid size-12 place-items-center rounded-full bg-muted text-muted-foreground">
        <ShieldAlert className="size-5" aria-hidden="true" />
      </span>
      <h1 role="alert" className="max-w-sm text-lg leading-snug font-semibold">
        {children}
      </h1>
    </Card>
  );
}

/** The authorization request as the server's authorization endpoint passed it on. */
function requestOf(search: URLSearchParams) {
  const clientId = search.get('client_id');
  const redirectUri = search.get('redirect_uri');
  const codeChallenge = search.get('code_challenge');
  if (!clientId || !redirectUri || !codeChallenge) return null;
  return {
    clientId,
    redirectUri,
    codeChallenge,
    state: search.get('state') ?? undefined,
    resource: search.get('resource') ?? undefined,
  };
}

export function OAuthConsentPage() {
  const [search] = useSearchParams();
  const request = requestOf(search);
  const info = useConsentInfo(request && { clientId: request.clientId, redirectUri: request.redirectUri });
  useDocumentTitle(info.data ? oauthMessages.consentTitle(info.data.clientName) : 'Connect an app');

  if (!request) {
    return (
      <Frame>
        <Problem>{oauthMessages.badRequest}</Problem>
      </Frame>
    );
  }
  if (info.isPending) return <FullPageSpinner fullScreen />;
  return (
    <Frame>
      {info.isError ? (
        <Problem>{getErrorMessage(info.error, oauthMessages.clientNotFound)}</Problem>
      ) : (
        <Consent request={request} clientName={info.data.clientName} redirectHost={info.data.redirectHost} />
      )}
    </Frame>
  );
}

function Consent({
  request,
  clientName,
  redirectHost,
}: {
  request: NonNullable<ReturnType<typeof requestOf>>;
  clientName: string;
  redirectHost: string;
}) {
  const { organization } = useAuth();
  const organizations = useUserOrganizations();
  const [chosen, setChosen] = useState<string | null>(null);
  const consent = useConsent();
  const [leaving, setLeaving] = useState(false);
  const list = organizations.data ?? [];
  const selected = chosen ?? (list.some((o) => o.id === organization?.id) ? organization!.id : list[0]?.id);

  const decide = (allow: boolean) => {
    consent.mutate(
      { ...request, organizationId: allow ? selected : undefined, allow },
      {
        onSuccess: ({ redirectTo }) => {
          setLeaving(true);
          browser.leave(redirectTo);
        },
      },
    );
  };

  if (leaving) {
    return (
      <Card className="items-center gap-3 px-6 py-10 text-center" data-testid="oauth-consent-leaving">
        <Spinner />
        <p role="status" className="text-sm text-muted-foreground">
          Returning to {redirectHost}…
        </p>
      </Card>
    );
  }

  return (
    <Card className="gap-5 px-4 py-5 sm:px-6 sm:py-6" data-testid="oauth-consent">
      <div className="space-y-3">
        <span className="grid size-11 place-items-center rounded-full bg-primary/10 text-primary">
          <Cable className="size-5" aria-hidden="true" />
        </span>
        <h1 className="text-xl leading-tight font-semibold break-words sm:text-2xl">
          {oauthMessages.consentTitle(clientName)}
        </h1>
        <ul className="space-y-1.5 text-sm" aria-label="What the app can do">
          <Can>List the workflows published on the organization’s MCP server</Can>
          <Can>Run them and read their results, as you</Can>
          <Can no>Your account, members, billing and other settings stay out of reach</Can>
        </ul>
      </div>

      <fieldset className="space-y-2">
        <legend className="mb-2 text-sm font-medium">Organization</legend>
        {organizations.isPending ? (
          <div className="flex items-center gap-2 text-sm text-muted-foreground">
            <Spinner /> Loading your organizations…
          </div>
        ) : organizations.isError ? (
          <FormBanner message="Your organizations could not be loaded. Reload the page." />
        ) : (
          <div className="grid gap-2">
            {list.map((org) => (
              <OrganizationOption
                key={org.id}
                organization={org}
                checked={org.id === selected}
                onChoose={() => setChosen(org.id)}
              />
            ))}
          </div>
        )}
      </fieldset>

      {consent.isError && (
        <FormBanner message={getErrorMessage(consent.error, 'Your decision could not be sent. Try again.')} />
      )}

      <div className="space-y-3">
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button type="button" variant="outline" disabled={consent.isPending} onClick={() => decide(false)}>
            Deny
          </Button>
          <Button type="button" disabled={consent.isPending || !selected} onClick={() => decide(true)}>
            {consent.isPending && consent.variables?.allow ? <Spinner /> : null}
            Allow
          </Button>
        </div>
        <p className="text-xs text-muted-foreground">
          You go back to {redirectHost} after deciding. Revoke the access any time in Settings → API keys.
        </p>
      </div>
    </Card>
  );
}

function OrganizationOption({
  organization,
  checked,
  onChoose,
}: {
  organization: UserOrganization;
  checked: boolean;
  onChoose: () => void;
}) {
  return (
    <label
      className={cn(
        'flex cursor-pointer items-center gap-3 rounded-lg border px-3 py-2.5 text-sm transition-colors',
        'has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring/50',
        checked ? 'border-primary bg-primary/5' : 'hover:bg-muted/50',
      )}
    >
      <input
        type="radio"
        name="organization"
        value={organization.id}
        checked={checked}
        onChange={onChoose}
        className="size-4 accent-primary"
      />
      <Building2 className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
      <span className="min-w-0 flex-1 truncate font-medium">{organization.name}</span>
      <span className="shrink-0 text-xs text-muted-foreground capitalize">{organization.role}</span>
    </label>
  );
}

function Can({ no, children }: { no?: boolean; children: string }) {
  const Icon = no ? X : Check;
  return (
    <li className="flex items-start gap-2">
      <Icon
        className={cn(
          'mt-0.5 size-4 shrink-0',
          no ? 'text-muted-foreground' : 'text-emerald-600 dark:text-emerald-400',
        )}
        aria-hidden="true"
      />
      <span className={cn(no && 'text-muted-foreground')}>{children}</span>
    </li>
  );
}
