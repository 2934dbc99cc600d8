import { mcpClientConfig, mcpEndpointUrl, MCP_API_KEY_PLACEHOLDER } from '@/lib/mcp-client-config';

import type { DocContent } from '../components/docs-layout';
import { A, C, Callout, CodeBlock, P, UI, UL } from '../components/prose';
import {
  API_KEY_PREFIX,
  MCP_DEFAULT_TIMEOUT_SECONDS,
  MCP_GET_RUN_TOOL,
  MCP_MAX_TIMEOUT_SECONDS,
  MCP_MESSAGES,
} from '../docs-facts';

const clientConfig = (origin: string) => mcpClientConfig(mcpEndpointUrl(origin));

const getRunCall = `{ "runId": "8d2f6c1e-4a0b-4f5e-9b3d-7c1a2e9f0b64" }`;

export const mcpServer: DocContent = {
  intro: (
    <P>
      Every organization has its own MCP server. Publish a workflow on it and MCP clients (Claude Code,
      Cursor, VS Code, other agents) can call the workflow as a tool: each call is a run of the workflow, and
      the run&apos;s result is the tool&apos;s answer.
    </P>
  ),
  sections: [
    {
      title: 'Publish a workflow',
      content: (
        <>
          <P>
            Owners and admins publish active workflows. Open the workflow in the builder, go to the{' '}
            <UI>Settings</UI> tab and, in its <UI>MCP</UI> section, switch on{' '}
            <UI>Publish on the MCP server</UI>:
          </P>
          <UL>
            <li>
              <UI>Tool name</UI>: what clients call it, 1 to 64 letters, digits, <C>_</C> or <C>-</C>. It
              starts as the workflow&apos;s name in lower case, and each tool name is used once in an
              organization.
            </li>
            <li>
              <UI>Description</UI>: the client&apos;s model reads it to decide when to call the tool, so say
              what the workflow does and what it answers.
            </li>
            <li>
              <UI>Input schema</UI>: the JSON Schema of the tool&apos;s arguments, an object; the arguments
              become the run&apos;s input. By default one text, <C>input</C>.
            </li>
            <li>
              <UI>Time limit (seconds)</UI>: how long a call waits for the result,{' '}
              {MCP_DEFAULT_TIMEOUT_SECONDS} by default (see{' '}
              <A href="#calls-and-long-runs">Calls and long runs</A>).
            </li>
          </UL>
          <P>
            Then <UI>Save publishing</UI>. To stop, switch it off and save again. Members see the section but
            cannot change it.
          </P>
          <Callout tone="note">
            <p>
              A draft cannot be published: “{MCP_MESSAGES.notActive}” When a published workflow is paused, its
              tool disappears from the server until the workflow is active again.
            </p>
          </Callout>
        </>
      ),
    },
    {
      title: 'The endpoint',
      content: (
        <>
          <P>
            The server answers at <C>/mcp</C> on this Crewline, over Streamable HTTP:
          </P>
          <CodeBlock label="endpoint" copyLabel="MCP endpoint URL" code={mcpEndpointUrl} />
          <P>
            <UI>Profile &amp; Settings → API keys</UI> shows it in the <UI>MCP server</UI> card, with the
            tools published on it. The server keeps no session: any Crewline process answers any request, so a
            client&apos;s calls work the same behind a load balancer.
          </P>
        </>
      ),
    },
    {
      title: 'Authenticate with an API key',
      content: (
        <>
          <P>
            Clients send an <A href="/docs/api-keys">API key</A> of the organization as a bearer token:{' '}
            <C>Authorization: Bearer {API_KEY_PREFIX}…</C>. The key decides the organization, and a client
            sees that organization&apos;s published tools of active workflows only. A request without a valid
            key is refused with 401.
          </P>
          <P>
            A connector that signs in with OAuth instead opens a Crewline page where a member picks the
            organization and chooses <UI>Allow</UI>. The <UI>Connected apps</UI> card under{' '}
            <UI>Profile &amp; Settings → API keys</UI> lists those apps, and revoking one stops it at once.
          </P>
        </>
      ),
    },
    {
      title: 'Configure a client',
      content: (
        <>
          <P>
            Claude Code (<C>.mcp.json</C>) and Cursor (<C>.cursor/mcp.json</C>) read this configuration as it
            is; VS Code&apos;s <C>.vscode/mcp.json</C> names the list <C>servers</C> instead of{' '}
            <C>mcpServers</C>. Put one of your API keys in place of <C>{MCP_API_KEY_PLACEHOLDER}</C>:
          </P>
          <CodeBlock label="json" copyLabel="MCP client configuration" code={clientConfig} />
          <Callout tone="warning" title="Keep the key out of repositories">
            <p>
              A configuration file with a key in it is a secret. Keep it out of version control, or use your
              client&apos;s way of reading the header from an environment variable.
            </p>
          </Callout>
        </>
      ),
    },
    {
      title: 'Calls and long runs',
      content: (
        <>
          <UL>
            <li>
              A call&apos;s arguments are checked against the input schema first: wrong arguments answer the
              schema&apos;s error and start no run.
            </li>
            <li>
              Each call starts a run of the workflow&apos;s active version. Its Triggered By reads{' '}
              <UI>MCP · </UI> and the client&apos;s name (<UI>MCP · Claude</UI>), and it counts toward the
              plan&apos;s executions and the budgets like any other run.
            </li>
            <li>
              When the run ends within the tool&apos;s time limit, the answer is its result (a failed run
              answers its error). When it takes longer, the answer is the run&apos;s id and state, and the run
              carries on.
            </li>
            <li>
              Every server also offers <C>{MCP_GET_RUN_TOOL}</C>: called with the run&apos;s id, it answers
              the run&apos;s state and, once it has ended, its result.
            </li>
          </UL>
          <CodeBlock
            label={`${MCP_GET_RUN_TOOL} arguments`}
            copyLabel="get_run arguments"
            code={getRunCall}
          />
        </>
      ),
    },
    {
      title: 'Limits',
      content: (
        <UL>
          <li>
            A tool&apos;s time limit is {MCP_DEFAULT_TIMEOUT_SECONDS} seconds by default and at most{' '}
            {MCP_MAX_TIMEOUT_SECONDS}.
          </li>
          <li>A tool name is used once per organization: “{MCP_MESSAGES.toolNameTaken('weekly_report')}”</li>
          <li>
            The input schema describes an object (<C>&quot;type&quot;: &quot;object&quot;</C>).
          </li>
          <li>
            Runs started over MCP count like other runs: the plan&apos;s executions and every budget apply.
          </li>
        </UL>
      ),
    },
  ],
};
