// Approve or Reject one approval: its form fields, a comment and the two buttons, with the server's
// refusal shown in place (409 already decided, 403 not an approver, 400 under the field it names).
// Shared by the Inbox (via 'inbox') and a run's details (via 'run'); once the viewer decided it shows
// the outcome instead.
import type { Approval, ApprovalField } from '@crewline/contracts';
import { Check, CircleCheck, CircleX, X } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';

import { Spinner } from '@/components/spinner';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import {
  answersOf,
  decisionErrorOf,
  decisionLabel,
  draftErrors,
  outcomeText,
  ownDecision,
  type DecisionError,
  type FieldDraft,
} from '@/lib/approvals/approval-texts';
import { useDecideApproval } from '@/lib/approvals/decide-approval';
import { cn } from '@/lib/utils';

const NO_ERROR: DecisionError = { message: null, fields: {} };

// The phone-first page an emailed link opens ('comfortable') has taller controls and larger text
// below the sm breakpoint, so a thumb hits them.
const SIZES = {
  default: { radios: 'gap-4 text-sm', radio: 'gap-1.5', select: 'h-9 md:text-sm', input: undefined },
  comfortable: {
    radios: 'gap-6 text-base sm:text-sm',
    radio: 'min-h-10 gap-2',
    select: 'h-11 sm:h-9 sm:text-sm',
    input: 'h-11 sm:h-9',
  },
} as const;

const SELECT =
  'flex w-full min-w-0 rounded-md border border-input bg-transparent px-3 py-1 text-base shadow-xs outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 aria-invalid:border-destructive dark:bg-input/30';

/**
 * One form field of an approval (text, number, choice or yes/no) with its label, required mark and
 * error. Shared by the decision form and the emailed link's page.
 */
