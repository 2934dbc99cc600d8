import type { Organization } from '@crewline/contracts';
import { Building2, Check, ChevronsUpDown } from 'lucide-react';
import { useState } from 'react';

import { Spinner } from '@/components/spinner';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { toast } from '@/components/ui/use-toast';
import { getErrorMessage } from '@/lib/api';
import { useSwitchOrganization, useUserOrganizations } from '@/lib/organization-switch';
import { cn } from '@/lib/utils';

function roleText(role: string): string {
  return role.charAt(0).toUpperCase() + role.slice(1);
}

function useSwitch(onDone?: () => void) {
  const switcher = useSwitchOrganization();
  const choose = (id: string, current: string) => {
    if (id === current) {
      onDone?.();
      return;
    }
    switcher.mutate(id, {
      onSuccess: (response) => {
        onDone?.();
        toast({ title: `Switched to ${response.organization.name}` });
      },
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: 'Could not switch organization',
          description: getErrorMessage(error, 'Try again.'),
        }),
    });
  };
  return { choose, pendingId: switcher.isPending ? switcher.variables : null };
}

/**
 * The organization pill of the top navigation (large screens; an icon between lg and xl): a menu of
 * the user's organizations. Smaller screens have the list in the slide-in menu.
 */
export function OrganizationSwitcher({ organization }: { organization: Organization }) {
  const [open, setOpen] = useState(false);
  const organizations = useUserOrganizations(open);
  const { choose, pendingId } = useSwitch(() => setOpen(false));

  return (
    <DropdownMenu open={open} onOpenChange={setOpen}>
      <DropdownMenuTrigger asChild>
        <Button
          type="button"
          variant="outline"
          size="sm"
          aria-label={`Organization: ${organization.name}`}
          className="mr-1 hidden size-8 gap-1.5 rounded-full text-xs font-normal text-muted-foreground lg:inline-flex xl:mr-2 xl:w-auto xl:max-w-40 xl:px-3"
        >
          <Building2 className="size-3.5" aria-hidden="true" />
          {/* Between lg and xl the main links leave room for the icon only. */}
          <span className="hidden truncate xl:inline">{organization.name}</span>
          <ChevronsUpDown className="hidden size-3.5 opacity-60 xl:block" aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-72">
        <DropdownMenuLabel className="text-xs font-normal text-muted-foreground">
          Your organizations
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        {organizations.isLoading && (
          <div className="flex items-center gap-2 px-2 py-1.5 text-sm text-muted-foreground">
            <Spinner /> Loading…
          </div>
        )}
        {organizations.isError && (
          <p className="px-2 py-1.5 text-sm text-destructive">Your organizations could not be loaded.</p>
        )}
        {organizations.data?.map((item) => {
          const current = item.id === organization.id;
          return (
            <DropdownMenuItem
              key={item.id}
              disabled={!!pendingId}
              aria-current={current ? 'true' : undefined}
              onSelect={(event) => {
                event.preventDefault();
                choose(item.id, organization.id);
              }}
              className="gap-2"
            >
              <span className="grid size-4 place-items-center">
                {pendingId === item.id ? (
                  <Spinner />
                ) : (
                  current && <Check className="size-4" aria-hidden="true" />
                )}
              </span>
              <span className="min-w-0 flex-1 truncate">{item.name}</span>
              <span className="text-xs text-muted-foreground">{roleText(item.role)}</span>
            </DropdownMenuItem>
          );
        })}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/** The same list in the phone's slide-in menu. */
export function OrganizationList({
  organization,
  onSwitched,
}: {
  organization: Organization;
  onSwitched: () => void;
}) {
  const organizations = useUserOrganizations();
  const { choose, pendingId } = useSwitch(onSwitched);
  const items = organizations.data ?? [];

  return (
    <section aria-label="Organizations" className="px-3 py-3">
      <p className="px-3 pb-1.5 text-xs font-medium text-muted-foreground">Organization</p>
      {items.length === 0 && (
        <p className="flex items-center gap-3 px-3 py-2 text-sm font-medium">
          <Building2 className="size-4 text-muted-foreground" aria-hidden="true" />
          <span className="truncate">{organization.name}</span>
        </p>
      )}
      <ul className="flex flex-col gap-0.5">
        {items.map((item) => {
          const current = item.id === organization.id;
          return (
            <li key={item.id}>
              <button
                type="button"
                disabled={!!pendingId}
                aria-current={current ? 'true' : undefined}
                onClick={() => choose(item.id, organization.id)}
                className={cn(
                  'flex w-full items-center gap-3 rounded-md px-3 py-2 text-left text-sm transition-colors disabled:opacity-60',
                  current ? 'bg-accent font-medium text-accent-foreground' : 'hover:bg-muted',
                )}
              >
                <span className="grid size-4 place-items-center">
                  {pendingId === item.id ? (
                    <Spinner />
                  ) : current ? (
                    <Check className="size-4" aria-hidden="true" />
                  ) : (
                    <Building2 className="size-4 text-muted-foreground" aria-hidden="true" />
                  )}
                </span>
                <span className="min-w-0 flex-1 truncate">{item.name}</span>
                <span className="text-xs text-muted-foreground">{roleText(item.role)}</span>
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
