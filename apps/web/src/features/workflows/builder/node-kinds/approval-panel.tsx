// The Approval node's part of the Properties panel: what is asked (title and message, `{{ }}`
// templates), who may decide, the policy, the form the deciders fill in, and the timeout.
import {
  APPROVAL_MAX_SECONDS,
  approvalFieldTypeValues,
  approvalRoleValues,
  type ApprovalField,
  type Member,
} from '@crewline/contracts';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';

import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Separator } from '@/components/ui/separator';
import { Switch } from '@/components/ui/switch';
import { queryKeys } from '@/lib/queries/keys';
import { useAuth } from '@/lib/session';
import { cn } from '@/lib/utils';

import { ExpressionField } from '../components/expression-field';
import { SelectField } from '../components/fields';
import { nodeDisplayName } from '../node-messages';
import {
  approvalDraftOf,
  deciderModeOf,
  type ApprovalDraft,
  type ApprovalFieldType,
  type ApprovalRole,
  type DeciderMode,
} from './approval-data';
import { ChoiceGroup } from './choice-group';
import { DurationField } from './duration-field';
import { RemoveRowButton, RowList } from './row-list';
import type { NodePanelProps } from './types';

/** The contracts' most form fields, named members and quorum. */
const MAX_FIELDS = 20;
const MAX_NAMED = 100;
const MAX_QUORUM = 100;
/** What a form field's name may be: its answer is `data.fields.<name>` in later expressions. */
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

const ROLE_LABELS: Record<ApprovalRole, string> = { owner: 'Owners', admin: 'Admins', member: 'Members' };
const FIELD_TYPE_LABELS: Record<ApprovalFieldType, string> = {
  text: 'Text',
  number: 'Number',
  choice: 'Choice',
  boolean: 'Yes / no',
};
const ON_TIMEOUT_LABELS = { reject: 'Reject', branch: 'Take the timeout path' } as const;
const ON_TIMEOUT_HINTS = {
  reject: 'The run goes down the rejected path.',
  branch: 'The run goes down the timeout path: connect it from the node’s Timeout handle.',
} as const;

type PolicyMode = 'first' | 'all' | 'quorum';
type Set = NodePanelProps['set'];

const memberName = (m: Pick<Member, 'firstName' | 'lastName' | 'username'>) =>
  [m.firstName, m.lastName].filter(Boolean).join(' ') || m.username;

/** GET /api/organizations/:orgId/members, as Settings → Organization reads it. */
function useOrganizationMembers() {
  const { organizationId } = useAuth();
  return useQuery<Member[]>({
    queryKey: queryKeys.organizations.members(organizationId),
    enabled: !!organizationId,
  });
}

function NamedMembers({ userIds, onChange }: { userIds: string[]; onChange: (ids: string[]) => void }) {
  const members = useOrganizationMembers();
  const id = useId();
  const known = new Set((members.data ?? []).map((m) => m.userId));
  const gone = members.data ? userIds.filter((u) => !known.has(u)) : [];
  const toggle = (userId: string, on: boolean) =>
    onChange(on ? [...userIds, userId] : userIds.filter((u) => u !== userId));
  if (members.isPending) return <p className="text-xs text-muted-foreground">Loading members…</p>;
  if (members.isError) return <p className="text-xs text-destructive">The members could not be loaded.</p>;
  return (
    <div role="group" aria-label="Named members" className="space-y-1.5">
      <ul className="max-h-48 space-y-1 overflow-y-auto rounded-md border bg-background p-1.5">
        {members.data.map((member) => {
          const checkboxId = `${id}-${member.userId}`;
          const checked = userIds.includes(member.userId);
          return (
            <li key={member.userId} className="flex items-center gap-2 rounded px-1 py-1 hover:bg-accent/60">
              <Checkbox
                id={checkboxId}
                checked={checked}
                disabled={!checked && userIds.length >= MAX_NAMED}
                onCheckedChange={(on) => toggle(member.userId, on === true)}
              />
              <Label
                htmlFor={checkboxId}
                className="min-w-0 flex-1 cursor-pointer flex-col items-start gap-0.5 font-normal"
              >
                <span className="max-w-full truncate">{memberName(member)}</span>
                <span className="max-w-full truncate text-xs text-muted-foreground">{member.email}</span>
              </Label>
            </li>
          );
        })}
      </ul>
      {gone.length > 0 && (
        <p className="text-xs text-muted-foreground">
          {gone.length === 1 ? 'One person chosen is' : `${gone.length} people chosen are`} no longer a
          member.{' '}
          <button
            type="button"
            className="font-medium text-primary underline-offset-2 hover:underline"
            onClick={() => onChange(userIds.filter((u) => known.has(u)))}
          >
            Remove
          </button>
        </p>
      )}
      {userIds.length === 0 && (
        <p className="text-xs text-muted-foreground">Choose who decides; until then any member may.</p>
      )}
    </div>
  );
}

