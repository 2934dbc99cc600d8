// The dialog '?' opens: every builder shortcut.
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';

import { SHORTCUT_SHEET } from './shortcuts';

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

export function ShortcutSheet({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-md">
        <DialogHeader>
          <DialogTitle>Keyboard shortcuts</DialogTitle>
          <DialogDescription>
            They work on the canvas; inside a text field, the field keeps its keys.
          </DialogDescription>
        </DialogHeader>
        <ul className="divide-y text-sm">
          {SHORTCUT_SHEET.map((item) => (
            <li
              key={`${item.label}-${item.keys.join('+')}`}
              className="flex items-center justify-between gap-4 py-1.5"
            >
              <span>{item.label}</span>
              <span className="flex shrink-0 gap-1">
                {item.keys.map((key) => (
                  <kbd
                    key={key}
                    className="rounded border bg-muted px-1.5 py-0.5 font-mono text-xs text-muted-foreground"
                  >
                    {key === 'Ctrl' && isMac ? '⌘' : key}
                  </kbd>
                ))}
              </span>
            </li>
          ))}
        </ul>
      </DialogContent>
    </Dialog>
  );
}
