// What changed between a recorded version and the builder's current draft (docs/product-rules.md,
// Workflow versions): workflow settings, nodes and connections, each changed field with the labels the
// Settings and Properties tabs use. Pure, so the History panel only renders it.
import { guardrailCheckLabels, type GuardrailCheck, type WorkflowDefinition } from '@crewline/contracts';

import {
  OUTPUT_DESTINATION_LABELS,
  OUTPUT_FORMAT_LABELS,
  PROCESS_TYPE_LABELS,
  TRIGGER_TYPE_LABELS,
  type BuilderNode,
  type BuilderNodeData,
} from '../types';
import { branchesOf, handleLabel, toBuilderEdge, toBuilderNode } from '../builder-nodes';
import { percentOf } from '../activation-gate';
import { BUDGET_LIMITS, BUDGET_ON_EXCEEDED_LABEL, BUDGET_ON_EXCEEDED_LABELS } from '../workflow-budget';
import { type BuilderSnapshot, buildPayload, settingsFromWorkflow } from '../workflow-save';

/** One field that differs: its value in the version (left) and in the current draft (right). */
export interface FieldChange {
  key: string;
  label: string;
  /** '' when the field is empty on that side. */
  version: string;
  draft: string;
}

export type ChangeStatus = 'added' | 'removed' | 'changed';

export interface NodeDiff {
  id: string;
  /** The draft's label when the node is still there, else the version's. */
  label: string;
  type: string;
  /** added: only in the draft; removed: only in the version; changed: fields differ or it moved. */
  status: ChangeStatus;
  /** Only its place on the canvas differs: worth a mention, never a property change. */
  moved: boolean;
  changes: FieldChange[];
}

export interface EdgeDiff {
  /**
   * `source→target`, `source[branch]→target` from a condition's branch: a connection is the pair it
   * joins and the path it leaves from, whatever its id.
   */
  key: string;
  source: string;
  target: string;
  /** The source's label, with the branch the connection leaves from ('Route · Billing'). */
  sourceLabel: string;
  targetLabel: string;
  status: Exclude<ChangeStatus, 'changed'>;
}

export interface VersionDiff {
  workflow: FieldChange[];
  nodes: NodeDiff[];
  edges: EdgeDiff[];
}

export interface DiffOptions {
  /** The agent's current name, when the list of agents is known. */
  agentName?: (agentId: string) => string | undefined;
}

type Definition = ReturnType<typeof buildPayload>;

/** Shown instead of a webhook secret: the diff says that it changed, never what it is. */
export const SECRET_SET = 'Set (hidden)';
export const SECRET_CHANGED = 'Changed (hidden)';

/** Node fields in the order of the Properties tab, with its labels. */
const NODE_FIELDS: {
  key: keyof BuilderNodeData & string;
  label: string;
  labels?: Record<string, string>;
}[] = [
  { key: 'label', label: 'Label' },
  { key: 'description', label: 'Description' },
  { key: 'agentId', label: 'Agent' },
  { key: 'model', label: 'Model' },
  { key: 'color', label: 'Color' },
  { key: 'inputVariables', label: 'Input Variables' },
  { key: 'outputVariable', label: 'Output Variable' },
  { key: 'outputFormat', label: 'Output Format', labels: OUTPUT_FORMAT_LABELS },
  { key: 'outputDestination', label: 'Output Destination', labels: OUTPUT_DESTINATION_LABELS },
  { key: 'filePath', label: 'File Path' },
  { key: 'webhookUrl', label: 'Webhook URL' },
  { key: 'emailRecipients', label: 'Email Recipients' },
];

/**
 * Not compared: the edit time changes on every keystroke, and name and role are the agent's own,
 * copied when the node was added (a different agent shows as an Agent change).
 */
const IGNORED_NODE_KEYS = new Set<string>(['lastUpdated', 'name', 'role']);
const KNOWN_NODE_KEYS = new Set<string>(NODE_FIELDS.map((f) => f.key));

const MERGE_MODE_LABELS: Record<string, string> = { all: 'All paths taken', first: 'First path to arrive' };

/** The new kinds' fields with their panel's labels, written as people read them, one entry a line. */
const KIND_FIELDS: Record<
  string,
  { label: string; text: (value: unknown, data: Record<string, unknown>) => string }
