// The landing page's header and hero, its first screen, are drawn before tailwind-merge is downloaded:
// after React and the router it is the largest library, and only the sections further down and the rest
// of the app need it. So their buttons and the run card's badge take their classes straight from the
// variant functions, and where an extra class overrides one of the variant's, the overridden class is
// taken out here, as tailwind-merge would do (first-screen-classes.test.ts compares each list with it).
import { badgeVariants } from '@/components/ui/badge-variants';
import { buttonVariants } from '@/components/ui/button-variants';

/** `classes` without the ones `extra` overrides (`overridden`), then `extra`, each class once. */
export function withOverrides(classes: string, overridden: readonly string[], extra: string): string {
  const kept = classes.split(' ').filter((name) => name && !overridden.includes(name));
  return [...new Set([...kept, ...extra.split(' ')])].join(' ');
}

export const firstScreenClasses = {
  /** The header's Sign In and Start Free Trial: from md up (below, the menu holds them). */
  headerSignIn: withOverrides(buttonVariants({ variant: 'ghost' }), ['inline-flex'], 'hidden md:inline-flex'),
  headerSignUp: withOverrides(buttonVariants(), ['inline-flex'], 'hidden md:inline-flex'),
  menuToggle: buttonVariants({ variant: 'ghost', size: 'icon', className: 'md:hidden' }),
  menuSignIn: buttonVariants({ variant: 'outline' }),
  menuSignUp: buttonVariants(),
  heroPrimary: withOverrides(
    buttonVariants({ size: 'lg' }),
    ['h-10', 'text-sm'],
    'group h-11 px-6 text-base',
  ),
  heroSecondary: withOverrides(
    buttonVariants({ variant: 'outline', size: 'lg' }),
    ['h-10', 'text-sm', 'bg-background'],
    'h-11 bg-background/60 px-6 text-base',
  ),
  /** The run card's "Live" badge. */
  liveBadge: withOverrides(
    badgeVariants({ variant: 'outline' }),
    ['gap-1', 'text-foreground'],
    'shrink-0 gap-1.5 border-emerald-500/30 bg-emerald-500/10 text-emerald-700 dark:text-emerald-300',
  ),
};
