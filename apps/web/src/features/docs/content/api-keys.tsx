import type { DocContent } from '../components/docs-layout';
import { A, C, Callout, CodeBlock, H3, P, Table, UI, UL } from '../components/prose';
import { API_KEY_MAX_PER_MINUTE_DEFAULT, API_KEY_MESSAGES, API_KEY_PREFIX } from '../docs-facts';
import {
  apiKeySetup,
  executeWorkflowCurl,
  getExecutionCurl,
  listExecutionsCurl,
  listWorkflowsCurl,
  nodeFetchExample,
} from '../examples';
import { API_REFERENCE_HREF } from '../docs-nav';

const startedRun = `{
  "id": "8d2f6c1e-4a0b-4f5e-9b3d-7c1a2e9f0b64",
  "workflowId": "b3e1d7a0-2c4f-4e8a-9d61-5f0c8a7b2e13",
  "workflowName": "Price digest",
  "processType": "sequential",
  "status": "pending",
  "workflowVersion": 3,
  "input": { "topic": "Competitor pricing in Q3" },
  "dynamicInstructions": "Keep the summary under 200 words",
  "parameters": { "region": "EU" },
  "output": {},
  "metrics": {},
  "logs": [],
  "result": null,
  "error": null,
  "trigger": "manual",
  "triggeredBy": "0c6a4f2e-9d1b-4e7a-8f3c-2b5d7e9a1c40",
  "triggeredByName": "Ada Lovelace",
  "startedAt": null,
  "completedAt": null,
  "createdAt": "2025-06-02T09:14:03.512Z"
}`;

const finishedRun = `{
  "id": "8d2f6c1e-4a0b-4f5e-9b3d-7c1a2e9f0b64",
  "status": "completed",
  "result": "Across the EU, three competitors raised prices by 4–6 % in Q3…",
  "output": {
    "analyst": {
      "content": "Across the EU, three competitors raised prices by 4–6 % in Q3…",
      "metadata": {
        "agentName": "Market Analyst",
        "role": "Competitive analyst",
        "model": "gpt-4o",
        "baseNodeId": "analyst"
      },
      "executionTime": 3820,
      "usage": { "promptTokens": 612, "completionTokens": 241, "totalTokens": 853 }
    }
  },
  "metrics": {
    "promptTokens": 612,
    "completionTokens": 241,
    "totalTokens": 853,
    "durationMs": 4105,
    "steps": 1
  },
  "error": null,
  "startedAt": "2025-06-02T09:14:03.690Z",
  "completedAt": "2025-06-02T09:14:07.795Z"
}`;

