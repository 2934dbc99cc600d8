import { MailCheck } from 'lucide-react';
import { useId, useState } from 'react';

import { FormBanner } from '@/components/form-dialog-parts';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import { parseApiError } from '@/lib/api';

import { useOrganizationSettings, useUpdateOrganizationSettings } from '../api/organization-settings';

export const TRUSTED_SENDERS_HELP =
  'Emails from other domains start runs marked untrusted: their write tool calls wait for approval and agent memory learns nothing from them.';
export const TRUSTED_SENDERS_READ_ONLY = 'Only owners and admins can change the trusted sender domains.';
const SAVE_FAILED = 'The trusted sender domains could not be saved. Try again.';

/** The domains written in the field: one a line (commas and spaces separate too), blanks dropped. */
function domainsOf(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/**
 * Settings → Organization: the domains whose email starts trusted runs (a subdomain of one counts as
 * it). Admins and owners edit the list; members read it.
 */
export function TrustedSendersCard({ manager }: { manager: boolean }) {
  const settings = useOrganizationSettings();
  const update = useUpdateOrganizationSettings();
  // Null until edited: the field shows the saved list.
  const [draft, setDraft] = useState<string | null>(null);
  const [banner, setBanner] = useState<string | null>(null);
  const fieldId = useId();
  const saved = settings.data?.trustedSenderDomains;
  const text = draft ?? saved?.join('\n') ?? '';
  const changed = draft !== null && domainsOf(draft).join('\n') !== (saved ?? []).join('\n');

  const save = () => {
    setBanner(null);
    update.mutate(
      { trustedSenderDomains: domainsOf(text) },
      {
        onSuccess: (next) => {
          setDraft(null);
          toast({
            title: 'Trusted sender domains saved',
            description:
              next.trustedSenderDomains.length === 0
                ? 'Every email now starts an untrusted run.'
                : `${next.trustedSenderDomains.length} trusted.`,
          });
        },
        onError: (error) => setBanner(parseApiError(error).message ?? SAVE_FAILED),
      },
    );
  };

  return (
    <Card data-testid="trusted-senders-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <MailCheck className="size-4 text-muted-foreground" aria-hidden="true" />
          Trusted sender domains
        </CardTitle>
        <CardDescription>{TRUSTED_SENDERS_HELP}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {settings.isPending ? (
          <Skeleton className="h-16 w-full" />
        ) : settings.isError ? (
          <FormBanner message="The trusted sender domains could not be loaded." />
        ) : manager ? (
          <form
            className="grid gap-3"
            onSubmit={(event) => {
              event.preventDefault();
              save();
            }}
          >
            <FormBanner message={banner} />
            <div className="grid gap-2">
              <Label htmlFor={fieldId}>Trusted sender domains</Label>
              <Textarea
                id={fieldId}
                value={text}
                onChange={(event) => setDraft(event.target.value)}
                placeholder={'example.com\npartner.example'}
                rows={4}
                spellCheck={false}
                autoCapitalize="none"
                aria-describedby={`${fieldId}-hint`}
                className="font-mono"
              />
              <p id={`${fieldId}-hint`} className="text-sm text-muted-foreground">
                One domain a line, like example.com. Its subdomains (eu.example.com) are trusted too.
              </p>
            </div>
            <div>
              <Button type="submit" size="sm" disabled={!changed || update.isPending}>
                {update.isPending ? 'Saving…' : 'Save'}
              </Button>
            </div>
          </form>
        ) : (
          <>
            {saved && saved.length > 0 ? (
              <ul className="flex flex-wrap gap-2" aria-label="Trusted sender domains">
                {saved.map((domain) => (
                  <li key={domain}>
                    <Badge variant="outline" className="font-mono">
                      {domain}
                    </Badge>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="text-sm">No trusted sender domains: every email starts an untrusted run.</p>
            )}
            <p className="text-sm text-muted-foreground">{TRUSTED_SENDERS_READ_ONLY}</p>
          </>
        )}
      </CardContent>
    </Card>
  );
}
