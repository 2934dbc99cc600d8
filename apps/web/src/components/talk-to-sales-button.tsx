import { lazy, Suspense, useState, type ReactNode } from 'react';

// The form comes in its own chunk, requested on the first click (the landing page's budget).
const SalesContactDialog = lazy(() =>
  import('./sales-contact-dialog').then((module) => ({ default: module.SalesContactDialog })),
);

/**
 * A button that opens Talk to Sales. `render` draws the button (the CTA's and the footer's look
 * different) with the handler to give it.
 */
export function TalkToSales({ render }: { render: (open: () => void) => ReactNode }) {
  const [opened, setOpened] = useState(false);
  const [open, setOpen] = useState(false);
  return (
    <>
      {render(() => {
        setOpened(true);
        setOpen(true);
      })}
      {opened && (
        <Suspense fallback={null}>
          <SalesContactDialog open={open} onOpenChange={setOpen} />
        </Suspense>
      )}
    </>
  );
}
