import { useEffect } from 'react';

/** Sets the tab title to "<title> · Crewline" while the page is shown. */
export function useDocumentTitle(title: string | null | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} · Crewline` : 'Crewline';
  }, [title]);
}
