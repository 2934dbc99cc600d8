import {
  BarChart3,
  BookOpen,
  Bot,
  CircleCheck,
  ClipboardCheck,
  LayoutDashboard,
  LayoutTemplate,
  Library,
  LogOut,
  Menu,
  UserRound,
  Workflow,
  Wrench,
  type LucideIcon,
} from 'lucide-react';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';

import { Brand } from '@/components/brand';
import { ThemeToggle } from '@/components/theme-toggle';
import { Button } from '@/components/ui/button';
import { Separator } from '@/components/ui/separator';
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from '@/components/ui/sheet';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { useLogout } from '@/features/auth/api/logout';
import { useMyPendingApprovalCount } from '@/lib/queries/approvals';
import { useAuth } from '@/lib/session';
import { cn } from '@/lib/utils';

import { INBOX_HREF, isNavItemActive, NAV_ITEMS, type NavItem } from './nav';
import { OrganizationList, OrganizationSwitcher } from './organization-switcher';

const NAV_ICONS: Record<string, LucideIcon> = {
  '/dashboard': LayoutDashboard,
  '/agents': Bot,
  '/workflows': Workflow,
  '/tools': Wrench,
  '/knowledge': Library,
  '/templates': LayoutTemplate,
  '/evaluations': ClipboardCheck,
  '/analytics': BarChart3,
  // An icon the first screen loads anyway (the dashboard's budget): approvals are checks.
  '/inbox': CircleCheck,
};

/** The count of approvals waiting for the viewer, beside the Inbox entry (none shown at 0). */
function InboxCount({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <span
      aria-hidden="true"
      data-testid="inbox-count"
      className="ml-1.5 grid h-4.5 min-w-4.5 place-items-center rounded-full bg-violet-600 px-1 text-[11px] leading-none font-semibold text-white tabular-nums dark:bg-violet-500"
    >
      {count > 99 ? '99+' : count}
    </span>
  );
}

/**
 * The Inbox link's name with its count, "Inbox, 2 waiting". A label rather than hidden text after
 * "Inbox": browsers put a space before any text in a box of its own ("Inbox , 2 waiting").
 */
function linkName(item: NavItem, count: number): string | undefined {
  return item.href === INBOX_HREF && count > 0 ? `${item.label}, ${count} waiting` : undefined;
}

function initials(first?: string | null, last?: string | null, fallback?: string | null): string {
  const letters = `${first?.trim()[0] ?? ''}${last?.trim()[0] ?? ''}`;
  return (letters || fallback?.trim().slice(0, 2) || '?').toUpperCase();
}

