import { Moon, Sun } from 'lucide-react';

import { useTheme } from '@/app/theme';
import { buttonVariants } from '@/components/ui/button-variants';

/**
 * Switches between light and dark (an explicit choice overrides the system preference). A plain
 * button with the ghost icon button's classes rather than <Button>: the landing page's first screen
 * shows it, and that screen is drawn without tailwind-merge (nothing here overrides a variant class).
 */
export function ThemeToggle() {
  const { resolvedTheme, setTheme } = useTheme();
  const isDark = resolvedTheme === 'dark';

  return (
    <button
      type="button"
      data-slot="button"
      aria-label="Toggle theme"
      title={isDark ? 'Switch to light theme' : 'Switch to dark theme'}
      className={buttonVariants({ variant: 'ghost', size: 'icon', className: 'relative' })}
      onClick={() => setTheme(isDark ? 'light' : 'dark')}
    >
      <Sun
        aria-hidden="true"
        className="size-[1.15rem] scale-100 rotate-0 transition-transform duration-300 dark:scale-0 dark:-rotate-90"
      />
      <Moon
        aria-hidden="true"
        className="absolute size-[1.15rem] scale-0 rotate-90 transition-transform duration-300 dark:scale-100 dark:rotate-0"
      />
    </button>
  );
}
