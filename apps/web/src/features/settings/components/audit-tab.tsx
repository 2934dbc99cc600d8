import { auditActionLabels, auditActionValues, type AuditAction, type AuditEvent } from '@crewline/contracts';
import { ChevronDown, ChevronRight, Download, RotateCcw, ScrollText } from 'lucide-react';
import { Fragment, useMemo, useState } from 'react';

import { EmptyState, LoadErrorState } from '@/components/empty-state';
import { DayInput } from '@/components/day-input';
import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { getErrorMessage } from '@/lib/api';
import { formatDateTime } from '@/lib/format';

import { downloadAuditCsv, useAuditPages } from '../api/audit';
import { useMembers } from '../api/members';
import {
  actionLabel,
  actorLabel,
  auditQuery,
  auditWindowIsEmpty,
  detailLines,
  hasAuditFilters,
  NO_AUDIT_FILTERS,
  targetLabel,
  type AuditFilters,
} from '../audit-log';

const ALL = 'all';

/**
 * Settings → Audit (owners): who did what, when and from where, newest first; filtered by days,
 * action and member, a page at a time, exported as CSV with the same filters.
 */
export function AuditTab({ organizationId }: { organizationId: string }) {
  const [filters, setFilters] = useState<AuditFilters>(NO_AUDIT_FILTERS);
  const emptyWindow = auditWindowIsEmpty(filters);
  const query = useMemo(() => auditQuery(filters), [filters]);
  const pages = useAuditPages(query, !emptyWindow);
  const members = useMembers(organizationId);
  const [exporting, setExporting] = useState(false);
  const events = pages.data?.pages.flatMap((page) => page.items) ?? [];

  const set =
    <K extends keyof AuditFilters>(key: K) =>
    (value: AuditFilters[K]) =>
      setFilters((current) => ({ ...current, [key]: value }));

  const onExport = async () => {
    setExporting(true);
    try {
      await downloadAuditCsv(query);
    } catch (error) {
      toast({
        variant: 'destructive',
        title: 'Export failed',
        description: getErrorMessage(error, 'The audit log could not be exported.'),
      });
    } finally {
      setExporting(false);
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Audit log</CardTitle>
        <CardDescription>
          Sign-ins, roles, invitations, API keys, connections, billing, publishing and workflow activations.
          Kept for a year; only owners see it.
        </CardDescription>
        <CardAction>
          <Button type="button" variant="outline" onClick={onExport} disabled={exporting || emptyWindow}>
            <Download aria-hidden="true" />
            {exporting ? 'Exporting…' : 'Export CSV'}
          </Button>
        </CardAction>
      </CardHeader>
      <CardContent className="space-y-4">
        <div className="grid grid-cols-2 gap-2 lg:flex lg:flex-wrap lg:items-center">
          <DayInput label="From" value={filters.fromDay} onChange={set('fromDay')} />
          <DayInput label="To" value={filters.toDay} onChange={set('toDay')} />
          <Select
            value={filters.action ?? ALL}
            onValueChange={(next) => set('action')(next === ALL ? null : (next as AuditAction))}
          >
            <SelectTrigger aria-label="Action" className="col-span-2 w-full sm:col-span-1 lg:w-56">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ALL}>All actions</SelectItem>
              {auditActionValues.map((action) => (
                <SelectItem key={action} value={action}>
                  {auditActionLabels[action]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          <Select
            value={filters.actorId ?? ALL}
            onValueChange={(next) => set('actorId')(next === ALL ? null : next)}
          >
            <SelectTrigger aria-label="Member" className="col-span-2 w-full sm:col-span-1 lg:w-48">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ALL}>All members</SelectItem>
              {(members.data ?? []).map((member) => (
                <SelectItem key={member.userId} value={member.userId}>
                  {[member.firstName, member.lastName].filter(Boolean).join(' ') || member.username}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          {hasAuditFilters(filters) && (
            <Button type="button" variant="ghost" onClick={() => setFilters(NO_AUDIT_FILTERS)}>
              <RotateCcw aria-hidden="true" />
              Reset filters
            </Button>
          )}
        </div>

        {emptyWindow ? (
          <EmptyState
            icon={ScrollText}
            title="The last day is before the first"
            description="Choose another range."
          />
        ) : pages.isPending ? (
          <div className="space-y-2" aria-label="Loading the audit log">
            {[0, 1, 2, 3].map((row) => (
              <Skeleton key={row} className="h-10 w-full" />
            ))}
          </div>
        ) : pages.isError ? (
          <LoadErrorState
            icon={ScrollText}
            title="The audit log could not be loaded"
            onRetry={() => void pages.refetch()}
          />
        ) : events.length === 0 ? (
          <EmptyState
            icon={ScrollText}
            title={hasAuditFilters(filters) ? 'No events match these filters' : 'Nothing recorded yet'}
            description="Sign-ins, role changes, API keys and other changes appear here as they happen."
          />
        ) : (
          <>
            <AuditTable events={events} />
            {pages.hasNextPage && (
              <div className="flex justify-center">
                <Button
                  type="button"
                  variant="outline"
                  onClick={() => void pages.fetchNextPage()}
                  disabled={pages.isFetchingNextPage}
                >
                  {pages.isFetchingNextPage ? 'Loading…' : 'Load more'}
                </Button>
              </div>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}

/**
 * The events, a row each; a row opens to its details. On a phone the action and target keep their
 * columns, with who and when under the action, and the address moves into the details.
 */
function AuditTable({ events }: { events: AuditEvent[] }) {
  const [open, setOpen] = useState<string | null>(null);
  return (
    <div className="overflow-x-auto rounded-md border">
      <table className="w-full text-sm">
        <thead className="bg-muted/50 text-left text-xs text-muted-foreground">
          <tr>
            <th scope="col" className="w-8 px-2 py-2">
              <span className="sr-only">Details</span>
            </th>
            <th scope="col" className="hidden px-2 py-2 font-medium sm:table-cell">
              Time
            </th>
            <th scope="col" className="hidden px-2 py-2 font-medium sm:table-cell">
              Who
            </th>
            <th scope="col" className="px-2 py-2 font-medium">
              Action
            </th>
            <th scope="col" className="px-2 py-2 font-medium">
              Target
            </th>
            <th scope="col" className="hidden px-2 py-2 font-medium sm:table-cell">
              IP
            </th>
          </tr>
        </thead>
        <tbody>
          {events.map((event) => {
            const expanded = open === event.id;
            const lines = detailLines(event);
            return (
              <Fragment key={event.id}>
                <tr className="border-t align-top">
                  <td className="px-2 py-1.5">
                    <Button
                      type="button"
                      variant="ghost"
                      size="icon"
                      className="size-7"
                      aria-expanded={expanded}
                      aria-label={`${expanded ? 'Hide' : 'Show'} details of ${actionLabel(event.action)}`}
                      onClick={() => setOpen(expanded ? null : event.id)}
                    >
                      {expanded ? <ChevronDown aria-hidden="true" /> : <ChevronRight aria-hidden="true" />}
                    </Button>
                  </td>
                  <td className="hidden px-2 py-2 whitespace-nowrap text-muted-foreground sm:table-cell">
                    <time dateTime={event.at}>{formatDateTime(event.at)}</time>
                  </td>
                  <td className="hidden px-2 py-2 sm:table-cell">{actorLabel(event)}</td>
                  <td className="px-2 py-2">
                    {actionLabel(event.action)}
                    <div className="text-xs text-muted-foreground sm:hidden">
                      {actorLabel(event)} · {formatDateTime(event.at)}
                    </div>
                  </td>
                  <td
                    className="px-2 py-2 [overflow-wrap:anywhere] sm:max-w-48 sm:truncate"
                    title={targetLabel(event)}
                  >
                    {targetLabel(event)}
                  </td>
                  <td className="hidden px-2 py-2 font-mono text-xs text-muted-foreground sm:table-cell">
                    {event.ip ?? '—'}
                  </td>
                </tr>
                {expanded && (
                  <tr className="bg-muted/30">
                    <td />
                    <td colSpan={5} className="max-w-0 px-2 py-2">
                      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-xs">
                        <dt className="text-muted-foreground">action</dt>
                        <dd className="font-mono">{event.action}</dd>
                        <dt className="text-muted-foreground">target</dt>
                        <dd className="font-mono break-all">
                          {event.target.type}
                          {event.target.id ? ` ${event.target.id}` : ''}
                        </dd>
                        <dt className="text-muted-foreground sm:hidden">ip</dt>
                        <dd className="font-mono sm:hidden">{event.ip ?? '—'}</dd>
                        {lines.map(({ label, value }) => (
                          <Fragment key={label}>
                            <dt className="text-muted-foreground">{label}</dt>
                            <dd className="font-mono break-all">{value}</dd>
                          </Fragment>
                        ))}
                      </dl>
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
