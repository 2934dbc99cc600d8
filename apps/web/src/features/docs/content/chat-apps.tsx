import type { DocContent } from '../components/docs-layout';
import { A, C, Callout, CodeBlock, P, Table, UI, UL } from '../components/prose';
import {
  API_KEY_PREFIX,
  CHAT_ACCESS_LABELS,
  CHAT_DEFAULT_APP_RATE_LIMIT_PER_MINUTE,
  CHAT_DEFAULT_RATE_LIMIT_PER_MINUTE,
  CHAT_HISTORY_TOKEN_BUDGET,
  CHAT_MAX_ALLOWED_ORIGINS,
  CHAT_MAX_MESSAGE_CHARS,
  CHAT_MAX_SUGGESTIONS,
  CHAT_MESSAGES,
  CHAT_MIN_PASSWORD_CHARS,
  CHAT_REPLY_WAIT_SECONDS,
  CHAT_THREAD_DAYS,
} from '../docs-facts';

/** The slug every example uses. */
const SLUG = 'support';

const pageUrl = (origin: string) => `${origin}/chat/${SLUG}`;
const widgetTag = (origin: string) => `<script src="${origin}/widget.js" data-app="${SLUG}" async></script>`;

const typescriptExample = (origin: string) => `import OpenAI from 'openai';

const client = new OpenAI({
  baseURL: '${origin}/v1',
  apiKey: process.env.CREWLINE_API_KEY, // an organization API key, ${API_KEY_PREFIX}…
});

// One answer, once the workflow's run has ended.
const completion = await client.chat.completions.create({
  model: '${SLUG}', // the chat app's slug
  messages: [{ role: 'user', content: 'Where is my order 1042?' }],
});
console.log(completion.choices[0].message.content);

// The same, streamed as the workflow writes it.
const stream = await client.chat.completions.create({
  model: '${SLUG}',
  messages: [
    { role: 'user', content: 'Where is my order 1042?' },
    { role: 'assistant', content: completion.choices[0].message.content ?? '' },
    { role: 'user', content: 'Can it come on Saturday?' },
  ],
  stream: true,
});
for await (const chunk of stream) process.stdout.write(chunk.choices[0]?.delta?.content ?? '');
`;

const pythonExample = (origin: string) => `import os
from openai import OpenAI

client = OpenAI(
    base_url="${origin}/v1",
    api_key=os.environ["CREWLINE_API_KEY"],  # an organization API key, ${API_KEY_PREFIX}…
)

# One answer, once the workflow's run has ended.
completion = client.chat.completions.create(
    model="${SLUG}",  # the chat app's slug
    messages=[{"role": "user", "content": "Where is my order 1042?"}],
)
print(completion.choices[0].message.content)

# The same, streamed as the workflow writes it.
stream = client.chat.completions.create(
    model="${SLUG}",
    messages=[{"role": "user", "content": "Where is my order 1042?"}],
    stream=True,
)
for chunk in stream:
    if chunk.choices:
        print(chunk.choices[0].delta.content or "", end="", flush=True)
`;

const curlExample = (origin: string) => `curl ${origin}/v1/chat/completions \\
  -H "Authorization: Bearer $CREWLINE_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{
    "model": "${SLUG}",
    "messages": [{ "role": "user", "content": "Where is my order 1042?" }]
  }'`;

const modelsCurl = (origin: string) => `curl ${origin}/v1/models \\
  -H "Authorization: Bearer $CREWLINE_API_KEY"`;

