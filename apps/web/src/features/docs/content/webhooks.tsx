import type { ReactNode } from 'react';

import type { DocContent } from '../components/docs-layout';
import { A, C, Callout, CodeBlock, H3, P, Table, UI, UL } from '../components/prose';
import {
  WEBHOOK_MAX_PER_MINUTE_DEFAULT,
  WEBHOOK_MESSAGES,
  WEBHOOK_SECRET_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
  WEBHOOK_WAIT_SECONDS,
} from '../docs-facts';
import {
  webhookFormCurl,
  webhookJsonCurl,
  webhookSetup,
  webhookSignedCurl,
  webhookTextCurl,
  webhookWaitCurl,
} from '../examples';

/** A header with its value on one line: a break after "X-" would read as two names. */
const HeaderValue = ({ children }: { children: ReactNode }) => (
  <span className="whitespace-nowrap">
    <C>{children}</C>
  </span>
);

const accepted = `HTTP/1.1 202 Accepted
content-type: application/json; charset=utf-8

{"executionId":"3f0c9a52-6d1e-4b8a-9c27-1e5b8d4f7a10","status":"pending"}`;

const finished = `{
  "executionId": "3f0c9a52-6d1e-4b8a-9c27-1e5b8d4f7a10",
  "status": "completed",
  "output": {
    "agent-1": {
      "content": "Professional and Enterprise include API access; every trial does too.",
      "metadata": {
        "agentName": "Support Agent",
        "role": "Customer support",
        "model": "gpt-4o",
        "baseNodeId": "agent-1"
      },
      "executionTime": 2140,
      "usage": { "promptTokens": 412, "completionTokens": 38, "totalTokens": 450 }
    }
  }
}`;

