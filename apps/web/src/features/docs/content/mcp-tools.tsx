import type { DocContent } from '../components/docs-layout';
import { A, C, Callout, P, UI, UL } from '../components/prose';
import {
  MCP_DEFAULT_TIMEOUT_SECONDS,
  MCP_MAX_RESULT_MIB,
  MCP_MAX_TIMEOUT_SECONDS,
  MCP_MESSAGES,
} from '../docs-facts';

export const mcpTools: DocContent = {
  intro: (
    <P>
      An agent can use the tools of a remote MCP server: a vendor&apos;s (an issue tracker, a wiki, a CRM) or
      your own. The server is one connection of the organization, and each agent gets the tools you enable for
      it.
    </P>
  ),
  sections: [
    {
      title: 'Add an MCP server',
      content: (
        <>
          <P>
            In <UI>Profile &amp; Settings → Tools</UI>, under <UI>MCP servers</UI>, choose{' '}
            <UI>Add MCP server</UI>. Give it a name, its <UI>Server URL</UI>, its <UI>Authentication</UI> and
            a timeout ({MCP_DEFAULT_TIMEOUT_SECONDS} seconds by default, at most {MCP_MAX_TIMEOUT_SECONDS}).
          </P>
          <P>
            The URL starts with <C>https://</C>: “{MCP_MESSAGES.plainHttp}”
          </P>
        </>
      ),
    },
    {
      title: 'Authentication',
      content: (
        <UL>
          <li>
            <UI>None</UI>: for a server that needs no credential.
          </li>
          <li>
            <UI>Header</UI>: a header sent with every request, <C>Authorization</C> by default with a value
            such as <C>Bearer …</C>, or the server&apos;s own header name. The value is stored encrypted,
            shown masked, and never appears in runs, logs or the API&apos;s answers.
          </li>
          <li>
            <UI>OAuth (sign in)</UI>: for a server that signs its users in. Once the connection is saved, an
            owner or admin clicks <UI>Sign in</UI> (in its <UI>Server tools</UI> or on the{' '}
            <UI>MCP servers</UI> card) and signs in once, in a popup. Crewline registers itself with the
            server&apos;s authorization server, signs in with PKCE, keeps the tokens encrypted and refreshes
            them. If the server refuses a refresh, runs that call its tools fail with a message saying to
            reconnect, and the card shows <UI>Needs reconnecting</UI> with a <UI>Reconnect</UI> button.
          </li>
        </UL>
      ),
    },
    {
      title: 'The server’s tools',
      content: (
        <>
          <P>
            The connection lists the server&apos;s tools with their descriptions, and badges from the
            server&apos;s own hints: <UI>Read-only</UI> or <UI>Destructive</UI>. <UI>Refresh tools</UI> reads
            the list again; if the server cannot be reached, the connection says why.
          </P>
          <P>
            Switch a tool&apos;s <UI>Allowed</UI> off to keep it from every agent and workflow of the
            organization.
          </P>
        </>
      ),
    },
    {
      title: 'Enable tools per agent',
      content: (
        <>
          <P>
            Connect the MCP server to an agent like any other tool. Its allowed tools are listed there, each
            with a switch: the agent gets the ones switched on, and all of them (also tools the server adds
            later) while none is switched off. The model sees each one under a name made of the
            connection&apos;s and the tool&apos;s.
          </P>
          <P>
            A workflow&apos;s <A href="/docs/workflow-nodes">Tool step</A> can call one MCP tool directly:
            choose the connection, then its <UI>MCP tool</UI>.
          </P>
        </>
      ),
    },
    {
      title: 'Approvals',
      content: (
        <>
          <P>
            An agent&apos;s link to the server has the approval setting of every tool: <UI>Never</UI>,{' '}
            <UI>Writes</UI> (the default) or <UI>Always</UI>. Under <UI>Writes</UI>, a call of any tool the
            server does not mark read-only waits for a person&apos;s approval in the Inbox first.
          </P>
          <Callout tone="note">
            <p>
              The hints are the server&apos;s own claims. Crewline only trusts them to skip asking for a tool
              that says it reads; anything else asks.
            </p>
          </Callout>
        </>
      ),
    },
    {
      title: 'Streamable HTTP only',
      content: (
        <>
          <P>
            Crewline connects to MCP servers over Streamable HTTP and nothing else. There is no stdio
            transport: a stdio server is a command the host starts, and a Crewline server would have to run
            that command on its own machines for whoever saved the configuration. No MCP configuration can
            start a process here.
          </P>
          <P>
            A server that only speaks stdio can still be used: run it on a machine you control behind a
            Streamable HTTP endpoint, and add that URL.
          </P>
        </>
      ),
    },
    {
      title: 'Limits',
      content: (
        <UL>
          <li>
            Calls go through the same outbound checks as other tools: private and loopback addresses are
            refused unless the server&apos;s operator allowed them.
          </li>
          <li>
            A call longer than the connection&apos;s timeout, or a result larger than {MCP_MAX_RESULT_MIB}{' '}
            MiB, fails with a message.
          </li>
          <li>
            A tool&apos;s error reaches the model as a tool error it can react to, and the run&apos;s log
            shows it in words.
          </li>
        </UL>
      ),
    },
  ],
};