export const chatApps: DocContent = {
  intro: (
    <P>
      Publish a workflow as a chat app and people can talk to it: on a page of its own, in a chat bubble on
      your website, or from any program that speaks to OpenAI&apos;s chat API. Each message someone sends is a
      run of the workflow, with the conversation so far as its input, and the reply streams back as the
      workflow&apos;s agent writes it.
    </P>
  ),
  sections: [
    {
      title: 'Publish a chat app',
      content: (
        <>
          <P>
            Owners and admins publish active workflows. Open the workflow in the builder, go to the{' '}
            <UI>Settings</UI> tab and, in its <UI>Chat app</UI> section, switch on{' '}
            <UI>Publish as a chat app</UI>:
          </P>
          <UL>
            <li>
              <UI>Name</UI>: the title of its page and widget. <UI>Slug</UI>: its address,{' '}
              <C>/chat/&lt;slug&gt;</C>, 3 to 48 lower-case letters, digits or single dashes, used once across
              this Crewline: “{CHAT_MESSAGES.slugTaken(SLUG)}”
            </li>
            <li>
              <UI>Greeting</UI>: the first message people see, and up to {CHAT_MAX_SUGGESTIONS}{' '}
              <UI>Suggested first messages</UI>, shown as buttons before the conversation starts.
            </li>
            <li>
              <UI>Theme</UI>: <UI>Auto</UI> follows the visitor&apos;s system, or always <UI>Light</UI> or{' '}
              <UI>Dark</UI>; the accent color paints their messages and the buttons.
            </li>
            <li>
              <UI>Who can use it</UI>: see <A href="#who-can-use-it">Who can use it</A>.
            </li>
            <li>
              <UI>Sites that may embed it</UI>, <UI>Messages per visitor per minute</UI>,{' '}
              <UI>Messages per minute for everyone</UI> and <UI>Monthly spending cap (USD)</UI>: see{' '}
              <A href="#the-widget">The widget</A> and <A href="#limits">Limits</A>.
            </li>
          </UL>
          <P>
            Then <UI>Save chat app</UI>. The section shows the page&apos;s address and the widget&apos;s tag,
            each with a copy button, and <UI>Conversations</UI>: what people wrote, each reply linked to its
            run. To stop, switch it off and save: the page says “{CHAT_MESSAGES.off}” at once, and the
            conversations are kept.
          </P>
          <Callout tone="note">
            <p>A draft cannot be published: “{CHAT_MESSAGES.notActive}”</p>
          </Callout>
        </>
      ),
    },
    {
      title: 'Who can use it',
      content: (
        <>
          <Table
            caption="Who can use a chat app"
            head={['Setting', 'Who', 'What they do first']}
            rows={[
              [
                CHAT_ACCESS_LABELS.members,
                'Members of your organization',
                'Sign in to Crewline; the page offers the way and comes back.',
              ],
              [CHAT_ACCESS_LABELS.link, 'Anyone who has the address', 'Nothing.'],
              [
                CHAT_ACCESS_LABELS.password,
                'Anyone with the address and the password',
                `Type the password once (at least ${CHAT_MIN_PASSWORD_CHARS} characters); the browser keeps it for ${CHAT_THREAD_DAYS} days.`,
              ],
            ]}
          />
          <P>
            A visitor who is not a member is outside your organization: their runs are untrusted, so tools
            that change things wait for an approval and agent memory learns nothing from them. A member&apos;s
            runs are theirs, as if they had started them.
          </P>
        </>
      ),
    },
    {
      title: 'The hosted page',
      content: (
        <>
          <P>
            Every chat app has a page of its own, made for phones first, with nothing of the app around it:
          </P>
          <CodeBlock label="address" copyLabel="chat page address" code={pageUrl} />
          <UL>
            <li>
              The conversation is kept in the visitor&apos;s browser: a reload or a later visit shows it
              again, for {CHAT_THREAD_DAYS} days after its last message. <UI>New conversation</UI> starts
              over.
            </li>
            <li>
              Replies are Markdown: lists, tables, code and links. Any HTML in them is dropped, and links open
              in a new tab.
            </li>
            <li>
              Enter sends, Shift+Enter starts a new line; a message is at most{' '}
              {CHAT_MAX_MESSAGE_CHARS.toLocaleString('en-US')} characters.
            </li>
          </UL>
        </>
      ),
    },
    {
      title: 'The widget',
      content: (
        <>
          <P>
            Put one tag in the pages of your site, before <C>&lt;/body&gt;</C>: it adds a chat bubble in the
            corner that opens the chat app in a panel.
          </P>
          <CodeBlock label="html" copyLabel="widget tag" code={widgetTag} />
          <UL>
            <li>
              The tag loads one small script from this Crewline and nothing from anyone else; the chat itself
              runs in a frame of this Crewline&apos;s, so your page&apos;s scripts and styles do not touch it.
            </li>
            <li>
              List each site that embeds it under <UI>Sites that may embed it</UI>, one origin per line (a
              scheme, a host and an optional port: <C>https://www.example.com</C>; up to{' '}
              {CHAT_MAX_ALLOWED_ORIGINS}). A site not on the list cannot show the chat: browsers refuse to
              frame it there.
            </li>
          </UL>
        </>
      ),
    },
    {
      title: 'OpenAI-compatible endpoint',
      content: (
        <>
          <P>
            Programs talk to a chat app as to an OpenAI model: the official <C>openai</C> SDKs, LangChain,
            LibreChat, Open WebUI or your own code work unchanged once given this Crewline&apos;s <C>/v1</C>{' '}
            as their base URL, one of the organization&apos;s <A href="/docs/api-keys">API keys</A> as their
            key, and the app&apos;s slug as the <C>model</C>.
          </P>
          <CodeBlock label="TypeScript" copyLabel="TypeScript example" code={typescriptExample} />
          <CodeBlock label="Python" copyLabel="Python example" code={pythonExample} />
          <CodeBlock label="shell" copyLabel="curl example" code={curlExample} />
          <UL>
            <li>
              The last message is the user&apos;s, the one the workflow answers; the earlier user and
              assistant messages are the conversation so far. System messages are not passed on: the
              workflow&apos;s agents have their own instructions.
            </li>
            <li>
              <C>stream: true</C> answers Server-Sent Events in OpenAI&apos;s chunk format, ending with{' '}
              <C>data: [DONE]</C>; without it, the answer comes once the run has ended, with the run&apos;s
              tokens as <C>usage</C>.
            </li>
            <li>
              A key acts for a member, so the app&apos;s <UI>Who can use it</UI> does not apply; its rate
              limits and spending cap do. Errors have OpenAI&apos;s shape,{' '}
              <C>{'{ "error": { message, type, param, code } }'}</C>.
            </li>
          </UL>
          <P>
            <C>GET /v1/models</C> lists the organization&apos;s chat apps that are switched on:
          </P>
          <CodeBlock label="shell" copyLabel="models example" code={modelsCurl} />
        </>
      ),
    },
    {
      title: 'What the workflow receives',
      content: (
        <>
          <P>
            Each message starts a run with trigger <UI>Chat</UI>. Its input is the message, the conversation
            before it, the conversation&apos;s id and who wrote:
          </P>
          <CodeBlock
            label="json"
            copyLabel="chat run input"
            code={`{
  "message": "Can it come on Saturday?",
  "history": [
    { "role": "user", "content": "Where is my order 1042?" },
    { "role": "assistant", "content": "Order 1042 ships tomorrow." }
  ],
  "threadId": "0b7f3c2e-5a41-4d8e-9c6b-2f1e8a9d7c30",
  "visitor": { "id": "5c1d…", "member": false }
}`}
          />
          <P>
            The history keeps the newest messages that fit about{' '}
            {CHAT_HISTORY_TOKEN_BUDGET.toLocaleString('en-US')} tokens together; older ones are dropped whole,
            so a long conversation never makes a run&apos;s input grow past that. The reply is the answer of
            the workflow&apos;s last agent step; it streams while that agent writes.
          </P>
        </>
      ),
    },
    {
      title: 'Limits',
      content: (
        <UL>
          <li>
            Each visitor may send {CHAT_DEFAULT_RATE_LIMIT_PER_MINUTE} messages a minute and all visitors
            together {CHAT_DEFAULT_APP_RATE_LIMIT_PER_MINUTE}, unless you set other figures; past either: “
            {CHAT_MESSAGES.tooMany(20)}”
          </li>
          <li>
            A monthly spending cap stops the app once its runs have spent it, until the next calendar month
            (UTC): “{CHAT_MESSAGES.capReached}” The plan&apos;s runs and your organization&apos;s and the
            workflow&apos;s budgets apply too.
          </li>
          <li>
            A reply that takes longer than {CHAT_REPLY_WAIT_SECONDS} seconds appears in the conversation when
            it is ready; the run goes on meanwhile.
          </li>
        </UL>
      ),
    },
  ],
};
