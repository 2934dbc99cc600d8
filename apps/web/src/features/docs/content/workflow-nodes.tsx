// The Workflow nodes guide: each node kind (what it does, its fields, its node JSON, what its step
// records), expressions and templates, and a deciding run's answer. Its examples are one support-triage
// workflow (workflow-examples.ts), checked against the API and the engine by workflow-examples.test.ts.
import { DEFAULT_AI_TOOL_MODEL } from '@crewline/contracts/vocabulary';

import type { DocContent } from '../components/docs-layout';
import { A, C, Callout, CodeBlock, P, Table, UI, UL } from '../components/prose';
import {
  expressionExamples,
  formatJson as json,
  nodeJson,
  triageExecution,
  triageWorkflow,
} from '../workflow-examples';

/** A kind's node JSON, as the API's workflow bodies carry it. */
function NodeExample({ type }: { type: string }) {
  return <CodeBlock label="json" copyLabel={`${type} node`} code={nodeJson(type)} />;
}

/** The run's answer, its output map cut to the entries the text talks about. */
const executionExcerpt = (() => {
  const { output, ...run } = triageExecution;
  const { classify, route, reply, perOrder, approve } = output;
  return json({
    id: run.id,
    status: run.status,
    workflowVersion: run.workflowVersion,
    output: { classify, route, reply, perOrder, approve, '…': '…' },
    result: run.result,
  });
})();

