import { describe, expect, it } from 'vitest';

import { badgeVariants } from '@/components/ui/badge-variants';
import { buttonVariants } from '@/components/ui/button-variants';
import { cn } from '@/lib/utils';

import { firstScreenClasses, withOverrides } from './first-screen-classes';

const classSet = (classes: string) => [...new Set(classes.split(' ').filter(Boolean))].sort();

// What <Button> and <Badge> make of the same props (their own class merging).
const asButton = (props: Parameters<typeof buttonVariants>[0]) => cn(buttonVariants(props));
const asBadge = (variant: 'outline', className: string) => cn(badgeVariants({ variant }), className);

describe('the landing page first screen classes', () => {
  it.each([
    ['headerSignIn', asButton({ variant: 'ghost', className: 'hidden md:inline-flex' })],
    ['headerSignUp', asButton({ className: 'hidden md:inline-flex' })],
    ['menuToggle', asButton({ variant: 'ghost', size: 'icon', className: 'md:hidden' })],
    ['menuSignIn', asButton({ variant: 'outline' })],
    ['menuSignUp', asButton({})],
    ['heroPrimary', asButton({ size: 'lg', className: 'group h-11 px-6 text-base' })],
    [
      'heroSecondary',
      asButton({ variant: 'outline', size: 'lg', className: 'h-11 bg-background/60 px-6 text-base' }),
    ],
    [
      'liveBadge',
      asBadge(
        'outline',
        'shrink-0 gap-1.5 border-emerald-500/30 bg-emerald-500/10 text-emerald-700 dark:text-emerald-300',
      ),
    ],
  ] as const)('%s are the classes the shared component gives', (name, merged) => {
    expect(classSet(firstScreenClasses[name])).toEqual(classSet(merged));
  });

  it('drop the overridden classes and keep each class once', () => {
    expect(withOverrides('a b c b', ['b'], 'd a')).toBe('a c d');
  });
});