export function ApprovalFieldInput({
  field,
  value,
  error,
  disabled,
  size = 'default',
  onChange,
}: {
  field: ApprovalField;
  value: string | boolean | undefined;
  error: string | undefined;
  disabled: boolean;
  size?: keyof typeof SIZES;
  onChange: (value: string | boolean | undefined) => void;
}) {
  const id = useId();
  const sizes = SIZES[size];
  const errorId = `${id}-error`;
  const label = field.label || field.name;
  const common = {
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? errorId : undefined,
    'aria-required': field.required || undefined,
    disabled,
  } as const;
  let control;
  if (field.type === 'boolean') {
    control = (
      <div role="radiogroup" aria-labelledby={`${id}-label`} className={cn('flex', sizes.radios)} {...common}>
        {[true, false].map((answer) => (
          <label key={String(answer)} className={cn('inline-flex items-center', sizes.radio)}>
            <input
              type="radio"
              name={id}
              checked={value === answer}
              disabled={disabled}
              onChange={() => onChange(answer)}
              className="size-4 accent-primary"
            />
            {answer ? 'Yes' : 'No'}
          </label>
        ))}
      </div>
    );
  } else if (field.type === 'choice') {
    control = (
      <select
        id={id}
        className={cn(SELECT, sizes.select)}
        value={typeof value === 'string' ? value : ''}
        onChange={(event) => onChange(event.target.value || undefined)}
        {...common}
      >
        <option value="">Choose…</option>
        {(field.options ?? []).map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    );
  } else {
    control = (
      <Input
        id={id}
        inputMode={field.type === 'number' ? 'decimal' : undefined}
        value={typeof value === 'string' ? value : ''}
        onChange={(event) => onChange(event.target.value)}
        className={sizes.input}
        {...common}
      />
    );
  }
  return (
    <div className="space-y-1.5" data-testid="approval-field" data-field={field.name}>
      {field.type === 'boolean' ? (
        <p id={`${id}-label`} className="text-sm leading-none font-medium">
          {label}
          {field.required && <span className="text-destructive"> *</span>}
        </p>
      ) : (
        <Label htmlFor={id}>
          {label}
          {field.required && <span className="text-destructive">*</span>}
        </Label>
      )}
      {control}
      {error && (
        <p id={errorId} className="text-sm text-destructive" data-testid="approval-field-error">
          {error}
        </p>
      )}
    </div>
  );
}

/** The viewer's decision after it was taken: 'You approved · Approved', with their comment. */
function Outcome({
  approval,
  decision,
}: {
  approval: Approval;
  decision: { decision: 'approve' | 'reject'; comment: string | null };
}) {
  const approved = decision.decision === 'approve';
  const Icon = approved ? CircleCheck : CircleX;
  return (
    <div
      role="status"
      className={cn(
        'flex items-start gap-2 rounded-lg border p-3 text-sm',
        approved
          ? 'border-emerald-500/30 bg-emerald-500/10 text-emerald-800 dark:text-emerald-300'
          : 'border-red-500/30 bg-red-500/10 text-red-800 dark:text-red-300',
      )}
      data-testid="approval-outcome"
    >
      <Icon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <div className="min-w-0">
        <p className="font-medium">{outcomeText(approval, decision.decision)}</p>
        {decision.comment && <p className="mt-0.5 break-words whitespace-pre-wrap">“{decision.comment}”</p>}
      </div>
    </div>
  );
}

/**
 * The decision form of one approval. `viewerId`: the signed-in user, whose decision is shown as the
 * outcome once taken.
 */
export function ApprovalDecisionForm({
  approval,
  via,
  viewerId,
  notAllowed = null,
}: {
  approval: Approval;
  via: 'inbox' | 'run';
  viewerId: string | undefined;
  /** What shows instead of the form when the viewer may not decide it (and did not). */
  notAllowed?: ReactNode;
}) {
  const formId = useId();
  const [draft, setDraft] = useState<FieldDraft>({});
  const [comment, setComment] = useState('');
  const [error, setError] = useState<DecisionError>(NO_ERROR);
  const decide = useDecideApproval();
  // The decision taken here (its answer may not name the viewer when the session is not read yet).
  const taken =
    decide.isSuccess && decide.variables
      ? { decision: decide.variables.body.decision, comment: decide.variables.body.comment ?? null }
      : undefined;
  const mine = ownDecision(approval, viewerId) ?? taken;

  if (mine && !approval.canDecide) return <Outcome approval={approval} decision={mine} />;
  if (!approval.canDecide && !decide.isPending && !error.message) return notAllowed;

  const submit = (decision: 'approve' | 'reject') => {
    const fields = draftErrors(approval.fields, draft, decision);
    if (Object.keys(fields).length > 0) {
      setError({ message: null, fields });
      return;
    }
    setError(NO_ERROR);
    const answers = answersOf(approval.fields, draft);
    decide.mutate(
      {
        approval,
        body: {
          decision,
          via,
          ...(comment.trim() ? { comment: comment.trim() } : {}),
          ...(Object.keys(answers).length > 0 ? { fields: answers } : {}),
        },
      },
      {
        onSuccess: () => toast({ title: decisionLabel(decision), description: approval.title }),
        onError: (refusal) => setError(decisionErrorOf(refusal)),
      },
    );
  };
  const busy = decide.isPending;
  const pendingDecision = decide.variables?.body.decision;

  return (
    <form
      className="space-y-3"
      aria-label={`Decide: ${approval.title}`}
      data-testid="approval-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit('approve');
      }}
    >
      {approval.fields.map((field) => (
        <ApprovalFieldInput
          key={field.name}
          field={field}
          value={draft[field.name]}
          error={error.fields[field.name]}
          disabled={busy}
          onChange={(value) => {
            setDraft((was) => ({ ...was, [field.name]: value }));
            if (error.fields[field.name]) {
              const { [field.name]: _gone, ...rest } = error.fields;
              setError({ ...error, fields: rest });
            }
          }}
        />
      ))}
      <div className="space-y-1.5">
        <Label htmlFor={`${formId}-comment`}>Comment</Label>
        <Textarea
          id={`${formId}-comment`}
          value={comment}
          maxLength={2000}
          rows={2}
          placeholder="Optional: why, or a note for the others"
          disabled={busy}
          onChange={(event) => setComment(event.target.value)}
        />
      </div>
      {error.message && (
        <p
          role="alert"
          className="rounded-md border border-destructive/30 bg-destructive/10 px-3 py-2 text-sm text-destructive"
          data-testid="approval-error"
        >
          {error.message}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={busy} aria-busy={busy && pendingDecision === 'approve'}>
          {busy && pendingDecision === 'approve' ? <Spinner /> : <Check aria-hidden="true" />}
          Approve
        </Button>
        <Button
          type="button"
          variant="outline"
          className="text-destructive hover:bg-destructive/10 hover:text-destructive"
          disabled={busy}
          aria-busy={busy && pendingDecision === 'reject'}
          onClick={() => submit('reject')}
        >
          {busy && pendingDecision === 'reject' ? <Spinner /> : <X aria-hidden="true" />}
          Reject
        </Button>
      </div>
    </form>
  );
}
