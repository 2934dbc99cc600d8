// Which paths show the signed-in top navigation, and which link is active.

const NAV_PATH_PREFIXES = [
  '/dashboard',
  '/agents',
  '/workflows',
  '/tools',
  '/knowledge',
  '/templates',
  '/evaluations',
  '/analytics',
  '/inbox',
  '/settings',
  '/subscribe',
] as const;

/** The top navigation shows on `/` and on paths starting with one of the app areas. */
export function isNavVisible(pathname: string): boolean {
  return pathname === '/' || NAV_PATH_PREFIXES.some((prefix) => pathname.startsWith(prefix));
}

export interface NavItem {
  label: string;
  href: string;
}

export const NAV_ITEMS: readonly NavItem[] = [
  { label: 'Dashboard', href: '/dashboard' },
  { label: 'Agents', href: '/agents' },
  { label: 'Workflows', href: '/workflows' },
  { label: 'Tools', href: '/tools' },
  { label: 'Knowledge', href: '/knowledge' },
  { label: 'Templates', href: '/templates' },
  { label: 'Evaluations', href: '/evaluations' },
  { label: 'Analytics', href: '/analytics' },
  { label: 'Inbox', href: '/inbox' },
];

/** The entry whose badge counts the viewer's pending approvals (top-nav.tsx). */
export const INBOX_HREF = '/inbox';

/** Dashboard is also active at `/`; the others on their path and below it. */
export function isNavItemActive(href: string, pathname: string): boolean {
  if (href === '/dashboard' && pathname === '/') return true;
  return pathname === href || pathname.startsWith(`${href}/`);
}
