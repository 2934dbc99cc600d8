// A chat app's look on its page: its mode (auto follows the visitor's system, as the rest of the app
// does) applied as the `light` / `dark` class on <html>, which index.css's tokens read, and its accent
// as CSS variables with a text color that stays readable on it.
import type { ChatThemeMode } from '@crewline/contracts';
import { useEffect, useSyncExternalStore } from 'react';

const DARK_QUERY = '(prefers-color-scheme: dark)';

function subscribeScheme(listener: () => void): () => void {
  if (typeof window.matchMedia !== 'function') return () => {};
  const media = window.matchMedia(DARK_QUERY);
  media.addEventListener('change', listener);
  return () => media.removeEventListener('change', listener);
}

const systemDark = () => typeof window.matchMedia === 'function' && window.matchMedia(DARK_QUERY).matches;

/** `#4f46e5` → its relative luminance (WCAG 2), 0 for black to 1 for white. */
function luminance(hex: string): number {
  const channel = (offset: number) => {
    const value = parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** The text color on the accent: white or near-black, whichever contrasts more. */
export function accentForeground(accent: string): string {
  if (!/^#[0-9a-f]{6}$/i.test(accent)) return '#ffffff';
  const light = luminance(accent);
  const onWhite = 1.05 / (light + 0.05);
  const onBlack = (light + 0.05) / 0.05;
  return onWhite >= onBlack ? '#ffffff' : '#09090b';
}

/**
 * The page's mode as `light` / `dark`, kept on <html> while the page shows: the app's ThemeProvider
 * (the signed-in user's own choice) may set the class again when the system scheme changes, so the page
 * puts its own back, and restores what was there when it goes.
 */
export function useChatScheme(mode: ChatThemeMode | null): 'light' | 'dark' {
  const dark = useSyncExternalStore(subscribeScheme, systemDark, () => false);
  const scheme = mode === 'light' || mode === 'dark' ? mode : dark ? 'dark' : 'light';
  useEffect(() => {
    const root = document.documentElement;
    const before = root.classList.contains('dark')
      ? 'dark'
      : root.classList.contains('light')
        ? 'light'
        : null;
    const apply = () => {
      if (root.classList.contains(scheme) && !root.classList.contains(scheme === 'dark' ? 'light' : 'dark'))
        return;
      root.classList.remove('light', 'dark');
      root.classList.add(scheme);
    };
    apply();
    const observer = new MutationObserver(apply);
    observer.observe(root, { attributes: true, attributeFilter: ['class'] });
    return () => {
      observer.disconnect();
      root.classList.remove('light', 'dark');
      if (before) root.classList.add(before);
    };
  }, [scheme]);
  return scheme;
}
