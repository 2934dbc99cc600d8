// Settings tab: name, description, process type, trigger type and the trigger's own fields, the budget,
// then the Evaluations, MCP and Chat app sections (loaded when the tab first shows: the builder's first download
// stays as it was).
import { lazy, Suspense } from 'react';

import { useBuilderStore } from '../store';
import { PROCESS_TYPE_LABELS, PROCESS_TYPES, TRIGGER_TYPE_LABELS, TRIGGER_TYPES } from '../types';
import { SelectField, TextField } from './fields';
import { WebhookTriggerFields } from './webhook-trigger-fields';
import { ScheduleTriggerFields } from './schedule-trigger-fields';
import { EmailTriggerFields } from './email-trigger-fields';
import { BudgetFields } from './budget-fields';

const McpPublishingSection = lazy(async () => ({
  default: (await import('./mcp-publishing-section')).McpPublishingSection,
}));

const ChatAppSection = lazy(async () => ({
  default: (await import('./chat-app-section')).ChatAppSection,
}));

const EvaluationsSection = lazy(async () => ({
  default: (await import('./evaluations-section')).EvaluationsSection,
}));

const PROCESS_HINTS = {
  sequential: 'Agents run one after another, following the connections from Start.',
  hierarchical: 'The first agent leads and delegates to the others.',
  parallel: 'All agents run at the same time.',
} as const;

export function SettingsTab() {
  const settings = useBuilderStore((s) => s.settings);
  const setSettings = useBuilderStore((s) => s.setSettings);
  const { triggerType } = settings;

  return (
    <div className="space-y-4">
      <TextField
        label="Name"
        value={settings.name}
        placeholder="e.g. Weekly market report"
        onChange={(name) => setSettings({ name })}
      />
      <TextField
        label="Description"
        value={settings.description}
        placeholder="What this workflow does"
        multiline
        onChange={(description) => setSettings({ description })}
      />
      <SelectField
        label="Process Type"
        value={settings.processType}
        options={PROCESS_TYPES}
        labels={PROCESS_TYPE_LABELS}
        hint={PROCESS_HINTS[settings.processType]}
        onChange={(processType) => setSettings({ processType })}
      />
      <SelectField
        label="Trigger Type"
        value={triggerType}
        options={TRIGGER_TYPES}
        labels={TRIGGER_TYPE_LABELS}
        onChange={(value) => setSettings({ triggerType: value })}
      />
      {triggerType === 'schedule' && <ScheduleTriggerFields />}
      {triggerType === 'webhook' && <WebhookTriggerFields />}
      {triggerType === 'email' && <EmailTriggerFields />}
      <BudgetFields />
      <Suspense fallback={null}>
        <EvaluationsSection />
        <McpPublishingSection />
        <ChatAppSection />
      </Suspense>
    </div>
  );
}
