import type { DocContent } from '../components/docs-layout';
import { A, C, Callout, P, Step, Steps, UI, UL } from '../components/prose';
import { TRIAL_DAYS } from '../docs-facts';
import { API_REFERENCE_HREF } from '../docs-nav';

export const gettingStarted: DocContent = {
  intro: (
    <>
      <P>
        Crewline lets the people of an organization build AI agents, wire them into workflows on a visual
        canvas, run those workflows by hand, on a schedule, from a webhook or from an email, and review every
        run: which agent did what, with which output, how many tokens and how long it took.
      </P>
      <P>This guide takes you from a new account to your first reviewed run:</P>
      <Steps>
        <Step title="Sign up">
          <P>A {TRIAL_DAYS}-day trial starts at once, no card needed.</P>
        </Step>
        <Step title="Connect a model and create an agent">
          <P>Give Crewline a model to talk to, then describe the specialist you need.</P>
        </Step>
        <Step title="Build, activate and execute a workflow">
          <P>Put the agent on the canvas between Start and End, activate it and run it.</P>
        </Step>
        <Step title="Review the run">
          <P>Read each agent&apos;s output with its tokens and timing.</P>
        </Step>
      </Steps>
    </>
  ),
  sections: [
    {
      title: 'Sign up',
      content: (
        <>
          <P>
            Choose <UI>Start Free Trial</UI> on the <A href="/">home page</A> (or a plan in its pricing
            section), then fill in a username, your email address, your name and a password of at least 6
            characters.
          </P>
          <UL>
            <li>
              You get an organization of your own, and you are its <UI>owner</UI>. Invite your team later from{' '}
              <UI>Profile &amp; Settings → Organization</UI>.
            </li>
            <li>
              The organization starts a {TRIAL_DAYS}-day free trial without a card, on the plan you picked
              (Professional when you came without one). See{' '}
              <A href="/docs/concepts#plans-and-limits">Plans and limits</A>.
            </li>
            <li>You land on your dashboard, signed in.</li>
          </UL>
        </>
      ),
    },
    {
      title: 'Connect a model',
      content: (
        <>
          <P>
            Agents answer through a large language model. Open <UI>Profile &amp; Settings</UI> (your avatar at
            the top right), then the <UI>Tools</UI> tab. Under <UI>LLM Connections</UI>, edit the provider you
            use, enter its API key and pick a default model:
          </P>
          <UL>
            <li>
              <UI>OpenAI</UI>: GPT models through the OpenAI API, or any gateway that mirrors it (change the
              base URL).
            </li>
            <li>
              <UI>Anthropic</UI>: Claude models.
            </li>
            <li>
              <UI>Local (Ollama)</UI>: models served by Ollama or another OpenAI-compatible server you run;
              type any model name it serves.
            </li>
            <li>
              <UI>Custom (OpenAI-compatible)</UI>: any server that speaks the OpenAI Chat Completions API.
            </li>
          </UL>
          <P>
            Keys are stored encrypted and only ever shown masked. Owners and admins change connections;
            members use them.
          </P>
          <Callout tone="note">
            <p>
              A local model server must be reachable from the Crewline server, not just from your browser.
              Private and loopback addresses (such as <C>127.0.0.1:11434</C>) are refused unless whoever runs
              Crewline allows them with <C>EGRESS_ALLOW_LIST</C>.
            </p>
          </Callout>
        </>
      ),
    },
    {
      title: 'Create an agent',
      content: (
        <>
          <P>
            Open <UI>Agents</UI> in the top navigation and choose <UI>Create Agent</UI>. The form has four
            tabs:
          </P>
          <UL>
            <li>
              <UI>Basic Info</UI>: a name, a <UI>Role</UI> (&ldquo;Competitive analyst&rdquo;) and a{' '}
              <UI>Goal</UI> (&ldquo;Summarize competitor prices for the sales team&rdquo;) are required; a
              description and a backstory are optional.
            </li>
            <li>
              <UI>LLM Settings</UI>: the provider and model, the temperature (0–100 %, from precise to
              creative) and the most tokens one answer may use.
            </li>
            <li>
              <UI>Tools</UI>: once the agent is created, open it from its card to connect tools it may call
              while it works.
            </li>
            <li>
              <UI>Advanced</UI>: an optional system prompt with extra instructions, and the agent&apos;s
              status.
            </li>
          </UL>
          <P>
            The agent card&apos;s <UI>Test</UI> button sends a short greeting to the model and shows the
            answer, a quick check that the connection works. The <A href="/docs/concepts#agents">Concepts</A>{' '}
            page explains every field.
          </P>
        </>
      ),
    },
    {
      title: 'Build a workflow',
      content: (
        <>
          <P>
            Open <UI>Workflows</UI> and choose <UI>Create Workflow</UI>. The builder opens with a{' '}
            <UI>Start</UI> and an <UI>End</UI> node on the canvas; they cannot be deleted.
          </P>
          <UL>
            <li>
              In the <UI>Agents</UI> tab on the side, click your agent to add it to the canvas.
            </li>
            <li>
              Drag from a node&apos;s right handle to another node&apos;s left handle to connect them: Start →
              your agent → End. Select a node or a connection and press Delete to remove it.
            </li>
            <li>
              In the <UI>Settings</UI> tab, name the workflow and choose its <UI>Process Type</UI>{' '}
              (sequential, hierarchical or parallel) and its <UI>Trigger Type</UI>. Keep <UI>Manual</UI> for
              now.
            </li>
            <li>
              Select an agent node and open <UI>Properties</UI> to set its label, output format and where its
              output goes (kept with the run, written to a file, POSTed to a webhook or emailed).
            </li>
          </UL>
          <P>
            <UI>Validate</UI> checks the workflow without saving it; <UI>Save Draft</UI> saves it as a draft.
          </P>
          <Callout tone="tip" title="Start from a template">
            <p>
              The <A href="/templates">Template Marketplace</A> has ready-made workflows for content
              marketing, customer service, email marketing and business intelligence. <UI>Use Template</UI>{' '}
              creates the workflow as a draft together with the agents it needs.
            </p>
          </Callout>
        </>
      ),
    },
    {
      title: 'Activate it',
      content: (
        <>
          <P>
            Choose <UI>Activate</UI> in the builder (or on the workflow&apos;s card). Only an active workflow
            runs. Activating first checks the workflow:
          </P>
          <UL>
            <li>
              Errors stop it: a missing name, a missing Start or End node, an agent node whose agent no longer
              exists, or an invalid schedule or email trigger.
            </li>
            <li>
              Warnings are shown but do not stop it: a node that is not connected, a node Start cannot reach,
              a possible cycle.
            </li>
          </UL>
          <P>
            Every activation records a numbered version of the workflow, so each run can show exactly what it
            executed.
          </P>
        </>
      ),
    },
    {
      title: 'Execute it',
      content: (
        <>
          <P>
            Back on <UI>Workflows</UI>, choose <UI>Execute</UI> on the workflow&apos;s card. The{' '}
            <UI>Execute Workflow</UI> dialog takes two optional things for this run only:
          </P>
          <UL>
            <li>
              <UI>Runtime Instructions</UI>, which every agent of the workflow receives (&ldquo;Focus on
              European competitors&rdquo;).
            </li>
            <li>
              <UI>Parameters</UI>: named values passed to every agent, such as a region or a tone.
            </li>
          </UL>
          <P>
            <UI>Execute</UI> queues the run and a worker starts it straight away. The same run can be started
            by a <A href="/docs/concepts#triggers">trigger</A> instead (a schedule, a{' '}
            <A href="/docs/webhooks">webhook</A> or an email) or from your own code with an{' '}
            <A href="/docs/api-keys">API key</A>.
          </P>
        </>
      ),
    },
    {
      title: 'Review the run',
      content: (
        <>
          <P>
            The <UI>Executions</UI> tab of the Workflows page lists every run, newest first, and follows them
            live. A run card shows its status (pending, running, completed, failed or cancelled), when it
            started, how long it took, who or what started it, and its <UI>Output</UI>.
          </P>
          <UL>
            <li>
              <UI>View Details</UI> shows the run&apos;s final result first, then each agent&apos;s output
              with its time and tokens, the runtime instructions, parameters and input.
            </li>
            <li>
              <UI>View graph</UI> shows the workflow version the run executed, each agent marked Done, Reused,
              Failed, Running or Not run.
            </li>
            <li>
              <UI>Download Results</UI> saves the run&apos;s output as JSON.
            </li>
            <li>
              A failed or cancelled run has <UI>Retry</UI>, which reuses the steps that already completed.
            </li>
          </UL>
          <P>
            The <A href="/analytics">Analytics</A> page adds it all up: success rate, run times, tokens and
            per-agent figures.
          </P>
        </>
      ),
    },
    {
      title: 'Where next',
      content: (
        <UL>
          <li>
            <A href="/docs/concepts">Concepts</A>: agents, tools, process types, triggers, executions,
            templates and plans in depth.
          </li>
          <li>
            <A href="/docs/webhooks">Webhooks</A>: start a workflow from any system that can send an HTTP
            request.
          </li>
          <li>
            <A href="/docs/api-keys">API keys</A>: create agents and workflows and run them from your own
            code.
          </li>
          <li>
            <A href={API_REFERENCE_HREF} reload>
              API reference
            </A>
            : every endpoint with its parameters and answers.
          </li>
        </UL>
      ),
    },
  ],
};