export const webhooks: DocContent = {
  intro: (
    <P>
      A workflow whose trigger is <UI>Webhook</UI> runs whenever another system POSTs to its URL with its
      secret: a form tool, a CRM, a monitoring alert, a CI job or a script. The request body becomes the
      run&apos;s input, and the answer comes back at once with the run&apos;s id.
    </P>
  ),
  sections: [
    {
      title: 'Get the URL and the secret',
      content: (
        <>
          <UL>
            <li>
              Open the workflow in the builder, go to the <UI>Settings</UI> tab and set <UI>Trigger Type</UI>{' '}
              to <UI>Webhook</UI>.
            </li>
            <li>
              <UI>Save Draft</UI>. The first save as a webhook workflow makes its secret: at least 32 random,
              URL-safe characters.
            </li>
            <li>
              In the <UI>Webhook</UI> box choose <UI>Reveal URL and secret</UI>. Copy the <UI>Webhook URL</UI>{' '}
              (<C>{'…/api/webhooks/{workflowId}'}</C>) and the <UI>Webhook secret</UI> with their copy
              buttons.
            </li>
            <li>
              <UI>Activate</UI> the workflow. Only an active workflow accepts calls.
            </li>
          </UL>
          <P>
            Any member of the organization can reveal the secret. It is stored encrypted and never appears in
            the workflow&apos;s answers, its versions, templates or logs; only Reveal shows it. With an{' '}
            <A href="/docs/api-keys">API key</A>, <C>GET /api/workflows/:id/webhook-secret</C> answers the
            same <C>{'{ secret, url }'}</C>.
          </P>
        </>
      ),
    },
    {
      title: 'Call the webhook',
      content: (
        <>
          <P>Put the workflow id and the secret in two shell variables:</P>
          <CodeBlock label="shell" copyLabel="webhook variables" code={webhookSetup} />
          <P>
            Then POST a JSON object, with the secret in the <C>{WEBHOOK_SECRET_HEADER}</C> header:
          </P>
          <CodeBlock label="shell" copyLabel="webhook curl example" code={webhookJsonCurl} />
          <P>The run is queued and the answer comes straight away:</P>
          <CodeBlock label="response" copyLabel="webhook response" code={accepted} />
          <P>
            The run appears in the <UI>Executions</UI> tab with Triggered By <UI>Webhook</UI> and follows live
            like any other.
          </P>
          <H3 id="secret-in-the-query">The secret in the query</H3>
          <P>
            A caller that cannot set headers can send the secret as <C>?secret=</C> instead. The header wins
            when both are sent. Prefer the header where you can: URLs tend to end up in proxy and server logs.
          </P>
          <CodeBlock label="shell" copyLabel="webhook query secret example" code={webhookTextCurl} />
        </>
      ),
    },
    {
      title: 'Signed calls',
      content: (
        <>
          <P>
            Switch on <UI>Require signed calls</UI> in the <UI>Webhook</UI> box and save: the secret then
            never travels. Each call sends <HeaderValue>{WEBHOOK_TIMESTAMP_HEADER}</HeaderValue> (the time in
            unix seconds) and <HeaderValue>{WEBHOOK_SIGNATURE_HEADER}: v1=&lt;signature&gt;</HeaderValue>, the
            hex HMAC-SHA256, keyed with the secret, of the timestamp, a dot and the exact body bytes:
          </P>
          <CodeBlock label="shell" copyLabel="signed webhook example" code={webhookSignedCurl} />
          <P>
            A call more than 5 minutes old (or ahead), one whose signature was already used, or one without a
            valid signature is refused with 401 and starts nothing, so a captured call cannot be sent again.
          </P>
        </>
      ),
    },
    {
      title: 'What the run receives',
      content: (
        <>
          <P>
            The request body becomes the run&apos;s input, which every agent sees at the top of its task (an
            object as formatted JSON).
          </P>
          <Table
            caption="How a body becomes the input"
            head={['Body', 'The run’s input']}
            rows={[
              [
                'A JSON object',
                <>
                  The object as it is: <C>{'{"customer": "ada@example.com", …}'}</C>
                </>,
              ],
              [
                'Other JSON (array, string, number)',
                <>
                  Under <C>payload</C>: <C>{'{"payload": [1, 2, 3]}'}</C>
                </>,
              ],
              [
                'A form (application/x-www-form-urlencoded)',
                <>
                  The fields under <C>payload</C>; a repeated field becomes a list:{' '}
                  <C>{'{"payload": {"name": "Ada Lovelace"}}'}</C>
                </>,
              ],
              [
                'Text or any other content type',
                <>
                  The text under <C>payload</C>: <C>{'{"payload": "Nightly build 1482 failed on main"}'}</C>
                </>,
              ],
              ['No body', <C key="empty">{'{}'}</C>],
            ]}
          />
          <P>A form post, as many services send it:</P>
          <CodeBlock label="shell" copyLabel="webhook form example" code={webhookFormCurl} />
          <Callout tone="note">
            <p>
              Send JSON with <C>Content-Type: application/json</C>. Without it, <C>curl -d</C> sends a form,
              and your JSON arrives as a form field name under <C>payload</C>.
            </p>
          </Callout>
        </>
      ),
    },
    {
      title: 'Wait for the result',
      content: (
        <>
          <P>
            Add <C>?wait=true</C> to keep the request open until the run ends, for up to{' '}
            {WEBHOOK_WAIT_SECONDS} seconds:
          </P>
          <CodeBlock label="shell" copyLabel="webhook wait example" code={webhookWaitCurl} />
          <P>
            When the run ends in time the answer is <C>200</C> with its status and every step&apos;s output by
            node (and <C>error</C> when it failed). When it takes longer the answer is the usual <C>202</C>;
            the run carries on, and you can follow it in the Executions tab or with{' '}
            <C>GET /api/executions/:id</C> and an <A href="/docs/api-keys">API key</A>.
          </P>
          <CodeBlock label="response · 200" copyLabel="webhook wait response" code={finished} />
        </>
      ),
    },
    {
      title: 'Responses',
      content: (
        <>
          <P>
            Every refusal answers <C>{'{ "message": "…" }'}</C> and starts no run.
          </P>
          <Table
            caption="Webhook responses"
            head={['Status', 'When', 'Body']}
            rows={[
              ['202', 'The run was queued.', <C key="202">{'{ executionId, status: "pending" }'}</C>],
              [
                '200',
                <>
                  With <C>?wait=true</C>, the run ended within {WEBHOOK_WAIT_SECONDS} s.
                </>,
                <C key="200">{'{ executionId, status, output, error? }'}</C>,
              ],
              ['400', 'The body is not valid JSON although it says it is.', 'message'],
              [
                '401',
                'The secret (or a signed call’s signature) is missing, wrong, stale or replayed, or there is no webhook workflow with that id: the same answer for each.',
                <>“{WEBHOOK_MESSAGES.badSecret}”</>,
              ],
              [
                '402',
                'The plan’s executions for this month are used up.',
                <C key="402">{'{ message, code: "plan_limit", limit, plan }'}</C>,
              ],
              ['409', 'The workflow is a draft or paused.', <>“{WEBHOOK_MESSAGES.notActive}”</>],
              ['413', 'The body is larger than 1 MiB.', 'message'],
              [
                '429',
                'Too many calls for this workflow in the last minute, or 20 refused calls to it in 10 minutes.',
                <>
                  message, and a <C>Retry-After</C> header in seconds
                </>,
              ],
              [
                '503',
                'Crewline’s database is briefly unavailable.',
                <>
                  message, and <C>Retry-After</C>
                </>,
              ],
            ]}
          />
          <P>
            When a call is accepted but its run cannot start (say the plan&apos;s executions are used up), the
            reason is also shown on the workflow&apos;s card and in the builder until a trigger starts a run
            again.
          </P>
        </>
      ),
    },
    {
      title: 'Limits',
      content: (
        <UL>
          <li>A request body may be at most 1 MiB; a larger one is refused with 413.</li>
          <li>
            One workflow accepts {WEBHOOK_MAX_PER_MINUTE_DEFAULT} calls a minute by default (the server&apos;s{' '}
            <C>WEBHOOK_MAX_PER_MINUTE</C>), counted across every Crewline server. Past that the answer is 429
            with a <C>Retry-After</C> header: wait that many seconds and send again.
          </li>
          <li>
            Every run a webhook starts counts toward the plan&apos;s executions for the month, like any other
            run.
          </li>
        </UL>
      ),
    },
    {
      title: 'Rotate the secret',
      content: (
        <>
          <P>
            If the secret leaked, or someone who knew it should no longer call the workflow, make a new one:
            in the builder&apos;s <UI>Settings</UI> tab, <UI>Reveal URL and secret</UI>, then{' '}
            <UI>Rotate secret</UI> and confirm.
          </P>
          <UL>
            <li>The new secret works at once and the old one stops working at once: update your callers.</li>
            <li>The URL does not change.</li>
            <li>
              With an API key, <C>POST /api/workflows/:id/webhook-secret</C> rotates it and answers the new{' '}
              <C>{'{ secret, url }'}</C>.
            </li>
            <li>
              Switching the workflow to another trigger drops its secret; switching back to Webhook makes a
              new one.
            </li>
          </UL>
        </>
      ),
    },
    {
      title: 'Troubleshooting',
      content: (
        <UL>
          <li>
            <strong>401</strong>: check the header name (<C>{WEBHOOK_SECRET_HEADER}</C>), that the secret was
            not rotated since you copied it (reveal it again to compare), that the trigger type is saved as
            Webhook and the workflow id at the end of the URL. For signed calls, check the clock of the caller
            and that each call is signed afresh.
          </li>
          <li>
            <strong>409</strong>: activate the workflow. Saving a draft is not enough.
          </li>
          <li>
            <strong>The run failed</strong>: open it from the Executions tab; <UI>View Details</UI> shows the
            error and the input it received, and <UI>Retry</UI> runs it again with the same input.
          </li>
        </UL>
      ),
    },
  ],
};
