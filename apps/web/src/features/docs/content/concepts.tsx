import type { DocContent } from '../components/docs-layout';
import { A, C, Callout, CodeBlock, H3, P, Table, UI, UL } from '../components/prose';
import { DOCS_FREE_LIMITS, DOCS_PLANS, TOOL_CATEGORIES, TRIAL_DAYS } from '../docs-facts';

const count = (value: number | null) => (value === null ? 'Unlimited' : value.toLocaleString('en-US'));
/** Storage quotas are whole MiB or GiB. */
const storage = (bytes: number | null) =>
  bytes === null ? 'Unlimited' : bytes >= 1024 ** 3 ? `${bytes / 1024 ** 3} GiB` : `${bytes / 1024 ** 2} MiB`;

export const concepts: DocContent = {
  sections: [
    {
      title: 'Organizations and roles',
      content: (
        <>
          <P>
            Everything in Crewline (agents, tools, workflows, runs, connections, templates you save) belongs
            to an organization, and no organization ever sees another&apos;s. Whoever signs up owns their own
            organization; a person can belong to several and switch between them.
          </P>
          <Table
            caption="Roles"
            head={['Role', 'What it may do']}
            rows={[
              [
                'Member',
                'Build and run agents, tools and workflows, review runs, and see who else is in the team.',
              ],
              [
                'Admin',
                'Everything a member does, plus invite and remove people, change model and tool connections, rename the organization and manage API keys.',
              ],
              [
                'Owner',
                'Everything an admin does, plus make owners and change the plan. There is always at least one owner.',
              ],
            ]}
          />
          <P>
            Invitations go to an email address with a role, work once and expire after 7 days. Manage the team
            in <UI>Profile &amp; Settings → Organization</UI>.
          </P>
        </>
      ),
    },
    {
      title: 'Agents',
      content: (
        <>
          <P>
            An agent is a specialist that does one job with a language model. You describe who it is; Crewline
            turns that into the instructions the model receives before every task.
          </P>
          <Table
            caption="Agent fields"
            head={['Field', 'What it does']}
            rows={[
              ['Name', 'How the agent is called on the canvas, in runs and by a hierarchical lead.'],
              ['Role', 'Its job title, e.g. “Competitive analyst”. Required.'],
              ['Goal', 'What it is trying to achieve. Required.'],
              ['Backstory', 'Optional background that shapes its tone and judgement.'],
              [
                'System prompt',
                'Optional extra instructions (Advanced tab), sent after the role, goal and backstory.',
              ],
              [
                'Provider and model',
                'Which connection and model answer: OpenAI, Anthropic, Local (Ollama) or a custom OpenAI-compatible server.',
              ],
              [
                'Temperature',
                <>
                  0–100 %: low is precise and repeatable, high is creative. 70 % is sent to the model as{' '}
                  <C>0.7</C>. New agents start at 70.
                </>,
              ],
              [
                'Max tokens',
                'The most tokens one answer may use: 100–8000 when creating an agent (the edit page accepts up to 4000). New agents start at 2000.',
              ],
              ['Tools', 'What the agent may call while it works (see Tools below).'],
            ]}
          />
          <P>
            Every model call starts from the same system message, &ldquo;You are {'{name}'}, {'{role}'}
            .&rdquo;, then the goal, the backstory and the system prompt. The task itself carries the
            run&apos;s input, its runtime instructions and parameters and, in a sequential workflow, the
            outputs of the agents before it.
          </P>
          <P>
            An agent&apos;s status reads active, busy, error or inactive. The card&apos;s <UI>Test</UI> button
            opens the agent&apos;s playground: it sends a fixed greeting and streams the model&apos;s answer,
            then you can go on chatting, with each tool call, the tokens and the time under every reply. The
            conversation is not saved.
          </P>
        </>
      ),
    },
    {
      title: 'Tools',
      content: (
        <>
          <P>
            Tools let an agent act: call an API, query a database, read or write files, send email, ask
            another model. Create them on the <UI>Tools</UI> page (<UI>Create Tool</UI>), then open an agent
            and connect them in its <UI>Tools</UI> tab (<UI>Connect Tool</UI>). A connected tool can be
            switched off without losing its settings. The model decides when to call a tool; the server runs
            the call and gives the answer back to the model.
          </P>
          <Table
            caption="Tool categories"
            head={['Category', 'What the agent can do with it']}
            rows={TOOL_CATEGORIES.map((category) => [category.label, category.does])}
          />
          <UL>
            <li>
              Credentials (API keys, connection strings, passwords, tokens, secrets) are stored encrypted,
              shown only masked, and masked again in whatever a tool returns, so they never reach the model or
              the run history.
            </li>
            <li>
              Every outbound request is checked: private, loopback and cloud metadata addresses are refused
              unless the server&apos;s operator allowed them, and requests have timeouts and size limits.
            </li>
            <li>
              Database tools refuse logins with superuser rights: connect with a role that can only read.
            </li>
            <li>
              Each connected tool has <UI>Ask before running</UI>: <UI>Never</UI>, <UI>Writes</UI> (calls that
              change something: HTTP other than GET/HEAD, email sends, file writes; the default for a new
              connection) or <UI>Always</UI>. A call that needs approval waits for a person in the Inbox.
            </li>
          </UL>
        </>
      ),
    },
    {
      title: 'Workflows',
      content: (
        <>
          <P>
            A workflow is a graph on the builder&apos;s canvas: a <UI>Start</UI> node, agent nodes and an{' '}
            <UI>End</UI> node, joined by connections. Its <UI>Settings</UI> tab holds the name, description,
            process type and trigger.
          </P>
          <H3 id="node-outputs">Where each agent&apos;s output goes</H3>
          <P>
            Every output is kept with the run. An agent node&apos;s <UI>Output Destination</UI> can also send
            it on once the step finishes:
          </P>
          <UL>
            <li>
              <UI>Database</UI> (the default) or <UI>Next node</UI>: kept with the run only.
            </li>
            <li>
              <UI>File</UI>: written to the given path in the organization&apos;s own folder.
            </li>
            <li>
              <UI>Webhook</UI>: POSTed to a URL, with an <C>Idempotency-Key: {'{executionId}:{nodeId}'}</C>{' '}
              header so a receiver can drop a repeat.
            </li>
            <li>
              <UI>Email</UI>: sent to comma-separated recipients through the organization&apos;s SendGrid
              connection.
            </li>
          </UL>
          <H3 id="workflow-status">Status</H3>
          <P>
            A workflow is a <UI>draft</UI> until it is activated, then <UI>active</UI>; it can be{' '}
            <UI>paused</UI>. Only an active workflow runs, by hand or from its trigger. <UI>Save Draft</UI>{' '}
            keeps an existing workflow&apos;s status; <UI>Activate</UI> makes it active. Both refuse a
            workflow with errors (no name, no Start or End node, an agent node whose agent is gone, an invalid
            schedule or email trigger) and show warnings (unconnected or unreachable nodes, possible cycles)
            without refusing.
          </P>
        </>
      ),
    },
    {
      title: 'Process types',
      content: (
        <>
          <P>The process type decides how the agents of one run work together.</P>
          <H3 id="sequential">Sequential</H3>
          <P>
            The agents run one after another, in the order the connections reach them from Start (breadth
            first, each agent once). Each agent receives the run&apos;s input, instructions and parameters,
            plus the outputs of the agents with a connection into it. The run&apos;s result is the last
            agent&apos;s answer. Agents that Start cannot reach do not run.
          </P>
          <H3 id="hierarchical">Hierarchical</H3>
          <P>
            The first agent reached from Start is the <strong>lead</strong>; the other agents are its
            co-workers. The lead gets the task and two extra tools, one to delegate work to a co-worker and
            one to ask a co-worker a question, each naming the co-worker. Every delegation is a step of its
            own in the run, and a co-worker only works when the lead asks. The run&apos;s result is the
            lead&apos;s final answer.
          </P>
          <H3 id="parallel">Parallel</H3>
          <P>
            Every agent on the canvas starts at once on the same input (up to four model calls of one run at
            the same time), and none sees another&apos;s output. The run&apos;s result is every agent&apos;s
            answer, by node.
          </P>
          <Callout tone="tip">
            <p>
              The builder&apos;s header estimates a run&apos;s duration: about 30 seconds per agent when
              sequential, 80 % of that when hierarchical and 30 seconds for a parallel run.
            </p>
          </Callout>
        </>
      ),
    },
    {
      title: 'Triggers',
      content: (
        <>
          <P>
            Besides <UI>Execute</UI>, an active workflow can start itself from the trigger chosen in the
            builder&apos;s <UI>Settings</UI> tab. A triggered run takes the same path as a manual one (queued,
            run by a worker, followed live, pinned to the newest version) and the event becomes the run&apos;s
            input. Pausing the workflow, making it a draft, choosing another trigger or deleting it stops the
            trigger at once.
          </P>
          <Table
            caption="Trigger types"
            head={['Trigger', 'Starts a run when', 'The run’s input']}
            rows={[
              ['Manual', 'Someone chooses Execute, or code calls the API.', 'What the caller sends.'],
              [
                'Schedule',
                'The cron expression matches, in the chosen time zone.',
                <C key="s">{'{ scheduledAt, cron, timezone }'}</C>,
              ],
              [
                'Webhook',
                'A caller POSTs to the workflow’s URL with its secret.',
                'The request body (see Webhooks).',
              ],
              [
                'Email',
                'A message reaches the connected Microsoft 365 inbox, addressed to the workflow’s address.',
                <C key="e">{'{ from, to, subject, body, receivedAt, messageId }'}</C>,
              ],
            ]}
          />
          <H3 id="schedule">Schedule</H3>
          <P>
            A standard 5-field cron expression (minute, hour, day of month, month, day of week) with ranges,
            lists, steps and names such as <C>MON-FRI</C> or <C>JAN</C>, read in any IANA time zone (
            <C>UTC</C> by default, daylight saving followed). Seconds or year fields, <C>@daily</C>-style
            shortcuts and <C>L</C>, <C>W</C>, <C>#</C>, <C>?</C>, <C>H</C> are refused. The builder reads the
            expression back in words with its next three runs.
          </P>
          <CodeBlock label="cron" copyLabel="cron example" code={'30 8 * * MON-FRI   # 08:30 on weekdays'} />
          <P>
            Each tick starts exactly one run, however many servers run Crewline. Ticks missed while no server
            was running are not replayed; a tick found up to a minute late still runs.
          </P>
          <H3 id="webhook">Webhook</H3>
          <P>
            A URL and a secret of the workflow&apos;s own; the body of the call becomes the input. The{' '}
            <A href="/docs/webhooks">Webhooks guide</A> covers it end to end.
          </P>
          <H3 id="email">Email (Microsoft 365)</H3>
          <P>
            An owner or admin connects one Microsoft 365 mailbox in <UI>Profile &amp; Settings → Tools</UI>.
            While at least one email workflow is active, the inbox is read every minute (the server&apos;s{' '}
            <C>MICROSOFT_POLL_SECONDS</C>). A message starts a run of each active email workflow whose{' '}
            <UI>Email Address</UI> is one of its To or Cc addresses (the whole address, in any case) and whose
            optional <UI>Subject Filter</UI> the subject contains (in any case). Each message starts at most
            one run per workflow; mail that arrived before the mailbox was connected, or more than 29 days
            ago, is ignored.
          </P>
          <P>
            Runs a trigger started show <UI>Schedule</UI>, <UI>Webhook</UI> or <UI>Email</UI> as Triggered By.
            When a trigger cannot start a run (the plan&apos;s executions are used up, an agent was deleted),
            the reason is shown on the workflow&apos;s card and in the builder until a run starts again.
          </P>
        </>
      ),
    },
    {
      title: 'Executions',
      content: (
        <>
          <P>An execution (a run) is one pass of a workflow. Its status moves on as it goes:</P>
          <Table
            caption="Execution statuses"
            head={['Status', 'Meaning']}
            rows={[
              ['pending', 'Queued; a worker picks it up straight away.'],
              ['running', 'The agents are working; outputs appear as each step finishes.'],
              ['completed', 'Every step finished; the result is ready.'],
              ['failed', 'A step or a delivery failed; the error says which and why.'],
              ['cancelled', 'Someone chose Cancel; the model calls in flight were stopped.'],
            ]}
          />
          <H3 id="steps">Steps</H3>
          <P>
            Each agent&apos;s answer is stored as soon as it arrives, with its tokens and time, as a step of
            the run (a hierarchical lead&apos;s delegations are steps too). The run&apos;s details show the
            final result first, then the steps in the order they finished. If the server working on a run
            stops, another one resumes it from its stored steps without calling those agents again.
          </P>
          <H3 id="retry">Retry</H3>
          <P>
            A failed or cancelled run has <UI>Retry</UI>: a new run on the same workflow version and input
            that reuses the steps that completed (no model call, their tokens not counted again, marked{' '}
            <em>Reused from run 1a2b3c4d</em>) and runs the rest with the agents&apos; and connections&apos;
            current settings, so a fixed API key takes effect. A sequential run can also be retried from one
            step (<UI>Retry from this step</UI>): the steps before it are reused, it and everything after run
            again.
          </P>
          <H3 id="versions">Versions</H3>
          <P>
            Activating a workflow, and every save that leaves it active, records a numbered version that never
            changes, with an optional note. A run is pinned to the newest version when it starts and executes
            exactly that, even if the workflow is edited meanwhile; its card shows the version (<C>v7</C>),
            and <UI>View graph</UI> shows that version&apos;s graph. In the builder, <UI>History</UI> lists
            the versions, compares one with your draft and restores it.
          </P>
        </>
      ),
    },
    {
      title: 'Templates',
      content: (
        <>
          <P>
            The <A href="/templates">Template Marketplace</A> lists the templates that ship with Crewline
            (workflows and agents for content marketing, customer service, email marketing and business
            intelligence) together with your organization&apos;s own.
          </P>
          <UL>
            <li>
              <UI>Use Template</UI> on a workflow template creates a draft named &ldquo;{'{template name}'}{' '}
              (Copy)&rdquo; and the agents it needs, reusing agents your organization already made from the
              same template. Activate it and it runs.
            </li>
            <li>
              <UI>Save as Template</UI>, in the builder (for a saved workflow) or on an agent&apos;s page,
              saves your own. It stays private to your organization (shown as &ldquo;Your organization&rdquo;)
              and keeps the graph, process type, trigger and agent definitions, never a webhook secret, tools
              or connections.
            </li>
            <li>
              If sample templates are missing, <UI>Load Sample Templates</UI> brings them back without
              duplicating any.
            </li>
          </UL>
        </>
      ),
    },
    {
      title: 'Plans and limits',
      content: (
        <>
          <P>
            Signing up starts a {TRIAL_DAYS}-day trial without a card, on the plan you chose (Professional by
            default). Prices are per organization and month.
          </P>
          <Table
            caption="Plans"
            head={[
              'Plan',
              'Price',
              'Agents',
              'Executions a month',
              'Members',
              'Knowledge storage',
              'Runs at once',
              'API access',
            ]}
            rows={[
              ...DOCS_PLANS.map((plan) => [
                plan.name,
                `$${plan.price}`,
                count(plan.agents),
                count(plan.executionsPerMonth),
                count(plan.members),
                storage(plan.knowledgeStorageBytes),
                String(plan.concurrentRuns),
                plan.apiAccess ? 'Yes' : 'No',
              ]),
              [
                'Free',
                '$0',
                count(DOCS_FREE_LIMITS.agents),
                count(DOCS_FREE_LIMITS.executionsPerMonth),
                count(DOCS_FREE_LIMITS.members),
                storage(DOCS_FREE_LIMITS.knowledgeStorageBytes),
                String(DOCS_FREE_LIMITS.concurrentRuns),
                'No',
              ],
            ]}
          />
          <UL>
            <li>
              Every trial includes API access, whatever its plan. When a trial ends, or a canceled
              subscription&apos;s period does, the organization is on <UI>Free</UI>. An organization has one
              trial: after it, a plan starts when it is paid for.
            </li>
            <li>
              Agents count when one is created; members when someone is invited or joins; executions per
              calendar month (UTC), whatever started them: Execute, Retry, a schedule, a webhook or an email.
            </li>
            <li>
              Runs at once is how many of the organization&apos;s runs are in progress together; more wait in
              the queue and start as others end (a run waiting for a person or a delay does not count). The
              workers share out fairly: the organization using the smallest share of its own limit goes first,
              so one organization&apos;s backlog never holds up another&apos;s runs. An Enterprise agreement
              may set another number.
            </li>
            <li>
              Past a limit the action is refused with a message saying which (HTTP 402 with{' '}
              <C>code: &quot;plan_limit&quot;</C>). Nothing is ever deleted for being over a limit: an
              organization that falls to Free keeps its agents, members and runs, it just cannot add more.
            </li>
            <li>
              Owners change the plan in <UI>Profile &amp; Settings → Billing</UI>: an upgrade applies at once,
              a downgrade at the end of the current period, and any change at once during a trial. Canceling
              keeps the plan until the period (or the trial) ends.
            </li>
          </UL>
        </>
      ),
    },
  ],
};