export const workflowNodes: DocContent = {
  intro: (
    <>
      <P>
        Besides agents, a sequential workflow can choose a path, call a tool without a model, compute values,
        do something for each item of a list, repeat until a condition holds, join paths again, wait for
        people to approve and wait for a time. Each node kind is a box on the builder&apos;s canvas (pick it
        from the palette) and an entry of the workflow&apos;s <C>nodes</C> in the API:{' '}
        <C>{'{ id, type, position, data }'}</C>, where <C>type</C> is the kind and <C>data</C> its fields.
      </P>
      <P>
        The examples on this page are one workflow, <em>Support triage</em>: it classifies a ticket, looks up
        the orders of billing tickets, summarizes each order, drafts a reply until a reviewer approves it,
        asks an admin to approve the refund and waits a day before it ends. Its whole definition is at the end
        of the page.
      </P>
    </>
  ),
  sections: [
    {
      title: 'Paths, skips and merges',
      content: (
        <>
          <P>
            A node runs once every path into it is resolved (taken and finished, or skipped) and at least one
            was taken. A condition takes one of its paths; the others are skipped, and so is every node that
            lies only beyond them. Skipped nodes are never sent to a model: a run lists them with the status{' '}
            <C>skipped</C>, and the run graph shows them greyed out.
          </P>
          <UL>
            <li>
              A node with several paths in waits for all of them, as an <C>all</C> merge does, and runs once.
            </li>
            <li>
              Cycles are refused, except through a loop node. Steps run one at a time, in the order they
              became ready.
            </li>
            <li>
              Parallel and hierarchical workflows take agents only: a condition, guardrail, tool, transform,
              code, map, loop, merge, approval or delay there is refused when you save (&lsquo;Condition
              &quot;Route&quot; works only in sequential workflows; this one is parallel&rsquo;). A note is
              allowed anywhere.
            </li>
            <li>
              The run&apos;s result is the answer of the last finished step that has text (not a
              condition&apos;s or a transform&apos;s).
            </li>
          </UL>
          <Table
            caption="Node kinds"
            head={['Kind', 'What it does', 'Its step’s data']}
            rows={[
              [
                'Agent',
                'Asks one of your agents; with an output schema, for structured data.',
                'The parsed answer',
              ],
              [
                'Condition',
                'Takes the first branch whose expression is true, else its else path.',
                <C key="c">{'{ branch }'}</C>,
              ],
              [
                'Guardrail',
                'Checks text for PII, secrets, prompt injection, harmful content or your rules; passes or fails.',
                <C key="g">{'{ passed, text, findings }'}</C>,
              ],
              [
                'Tool',
                'Calls one of your tools with arguments from templates; no model.',
                'The tool’s result',
              ],
              ['Transform', 'Computes named values into vars; no model.', 'The values it set'],
              ['Code', 'Runs a few lines of JavaScript in a sandbox; no model.', 'The value it returns'],
              ['Map', 'Runs an agent or a workflow for each item of a list.', 'Each item’s result, in order'],
              ['Loop', 'Runs an agent or a workflow again until a condition holds.', 'Each pass’s result'],
              ['Merge', 'Joins paths: all that were taken, or the first.', 'The taken inputs'],
              [
                'Approval',
                'Waits for people to approve or reject, with a form and a timeout.',
                <C key="a">{'{ decision, decisions, fields }'}</C>,
              ],
              ['Delay', 'Waits for a duration or until a time.', <C key="d">{'{ until }'}</C>],
              ['Note', 'Text on the canvas for the people reading it.', 'Never runs'],
              ['Start, End', 'Where a run begins (with its input) and finishes.', 'Not steps'],
            ]}
          />
        </>
      ),
    },
    {
      title: 'Agent',
      content: (
        <>
          <P>
            Asks one of your agents (<C>agentId</C>), as before. Two optional fields make its answer usable by
            the nodes after it:
          </P>
          <Table
            caption="Agent node fields"
            head={['Field', 'What it is']}
            rows={[
              [
                <C key="s">outputSchema</C>,
                'A JSON Schema object the answer must follow (the agent’s own, when the node has none). The model is asked for that shape; an answer that does not match is retried once with the error.',
              ],
              [
                <C key="p">prompt</C>,
                <>
                  A template (<C>{'{{ expr }}'}</C>) replacing the default message with the run&apos;s input
                  and the answers before it.
                </>,
              ],
            ]}
          />
          <NodeExample type="agent" />
          <P>
            Its step keeps the text as <C>content</C> and the parsed object as <C>data</C>, so a later
            expression reads <C>nodes.classify.data.category</C>, and a typo in a field of the schema is
            refused when the workflow is saved.
          </P>
        </>
      ),
    },
    {
      title: 'Condition',
      content: (
        <>
          <P>
            Ordered branches <C>{'{ id, label, when }'}</C>, where <C>when</C> is an expression that gives
            true or false. The first branch whose expression is true is taken; if none is, the <UI>else</UI>{' '}
            path is. The else path must be connected: a run always has somewhere to go (&lsquo;Condition
            &quot;Route&quot; needs an else path&rsquo;).
          </P>
          <NodeExample type="condition" />
          <P>
            Each edge out of a condition names the path it leaves from in <C>sourceHandle</C>: a branch&apos;s{' '}
            <C>id</C>, or <C>else</C>. Several paths may lead to the same node.
          </P>
          <CodeBlock
            label="json"
            copyLabel="condition edges"
            code={json(triageWorkflow.edges.filter((e) => e.source === 'route'))}
          />
          <P>
            Its step&apos;s <C>data</C> is <C>{'{ "branch": "billing" }'}</C> (a branch id or{' '}
            <C>&quot;else&quot;</C>), and its record lists each branch&apos;s expression with the value it
            gave, which the step inspector shows.
          </P>
        </>
      ),
    },
    {
      title: 'Guardrail',
      content: (
        <>
          <P>
            Checks text for personal data, secrets, prompt injection, harmful content or rules of your own,
            then takes its <C>pass</C> or <C>fail</C> path. The text is what <C>target</C> gives, an
            expression such as <C>nodes.draft.content</C>; without one, the previous step&apos;s text. Each of
            its <C>checks</C> that is on runs (<C>enabled</C>, true when absent; a check that is off is kept
            but not run). A new Guardrail in the builder starts with one PII check that redacts.
          </P>
          <Table
            caption="Guardrail checks"
            head={['Check', 'What it finds', 'Its settings']}
            rows={[
              [
                <C key="p">pii</C>,
                'Emails, phone numbers, payment card numbers (Luhn-checked), IBANs, IP addresses and national identifiers.',
                <>
                  <C>entities</C>: <C>email</C>, <C>phone</C>, <C>card</C>, <C>iban</C>, <C>ip</C>,{' '}
                  <C>national_id</C> (all when absent); <C>countries</C> whose national identifiers count (
                  <C>us</C>, <C>gb</C>, <C>es</C>, <C>fr</C>, <C>it</C>, <C>nl</C>; all when absent).
                </>,
              ],
              [
                <C key="s">secrets</C>,
                'API keys and tokens of well-known shapes, private keys, connection strings.',
                'None.',
              ],
              [
                <C key="i">injection</C>,
                'Attempts to override the instructions or jailbreak the model: quick heuristics, then a classifier prompt on a model (metered).',
                <>
                  <C>threshold</C>: the score from 0 to 1 from which it finds something, 0.5 when absent.
                </>,
              ],
              [
                <C key="m">moderation</C>,
                'Harmful content: OpenAI’s moderation endpoint on an OpenAI connection, otherwise a classifier prompt.',
                <>
                  <C>categories</C> (OpenAI’s names, such as <C>harassment</C> or <C>violence/graphic</C>; all
                  when absent) and <C>threshold</C>.
                </>,
              ],
              [
                <C key="r">rule</C>,
                'Your own rule: it finds something when its expression is true, or when the text is about none of its topics (a classifier prompt).',
                <>
                  <C>label</C> (how findings name it), <C>when</C> (a condition over <C>text</C>, <C>input</C>
                  , <C>nodes</C>, <C>vars</C> and <C>run</C>) and/or <C>topics</C>.
                </>,
              ],
            ]}
          />
          <Table
            caption="What a check does with what it finds (action)"
            head={['Action', 'What happens']}
            rows={[
              [<C key="b">block</C>, 'The guardrail takes its fail path.'],
              [
                <C key="r">redact</C>,
                <>
                  What was found is replaced in the text that goes on: <C>[EMAIL]</C>, <C>[CARD]</C>,{' '}
                  <C>[SECRET]</C>… Only PII and secrets checks can redact.
                </>,
              ],
              [<C key="f">flag</C>, 'Only recorded: the guardrail passes.'],
            ]}
          />
          <NodeExample type="guardrail" />
          <P>
            Each edge out of a guardrail names its path in <C>sourceHandle</C>: <C>pass</C> or <C>fail</C>.
            Both must be connected (&lsquo;Guardrail &quot;Screen the answer&quot; needs a pass path and a
            fail path&rsquo;); in the builder they are the node&apos;s <UI>Pass</UI> and <UI>Fail</UI>{' '}
            handles. The steps after it read the text as it went on, redacted, never as it came.
          </P>
          <CodeBlock
            label="json"
            copyLabel="guardrail edges"
            code={json(triageWorkflow.edges.filter((e) => e.source === 'screen'))}
          />
          <P>
            Classifier checks (prompt injection, topics, and moderation without OpenAI&apos;s endpoint) run on
            the node&apos;s <C>classifier</C>, <C>{'{ provider, model }'}</C> (the panel&apos;s Classifier
            model), or on {DEFAULT_AI_TOOL_MODEL} on the OpenAI connection when it has none; their calls count
            in the run&apos;s cost.
          </P>
          <P>
            Its step&apos;s <C>data</C> is <C>{'{ passed, text, findings }'}</C>: whether it passed, the text
            that went on, and each finding <C>{'{ check, kind, start, end, action, score? }'}</C>, where{' '}
            <C>start</C> and <C>end</C> are offsets in the checked text. Findings never hold the values found:
            not in the step, the run log or the step inspector, which shows <UI>Passed</UI> or{' '}
            <UI>Blocked</UI>, the text with its redactions marked, and a table of the findings. For the input{' '}
            <C>Write to ana@example.com please</C>:
          </P>
          <CodeBlock
            label="json"
            copyLabel="guardrail step data"
            code={json({
              passed: true,
              text: 'Write to [EMAIL] please',
              findings: [{ check: 'pii', kind: 'email', start: 9, end: 24, action: 'redact' }],
            })}
          />
        </>
      ),
    },
    {
      title: 'Guardrails on agents',
      content: (
        <>
          <P>
            An agent can carry checks of its own, the same ones as a Guardrail step, wherever it runs: in the
            agent&apos;s <UI>Advanced</UI> tab, under <UI>Guardrails</UI>, <UI>On its input</UI> (what it is
            asked), <UI>On its answer</UI> and <UI>On its tool calls</UI> (their arguments and results). In
            the API they are the agent&apos;s <C>guardrails</C> field,{' '}
            <C>{'{ "input": [checks], "output": [checks], "tools": [checks] }'}</C>, each list optional;{' '}
            <C>{'{}'}</C> for none. Its classifier checks run on the agent&apos;s own model.
          </P>
          <UL>
            <li>
              <C>block</C> fails the agent&apos;s step with &lsquo;Blocked by guardrail: &lt;check&gt;&rsquo;,
              such as &lsquo;Blocked by guardrail: PII&rsquo;. While an agent has guardrails on, its node on
              the canvas also offers a <UI>Blocked by a guardrail</UI> path: connect it, and a block no longer
              fails the run but goes on along that path (the step&apos;s content is the block, and nothing is
              sent to its output destination). In the API that path is an edge with{' '}
              <C>{'"sourceHandle": "fail"'}</C>.
            </li>
            <li>
              <C>redact</C> replaces what was found before it goes on: in what the model is asked, in its
              answer, or in a tool call&apos;s arguments and result.
            </li>
            <li>
              <C>flag</C> only records the finding. As on the step, findings keep kinds and positions, never
              the values.
            </li>
          </UL>
        </>
      ),
    },
    {
      title: 'Tool',
      content: (
        <>
          <P>
            Calls one of your organization&apos;s tools (<C>toolId</C>) directly, with no model. Each of its{' '}
            <C>arguments</C> is a template; an argument that is exactly one <C>{'{{ expr }}'}</C> keeps the
            value&apos;s type, so <C>orderIds</C> below is a list, not text.
          </P>
          <NodeExample type="tool" />
          <P>
            Its step records the arguments as they were sent and the result, which is its <C>data</C>.
          </P>
        </>
      ),
    },
    {
      title: 'Transform',
      content: (
        <>
          <P>
            Sets named values, in order, each computed by an expression: <C>{'{ name, value }'}</C>. The nodes
            after it read them as <C>vars.orderCount</C>. Names are letters, digits and <C>_</C>, starting
            with a letter.
          </P>
          <NodeExample type="transform" />
          <P>
            Its step&apos;s <C>data</C> is the object it set (
            <C>{'{ "orderCount": 2, "priority": "high" }'}</C>
            ), and its record each expression with its value.
          </P>
        </>
      ),
    },
    {
      title: 'Code',
      content: (
        <>
          <P>
            Runs a few lines of JavaScript (ES2023) when an expression is not enough: a sum over a list, a
            reshaped object. The code reads <C>input</C>, <C>nodes</C> and <C>vars</C>, the same values
            expressions read, as plain JSON. Its <C>return</C> value (without one, its last expression) is the
            step&apos;s <C>data</C>; it must be JSON (objects, lists, strings, numbers, booleans, null) and
            under 1 MiB. A promise is awaited.
          </P>
          <NodeExample type="code" />
          <P>
            Here it reads the run&apos;s input{' '}
            <C>{'{ "items": [{ "order": "A-1001", "price": 42.25 }, …] }'}</C> and its step&apos;s <C>data</C>{' '}
            is <C>{'{ "total": 84.5, "large": false }'}</C>: a later condition reads{' '}
            <C>nodes.total.data.large</C>.
          </P>
          <Table
            caption="Code node fields"
            head={['Field', 'What it is']}
            rows={[
              [<C key="s">source</C>, 'The JavaScript, at most 50,000 characters.'],
              [<C key="t">timeoutMs</C>, 'Time limit in milliseconds: 2,000 when absent, at most 30,000.'],
              [<C key="m">memoryMb</C>, 'Memory limit in MiB: 64 when absent, at most 256.'],
            ]}
          />
          <P>
            <C>console.log</C> lines (the first 100, each cut at 1,000 characters) go to the step&apos;s logs:{' '}
            <UI>Test this node</UI> and the step inspector show them under <UI>Console</UI>. A step that goes
            past a limit fails with what it hit:
          </P>
          <UL>
            <li>&lsquo;Code step stopped: it ran longer than 2 s&rsquo;</li>
            <li>&lsquo;Code step stopped: it needed more than 64 MiB of memory&rsquo;</li>
            <li>&lsquo;Code step stopped: its result is larger than 1 MiB&rsquo;</li>
            <li>
              &lsquo;Code step stopped: its result is not JSON (…)&rsquo; and &lsquo;Code step failed: &lt;the
              error it threw&gt;&rsquo;
            </li>
          </UL>
          <Callout title="A sandbox, not Node.js">
            The code runs in QuickJS compiled to WebAssembly, never in the server&apos;s own JavaScript
            engine. It has no network (<C>fetch</C>), no files, no environment, no timers, no <C>require</C>{' '}
            or <C>import</C>, and no Node or host objects; values go in and out as JSON copies. To call a
            service, use a Tool step.
          </Callout>
        </>
      ),
    },
    {
      title: 'Map',
      content: (
        <>
          <P>
            For each item of the list <C>items</C> gives, runs one agent with a prompt template (which reads{' '}
            <C>item</C>, <C>index</C> and <C>last</C>, whether this is the last item) or another workflow of
            your organization (its newest version when the run started, the item as its input).
          </P>
          <Table
            caption="Map node fields"
            head={['Field', 'What it is']}
            rows={[
              [
                <C key="i">items</C>,
                'An expression that gives a list; more items than the plan allows (1,000 on Starter and Professional, 100 on Free, 10,000 on Enterprise) fail the node.',
              ],
              [
                <C key="r">run</C>,
                <>
                  <C>{'{ agentId, prompt }'}</C> or <C>{'{ workflowId }'}</C>.
                </>,
              ],
              [<C key="c">concurrency</C>, 'How many items run at once: 1 to 20.'],
              [
                <C key="o">onItemError</C>,
                <>
                  <C>fail</C> stops the map and fails the node; <C>continue</C> keeps the item&apos;s error
                  and goes on.
                </>,
              ],
            ]}
          />
          <NodeExample type="map" />
          <P>
            Its step&apos;s <C>data</C> is the list <C>{'[{ index, status, content, data, error? }]'}</C> in
            item order, whatever order they finished in. Each item is a step of its own, <C>perOrder[0]</C>,{' '}
            <C>perOrder[1]</C>…, with its tokens and time: a resumed run or a retry never runs a finished item
            again.
          </P>
        </>
      ),
    },
    {
      title: 'Loop',
      content: (
        <>
          <P>
            Runs one agent or workflow (the same <C>run</C> as a map) again and again. After each pass it
            checks <C>until</C>, an expression over <C>last</C>, the pass that just finished (
            <C>{'{ index, status, content, data }'}</C>; null in the first pass&apos;s prompt). It stops when
            that is true, or after <C>maxIterations</C> passes (1 to 50), which completes the node too.{' '}
            <C>until: &quot;true&quot;</C> runs once.
          </P>
          <NodeExample type="loop" />
          <P>
            Its step&apos;s <C>data</C> is every pass, in the map&apos;s shape; each pass is a step of its own
            (<C>draft#1</C>, <C>draft#2</C>…).
          </P>
        </>
      ),
    },
    {
      title: 'Merge',
      content: (
        <>
          <P>
            Joins paths. With <C>mode: &quot;all&quot;</C> it waits for every path into it that was taken (a
            skipped path never blocks it) and runs once; with <C>&quot;first&quot;</C> it goes on with the
            first path to finish.
          </P>
          <NodeExample type="merge" />
          <P>
            Its step&apos;s <C>data</C> is the taken inputs, <C>{'[{ nodeId, content, data }]'}</C>.
          </P>
        </>
      ),
    },
    {
      title: 'Approval',
      content: (
        <>
          <P>
            Waits for people to approve or reject, then takes the path their decision names. They decide in
            the <UI>Inbox</UI>, in the run&apos;s details, or through the API (
            <C>POST /api/approvals/:id/decision</C>), and can fill in a form whose answers the steps after it
            read.
          </P>
          <Table
            caption="Approval node fields"
            head={['Field', 'What it is']}
            rows={[
              [
                <C key="t">title, message</C>,
                <>
                  Templates (<C>{'{{ expr }}'}</C>) over the run&apos;s values: what is decided, as the Inbox
                  lists it, and what the deciders read before they decide.
                </>,
              ],
              [
                <C key="a">assignees</C>,
                <>
                  Who may decide: <C>{'{ userIds }'}</C> (named members) or <C>{'{ roles }'}</C> (<C>owner</C>
                  , <C>admin</C>, <C>member</C>). Without it, any member of the organization.
                </>,
              ],
              [
                <C key="p">policy</C>,
                <>
                  <C>&quot;first&quot;</C>: the first decision wins. <C>&quot;all&quot;</C>: all named
                  approvers must approve, and one rejection rejects. <C>{'{ "quorum": 2 }'}</C>: that many
                  different people must approve.
                </>,
              ],
              [
                <C key="f">fields</C>,
                <>
                  The form, up to 20 fields <C>{'{ name, label, type, options?, required? }'}</C>; the type is{' '}
                  <C>text</C>, <C>number</C>, <C>choice</C> (one of its <C>options</C>) or <C>boolean</C> (yes
                  or no). A decision without a required answer is refused.
                </>,
              ],
              [
                <C key="o">timeout</C>,
                <>
                  <C>{'{ seconds, onTimeout }'}</C>, at most 90 days: with no decision by then,{' '}
                  <C>&quot;reject&quot;</C> takes the rejected path and <C>&quot;branch&quot;</C> the timeout
                  path. Without it, the run waits until someone decides.
                </>,
              ],
            ]}
          />
          <NodeExample type="approval" />
          <P>
            Each edge out of an approval names its path in <C>sourceHandle</C>: <C>approved</C>,{' '}
            <C>rejected</C>, or <C>timeout</C> (only with <C>onTimeout: &quot;branch&quot;</C>). In the
            builder each is a handle of the node, the timeout one only then; an edge from an approval without
            one is refused when you save.
          </P>
          <CodeBlock
            label="json"
            copyLabel="approval edges"
            code={json(triageWorkflow.edges.filter((e) => e.source === 'approve'))}
          />
          <P>
            Its step&apos;s <C>data</C> is <C>{'{ decision, decisions, fields }'}</C>: the outcome (
            <C>approved</C>, <C>rejected</C> or <C>timeout</C>), each person&apos;s decision{' '}
            <C>{'{ userId, decision, comment, fields, at, via }'}</C> (<C>via</C>: where they decided:{' '}
            <C>inbox</C>, <C>run</C>, <C>email</C> or <C>api</C>), and the form&apos;s answers. A later
            expression reads them as <C>nodes.approve.data.fields.amount</C> or{' '}
            <C>nodes.approve.data.decision</C>; a field the form does not have is refused when you save.
          </P>
          <CodeBlock
            label="json"
            copyLabel="approval step data"
            code={json(triageExecution.output.approve.data)}
          />
        </>
      ),
    },
    {
      title: 'Delay',
      content: (
        <>
          <P>
            Waits, then goes on: for <C>seconds</C> from when the step starts (1 second to 90 days), or{' '}
            <C>until</C> the time an expression gives, a CEL timestamp or an ISO 8601 date such as{' '}
            <C>timestamp(input.sendAt)</C>. A time already past goes on at once. The builder shows it as{' '}
            <UI>Waits 2 h</UI> or <UI>Waits until timestamp(input.sendAt)</UI>.
          </P>
          <NodeExample type="delay" />
          <P>
            Its step&apos;s <C>data</C> is <C>{'{ until }'}</C>, the time it waited until (ISO 8601), and it
            passes on what came before it: the step after a delay receives the answers the delay received.
          </P>
        </>
      ),
    },
    {
      title: 'Waiting runs',
      content: (
        <>
          <P>
            A run that reaches an approval or a delay has the status <C>waiting</C>: its card says{' '}
            <UI>Waiting for approval · Refund for ada@example.com?</UI> or when it goes on. A waiting run
            holds no worker: it is stored, and survives restarts of the server and its workers, for as long as
            it waits. When the decision comes or the time is up, a worker takes it again and it goes on from
            that step; the steps before it never run twice.
          </P>
          <UL>
            <li>
              <UI>Cancel</UI> works while a run waits: the run is cancelled and its pending approval closed.
            </li>
            <li>
              Approvals and delays are for sequential workflows only, like the other kinds that choose or join
              paths. A workflow that a map or a loop runs cannot wait: an approval or a delay in it fails the
              step. For the same reason the builder offers no <UI>Test this node</UI> for them.
            </li>
          </UL>
        </>
      ),
    },
    {
      title: 'Note, Start and End',
      content: (
        <>
          <P>
            A note is text on the canvas for the people reading the workflow. It is never run, needs no
            connection and is allowed in every process type.
          </P>
          <NodeExample type="note" />
          <P>
            Every workflow has one <C>start</C> node, where a run begins with its input, and one <C>end</C>{' '}
            node. Neither is a step; their <C>data</C> holds only what the canvas shows, such as <C>label</C>.
          </P>
        </>
      ),
    },
    {
      title: 'Expressions',
      content: (
        <>
          <P>
            Conditions, transforms, map lists and loop conditions are written in CEL, the Common Expression
            Language: comparisons, <C>&amp;&amp;</C>, <C>||</C>, <C>? :</C>, arithmetic, strings, lists and
            maps, with functions such as <C>size</C>, <C>has</C>, <C>filter</C>, <C>map</C>, <C>exists</C> and{' '}
            <C>all</C>. CEL cannot loop forever, read files or call anything.
          </P>
          <Table
            caption="What an expression reads"
            head={['Name', 'What it is']}
            rows={[
              [
                <C key="i">input</C>,
                'What the run started with (the Execute body’s input, a webhook’s body…).',
              ],
              [
                <C key="n">nodes</C>,
                <>
                  Each finished node before this one, by id: <C>nodes.classify.content</C>, <C>.data</C>,{' '}
                  <C>.status</C>. An id that is not a plain name is read as <C>nodes[&quot;agent-2&quot;]</C>.
                </>,
              ],
              [<C key="v">vars</C>, 'The values transforms before this node set.'],
              [
                <C key="r">run</C>,
                <>
                  <C>run.id</C>, <C>run.trigger</C> (<C>manual</C>, <C>schedule</C>, <C>webhook</C>,{' '}
                  <C>email</C>) and <C>run.startedAt</C>.
                </>,
              ],
              [
                <C key="m">item, index, last</C>,
                'In a map’s prompt: the item, its position from 0 and whether it is the last. In a loop: last is the previous pass.',
              ],
            ]}
          />
          <Table
            caption="Expression examples"
            head={['Expression', 'Gives']}
            rows={expressionExamples.map((e) => [<C key="e">{e.expression}</C>, e.gives])}
          />
          <Callout tone="tip" title="Checked when you save">
            <p>
              Every expression is compiled and checked when the workflow is saved or activated: a node that is
              not before this one, a field its output schema does not have, a <C>vars</C> name no transform
              before it sets, or a syntax error answers 400 naming the node and the expression (
              <C>Node &quot;Route&quot;: nodes.classify.data.categry == &quot;billing&quot; — …</C>). The
              builder&apos;s <UI>Validate</UI> runs the same check.
            </p>
          </Callout>
          <UL>
            <li>
              Numbers: whole numbers are CEL ints, others doubles, and mixing them works (<C>count * 1.5</C>).
              Dividing two whole numbers stays whole: write <C>count / 2.0</C> for a fraction.
            </li>
            <li>
              To test a field that may be missing, use <C>has(input.customer)</C>; <C>dyn(…)</C> skips the
              check of a declared schema.
            </li>
            <li>
              At most 5,000 characters and 8 list functions per expression; <C>matches()</C> is not available.
            </li>
          </UL>
        </>
      ),
    },
    {
      title: 'Templates',
      content: (
        <>
          <P>
            Prompts (of agent nodes, maps and loops) and tool arguments are text with expressions in{' '}
            <C>{'{{ }}'}</C>. Each value is inserted as text: strings as they are, numbers and booleans as
            text, lists and objects as JSON, null as nothing. A template that is exactly one{' '}
            <C>{'{{ expr }}'}</C> keeps the value&apos;s type instead (a tool argument can be a list).
          </P>
          <CodeBlock
            label="template"
            copyLabel="template"
            code={'Summarize order {{ item }} ({{ index + 1 }} of {{ vars.orderCount }})'}
          />
        </>
      ),
    },
    {
      title: 'A deciding run’s answer',
      content: (
        <>
          <P>
            <C>GET /api/executions/:id</C> answers the run with its <C>output</C>: each finished step under
            its id, with <C>kind</C>, <C>content</C> (text, may be empty), <C>data</C> (the structured value)
            and <C>status</C> (<C>completed</C>, <C>failed</C> or <C>skipped</C>). Here the ticket was about
            billing: the condition took the <C>billing</C> branch, so <C>reply</C> was skipped, the map ran
            once per order, and an admin approved the refund from the Inbox.
          </P>
          <CodeBlock label="json" copyLabel="execution excerpt" code={executionExcerpt} />
          <P>
            Map items and loop passes are in the output too (<C>perOrder[0]</C>, <C>draft#1</C>), with{' '}
            <C>metadata.baseNodeId</C> naming their node. Each step of the answer&apos;s <C>steps</C> carries
            an <C>evaluation</C> for the kinds that call no model: every expression with its value, and the
            result. The{' '}
            <A href="/docs/api" reload>
              API reference
            </A>{' '}
            describes each field.
          </P>
        </>
      ),
    },
    {
      title: 'The whole example',
      content: (
        <>
          <P>
            The body of <C>POST /api/workflows</C> that creates <em>Support triage</em> (use your own agent
            and tool ids). Validation accepts it as it is; activate it to run it.
          </P>
          <CodeBlock label="json" copyLabel="workflow" code={json(triageWorkflow)} />
        </>
      ),
    },
  ],
};
