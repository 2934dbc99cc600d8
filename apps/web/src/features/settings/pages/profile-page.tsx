import { Building2, Check, Copy, UserRound } from 'lucide-react';
import { useState, type ReactNode } from 'react';

import { PageContainer, PageHeader } from '@/components/page-header';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';
import { formatDate } from '@/lib/format';
import { useAuth } from '@/lib/session';
import { useDocumentTitle } from '@/lib/use-document-title';

function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      type="button"
      variant="ghost"
      size="icon"
      className="size-7"
      aria-label={`Copy ${label}`}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(value);
          setCopied(true);
          setTimeout(() => setCopied(false), 1500);
        } catch {
          toast({
            variant: 'destructive',
            title: 'Copy failed',
            description: 'Your browser blocked clipboard access.',
          });
        }
      }}
    >
      {copied ? (
        <Check className="size-3.5" aria-hidden="true" />
      ) : (
        <Copy className="size-3.5" aria-hidden="true" />
      )}
    </Button>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 py-3 sm:grid-cols-[10rem_minmax(0,1fr)] sm:items-center sm:gap-4">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="flex min-w-0 items-center gap-1 text-sm font-medium">{children}</dd>
    </div>
  );
}

function capitalize(value: string): string {
  return value ? `${value.charAt(0).toUpperCase()}${value.slice(1)}` : value;
}

export function ProfilePage() {
  useDocumentTitle('Profile & Settings');
  const { user, organization } = useAuth();

  if (!user) return null;

  const fullName = [user.firstName, user.lastName].filter(Boolean).join(' ');
  const initials = (fullName || user.username)
    .split(/\s+/)
    .map((part) => part[0])
    .join('')
    .slice(0, 2)
    .toUpperCase();

  return (
    <PageContainer className="space-y-6 sm:space-y-8">
      <PageHeader title="Profile & Settings" description="Your account and the organization you work in" />

      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <UserRound className="size-4 text-muted-foreground" aria-hidden="true" />
              Profile
            </CardTitle>
            <CardDescription>Your personal account details</CardDescription>
          </CardHeader>
          <CardContent className="space-y-4">
            <div className="flex items-center gap-4">
              <span className="grid size-14 shrink-0 place-items-center rounded-full bg-linear-to-br from-violet-500 to-indigo-500 text-lg font-semibold text-white">
                {initials}
              </span>
              <div className="min-w-0">
                <p className="truncate text-lg font-semibold">{fullName || user.username}</p>
                <p className="truncate text-sm text-muted-foreground">@{user.username}</p>
              </div>
            </div>
            <dl className="divide-y">
              <Field label="Name">{fullName || <span className="text-muted-foreground">Not set</span>}</Field>
              <Field label="Email">
                <span className="truncate">{user.email}</span>
              </Field>
              <Field label="User ID">
                <code className="truncate rounded bg-muted px-1.5 py-0.5 font-mono text-xs">{user.id}</code>
                <CopyButton value={user.id} label="user ID" />
              </Field>
              <Field label="Member since">{formatDate(user.createdAt)}</Field>
            </dl>
          </CardContent>
        </Card>

        {organization && (
          <Card>
            <CardHeader>
              <CardTitle className="flex items-center gap-2">
                <Building2 className="size-4 text-muted-foreground" aria-hidden="true" />
                Organization
              </CardTitle>
              <CardDescription>Agents, workflows and billing belong to your organization</CardDescription>
            </CardHeader>
            <CardContent>
              <dl className="divide-y">
                <Field label="Name">
                  <span className="truncate">{organization.name}</span>
                </Field>
                <Field label="Organization ID">
                  <code className="truncate rounded bg-muted px-1.5 py-0.5 font-mono text-xs">
                    {organization.id}
                  </code>
                  <CopyButton value={organization.id} label="organization ID" />
                </Field>
                <Field label="Plan">
                  <Badge variant="outline" className="border-primary/30 bg-primary/5 text-primary">
                    {capitalize(organization.plan)}
                  </Badge>
                  {organization.trialEndsAt && (
                    <span className="ml-2 text-xs font-normal text-muted-foreground">
                      Trial ends {formatDate(organization.trialEndsAt)}
                    </span>
                  )}
                </Field>
                <Field label="Your role">{capitalize(organization.role)}</Field>
                <Field label="Created">{formatDate(organization.createdAt)}</Field>
              </dl>
            </CardContent>
          </Card>
        )}
      </div>
    </PageContainer>
  );
}
