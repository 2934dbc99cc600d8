// The Webhook trigger's part of the Settings tab: whether calls must be signed (triggerConfig.signed,
// saved with the workflow) and, once the workflow is saved as a webhook workflow, its URL and secret
// behind Reveal (GET …/webhook-secret), with Copy and Rotate (docs/product-rules.md, Webhook trigger).
// The secret is never part of the workflow the builder loads or saves.
import {
  WEBHOOK_SECRET_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_SIGNATURE_TOLERANCE_SECONDS,
  WEBHOOK_TIMESTAMP_HEADER,
} from '@crewline/contracts';
import { Eye, EyeOff, RefreshCw, Webhook } from 'lucide-react';
import { useState, type ReactNode } from 'react';

import { ConfirmDialog } from '@/components/confirm-dialog';
import { CopyButton } from '@/components/copy-button';
import { Spinner } from '@/components/spinner';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { parseApiError } from '@/lib/api';
import { useWebhookSecret } from '@/lib/queries/webhook-secret';
import { useWorkflow } from '@/lib/queries/workflows';

import { useRotateWebhookSecret } from '@/features/workflows/api/rotate-webhook-secret';
import { useBuilderStore } from '../store';

/** A read-only value in a monospace box, broken anywhere so a long URL or secret wraps in a narrow panel. */
function ValueRow({ label, value, children }: { label: string; value: string; children?: ReactNode }) {
  return (
    <div className="space-y-1">
      <p className="text-xs font-medium text-muted-foreground">{label}</p>
      <div className="flex items-start gap-1 rounded-md border bg-muted/40 py-1 pr-1 pl-2.5">
        <code aria-label={label} className="min-w-0 flex-1 py-1.5 font-mono text-xs leading-5 break-all">
          {value}
        </code>
        {children}
      </div>
    </div>
  );
}

const Code = ({ children }: { children: ReactNode }) => (
  <code className="font-mono whitespace-nowrap">{children}</code>
);

/** What a caller sends: the secret itself, or (signed) a timestamp and an HMAC of the body with it. */
function CallHelp({ signed }: { signed: boolean }) {
  if (!signed)
    return (
      <p className="text-xs text-muted-foreground">
        POST JSON to the URL with the secret in the <Code>{WEBHOOK_SECRET_HEADER}</Code> header (or{' '}
        <Code>?secret=</Code>). Add <Code>?wait=true</Code> to get the result in the answer. Only an active
        workflow accepts calls.
      </p>
    );
  return (
    <div className="space-y-1.5 text-xs text-muted-foreground" data-testid="webhook-signed-help">
      <p>POST to the URL with these two headers, the signature keyed with the secret:</p>
      {/* One header a line, a wrapped line indented under its name: the format stays readable in a narrow panel. */}
      <div className="space-y-0.5 rounded-md border bg-muted/40 px-2.5 py-1.5 font-mono leading-5 text-foreground">
        <code className="block pl-4 -indent-4 break-words">
          {WEBHOOK_TIMESTAMP_HEADER}: &lt;unix seconds&gt;
        </code>
        <code className="block pl-4 -indent-4 break-words">
          {WEBHOOK_SIGNATURE_HEADER}: v1=&lt;hex HMAC-SHA256 of &quot;timestamp.body&quot;&gt;
        </code>
      </div>
      <p>
        Calls more than {WEBHOOK_SIGNATURE_TOLERANCE_SECONDS / 60} minutes old and repeated calls are refused.
        Add <Code>?wait=true</Code> to get the result in the answer. Only an active workflow accepts calls.
      </p>
    </div>
  );
}

export function WebhookTriggerFields() {
  const signed = useBuilderStore((s) => s.settings.triggerConfig.signed === true);
  const setTriggerConfig = useBuilderStore((s) => s.setTriggerConfig);
  // Null before the first save; the URL and secret exist once the saved workflow (not the draft) is a webhook one.
  const workflowId = useBuilderStore((s) => s.workflowId);
  const savedAsWebhook = useWorkflow(workflowId ?? undefined).data?.triggerType === 'webhook';
  const [revealed, setRevealed] = useState(false);
  const [confirmRotate, setConfirmRotate] = useState(false);
  const ready = !!workflowId && savedAsWebhook;
  const secret = useWebhookSecret(workflowId, { enabled: ready && revealed });
  const rotate = useRotateWebhookSecret();

  return (
    <section aria-label="Webhook" className="space-y-3 rounded-lg border p-3">
      <div className="flex items-center gap-2">
        <Webhook className="size-4 text-muted-foreground" aria-hidden="true" />
        <h3 className="text-sm font-medium">Webhook</h3>
      </div>
      <div className="flex items-start justify-between gap-3">
        <div className="space-y-0.5">
          <Label htmlFor="webhook-signed" className="text-sm">
            Require signed calls
          </Label>
          <p className="text-xs text-muted-foreground">
            Callers sign each call with the secret instead of sending it, so a captured call cannot be
            replayed.
          </p>
        </div>
        <Switch
          id="webhook-signed"
          checked={signed}
          onCheckedChange={(checked) => setTriggerConfig({ signed: checked })}
        />
      </div>
      {!ready ? (
        <p className="text-xs text-muted-foreground">
          The webhook URL and secret appear here once the workflow is saved.
        </p>
      ) : (
        <>
          <CallHelp signed={signed} />
          {!revealed ? (
            <Button type="button" variant="outline" size="sm" onClick={() => setRevealed(true)}>
              <Eye aria-hidden="true" />
              Reveal URL and secret
            </Button>
          ) : secret.isPending ? (
            <div className="flex items-center gap-2 text-xs text-muted-foreground">
              <Spinner /> Loading…
            </div>
          ) : secret.isError ? (
            <p role="alert" className="text-xs text-destructive">
              {parseApiError(secret.error).message || 'The secret could not be loaded.'}
            </p>
          ) : (
            <>
              <ValueRow label="Webhook URL" value={secret.data.url}>
                <CopyButton value={secret.data.url} label="webhook URL" size="md" />
              </ValueRow>
              <ValueRow label="Webhook secret" value={secret.data.secret}>
                <CopyButton value={secret.data.secret} label="webhook secret" size="md" />
              </ValueRow>
              <div className="flex flex-wrap gap-2">
                <Button type="button" variant="ghost" size="sm" onClick={() => setRevealed(false)}>
                  <EyeOff aria-hidden="true" />
                  Hide
                </Button>
                <Button type="button" variant="outline" size="sm" onClick={() => setConfirmRotate(true)}>
                  <RefreshCw aria-hidden="true" />
                  Rotate secret
                </Button>
              </div>
            </>
          )}
        </>
      )}
      <ConfirmDialog
        title="Rotate the webhook secret?"
        description="A new secret is made at once and the current one stops working: callers must be given the new one."
        open={confirmRotate}
        onOpenChange={setConfirmRotate}
        pending={rotate.isPending}
        confirmLabel="Rotate"
        pendingLabel="Rotating…"
        onConfirm={() => {
          if (!workflowId) return;
          rotate.mutate(workflowId, {
            onSuccess: () => {
              setRevealed(true);
              setConfirmRotate(false);
            },
          });
        }}
      />
    </section>
  );
}
