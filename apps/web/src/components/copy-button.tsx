import { Check, Copy } from 'lucide-react';
import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { cn } from '@/lib/utils';

/** Copies `value` to the clipboard and shows a check for a moment; a blocked clipboard says so. */
export function CopyButton({
  value,
  label,
  size = 'sm',
}: {
  value: string;
  /** What is copied, for the button's name ('Copy {label}'). */
  label: string;
  size?: 'sm' | 'md';
}) {
  const [copied, setCopied] = useState(false);
  const Icon = copied ? Check : Copy;
  return (
    <Button
      type="button"
      variant="ghost"
      size="icon"
      className={cn('shrink-0', size === 'sm' ? 'size-7' : 'size-8')}
      aria-label={`Copy ${label}`}
      title={`Copy ${label}`}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(value);
          setCopied(true);
          setTimeout(() => setCopied(false), 1500);
        } catch {
          toast({
            variant: 'destructive',
            title: 'Copy failed',
            description: 'Your browser blocked clipboard access.',
          });
        }
      }}
    >
      <Icon className={size === 'sm' ? 'size-3.5' : 'size-4'} aria-hidden="true" />
    </Button>
  );
}