export const apiKeys: DocContent = {
  intro: (
    <P>
      An API key lets your own code and scripts use Crewline: list and create agents and workflows, start runs
      and read their results. It belongs to the organization and acts on behalf of the person who created it.
    </P>
  ),
  sections: [
    {
      title: 'Create a key',
      content: (
        <>
          <P>
            Owners and admins create keys in <UI>Profile &amp; Settings → API keys</UI> with{' '}
            <UI>Create key</UI>: give the key a name that says what uses it (&ldquo;CI pipeline&rdquo;) and
            choose when it expires: never, in 30 days, 90 days or a year, or on a date you pick.
          </P>
          <UL>
            <li>
              The key (<C>{API_KEY_PREFIX}</C> followed by 43 random characters) is shown{' '}
              <strong>once</strong>, when it is created. Copy it then: Crewline keeps only a hash of it and
              cannot show it again.
            </li>
            <li>
              Afterwards the list shows the key&apos;s first 12 characters (such as <C>crw_Xy12AbCd</C>), who
              created it, when, when it was last used and when it expires.
            </li>
            <li>
              <UI>Revoke</UI> takes effect at once: the next call with that key is refused. An expired key, or
              one whose creator has left the organization, is refused the same way.
            </li>
            <li>
              Keys need a plan with API access: Professional, Enterprise, or any trial (see{' '}
              <A href="#errors-and-limits">Errors and limits</A>).
            </li>
          </UL>
          <Callout tone="warning" title="Keep keys secret">
            <p>
              A key is as powerful as a member of your organization. Keep it in a secret store or an
              environment variable, never in a web page or a repository. Use one key per integration, so you
              can revoke one without breaking the others, and give keys an expiry where you can.
            </p>
          </Callout>
        </>
      ),
    },
    {
      title: 'Authenticate',
      content: (
        <>
          <P>
            Send the key as a bearer token in the <C>Authorization</C> header of every request to{' '}
            <C>/api/…</C>:
          </P>
          <CodeBlock label="shell" copyLabel="API key variables" code={apiKeySetup} />
          <CodeBlock label="shell" copyLabel="list workflows curl example" code={listWorkflowsCurl} />
          <P>
            The answer is the organization&apos;s workflows as JSON. Answers are always JSON; refusals are{' '}
            <C>{'{ "message": "…" }'}</C>.
          </P>
        </>
      ),
    },
    {
      title: 'What a key can do',
      content: (
        <>
          <P>
            A key acts as the person who created it, with a member&apos;s powers, even when that person is an
            owner or admin. It can call every route a member can, for example:
          </P>
          <UL>
            <li>
              List, create, update and delete agents (<C>GET</C>/<C>POST /api/agents</C>) and tools.
            </li>
            <li>
              List, create and update workflows (<C>GET</C>/<C>POST /api/workflows</C>), reveal or rotate a
              webhook secret.
            </li>
            <li>
              Execute a workflow, follow, cancel and retry its runs, and read the run history and analytics.
            </li>
            <li>Use templates and save new ones.</li>
          </UL>
          <P>
            A run started with a key is a manual run, with the key&apos;s creator as Triggered By. See the{' '}
            <A href={API_REFERENCE_HREF} reload>
              API reference
            </A>{' '}
            for every route and its body.
          </P>
        </>
      ),
    },
    {
      title: 'Run a workflow',
      content: (
        <>
          <P>
            <C>POST /api/workflows/:id/execute</C> starts a run of an active workflow. Every field of the body
            is optional:
          </P>
          <Table
            caption="Execute body"
            head={['Field', 'Type', 'Meaning']}
            rows={[
              [
                <C key="input">input</C>,
                'object',
                <>
                  What the run works on; every agent sees it as JSON. Defaults to <C>{'{}'}</C>.
                </>,
              ],
              [
                <C key="parameters">parameters</C>,
                'object',
                <>
                  Named values passed to every agent (<C>{'{"region": "EU"}'}</C>). Defaults to <C>{'{}'}</C>.
                </>,
              ],
              [
                <C key="instructions">dynamicInstructions</C>,
                'string',
                'Instructions for this run only, up to 20,000 characters.',
              ],
            ]}
          />
          <CodeBlock label="shell" copyLabel="execute curl example" code={executeWorkflowCurl} />
          <P>
            The answer is <C>202 Accepted</C> with the new execution, still <C>pending</C>; a worker starts it
            straight away:
          </P>
          <CodeBlock label="response · 202" copyLabel="execute response" code={startedRun} />
          <H3 id="poll-the-run">Poll the run</H3>
          <P>
            Read the run with <C>GET /api/executions/:id</C> every few seconds until its status is{' '}
            <C>completed</C>, <C>failed</C> or <C>cancelled</C>:
          </P>
          <CodeBlock label="shell" copyLabel="get execution curl example" code={getExecutionCurl} />
          <CodeBlock label="response · 200, abridged" copyLabel="completed execution" code={finishedRun} />
          <UL>
            <li>
              <C>result</C> is the final answer: the last agent&apos;s text for a sequential workflow, the
              lead&apos;s for a hierarchical one, and an object of every agent&apos;s text by node id for a
              parallel one.
            </li>
            <li>
              <C>output</C> holds each step&apos;s answer with the agent, model, time in milliseconds and
              tokens; <C>metrics</C> adds the run up.
            </li>
            <li>
              <C>error</C> says why a failed run failed. <C>POST /api/executions/:id/retry</C> retries it and{' '}
              <C>POST /api/executions/:id/cancel</C> stops a pending or running one.
            </li>
          </UL>
          <P>
            To list runs, <C>GET /api/executions</C> answers light summaries, newest first, filtered by{' '}
            <C>workflowId</C> and <C>status</C>, <C>limit</C> at a time (50 by default, at most 200); the next
            page&apos;s <C>cursor</C> is in the <C>X-Next-Cursor</C> header.
          </P>
          <CodeBlock label="shell" copyLabel="list executions curl example" code={listExecutionsCurl} />
          <P>
            A draft or paused workflow answers <C>409</C> (&ldquo;Activate it before running it&rdquo;), an
            unknown one <C>404</C>, and a plan whose executions for the month are used up <C>402</C>.
          </P>
        </>
      ),
    },
    {
      title: 'Node.js example',
      content: (
        <>
          <P>
            The same with <C>fetch</C> in Node 18 or later: start a run, wait out a <C>429</C>, poll until the
            run ends.
          </P>
          <CodeBlock label="run-workflow.mjs" copyLabel="Node.js example" code={nodeFetchExample} />
        </>
      ),
    },
    {
      title: 'What a key cannot do',
      content: (
        <>
          <P>
            Some routes need a signed-in person and answer a key <C>403</C> &ldquo;
            {API_KEY_MESSAGES.sessionOnly}&rdquo;, and every route that needs an admin or owner answers a key{' '}
            <C>403</C> too:
          </P>
          <UL>
            <li>The user&apos;s own account: profile, password, sign-out, switching organization.</li>
            <li>Members and invitations: listing, inviting, changing roles, removing.</li>
            <li>Connections: model providers, tool connections and Microsoft 365.</li>
            <li>API keys themselves: a key cannot list, create or revoke keys.</li>
            <li>Billing: changing or canceling the plan, invoices.</li>
          </UL>
        </>
      ),
    },
    {
      title: 'Errors and limits',
      content: (
        <>
          <Table
            caption="API key errors"
            head={['Status', 'When']}
            rows={[
              [
                '401',
                <>
                  The key is unknown, revoked or expired, or its creator is no longer a member: &ldquo;
                  {API_KEY_MESSAGES.invalid}&rdquo;.
                </>,
              ],
              [
                '402',
                <>
                  The organization&apos;s plan does not include API access (Starter or Free):{' '}
                  <C>{'{ code: "plan_limit", limit: "api_access" }'}</C>. Professional, Enterprise and every
                  trial include it.
                </>,
              ],
              ['403', 'The route needs a signed-in person, or an admin or owner (see above).'],
              [
                '429',
                <>
                  More than {API_KEY_MAX_PER_MINUTE_DEFAULT} calls with this key in a minute (the
                  server&apos;s <C>API_KEY_MAX_PER_MINUTE</C>), counted across every Crewline server. Wait the
                  seconds in the <C>Retry-After</C> header.
                </>,
              ],
              [
                '503',
                <>
                  Crewline&apos;s database is briefly unavailable; retry after <C>Retry-After</C> seconds.
                </>,
              ],
            ]}
          />
        </>
      ),
    },
  ],
};
