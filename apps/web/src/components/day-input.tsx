// A labelled calendar-day field of a filter bar (the runs list, the audit log): the day as
// YYYY-MM-DD, or null when cleared.
import { Input } from '@/components/ui/input';

export function DayInput({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string | null;
  onChange: (value: string | null) => void;
}) {
  return (
    <label className="col-span-2 flex min-w-0 items-center gap-1.5 rounded-md text-sm sm:col-span-1">
      <span className="w-10 shrink-0 text-muted-foreground sm:w-auto">{label}</span>
      <Input
        type="date"
        aria-label={`${label} date`}
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value || null)}
        className="min-w-0 flex-1 lg:w-40 lg:flex-none dark:[color-scheme:dark]"
      />
    </label>
  );
}
