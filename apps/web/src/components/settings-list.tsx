import { cn } from '@/lib/utils';

/** One setting as a card shows it read-only: its text, dimmed when not set, monospaced for keys. */
export type ShownSetting = { key: string; label: string; text: string; muted: boolean; mono: boolean };

/** A connection's or tool's settings, read-only: a bordered list of label and value rows. */
export function SettingsList({ settings }: { settings: readonly ShownSetting[] }) {
  return (
    <dl className="divide-y rounded-lg border">
      {settings.map((setting) => (
        <div
          key={setting.key}
          className="grid gap-1 px-3 py-2.5 sm:grid-cols-[8.5rem_minmax(0,1fr)] sm:gap-3"
        >
          <dt className="text-sm text-muted-foreground">{setting.label}</dt>
          <dd
            className={cn(
              'min-w-0 truncate text-sm',
              setting.muted ? 'text-muted-foreground' : 'font-medium',
              setting.mono && 'font-mono text-[13px]',
            )}
            title={setting.text}
          >
            {setting.text}
          </dd>
        </div>
      ))}
    </dl>
  );
}