function Roles({ roles, onChange }: { roles: ApprovalRole[]; onChange: (roles: ApprovalRole[]) => void }) {
  const id = useId();
  return (
    <div role="group" aria-label="Roles" className="flex flex-wrap gap-x-4 gap-y-1.5">
      {approvalRoleValues.map((role) => (
        <div key={role} className="flex items-center gap-1.5">
          <Checkbox
            id={`${id}-${role}`}
            checked={roles.includes(role)}
            onCheckedChange={(on) =>
              onChange(
                on === true
                  ? approvalRoleValues.filter((r) => r === role || roles.includes(r))
                  : roles.filter((r) => r !== role),
              )
            }
          />
          <Label htmlFor={`${id}-${role}`} className="cursor-pointer font-normal">
            {ROLE_LABELS[role]}
          </Label>
        </div>
      ))}
    </div>
  );
}

function Deciders({ draft, set }: { draft: ApprovalDraft; set: Set }) {
  const mode = deciderModeOf(draft.assignees);
  const write = (assignees: ApprovalDraft['assignees']) => set({ assignees }, null);
  return (
    <ChoiceGroup<DeciderMode>
      label="Who may decide"
      value={mode}
      onChange={(next) =>
        write(next === 'any' ? undefined : next === 'named' ? { userIds: [] } : { roles: [] })
      }
      options={[
        { value: 'any', label: 'Any member' },
        {
          value: 'named',
          label: 'Named members',
          extra: (
            <NamedMembers
              userIds={draft.assignees?.userIds ?? []}
              onChange={(userIds) => write({ userIds })}
            />
          ),
        },
        {
          value: 'roles',
          label: 'Roles',
          hint: 'Everyone with one of the roles chosen.',
          extra: <Roles roles={draft.assignees?.roles ?? []} onChange={(roles) => write({ roles })} />,
        },
      ]}
    />
  );
}

function Policy({ draft, set }: { draft: ApprovalDraft; set: Set }) {
  const quorumId = useId();
  const { policy } = draft;
  const mode: PolicyMode = typeof policy === 'object' ? 'quorum' : policy;
  const quorum = typeof policy === 'object' ? policy.quorum : 2;
  const quorumOk = Number.isInteger(quorum) && quorum >= 1 && quorum <= MAX_QUORUM;
  const named = draft.assignees?.userIds?.length ?? 0;
  return (
    <ChoiceGroup<PolicyMode>
      label="Policy"
      value={mode}
      onChange={(next) => set({ policy: next === 'quorum' ? { quorum } : next }, null)}
      options={[
        { value: 'first', label: 'First decision wins', hint: 'One approval or rejection decides.' },
        {
          value: 'all',
          label: 'All named approvers must approve',
          hint:
            named === 0 && mode === 'all'
              ? 'Needs named members: choose them under Who may decide.'
              : 'One rejection rejects.',
        },
        {
          value: 'quorum',
          label: `Quorum of ${quorumOk ? quorum : 'N'}`,
          hint: 'This many different people must approve.',
          extra: (
            <div className="space-y-1.5">
              <Label htmlFor={quorumId}>Approvals needed</Label>
              <Input
                id={quorumId}
                type="number"
                min={1}
                max={MAX_QUORUM}
                step={1}
                value={quorum}
                aria-invalid={!quorumOk || undefined}
                className="w-24"
                onChange={(e) => {
                  const value = e.target.valueAsNumber;
                  if (Number.isInteger(value)) set({ policy: { quorum: value } }, 'policy:quorum');
                }}
              />
              {!quorumOk && <p className="text-xs text-destructive">From 1 to {MAX_QUORUM}.</p>}
            </div>
          ),
        },
      ]}
    />
  );
}

