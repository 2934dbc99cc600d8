// Settings tab, Email trigger: the address and subject filter, and whether the organization's Microsoft
// 365 mailbox is connected — without it no email can start the workflow, so the panel says where to
// connect it.
import { CircleAlert, Mail } from 'lucide-react';
import { Link } from 'react-router';

import { useMicrosoftStatus } from '@/lib/queries/microsoft';

import { useBuilderStore } from '../store';
import { TextField } from './fields';

const SETTINGS_TOOLS = '/settings/profile?tab=tools';

function MailboxNote() {
  const status = useMicrosoftStatus();
  if (!status.data) return null;
  const { connected, configured, broken, account } = status.data;
  if (connected && !broken)
    return (
      <p
        data-testid="email-trigger-mailbox"
        className="flex items-start gap-2 rounded-md border bg-muted/40 px-3 py-2 text-sm"
      >
        <Mail className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
        <span className="min-w-0 break-words">
          Reads the Microsoft 365 mailbox{' '}
          <span className="font-medium">{account?.email ?? 'connected in Settings'}</span>: new email to the
          address above starts a run.
        </span>
      </p>
    );
  const reason = broken
    ? 'The Microsoft 365 connection needs to be renewed:'
    : configured
      ? 'No Microsoft 365 mailbox is connected yet:'
      : 'This server is not set up for Microsoft 365, so email cannot start workflows yet.';
  return (
    <p
      role="status"
      data-testid="email-trigger-mailbox"
      className="flex items-start gap-2 rounded-md border border-amber-500/30 bg-amber-500/5 px-3 py-2 text-sm"
    >
      <CircleAlert className="mt-0.5 size-4 shrink-0 text-amber-600 dark:text-amber-400" aria-hidden="true" />
      <span className="min-w-0">
        {reason}{' '}
        {configured && (
          <Link to={SETTINGS_TOOLS} className="font-medium text-primary underline-offset-4 hover:underline">
            {broken ? 'Reconnect in Settings' : 'connect it in Settings'}
          </Link>
        )}
      </span>
    </p>
  );
}

export function EmailTriggerFields() {
  const emailAddress = useBuilderStore((s) => s.settings.triggerConfig.emailAddress ?? '');
  const subjectFilter = useBuilderStore((s) => s.settings.triggerConfig.subjectFilter ?? '');
  const setTriggerConfig = useBuilderStore((s) => s.setTriggerConfig);
  return (
    <div className="space-y-4">
      <TextField
        label="Email Address"
        type="email"
        value={emailAddress}
        placeholder="inbox@example.com"
        hint="Email sent or copied to this address starts the workflow."
        onChange={(value) => setTriggerConfig({ emailAddress: value })}
      />
      <TextField
        label="Subject Filter"
        value={subjectFilter}
        placeholder="Optional, e.g. Invoice"
        hint="Only emails whose subject contains this text start the workflow."
        onChange={(value) => setTriggerConfig({ subjectFilter: value })}
      />
      <MailboxNote />
    </div>
  );
}
