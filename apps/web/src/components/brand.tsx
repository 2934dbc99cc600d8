import { Waypoints } from 'lucide-react';

export const BRAND_NAME = 'Crewline';

/**
 * The Crewline mark: the waypoints glyph on a violet-to-indigo tile. Its classes, like the wordmark's,
 * are fixed rather than merged with a caller's: the landing page's first screen shows it before
 * tailwind-merge is downloaded.
 */
function BrandMark() {
  return (
    <span
      aria-hidden="true"
      className="grid size-8 shrink-0 place-items-center rounded-lg bg-linear-to-br from-violet-600 to-indigo-500 text-white shadow-sm shadow-indigo-500/30"
    >
      <Waypoints className="size-4.5" />
    </span>
  );
}

/**
 * Mark + wordmark. Wrap it in a Link where it should navigate. `inverse` draws it in white with a
 * translucent tile, for the coloured panel of the sign-in pages.
 */
export function Brand({ inverse = false }: { inverse?: boolean }) {
  return (
    <span
      className={`inline-flex items-center gap-2 font-semibold tracking-tight ${
        inverse
          ? 'text-white [&>span:first-child]:bg-white/15 [&>span:first-child]:shadow-none'
          : 'text-foreground'
      }`}
    >
      <BrandMark />
      <span className="text-lg">{BRAND_NAME}</span>
    </span>
  );
}
