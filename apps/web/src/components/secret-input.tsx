import { Eye, EyeOff } from 'lucide-react';
import { useState, type ComponentProps } from 'react';

import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { cn } from '@/lib/utils';

import { editSecret, isMaskedSecret } from '@/lib/secret-mask';

/**
 * A masked credential field with a show/hide toggle. A stored secret arrives as a mask
 * (`••••••••abcd`); focusing it selects the whole mask, so typing replaces it instead of appending.
 */
export function SecretInput({
  className,
  value,
  onFocus,
  onValueChange,
  ...props
}: Omit<ComponentProps<'input'>, 'type' | 'value' | 'onChange'> & {
  value: string;
  onValueChange: (value: string) => void;
}) {
  const [visible, setVisible] = useState(false);
  return (
    <div className="relative">
      <Input
        {...props}
        value={value}
        onChange={(event) => onValueChange(editSecret(value, event.target.value))}
        type={visible ? 'text' : 'password'}
        autoComplete="off"
        spellCheck={false}
        className={cn('pr-10 font-mono', className)}
        onFocus={(event) => {
          if (isMaskedSecret(event.currentTarget.value)) event.currentTarget.select();
          onFocus?.(event);
        }}
      />
      <Button
        type="button"
        variant="ghost"
        size="icon"
        className="absolute top-1/2 right-0.5 size-8 -translate-y-1/2 text-muted-foreground"
        aria-label={visible ? 'Hide value' : 'Show value'}
        aria-pressed={visible}
        title={visible ? 'Hide' : 'Show'}
        onClick={() => setVisible((v) => !v)}
      >
        {visible ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
      </Button>
    </div>
  );
}
