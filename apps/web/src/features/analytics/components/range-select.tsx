import type { AnalyticsRange } from '@crewline/contracts';
import { CalendarRange } from 'lucide-react';

import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';

import { isAnalyticsRange, RANGE_OPTIONS } from '../analytics-figures';

/** Last 24h, Last 7 days, Last 30 days, Last 90 days. */
export function RangeSelect({
  value,
  onChange,
}: {
  value: AnalyticsRange;
  onChange: (range: AnalyticsRange) => void;
}) {
  return (
    <Select value={value} onValueChange={(next) => isAnalyticsRange(next) && onChange(next)}>
      <SelectTrigger aria-label="Time range" className="flex-1 basis-0 sm:w-40 sm:flex-none sm:basis-auto">
        <span className="flex items-center gap-2">
          <CalendarRange aria-hidden="true" />
          <SelectValue />
        </span>
      </SelectTrigger>
      <SelectContent>
        {RANGE_OPTIONS.map((option) => (
          <SelectItem key={option.value} value={option.value}>
            {option.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
