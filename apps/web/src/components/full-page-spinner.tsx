import { LoaderCircle } from 'lucide-react';

/**
 * The centered page-level spinner shown while the session or a lazy page loads; `fullScreen` makes it
 * as tall as the window (nothing else is on screen yet). It is the entry's loading screen, so it is
 * drawn without tailwind-merge, which the entry does not download.
 */
export function FullPageSpinner({ fullScreen = false }: { fullScreen?: boolean }) {
  return (
    <div
      role="status"
      aria-label="Loading"
      aria-live="polite"
      className={`flex ${fullScreen ? 'min-h-svh' : 'min-h-[60svh]'} w-full items-center justify-center`}
    >
      <LoaderCircle className="size-8 animate-spin text-primary" aria-hidden="true" />
    </div>
  );
}
