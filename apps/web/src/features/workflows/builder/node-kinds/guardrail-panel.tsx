// The Guardrail node's part of the Properties panel: the text it checks (a CEL expression; the previous
// step's text when empty), its checks (the shared checks editor), and whether its two paths, pass and
// fail, are connected (a guardrail needs both).
import {
  DEFAULT_GUARDRAIL_MODEL,
  guardrailPathValues,
  llmProviderNames,
  llmProviderValues,
  type GuardrailCheck,
  type GuardrailModel,
} from '@crewline/contracts';
import { useId } from 'react';

import { GuardrailChecksEditor } from '@/components/guardrail-checks-editor';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';

import { GUARDRAIL_PATH_LABELS } from '../builder-nodes';
import { ExpressionField } from '../components/expression-field';
import { nodeDisplayName } from '../node-messages';
import { useBuilderStore } from '../store';
import { guardrailDataOf } from './guardrail-data';
import type { NodePanelProps } from './types';

/** Whether a check that is on asks a model: prompt injection, moderation, or a rule's topics. */
const asksModel = (checks: GuardrailCheck[]) =>
  checks.some(
    (c) =>
      c.enabled &&
      (c.type === 'injection' || c.type === 'moderation' || (c.type === 'rule' && !!c.topics?.length)),
  );

/** The model the classifier checks run on: a provider and a model name (the default when empty). */
function ClassifierModel({
  value,
  onChange,
}: {
  value: GuardrailModel | undefined;
  onChange(next: GuardrailModel | undefined): void;
}) {
  const id = useId();
  const current = value ?? DEFAULT_GUARDRAIL_MODEL;
  return (
    <section className="space-y-2" aria-label="Classifier model">
      <h3 className="text-sm font-medium">Classifier model</h3>
      <p className="text-xs text-muted-foreground">
        Prompt injection, topics, and moderation without OpenAI&apos;s endpoint ask this model (metered).
      </p>
      <div className="grid gap-2 sm:grid-cols-2">
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-provider`} className="text-xs">
            Provider
          </Label>
          <Select
            value={current.provider}
            onValueChange={(provider) =>
              onChange({ ...current, provider: provider as GuardrailModel['provider'] })
            }
          >
            <SelectTrigger id={`${id}-provider`} className="w-full">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {llmProviderValues.map((provider) => (
                <SelectItem key={provider} value={provider}>
                  {llmProviderNames[provider]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-model`} className="text-xs">
            Model
          </Label>
          <Input
            id={`${id}-model`}
            value={value?.model ?? ''}
            placeholder={DEFAULT_GUARDRAIL_MODEL.model}
            // Empty is the default model (on the default provider).
            onChange={(event) => {
              const model = event.target.value;
              onChange(model.trim() ? { ...current, model } : undefined);
            }}
          />
        </div>
      </div>
    </section>
  );
}

export function GuardrailPanelSettings({ node, set }: NodePanelProps) {
  const { target, checks, classifier } = guardrailDataOf(node.data);
  const nodeName = nodeDisplayName(node);
  // The paths not connected yet, as one string (a stable value for the store's selector).
  const unconnected = useBuilderStore((s) =>
    guardrailPathValues
      .filter((path) => !s.edges.some((e) => e.source === node.id && e.sourceHandle === path))
      .map((path) => GUARDRAIL_PATH_LABELS[path])
      .join(' and '),
  );
  return (
    <>
      <ExpressionField
        label="Target"
        value={target}
        nodeId={node.id}
        nodeName={nodeName}
        syntax="expression"
        placeholder="nodes.draft.content"
        hint="The previous step's text when empty."
        onChange={(next) => set({ target: next.trim() ? next : undefined })}
      />
      <section className="space-y-2.5" aria-label="Checks">
        <h3 className="text-sm font-medium">Checks</h3>
        <p className="text-xs text-muted-foreground">
          Block takes the fail path; redact replaces what was found in the text that goes on; flag only
          records it. Findings keep kinds and positions, never the values.
        </p>
        <GuardrailChecksEditor
          label="Checks"
          value={checks}
          empty="No checks yet: a guardrail needs at least one."
          onChange={(next, step) => set({ checks: next }, step)}
        />
      </section>
      {asksModel(checks) ? (
        <ClassifierModel value={classifier} onChange={(next) => set({ classifier: next })} />
      ) : null}
      <div className="rounded-lg border border-dashed p-2.5" data-testid="guardrail-paths">
        <p className="text-xs font-medium">Pass and Fail</p>
        <p className="text-xs text-muted-foreground">
          {unconnected
            ? `Passed text goes on by Pass, blocked text by Fail. Connect ${unconnected} from the node’s handles: a guardrail needs both paths.`
            : 'Passed text goes on by Pass, blocked text by Fail.'}
        </p>
      </div>
    </>
  );
}
