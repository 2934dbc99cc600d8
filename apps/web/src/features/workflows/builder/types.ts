// The builder's shapes and constants.
import {
  processTypeLabels,
  processTypeValues,
  triggerTypeLabels,
  triggerTypeValues,
  type ProcessType,
  type TriggerType,
} from '@crewline/contracts/vocabulary';
import type { NodeKind } from '@crewline/contracts';
import type { Edge, Node } from '@xyflow/react';

import type { GateDraft } from './activation-gate';
import type { BudgetDraft } from './workflow-budget';

export type { ProcessType, TriggerType };
export const PROCESS_TYPES = processTypeValues;
export const TRIGGER_TYPES = triggerTypeValues;

export const OUTPUT_FORMATS = ['text', 'json', 'markdown', 'csv', 'html'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export const OUTPUT_DESTINATIONS = ['database', 'file', 'webhook', 'email', 'nextNode'] as const;
export type OutputDestination = (typeof OUTPUT_DESTINATIONS)[number];

export const OUTPUT_FORMAT_LABELS: Record<OutputFormat, string> = {
  text: 'Text',
  json: 'JSON',
  markdown: 'Markdown',
  csv: 'CSV',
  html: 'HTML',
};

export const OUTPUT_DESTINATION_LABELS: Record<OutputDestination, string> = {
  database: 'Database',
  file: 'File',
  webhook: 'Webhook',
  email: 'Email',
  nextNode: 'Next node',
};

export const PROCESS_TYPE_LABELS: Record<ProcessType, string> = processTypeLabels;
export const TRIGGER_TYPE_LABELS: Record<TriggerType, string> = triggerTypeLabels;

/** Canvas limits (docs/product-rules.md). */
export const MIN_ZOOM = 0.5;
export const MAX_ZOOM = 2;
export const SNAP_GRID: [number, number] = [15, 15];

export const START_POSITION = { x: 100, y: 100 };
export const END_POSITION = { x: 500, y: 100 };

/** The node kinds (packages/contracts/src/node-kinds). */
export type BuilderNodeType = NodeKind;

/** Everything a node carries: the Properties panel's fields. */
export interface BuilderNodeData extends Record<string, unknown> {
  label: string;
  description: string;
  agentId: string;
  model: string;
  color: string;
  /** Comma-separated text. */
  inputVariables: string;
  outputVariable: string;
  outputFormat: OutputFormat;
  outputDestination: OutputDestination;
  filePath: string;
  webhookUrl: string;
  emailRecipients: string;
  lastUpdated: string;
  name: string;
  role: string;
}

export type BuilderNode = Node<BuilderNodeData, BuilderNodeType>;
export type BuilderEdge = Edge;

export interface TriggerConfig {
  cron?: string;
  /** Schedule: the IANA time zone the cron is read in (UTC when absent). */
  timezone?: string;
  secret?: string;
  /** Webhook: calls must carry X-Crewline-Timestamp and X-Crewline-Signature instead of the secret. */
  signed?: boolean;
  emailAddress?: string;
  subjectFilter?: string;
}

export interface WorkflowSettings {
  name: string;
  description: string;
  processType: ProcessType;
  triggerType: TriggerType;
  triggerConfig: TriggerConfig;
  /** The Budget section's fields (the workflow's `config.budget`, workflow-budget.ts). */
  budget: BudgetDraft;
  /** The Evaluations section's activation gate (the workflow's `config.activationGate`, activation-gate.ts). */
  activationGate: GateDraft;
  /** The workflow's other `config` keys: the builder shows none of them, and a save keeps them. */
  otherConfig: Record<string, unknown>;
}

export type SidebarTab = 'agents' | 'steps' | 'settings' | 'properties';
