// Settings tab, Schedule trigger: the cron expression, its time zone, and as the user types, the
// expression read in words with its next three runs in that zone (or why it cannot run).
import { workflowMessages } from '@crewline/contracts';
import { describeCron, isValidCron, isValidTimezone, nextRunTimes, scheduleTimezone } from '@crewline/engine';
import { CalendarClock, CircleAlert, Clock } from 'lucide-react';
import { useEffect, useId, useMemo, useState } from 'react';

import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { useWorkflow } from '@/lib/queries/workflows';

import { useBuilderStore } from '../store';
import { TextField } from './fields';

/** How many upcoming runs the preview lists. */
const PREVIEW_COUNT = 3;

let zonesCache: string[] | undefined;
/** UTC, this browser's zone, then every IANA zone the browser knows. */
function allTimeZones(): string[] {
  if (!zonesCache) {
    const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
    const local = Intl.DateTimeFormat().resolvedOptions().timeZone;
    zonesCache = [...new Set(['UTC', ...(local ? [local] : []), ...known])];
  }
  return zonesCache;
}

/** e.g. "Mon, Mar 30, 2026, 09:00 CEST" in the schedule's zone. */
function formatInZone(date: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-US', {
    timeZone,
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  }).format(date);
}

/** The current time, renewed every 30 s so the preview's "next" runs stay ahead of it. */
function useNow(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

export function ScheduleTriggerFields() {
  const cron = useBuilderStore((s) => s.settings.triggerConfig.cron ?? '');
  const storedZone = useBuilderStore((s) => s.settings.triggerConfig.timezone);
  const setTriggerConfig = useBuilderStore((s) => s.setTriggerConfig);
  const timezone = scheduleTimezone(storedZone);

  return (
    <div className="space-y-4">
      <TextField
        label="Cron Expression"
        value={cron}
        placeholder="0 9 * * 1-5"
        hint="Minute, hour, day of month, month, day of week. '0 9 * * 1-5' runs at 9:00 on weekdays."
        onChange={(value) => setTriggerConfig({ cron: value })}
      />
      <TimeZoneField value={timezone} onChange={(value) => setTriggerConfig({ timezone: value })} />
      <SchedulePreview cron={cron} timezone={timezone} />
      <SavedNextRun />
    </div>
  );
}

function TimeZoneField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const id = useId();
  const zones = useMemo(() => {
    const all = allTimeZones();
    return all.includes(value) ? all : [value, ...all];
  }, [value]);
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>Time Zone</Label>
      <Select value={value} onValueChange={onChange}>
        <SelectTrigger id={id} className="w-full">
          <SelectValue />
        </SelectTrigger>
        <SelectContent className="max-h-72">
          {zones.map((zone) => (
            <SelectItem key={zone} value={zone}>
              {zone.replaceAll('_', ' ')}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      <p className="text-xs text-muted-foreground">
        The expression is read in this zone, daylight saving included.
      </p>
    </div>
  );
}

/** The expression in words and its next runs, or the message saying why it cannot be saved. */
function SchedulePreview({ cron, timezone }: { cron: string; timezone: string }) {
  const now = useNow();
  const valid = isValidCron(cron);
  const knownZone = isValidTimezone(timezone);
  const runs = useMemo(
    () => (valid && knownZone ? nextRunTimes(cron, timezone, now, PREVIEW_COUNT) : []),
    [cron, timezone, now, valid, knownZone],
  );
  if (!cron.trim()) return null;
  if (!valid || !knownZone) {
    return (
      <p
        role="alert"
        data-testid="schedule-error"
        className="flex items-start gap-2 rounded-md border border-destructive/30 bg-destructive/5 px-3 py-2 text-sm text-destructive"
      >
        <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        {valid ? workflowMessages.unknownTimezone(timezone) : workflowMessages.cronRequired}
      </p>
    );
  }
  return (
    <div
      data-testid="schedule-preview"
      className="space-y-2 rounded-md border bg-muted/40 px-3 py-2.5 text-sm"
    >
      <p className="flex items-center gap-2 font-medium">
        <CalendarClock className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
        <span data-testid="schedule-reading">{describeCron(cron)}</span>
      </p>
      <div>
        <p className="text-xs font-medium tracking-wide text-muted-foreground uppercase">Next runs</p>
        <ol aria-label="Next runs" className="mt-1 space-y-0.5 tabular-nums">
          {runs.map((run) => (
            <li key={run.getTime()}>
              <time dateTime={run.toISOString()}>{formatInZone(run, timezone)}</time>
            </li>
          ))}
        </ol>
      </div>
    </div>
  );
}

/** When the saved workflow is an active schedule: its next run as the server keeps it. */
function SavedNextRun() {
  const workflowId = useBuilderStore((s) => s.workflowId);
  const draft = useBuilderStore((s) => s.settings.triggerConfig);
  const saved = useWorkflow(workflowId ?? undefined).data;
  const now = useNow();
  if (!saved || saved.status !== 'active' || saved.triggerType !== 'schedule' || !saved.nextRunAt)
    return null;
  const zone = scheduleTimezone(saved.triggerConfig.timezone);
  // The copy read at load may be behind the runs that happened since: show the tick after now.
  const next =
    new Date(saved.nextRunAt) > now
      ? new Date(saved.nextRunAt)
      : nextRunTimes(saved.triggerConfig.cron, zone, now, 1)[0];
  if (!next) return null;
  const edited =
    (draft.cron ?? '').trim() !== (saved.triggerConfig.cron ?? '') ||
    scheduleTimezone(draft.timezone) !== zone;
  return (
    <p
      data-testid="saved-next-run"
      className="flex items-start gap-2 rounded-md border border-emerald-500/30 bg-emerald-500/5 px-3 py-2 text-sm"
    >
      <Clock className="mt-0.5 size-4 shrink-0 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
      <span>
        Next run:{' '}
        <time dateTime={next.toISOString()} className="font-medium">
          {formatInZone(next, zone)}
        </time>
        {edited && (
          <span className="text-muted-foreground"> (as saved; your changes apply when you save)</span>
        )}
      </span>
    </p>
  );
}
