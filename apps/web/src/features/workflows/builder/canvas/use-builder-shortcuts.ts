// Binds the builder's shortcuts (canvas/shortcuts.ts) to the window while the builder is open.
import { useEffect, useRef } from 'react';

import { useBuilderStore } from '../store';
import { shortcutApplies, shortcutFor } from './shortcuts';

export function useBuilderShortcuts(handlers: { onSave: () => void; onHelp: () => void }) {
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      const action = shortcutFor(event);
      if (!action || !shortcutApplies(action, event.target)) return;
      // Copying text the user selected on the page stays the browser's.
      if (action === 'copy' && (window.getSelection()?.toString() ?? '') !== '') return;
      const store = useBuilderStore.getState();
      event.preventDefault();
      if (action === 'undo') store.undo();
      else if (action === 'redo') store.redo();
      else if (action === 'copy') store.copySelection();
      else if (action === 'paste') store.paste();
      else if (action === 'duplicate') store.duplicateSelection();
      else if (action === 'delete') store.deleteSelection();
      else if (action === 'save') latest.current.onSave();
      else latest.current.onHelp();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}