> = {
  branches: {
    label: 'Branches',
    text: (_, data) =>
      branchesOf(data)
        .map((b) => `${b.label || b.id}: ${b.when}`)
        .join('\n'),
  },
  assignments: {
    label: 'Assignments',
    text: (value) =>
      (Array.isArray(value) ? value : [])
        .map((a: { name?: unknown; value?: unknown }) => `${text(a?.name)} = ${text(a?.value)}`)
        .join('\n'),
  },
  mode: { label: 'Mode', text: (value) => MERGE_MODE_LABELS[text(value)] ?? text(value) },
  text: { label: 'Text', text: (value) => text(value) },
  prompt: { label: 'Prompt', text: (value) => text(value) },
  outputSchema: {
    label: 'Output Schema',
    text: (value) => (value === undefined || value === null ? '' : JSON.stringify(value, null, 2)),
  },
  source: { label: 'Code', text: (value) => text(value) },
  timeoutMs: { label: 'Time limit (ms)', text: (value) => text(value) },
  memoryMb: { label: 'Memory limit (MiB)', text: (value) => text(value) },
  target: { label: 'Target', text: (value) => text(value) },
  checks: { label: 'Checks', text: (value) => checksText(value) },
  classifier: {
    label: 'Classifier model',
    text: (value) => {
      const model = value as { provider?: unknown; model?: unknown } | undefined;
      return model ? `${text(model.provider)} · ${text(model.model)}` : '';
    },
  },
};

/** A guardrail's checks, one a line: 'PII (email, card): redact', 'Secrets: block (off)'. */
function checksText(value: unknown): string {
  if (!Array.isArray(value)) return text(value);
  return value
    .map((c: Partial<GuardrailCheck> & Record<string, unknown>) => {
      const type = c?.type as GuardrailCheck['type'] | undefined;
      const name = (type && guardrailCheckLabels[type]) ?? text(type);
      const settings = [c.entities, c.categories, c.topics]
        .filter(Array.isArray)
        .flat()
        .concat(typeof c.when === 'string' && c.when ? [c.when] : []);
      const threshold = typeof c.threshold === 'number' ? ` from ${c.threshold}` : '';
      const off = c.enabled === false ? ' (off)' : '';
      return `${name}${settings.length ? ` (${settings.join(', ')})` : ''}: ${text(c.action)}${threshold}${off}`;
    })
    .join('\n');
}

/** Moves under a pixel are rounding, not a user's drag. */
const MOVE_TOLERANCE = 0.5;

