import { Moon, Sun } from 'lucide-react';

import { useTheme } from '@/app/theme';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';

/** Switches between light and dark (an explicit choice overrides the system preference). */
export function ThemeToggle({ className }: { className?: string }) {
  const { resolvedTheme, setTheme } = useTheme();
  const isDark = resolvedTheme === 'dark';

  return (
    <Button
      type="button"
      variant="ghost"
      size="icon"
      aria-label="Toggle theme"
      title={isDark ? 'Switch to light theme' : 'Switch to dark theme'}
      className={cn('relative', className)}
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
    </Button>
  );
}
