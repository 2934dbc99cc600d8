// The copy-paste examples of the Webhooks and API keys guides, built for the instance the reader is on:
// every URL starts with the page's origin (window.location.origin), so a copied command reaches this
// Crewline. Workflow ids, secrets and keys stay shell variables the reader sets once.

/** `https://crewline.example.com/` → `https://crewline.example.com`. */
export function apiBase(origin: string): string {
  return origin.trim().replace(/\/+$/, '');
}

/**
 * Arguments joined with a shell continuation (` \` at the end of each but the last). An argument may
 * span lines itself (a quoted JSON body), which the shell reads as one word.
 */
function command(lines: string[]): string {
  return lines.map((line, i) => (i < lines.length - 1 ? `${line} \\` : line)).join('\n  ');
}

// --- Webhooks ---------------------------------------------------------------------------------------

export const webhookSetup = [
  '# In the builder: Settings tab → Webhook → Reveal URL and secret',
  "export WORKFLOW_ID='<the id at the end of the webhook URL>'",
  "export WEBHOOK_SECRET='<the webhook secret>'",
].join('\n');

/** A JSON object body in the header-secret form: the object becomes the run's input as it is. */
export function webhookJsonCurl(origin: string): string {
  return command([
    `curl -i -X POST "${apiBase(origin)}/api/webhooks/$WORKFLOW_ID"`,
    '-H "X-Webhook-Secret: $WEBHOOK_SECRET"',
    '-H "Content-Type: application/json"',
    `-d '{"customer": "ada@example.com", "subject": "Order 4182 has not arrived", "priority": "high"}'`,
  ]);
}

/**
 * A signed call (Require signed calls): the HMAC-SHA256 of `<timestamp>.<body>` keyed with the secret,
 * made with openssl over the same bytes curl sends.
 */
export function webhookSignedCurl(origin: string): string {
  return [
    `BODY='{"customer": "ada@example.com", "subject": "Order 4182 has not arrived"}'`,
    'TS=$(date +%s)',
    `SIG=$(printf '%s.%s' "$TS" "$BODY" | openssl dgst -sha256 -hmac "$WEBHOOK_SECRET" | sed 's/^.* //')`,
    command([
      `curl -i -X POST "${apiBase(origin)}/api/webhooks/$WORKFLOW_ID"`,
      '-H "X-Crewline-Timestamp: $TS"',
      '-H "X-Crewline-Signature: v1=$SIG"',
      '-H "Content-Type: application/json"',
      '--data-raw "$BODY"',
    ]),
  ].join('\n');
}

/** The secret in the query and a plain-text body, which arrives as `{ "payload": "…" }`. */
export function webhookTextCurl(origin: string): string {
  return command([
    `curl -X POST "${apiBase(origin)}/api/webhooks/$WORKFLOW_ID?secret=$WEBHOOK_SECRET"`,
    '-H "Content-Type: text/plain"',
    `--data 'Nightly build 1482 failed on main'`,
  ]);
}

/** A form post (what many services send), which arrives as `{ "payload": { field: value } }`. */
export function webhookFormCurl(origin: string): string {
  return command([
    `curl -X POST "${apiBase(origin)}/api/webhooks/$WORKFLOW_ID?secret=$WEBHOOK_SECRET"`,
    `--data-urlencode 'name=Ada Lovelace'`,
    `--data-urlencode 'company=Analytical Engines Ltd'`,
  ]);
}

/** `?wait=true`: the answer comes when the run ends (or after the wait, as a 202). */
export function webhookWaitCurl(origin: string): string {
  return command([
    `curl -X POST "${apiBase(origin)}/api/webhooks/$WORKFLOW_ID?wait=true"`,
    '-H "X-Webhook-Secret: $WEBHOOK_SECRET"',
    '-H "Content-Type: application/json"',
    `-d '{"question": "Which plan includes API access?"}'`,
  ]);
}

// --- API keys ---------------------------------------------------------------------------------------

export const apiKeySetup = [
  '# The key is shown once, when it is created (Settings → API keys)',
  "export CREWLINE_API_KEY='<your crw_ key>'",
  '# The workflow id: the end of its builder URL (/workflows/edit/<id>)',
  "export WORKFLOW_ID='<the workflow id>'",
].join('\n');

export function listWorkflowsCurl(origin: string): string {
  return command([`curl "${apiBase(origin)}/api/workflows"`, '-H "Authorization: Bearer $CREWLINE_API_KEY"']);
}

export function executeWorkflowCurl(origin: string): string {
  return command([
    `curl -X POST "${apiBase(origin)}/api/workflows/$WORKFLOW_ID/execute"`,
    '-H "Authorization: Bearer $CREWLINE_API_KEY"',
    '-H "Content-Type: application/json"',
    [
      "-d '{",
      '    "input": {"topic": "Competitor pricing in Q3"},',
      '    "parameters": {"region": "EU"},',
      '    "dynamicInstructions": "Keep the summary under 200 words"',
      "  }'",
    ].join('\n'),
  ]);
}

export function getExecutionCurl(origin: string): string {
  return command([
    `curl "${apiBase(origin)}/api/executions/$EXECUTION_ID"`,
    '-H "Authorization: Bearer $CREWLINE_API_KEY"',
  ]);
}

export function listExecutionsCurl(origin: string): string {
  return command([
    `curl "${apiBase(origin)}/api/executions?workflowId=$WORKFLOW_ID&status=completed&limit=10"`,
    '-H "Authorization: Bearer $CREWLINE_API_KEY"',
  ]);
}

/**
 * A Node script (Node 18 or later, saved as run-workflow.mjs): starts a run with fetch, waits out a 429's
 * Retry-After, and polls the run until it ends.
 */
export function nodeFetchExample(origin: string): string {
  return `// run-workflow.mjs: CREWLINE_API_KEY=crw_… WORKFLOW_ID=… node run-workflow.mjs
const BASE_URL = '${apiBase(origin)}';
const { CREWLINE_API_KEY, WORKFLOW_ID } = process.env;

async function api(path, { method = 'GET', body } = {}) {
  for (;;) {
    const res = await fetch(BASE_URL + path, {
      method,
      headers: {
        Authorization: \`Bearer \${CREWLINE_API_KEY}\`,
        ...(body ? { 'Content-Type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (res.status === 429) {
      // Past the key's calls per minute: wait as long as the server says.
      const seconds = Number(res.headers.get('retry-after') ?? 1);
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
      continue;
    }
    const data = await res.json();
    if (!res.ok) throw new Error(\`\${res.status}: \${data.message}\`);
    return data;
  }
}

let run = await api(\`/api/workflows/\${WORKFLOW_ID}/execute\`, {
  method: 'POST',
  body: { input: { topic: 'Competitor pricing in Q3' }, parameters: { region: 'EU' } },
});
console.log('started', run.id);

while (!['completed', 'failed', 'cancelled'].includes(run.status)) {
  await new Promise((resolve) => setTimeout(resolve, 2000));
  run = await api(\`/api/executions/\${run.id}\`);
}
console.log(run.status, run.status === 'completed' ? run.result : run.error);
`;
}
