// A whole number within a range, with the range said under it (in red while the number is outside it).
import { useId } from 'react';

import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';

export function IntegerRangeField({
  label,
  value,
  range,
  hint,
  onChange,
}: {
  label: string;
  value: number;
  range: { min: number; max: number };
  /** Names the range: shown under the field. */
  hint: string;
  onChange: (value: number) => void;
}) {
  const id = useId();
  const inRange = value >= range.min && value <= range.max;
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        type="number"
        min={range.min}
        max={range.max}
        step={1}
        value={value}
        aria-invalid={!inRange || undefined}
        onChange={(e) => {
          const next = e.target.valueAsNumber;
          if (Number.isInteger(next)) onChange(next);
        }}
      />
      <p className={inRange ? 'text-xs text-muted-foreground' : 'text-xs text-destructive'}>{hint}</p>
    </div>
  );
}