export function TopNav() {
  const { pathname } = useLocation();
  const { user, organization } = useAuth();
  const { logout, isPending } = useLogout();
  const [menuOpen, setMenuOpen] = useState(false);
  const inboxCount = useMyPendingApprovalCount();

  const displayName =
    [user?.firstName, user?.lastName].filter(Boolean).join(' ') || user?.username || 'Account';
  const profileActive = pathname.startsWith('/settings');

  return (
    <header className="sticky top-0 z-40 border-b bg-background/80 backdrop-blur-xl supports-backdrop-filter:bg-background/65">
      <div className="mx-auto flex h-16 w-full max-w-7xl items-center gap-4 px-4 sm:px-6 lg:gap-3 xl:gap-4 xl:px-8">
        <Link
          to="/dashboard"
          className="rounded-md focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
        >
          <Brand />
        </Link>

        <nav aria-label="Main" className="hidden items-center lg:flex xl:ml-2 xl:gap-0.5">
          {/* Nine links (the Inbox with a count) and the organization fit as 13 px text from 1024 px with
              tight gaps and padding, 14 px from 1280 px (then the max width); the phone menu has the icons. */}
          {NAV_ITEMS.map((item) => {
            const active = isNavItemActive(item.href, pathname);
            return (
              <Link
                key={item.href}
                to={item.href}
                aria-current={active ? 'page' : undefined}
                aria-label={linkName(item, inboxCount)}
                className={cn(
                  'inline-flex h-9 items-center rounded-md px-1.5 text-[13px] font-medium whitespace-nowrap transition-colors focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none xl:px-2 xl:text-sm',
                  active
                    ? 'bg-accent text-accent-foreground'
                    : 'text-muted-foreground hover:bg-muted hover:text-foreground',
                )}
              >
                {item.label}
                {item.href === INBOX_HREF && <InboxCount count={inboxCount} />}
              </Link>
            );
          })}
        </nav>

        <div className="ml-auto flex items-center gap-1 lg:gap-0.5 xl:gap-1">
          {organization && <OrganizationSwitcher organization={organization} />}
          {/* Not one of the spec's navigation items: a quiet icon beside the theme toggle. */}
          <Tooltip>
            <TooltipTrigger asChild>
              <Button asChild variant="ghost" size="icon" className="hidden sm:inline-flex">
                <Link to="/docs" aria-label="Documentation">
                  <BookOpen aria-hidden="true" />
                </Link>
              </Button>
            </TooltipTrigger>
            <TooltipContent>Documentation</TooltipContent>
          </Tooltip>
          <ThemeToggle />
          <Tooltip>
            <TooltipTrigger asChild>
              <Button
                asChild
                variant="ghost"
                size="icon"
                className={cn('rounded-full', profileActive && 'bg-accent')}
              >
                <Link
                  to="/settings/profile"
                  aria-label="Profile"
                  aria-current={profileActive ? 'page' : undefined}
                >
                  <span className="grid size-7 place-items-center rounded-full bg-linear-to-br from-violet-500 to-indigo-500 text-[11px] font-semibold text-white">
                    {user ? (
                      initials(user.firstName, user.lastName, user.username)
                    ) : (
                      <UserRound className="size-4" />
                    )}
                  </span>
                </Link>
              </Button>
            </TooltipTrigger>
            <TooltipContent>{displayName}</TooltipContent>
          </Tooltip>
          <Tooltip>
            <TooltipTrigger asChild>
              <Button
                type="button"
                variant="ghost"
                size="icon"
                aria-label="Log out"
                className="hidden sm:inline-flex"
                disabled={isPending}
                onClick={() => void logout()}
              >
                <LogOut aria-hidden="true" />
              </Button>
            </TooltipTrigger>
            <TooltipContent>Log out</TooltipContent>
          </Tooltip>
          <Button
            type="button"
            variant="ghost"
            size="icon"
            aria-label="Open menu"
            className="relative lg:hidden"
            onClick={() => setMenuOpen(true)}
          >
            <Menu aria-hidden="true" />
            {/* On a phone the Inbox is in the menu: a dot says something waits there. */}
            {inboxCount > 0 && (
              <span
                aria-hidden="true"
                className="absolute top-1.5 right-1.5 size-2 rounded-full bg-violet-600 ring-2 ring-background dark:bg-violet-500"
              />
            )}
          </Button>
        </div>
      </div>

      <Sheet open={menuOpen} onOpenChange={setMenuOpen}>
        {/* The menu scrolls on a short screen, so Sign Out at its foot is always reachable. */}
        <SheetContent side="right" className="w-[85%] max-w-xs gap-0 overflow-y-auto p-0 *:shrink-0">
          <SheetHeader className="border-b px-5 py-4">
            <SheetTitle asChild>
              <div>
                <Brand />
              </div>
            </SheetTitle>
            <SheetDescription className="sr-only">Navigation menu</SheetDescription>
          </SheetHeader>

          {user && (
            <div className="flex items-center gap-3 px-5 py-4">
              <span className="grid size-10 place-items-center rounded-full bg-linear-to-br from-violet-500 to-indigo-500 text-sm font-semibold text-white">
                {initials(user.firstName, user.lastName, user.username)}
              </span>
              <div className="min-w-0">
                <p className="truncate text-sm font-medium">{displayName}</p>
                <p className="truncate text-xs text-muted-foreground">{user.email}</p>
              </div>
            </div>
          )}
          <Separator />
          {organization && menuOpen && (
            <>
              <OrganizationList organization={organization} onSwitched={() => setMenuOpen(false)} />
              <Separator />
            </>
          )}

          <nav aria-label="Mobile" className="flex flex-col gap-1 p-3">
            {NAV_ITEMS.map((item) => {
              const Icon = NAV_ICONS[item.href];
              const active = isNavItemActive(item.href, pathname);
              return (
                <Link
                  key={item.href}
                  to={item.href}
                  aria-current={active ? 'page' : undefined}
                  aria-label={linkName(item, inboxCount)}
                  onClick={() => setMenuOpen(false)}
                  className={cn(
                    'flex items-center gap-3 rounded-md px-3 py-2.5 text-sm font-medium transition-colors',
                    active ? 'bg-accent text-accent-foreground' : 'text-foreground hover:bg-muted',
                  )}
                >
                  {Icon && <Icon className="size-4 text-muted-foreground" aria-hidden="true" />}
                  {item.label}
                  {item.href === INBOX_HREF && <InboxCount count={inboxCount} />}
                </Link>
              );
            })}
            <Link
              to="/settings/profile"
              aria-current={profileActive ? 'page' : undefined}
              onClick={() => setMenuOpen(false)}
              className={cn(
                'flex items-center gap-3 rounded-md px-3 py-2.5 text-sm font-medium transition-colors',
                profileActive ? 'bg-accent text-accent-foreground' : 'text-foreground hover:bg-muted',
              )}
            >
              <UserRound className="size-4 text-muted-foreground" aria-hidden="true" />
              Profile & Settings
            </Link>
          </nav>

          <div className="mt-auto border-t p-3">
            <Link
              to="/docs"
              onClick={() => setMenuOpen(false)}
              className="flex items-center gap-3 rounded-md px-3 py-2.5 text-sm font-medium text-muted-foreground transition-colors hover:bg-muted hover:text-foreground"
            >
              <BookOpen className="size-4" aria-hidden="true" />
              Documentation
            </Link>
            <Button
              type="button"
              variant="ghost"
              className="w-full justify-start gap-3 px-3 text-destructive hover:bg-destructive/10 hover:text-destructive"
              disabled={isPending}
              onClick={() => {
                setMenuOpen(false);
                void logout();
              }}
            >
              <LogOut aria-hidden="true" />
              Sign Out
            </Button>
          </div>
        </SheetContent>
      </Sheet>
    </header>
  );
}
