// The builder's keyboard shortcuts: which key does what, and when the browser keeps the key instead.
export type ShortcutAction = 'undo' | 'redo' | 'copy' | 'paste' | 'duplicate' | 'delete' | 'save' | 'help';

/** The sheet the '?' key opens; `keys` uses Ctrl, shown as ⌘ on a Mac. */
export const SHORTCUT_SHEET: { keys: string[]; label: string }[] = [
  { keys: ['Ctrl', 'Z'], label: 'Undo' },
  { keys: ['Ctrl', 'Shift', 'Z'], label: 'Redo' },
  { keys: ['Ctrl', 'Y'], label: 'Redo' },
  { keys: ['Ctrl', 'C'], label: 'Copy the selected nodes' },
  { keys: ['Ctrl', 'V'], label: 'Paste' },
  { keys: ['Ctrl', 'D'], label: 'Duplicate the selected nodes' },
  { keys: ['Delete'], label: 'Delete the selection (Start and End stay)' },
  { keys: ['Ctrl', 'S'], label: 'Save and keep editing' },
  { keys: ['Shift', 'Click'], label: 'Add a node to the selection' },
  { keys: ['Shift', 'Drag'], label: 'Select the nodes in a box' },
  { keys: ['?'], label: 'Show these shortcuts' },
];

interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

/** The action a key press asks for, or null when it is not one of ours. */
export function shortcutFor(event: KeyLike): ShortcutAction | null {
  const mod = event.ctrlKey || event.metaKey;
  const key = event.key.toLowerCase();
  if (event.altKey) return null;
  if (mod) {
    if (key === 'z') return event.shiftKey ? 'redo' : 'undo';
    if (key === 'y' && !event.shiftKey) return 'redo';
    if (event.shiftKey) return null;
    if (key === 'c') return 'copy';
    if (key === 'v') return 'paste';
    if (key === 'd') return 'duplicate';
    if (key === 's') return 'save';
    return null;
  }
  if (key === 'delete' || key === 'backspace') return 'delete';
  if (event.key === '?') return 'help';
  return null;
}

/** Fields where typing (and the browser's own text undo) comes first. */
function isTextTarget(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).closest !== 'function') return false;
  const el = target as HTMLElement;
  if (el.isContentEditable) return true;
  return el.closest('input, textarea, select, [contenteditable="true"], [role="combobox"]') !== null;
}

/** Whether a shortcut runs from where the key was pressed: Save everywhere, the rest outside fields and dialogs. */
export function shortcutApplies(action: ShortcutAction, target: EventTarget | null): boolean {
  if (action === 'save') return true;
  if (isTextTarget(target)) return false;
  const el = target as Element | null;
  return !(el && typeof el.closest === 'function' && el.closest('[role="dialog"], [role="alertdialog"]'));
}
