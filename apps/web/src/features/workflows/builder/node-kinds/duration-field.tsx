// A duration in the Approval and Delay panels: a number and its unit, written as whole seconds. The
// unit is the panel's own choice (changing it keeps the number: 2 hours becomes 2 days).
import { useId, useState } from 'react';

import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { cn } from '@/lib/utils';

import { DURATION_UNITS, unitOf, type DurationUnit } from './duration';

export function DurationField({
  label,
  seconds,
  units,
  max,
  hint,
  onChange,
}: {
  label: string;
  seconds: number;
  units: readonly DurationUnit[];
  /** The most seconds the contracts allow. */
  max: number;
  hint: string;
  onChange: (seconds: number) => void;
}) {
  const id = useId();
  const [unit, setUnit] = useState<DurationUnit>(() => unitOf(seconds, units));
  const size = DURATION_UNITS[unit].seconds;
  const amount = Math.round((seconds / size) * 100) / 100;
  const inRange = Number.isInteger(seconds) && seconds >= 1 && seconds <= max;
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>{label}</Label>
      <div className="flex gap-2">
        <Input
          id={id}
          type="number"
          min={1}
          step={1}
          value={amount}
          aria-invalid={!inRange || undefined}
          className="min-w-0 flex-1"
          onChange={(e) => {
            const value = e.target.valueAsNumber;
            if (Number.isFinite(value)) onChange(Math.round(value * size));
          }}
        />
        <Select
          value={unit}
          onValueChange={(next) => {
            const nextUnit = next as DurationUnit;
            setUnit(nextUnit);
            onChange(Math.round(amount * DURATION_UNITS[nextUnit].seconds));
          }}
        >
          <SelectTrigger aria-label={`${label} unit`} className="w-28 shrink-0">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {units.map((u) => (
              <SelectItem key={u} value={u}>
                {DURATION_UNITS[u].label}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <p className={cn('text-xs', inRange ? 'text-muted-foreground' : 'text-destructive')}>{hint}</p>
    </div>
  );
}
