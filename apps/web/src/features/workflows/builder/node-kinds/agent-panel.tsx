// The Agent node's part of the Properties panel: its agent above the shared fields, then its model,
// colour, variables and where its output goes.
import { Separator } from '@/components/ui/separator';

import { ExpressionField } from '../components/expression-field';
import { ColorField, SelectField, TextField } from '../components/fields';
import { nodeDisplayName } from '../node-messages';
import {
  OUTPUT_DESTINATION_LABELS,
  OUTPUT_DESTINATIONS,
  OUTPUT_FORMAT_LABELS,
  OUTPUT_FORMATS,
} from '../types';
import type { JsonSchema } from './output-schema';
import { OutputSchemaEditor } from './output-schema-editor';
import type { NodePanelProps } from './types';

export function AgentPanelSummary({ node: { data } }: NodePanelProps) {
  if (!data.name && !data.role) return null;
  return (
    <div className="rounded-lg border bg-muted/40 p-2.5 text-xs">
      <div className="font-medium">{data.name}</div>
      <div className="text-muted-foreground">{data.role}</div>
    </div>
  );
}

const isRecord = (value: unknown): value is JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function AgentPanelSettings({ node, set }: NodePanelProps) {
  const { data } = node;
  const prompt = typeof data.prompt === 'string' ? data.prompt : '';
  return (
    <>
      <TextField label="Model" value={data.model} placeholder="gpt-4o" onChange={(model) => set({ model })} />
      <ColorField label="Color" value={data.color} onChange={(color) => set({ color })} />
      <Separator />
      <ExpressionField
        label="Prompt"
        multiline
        value={prompt}
        nodeId={node.id}
        nodeName={nodeDisplayName(node)}
        syntax="template"
        placeholder={'Classify this message: {{ input.message }}'}
        hint="Replaces the default message to the agent. {{ expression }} inserts a value, e.g. {{ nodes.classify.data.category }}."
        // An emptied prompt goes back to the default message.
        onChange={(next) => set({ prompt: next || undefined })}
      />
      <OutputSchemaEditor
        schema={isRecord(data.outputSchema) ? data.outputSchema : undefined}
        onChange={(outputSchema, step) => set({ outputSchema }, step)}
      />
      <Separator />
      <TextField
        label="Input Variables"
        value={data.inputVariables}
        placeholder="topic, audience"
        hint="Comma-separated names this step reads."
        onChange={(inputVariables) => set({ inputVariables })}
      />
      <TextField
        label="Output Variable"
        value={data.outputVariable}
        placeholder="summary"
        onChange={(outputVariable) => set({ outputVariable })}
      />
      <SelectField
        label="Output Format"
        value={data.outputFormat}
        options={OUTPUT_FORMATS}
        labels={OUTPUT_FORMAT_LABELS}
        onChange={(outputFormat) => set({ outputFormat })}
      />
      <SelectField
        label="Output Destination"
        value={data.outputDestination}
        options={OUTPUT_DESTINATIONS}
        labels={OUTPUT_DESTINATION_LABELS}
        onChange={(outputDestination) => set({ outputDestination })}
      />
      {data.outputDestination === 'file' && (
        <TextField
          label="File Path"
          value={data.filePath}
          placeholder="/reports/output.md"
          onChange={(filePath) => set({ filePath })}
        />
      )}
      {data.outputDestination === 'webhook' && (
        <TextField
          label="Webhook URL"
          type="url"
          value={data.webhookUrl}
          placeholder="https://example.com/hook"
          onChange={(webhookUrl) => set({ webhookUrl })}
        />
      )}
      {data.outputDestination === 'email' && (
        <TextField
          label="Email Recipients"
          value={data.emailRecipients}
          placeholder="team@example.com, lead@example.com"
          hint="Comma-separated addresses."
          onChange={(emailRecipients) => set({ emailRecipients })}
        />
      )}
    </>
  );
}
