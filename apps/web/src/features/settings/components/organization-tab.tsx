import type { Organization } from '@crewline/contracts';
import { Building2, Settings2 } from 'lucide-react';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatDate } from '@/lib/format';

import { planLabel } from '../settings-tabs';
import { comingSoon, DetailRow, IdValue } from './details';

export function OrganizationTab({ organization }: { organization: Organization }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Building2 className="size-4 text-muted-foreground" aria-hidden="true" />
          Organization
        </CardTitle>
        <CardDescription>Agents, workflows, tools and billing belong to your organization</CardDescription>
        <CardAction>
          <Button variant="outline" size="sm" onClick={() => comingSoon('Organization management')}>
            <Settings2 aria-hidden="true" />
            Manage Organization
          </Button>
        </CardAction>
      </CardHeader>
      <CardContent>
        <dl className="divide-y">
          <DetailRow label="Name">
            <span className="truncate">{organization.name}</span>
          </DetailRow>
          <DetailRow label="Organization ID">
            <IdValue value={organization.id} label="organization ID" />
          </DetailRow>
          <DetailRow label="Created">{formatDate(organization.createdAt)}</DetailRow>
          <DetailRow label="Current plan">
            <Badge variant="outline" className="border-primary/30 bg-primary/5 text-primary">
              {planLabel(organization.plan)}
            </Badge>
          </DetailRow>
          <DetailRow label="Your role">
            <span className="capitalize">{organization.role}</span>
          </DetailRow>
        </dl>
      </CardContent>
    </Card>
  );
}
