// Between lg and 2xl the builder header's actions keep one row beside the name: the less used ones
// show their icon only, with the label in a tooltip (and still as the button's accessible name).
import type { ReactElement, ReactNode } from 'react';

import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';

/** The label's text: hidden (but read) between lg and 2xl. */
export function FoldingText({ children }: { children: ReactNode }) {
  return <span className="lg:max-2xl:sr-only">{children}</span>;
}

/** The tooltip that stands in for the folded label; `children` is the button. */
export function FoldingTooltip({ label, children }: { label: string; children: ReactElement }) {
  return (
    <Tooltip>
      <TooltipTrigger asChild>{children}</TooltipTrigger>
      <TooltipContent className="max-lg:hidden 2xl:hidden">{label}</TooltipContent>
    </Tooltip>
  );
}