const splitOptions = (text: string) =>
  text
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);

/** A choice's options as comma-separated text, kept as typed (a trailing comma stays while typing). */
function OptionsInput({ options, onChange }: { options: string[]; onChange: (options: string[]) => void }) {
  const id = useId();
  const [text, setText] = useState(() => options.join(', '));
  // An undo (or another change from outside) shows the stored options.
  if (splitOptions(text).join('\n') !== options.join('\n')) setText(options.join(', '));
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>Options</Label>
      <Input
        id={id}
        value={text}
        placeholder="Refund, Voucher, Nothing"
        aria-invalid={options.length === 0 || undefined}
        onChange={(e) => {
          setText(e.target.value);
          onChange(splitOptions(e.target.value));
        }}
      />
      <p className={cn('text-xs', options.length === 0 ? 'text-destructive' : 'text-muted-foreground')}>
        Comma-separated; the decider picks one.
      </p>
    </div>
  );
}

function FieldRow({
  field,
  index,
  duplicate,
  onChange,
  onRemove,
}: {
  field: ApprovalField;
  index: number;
  duplicate: boolean;
  onChange: (patch: Partial<ApprovalField>) => void;
  onRemove: () => void;
}) {
  const nameId = useId();
  const labelId = useId();
  const requiredId = useId();
  const badName = field.name !== '' && !FIELD_NAME.test(field.name);
  return (
    <li className="space-y-2 rounded-lg border bg-muted/30 p-2.5" aria-label={`Field ${index + 1}`}>
      <div className="flex items-end gap-1.5">
        <div className="min-w-0 flex-1 space-y-1.5">
          <Label htmlFor={nameId}>Field name</Label>
          <Input
            id={nameId}
            value={field.name}
            placeholder="amount"
            spellCheck={false}
            aria-invalid={badName || duplicate || undefined}
            className={cn('font-mono text-xs', (badName || duplicate) && 'border-destructive')}
            onChange={(e) => onChange({ name: e.target.value })}
          />
        </div>
        <RemoveRowButton label={field.name || `field ${index + 1}`} onClick={onRemove} />
      </div>
      {badName && (
        <p className="text-xs text-destructive">Letters, digits and _, not starting with a digit.</p>
      )}
      {duplicate && <p className="text-xs text-destructive">Another field has this name.</p>}
      <div className="space-y-1.5">
        <Label htmlFor={labelId}>Field label</Label>
        <Input
          id={labelId}
          value={field.label}
          placeholder="Amount to refund"
          onChange={(e) => onChange({ label: e.target.value })}
        />
      </div>
      <SelectField
        label="Type"
        value={field.type}
        options={approvalFieldTypeValues}
        labels={FIELD_TYPE_LABELS}
        onChange={(type) =>
          onChange(type === 'choice' ? { type, options: field.options ?? [] } : { type, options: undefined })
        }
      />
      {field.type === 'choice' && (
        <OptionsInput options={field.options ?? []} onChange={(options) => onChange({ options })} />
      )}
      <div className="flex items-center gap-2">
        <Checkbox
          id={requiredId}
          checked={field.required ?? false}
          onCheckedChange={(on) => onChange({ required: on === true })}
        />
        <Label htmlFor={requiredId} className="cursor-pointer font-normal">
          Required
        </Label>
      </div>
    </li>
  );
}

