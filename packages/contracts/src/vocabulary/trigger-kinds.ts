// How a workflow starts: its trigger type, which is also how a run started (a person's Execute or
// Retry is 'manual'), and how the screens name it (Triggered By, Recent Activity, the builder).

export const triggerTypeValues = ['manual', 'schedule', 'webhook', 'email'] as const;
export type TriggerType = (typeof triggerTypeValues)[number];

export const triggerTypeLabels: Record<TriggerType, string> = {
  manual: 'Manual',
  schedule: 'Schedule',
  webhook: 'Webhook',
  email: 'Email',
};