function text(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** 'outputTemplate' → 'Output template', for fields the Properties tab does not show. */
function humanize(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function change(key: string, label: string, version: string, draft: string): FieldChange[] {
  return version === draft ? [] : [{ key, label, version, draft }];
}

function workflowChanges(version: Definition, draft: Definition): FieldChange[] {
  const v = version.triggerConfig ?? {};
  const d = draft.triggerConfig ?? {};
  const secretChanged = (v.secret ?? '') !== (d.secret ?? '');
  return [
    ...change('name', 'Name', version.name, draft.name),
    ...change('description', 'Description', version.description ?? '', draft.description ?? ''),
    ...change(
      'processType',
      'Process Type',
      PROCESS_TYPE_LABELS[version.processType ?? 'sequential'],
      PROCESS_TYPE_LABELS[draft.processType ?? 'sequential'],
    ),
    ...change(
      'triggerType',
      'Trigger Type',
      TRIGGER_TYPE_LABELS[version.triggerType ?? 'manual'],
      TRIGGER_TYPE_LABELS[draft.triggerType ?? 'manual'],
    ),
    ...change('cron', 'Cron Expression', v.cron ?? '', d.cron ?? ''),
    ...(secretChanged
      ? [
          {
            key: 'secret',
            label: 'Webhook Secret',
            version: v.secret ? SECRET_SET : '',
            draft: d.secret ? (v.secret ? SECRET_CHANGED : SECRET_SET) : '',
          },
        ]
      : []),
    ...change('signed', 'Require Signed Calls', v.signed ? 'On' : '', d.signed ? 'On' : ''),
    ...change('emailAddress', 'Email Address', v.emailAddress ?? '', d.emailAddress ?? ''),
    ...change('subjectFilter', 'Subject Filter', v.subjectFilter ?? '', d.subjectFilter ?? ''),
    ...budgetChanges(version.config?.budget, draft.config?.budget),
    ...change(
      'activationGate',
      'Activation gate',
      gateText(version.config?.activationGate),
      gateText(draft.config?.activationGate),
    ),
  ];
}

/** The Evaluations section's gate in a line ('' when off): the pass rate and which evaluation. */
function gateText(gate: NonNullable<Definition['config']>['activationGate']): string {
  return gate ? `At least ${percentOf(gate.minPassRate)} % on evaluation ${gate.evaluationId}` : '';
}

type SavedBudget = NonNullable<Definition['config']>['budget'];

/** The Budget section's fields, with its labels; an empty side is no limit. */
function budgetChanges(version: SavedBudget, draft: SavedBudget): FieldChange[] {
  const onExceeded = (budget: SavedBudget) =>
    budget?.onExceeded ? BUDGET_ON_EXCEEDED_LABELS[budget.onExceeded] : '';
  return [
    ...BUDGET_LIMITS.flatMap(({ key, label }) =>
      change(key, label, text(version?.[key]), text(draft?.[key])),
    ),
    ...change('onExceeded', BUDGET_ON_EXCEEDED_LABEL, onExceeded(version), onExceeded(draft)),
  ];
}

function nodeChanges(version: BuilderNode, draft: BuilderNode, options: DiffOptions): FieldChange[] {
  const agent = (node: BuilderNode) => {
    const id = node.data.agentId;
    if (!id) return '';
    return options.agentName?.(id) ?? (node.data.name || id);
  };
  const changes: FieldChange[] = [...change('type', 'Type', version.type ?? '', draft.type ?? '')];
  for (const field of NODE_FIELDS) {
    // Agent-only fields are defaults on Start and End; the Properties tab hides them there.
    if (
      field.key !== 'label' &&
      field.key !== 'description' &&
      draft.type !== 'agent' &&
      version.type !== 'agent'
    )
      continue;
    if (field.key === 'agentId') {
      if (version.data.agentId !== draft.data.agentId)
        changes.push({ key: 'agentId', label: 'Agent', version: agent(version), draft: agent(draft) });
      continue;
    }
    const v = text(version.data[field.key]);
    const d = text(draft.data[field.key]);
    changes.push(...change(field.key, field.label, field.labels?.[v] ?? v, field.labels?.[d] ?? d));
  }
  const otherKeys = new Set([...Object.keys(version.data), ...Object.keys(draft.data)]);
  for (const key of [...otherKeys].sort()) {
    if (IGNORED_NODE_KEYS.has(key) || KNOWN_NODE_KEYS.has(key)) continue;
    const field = KIND_FIELDS[key];
    if (field) {
      const v = field.text(version.data[key], version.data);
      const d = field.text(draft.data[key], draft.data);
      changes.push(...change(key, field.label, v, d));
      continue;
    }
    changes.push(...change(key, humanize(key), text(version.data[key]), text(draft.data[key])));
  }
  return changes;
}

function moved(a: BuilderNode, b: BuilderNode): boolean {
  return (
    Math.abs(a.position.x - b.position.x) > MOVE_TOLERANCE ||
    Math.abs(a.position.y - b.position.y) > MOVE_TOLERANCE
  );
}

/** The version as the builder would hold it, so both sides go through the same normalization. */
export function snapshotOfVersion(
  version: Pick<
    WorkflowDefinition,
    'name' | 'description' | 'processType' | 'triggerType' | 'triggerConfig' | 'nodes' | 'edges'
  > &
    Partial<Pick<WorkflowDefinition, 'config'>>,
): BuilderSnapshot {
  return {
    settings: settingsFromWorkflow(version),
    nodes: (version.nodes ?? []).map(toBuilderNode),
    edges: (version.edges ?? []).map(toBuilderEdge),
  };
}

/** Compares version N (left) with the current draft (right). */
export function diffVersion(
  version: Parameters<typeof snapshotOfVersion>[0],
  draft: BuilderSnapshot,
  options: DiffOptions = {},
): VersionDiff {
  const left = snapshotOfVersion(version);
  const workflow = workflowChanges(buildPayload(left, 'draft'), buildPayload(draft, 'draft'));

  const draftNodes = new Map(draft.nodes.map((n) => [n.id, n]));
  const versionNodes = new Map(left.nodes.map((n) => [n.id, n]));
  const nodes: NodeDiff[] = [];
  for (const old of left.nodes) {
    const current = draftNodes.get(old.id);
    if (!current) {
      nodes.push({
        id: old.id,
        label: old.data.label,
        type: old.type ?? 'agent',
        status: 'removed',
        moved: false,
        changes: [],
      });
      continue;
    }
    const changes = nodeChanges(old, current, options);
    const wasMoved = moved(old, current);
    if (changes.length > 0 || wasMoved)
      nodes.push({
        id: old.id,
        label: current.data.label,
        type: current.type ?? 'agent',
        status: 'changed',
        moved: wasMoved,
        changes,
      });
  }
  for (const added of draft.nodes)
    if (!versionNodes.has(added.id))
      nodes.push({
        id: added.id,
        label: added.data.label,
        type: added.type ?? 'agent',
        status: 'added',
        moved: false,
        changes: [],
      });

  const labelOf = (id: string) => draftNodes.get(id)?.data.label ?? versionNodes.get(id)?.data.label ?? id;
  type Joined = { source: string; target: string; sourceHandle?: string | null };
  const keyOf = (e: Joined) =>
    e.sourceHandle ? `${e.source}[${e.sourceHandle}]→${e.target}` : `${e.source}→${e.target}`;
  const edgeEntry = (e: Joined, status: EdgeDiff['status']): EdgeDiff => {
    // The branch as its side names it: a removed connection by the version's branch label.
    const side = status === 'removed' ? versionNodes : draftNodes;
    const branch = handleLabel(side.get(e.source) ?? draftNodes.get(e.source), e.sourceHandle);
    return {
      key: keyOf(e),
      source: e.source,
      target: e.target,
      sourceLabel: branch ? `${labelOf(e.source)} · ${branch}` : labelOf(e.source),
      targetLabel: labelOf(e.target),
      status,
    };
  };
  const draftEdges = new Set(draft.edges.map(keyOf));
  const versionEdges = new Set(left.edges.map(keyOf));
  const edges = [
    ...left.edges.filter((e) => !draftEdges.has(keyOf(e))).map((e) => edgeEntry(e, 'removed')),
    ...draft.edges.filter((e) => !versionEdges.has(keyOf(e))).map((e) => edgeEntry(e, 'added')),
  ];
  return { workflow, nodes, edges: dedupe(edges) };
}

/** The canvas never holds two connections between the same pair, but an import may. */
function dedupe(edges: EdgeDiff[]): EdgeDiff[] {
  const seen = new Set<string>();
  return edges.filter((e) => {
    const id = `${e.status}:${e.key}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

export function isSameAsDraft(diff: VersionDiff): boolean {
  return diff.workflow.length === 0 && diff.nodes.length === 0 && diff.edges.length === 0;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** One line over the diff, e.g. '1 setting, 2 nodes changed · 1 node added · 1 connection removed'. */
export function summarizeDiff(diff: VersionDiff): string {
  if (isSameAsDraft(diff)) return 'Same as the current draft';
  const count = (status: ChangeStatus) => diff.nodes.filter((n) => n.status === status).length;
  const edgeCount = (status: EdgeDiff['status']) => diff.edges.filter((e) => e.status === status).length;
  const parts: string[] = [];
  if (diff.workflow.length > 0) parts.push(`${plural(diff.workflow.length, 'setting')} changed`);
  if (count('changed') > 0) parts.push(`${plural(count('changed'), 'node')} changed`);
  if (count('added') > 0) parts.push(`${plural(count('added'), 'node')} added`);
  if (count('removed') > 0) parts.push(`${plural(count('removed'), 'node')} removed`);
  if (edgeCount('added') > 0) parts.push(`${plural(edgeCount('added'), 'connection')} added`);
  if (edgeCount('removed') > 0) parts.push(`${plural(edgeCount('removed'), 'connection')} removed`);
  return parts.join(' · ');
}