function FormFields({ draft, set, nodeId }: { draft: ApprovalDraft; set: Set; nodeId: string }) {
  const { fields } = draft;
  const example = fields.find((f) => FIELD_NAME.test(f.name))?.name ?? 'amount';
  return (
    <section className="space-y-2.5" aria-label="Form fields">
      <h3 className="text-sm font-medium">Form fields</h3>
      <p className="text-xs text-muted-foreground">
        What the deciders fill in. Later steps read the answers as{' '}
        <code className="font-mono break-all">
          nodes.{/^[A-Za-z_]\w*$/.test(nodeId) ? nodeId : `["${nodeId}"]`}.data.fields.{example}
        </code>
        .
      </p>
      <RowList
        items={fields}
        stepPrefix="fields"
        write={(next, step) => set({ fields: next }, step)}
        newItem={(): ApprovalField => ({ name: '', label: '', type: 'text', required: false })}
        addLabel="Add field"
        addDisabled={fields.length >= MAX_FIELDS}
      >
        {(field, index, edit) => (
          <FieldRow
            field={field}
            index={index}
            duplicate={!!field.name && fields.findIndex((f) => f.name === field.name) !== index}
            {...edit}
          />
        )}
      </RowList>
    </section>
  );
}

function Timeout({ draft, set }: { draft: ApprovalDraft; set: Set }) {
  const switchId = useId();
  const { timeout } = draft;
  return (
    <section className="space-y-2.5" aria-label="Timeout">
      <div className="flex items-center justify-between gap-2">
        <Label htmlFor={switchId}>Timeout</Label>
        <Switch
          id={switchId}
          checked={!!timeout}
          onCheckedChange={(on) =>
            set({ timeout: on ? { seconds: 86400, onTimeout: 'reject' } : undefined }, null)
          }
        />
      </div>
      {!timeout && <p className="text-xs text-muted-foreground">Off: the run waits until someone decides.</p>}
      {timeout && (
        <>
          <DurationField
            label="Time out after"
            seconds={timeout.seconds}
            units={['minutes', 'hours', 'days']}
            max={APPROVAL_MAX_SECONDS}
            hint="At most 90 days."
            onChange={(seconds) => set({ timeout: { ...timeout, seconds } }, 'timeout:seconds')}
          />
          <SelectField
            label="On timeout"
            value={timeout.onTimeout}
            options={['reject', 'branch'] as const}
            labels={ON_TIMEOUT_LABELS}
            hint={ON_TIMEOUT_HINTS[timeout.onTimeout]}
            onChange={(onTimeout) => set({ timeout: { ...timeout, onTimeout } }, null)}
          />
        </>
      )}
    </section>
  );
}

export function ApprovalPanelSettings({ node, set }: NodePanelProps) {
  const draft = approvalDraftOf(node.data);
  const nodeName = nodeDisplayName(node);
  return (
    <>
      <ExpressionField
        label="Title"
        value={draft.title}
        nodeId={node.id}
        nodeName={nodeName}
        syntax="template"
        placeholder="Refund {{ nodes.classify.data.amount }} €?"
        hint="What is decided, as the Inbox lists it."
        onChange={(title) => set({ title })}
      />
      <ExpressionField
        label="Message"
        multiline
        value={draft.message}
        nodeId={node.id}
        nodeName={nodeName}
        syntax="template"
        placeholder="Refund {{ nodes.classify.data.amount }} € to {{ input.customer }}?"
        hint="What the deciders read before they decide. {{ expression }} inserts a value of the run."
        onChange={(message) => set({ message })}
      />
      <Separator />
      <Deciders draft={draft} set={set} />
      <Policy draft={draft} set={set} />
      <Separator />
      <FormFields draft={draft} set={set} nodeId={node.id} />
      <Separator />
      <Timeout draft={draft} set={set} />
    </>
  );
}
