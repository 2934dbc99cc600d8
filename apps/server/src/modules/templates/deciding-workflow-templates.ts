// The shipped workflow templates that decide (conditions, merges, maps and loops: issue 35's node
// kinds). Slugs are seeding keys: never change one.
//
// They are laid out by hand on the builder's 15 px grid, left to right like the agent-only templates
// (sample-workflow-templates.ts): Start at x 45, a column every 270 px, a condition's paths stacked
// 150 px apart, Start, End and Merge centred on an agent card's row. Their agents carry the output
// schema their structured answers follow: a map item or a loop pass takes its agent's schema (a map or
// loop node has none of its own), and the classifier's schema is the one its condition reads.
import type { TemplateAgent, WorkflowEdge, WorkflowNode } from '@crewline/contracts';
import type { SampleWorkflowTemplate } from './sample-templates';

/** The builder's accent colours for agent nodes (sample-workflow-templates.ts uses them in turn). */
const COLORS = { indigo: '#6366f1', sky: '#0ea5e9', emerald: '#10b981', amber: '#f59e0b', pink: '#ec4899' };

const START_X = 45;
const COLUMN = 270;
/** The x of column `n` (0 is the first after Start). */
const col = (n: number) => 255 + n * COLUMN;
/** The y of the main row of cards, and of pills (Start, End, Merge) centred on it. */
const ROW_Y = 195;
const PILL_Y = ROW_Y + 30;
const ROW = 150;

const openai = { llmProvider: 'openai' } as const;

const start = (): WorkflowNode => ({
  id: 'start',
  type: 'start',
  position: { x: START_X, y: PILL_Y },
  data: { label: 'Start' },
});
const end = (x: number): WorkflowNode => ({
  id: 'end',
  type: 'end',
  position: { x, y: PILL_Y },
  data: { label: 'End' },
});

/** An agent step: its node id is the agent's key, so expressions read `nodes.<key>`. */
const agentStep = (
  id: string,
  agent: TemplateAgent,
  color: string,
  position: { x: number; y: number },
  prompt?: string,
): WorkflowNode => ({
  id,
  type: 'agent',
  agentId: agent.key,
  position,
  data: { label: agent.name, color, ...(prompt ? { prompt } : {}) },
});

const edge = (source: string, target: string, sourceHandle?: string): WorkflowEdge => ({
  id: `e-${source}-${target}`,
  source,
  target,
  ...(sourceHandle ? { sourceHandle } : {}),
});

/** A JSON Schema object every provider's strict mode takes: every field required, no others. */
const objectSchema = (properties: Record<string, Record<string, unknown>>) => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});

// ----- Support triage with routing -------------------------------------------------------------

const TRIAGE_CATEGORIES = ['billing', 'bug', 'other'] as const;

const classifier: TemplateAgent = {
  key: 'classifier',
  name: 'Support Classifier',
  description: 'Classifies each request as billing, bug or other, with its urgency and a summary.',
  role: 'Support triage analyst',
  goal: 'Classify every customer request by category and urgency, consistently, so it reaches the right specialist.',
  backstory:
    'You wrote the triage rules for a busy support desk and trained every new hire on them. You can tell a billing dispute from a bug report in one read, even when the customer mixes both.',
  systemPrompt: [
    'The run input is one customer request, usually `{ "message": "…" }`, sometimes with a subject or the customer’s plan.',
    'Answer with the structured fields only; a condition routes the request on your category.',
    'category:',
    '- billing: charges, invoices, refunds, payment failures, plan changes, taxes.',
    '- bug: something in the product does not work as documented (errors, crashes, wrong results, outages).',
    '- other: how-to questions, feature requests, account access, feedback and anything else.',
    'When a request is about both, choose what blocks the customer most right now.',
    'urgency:',
    '- high: the customer cannot work, data is at risk, a payment blocks the account, or a security concern.',
    '- normal: a real problem with a workaround, or a question with a deadline.',
    '- low: feedback, ideas, and questions without time pressure.',
    'summary: one sentence, in your own words, of what the customer needs (no greeting, no names of staff).',
    'Never invent details that are not in the request.',
  ].join('\n'),
  ...openai,
  llmModel: 'gpt-4o-mini',
  temperature: 10,
  maxTokens: 600,
  outputSchema: objectSchema({
    category: {
      type: 'string',
      enum: [...TRIAGE_CATEGORIES],
      description: 'Which specialist the request goes to.',
    },
    urgency: { type: 'string', enum: ['low', 'normal', 'high'], description: 'How soon it needs an answer.' },
    summary: { type: 'string', description: 'One sentence on what the customer needs.' },
  }),
};

const billingSpecialist: TemplateAgent = {
  key: 'billing',
  name: 'Billing Specialist',
  description: 'Works out the answer to billing requests: charges, invoices, refunds and plans.',
  role: 'Billing support specialist',
  goal: 'Work out exactly what happened with the customer’s money and what the support team should do about it.',
  backstory:
    'You spent years on a payments team before moving to support. You read an invoice line by line and never promise money you cannot give.',
  systemPrompt: [
    'You receive a customer request the Support Classifier marked as billing, and its classification.',
    'Write notes for the reply writer, not a reply to the customer:',
    '## What happened — your reading of the charge, invoice or plan question, citing the details the customer gave.',
    '## What to check — the records support must look at (invoice numbers, dates, payment method, plan history).',
    '## Likely resolution — the usual outcome for this kind of case (explain the charge, correct the invoice, escalate a refund request).',
    '## Information to ask for — anything missing, such as the invoice number or the last four digits of the card.',
    'Refunds, credits and exceptions need approval: describe them as options to request, never as promises.',
    'Never ask for a full card number or a password.',
    'Keep it under 250 words.',
  ].join('\n'),
  ...openai,
  llmModel: 'gpt-4o-mini',
  temperature: 20,
  maxTokens: 1000,
};

const bugSpecialist: TemplateAgent = {
  key: 'bug',
  name: 'Bug Specialist',
  description: 'Turns bug reports into a diagnosis, a workaround and an engineering hand-off.',
  role: 'Technical support engineer',
  goal: 'Understand the reported problem well enough to offer a workaround and hand engineering a clear report.',
  backstory:
    'You were a QA engineer before joining support, and you can reproduce almost anything from a vague description. Engineers trust your reports because they always include the steps.',
  systemPrompt: [
    'You receive a customer request the Support Classifier marked as a bug, and its classification.',
    'Write notes for the reply writer, not a reply to the customer:',
    '## Problem — what fails, where, and since when, in the customer’s terms.',
    '## Likely area — the part of the product involved; say "unknown" rather than guess a cause.',
    '## Workaround — a safe step the customer can try now, or "None known".',
    '## Details to ask for — steps to reproduce, browser or app version, screenshots, error text, time it happened.',
    '## Engineering hand-off — a three-line bug report (title, steps, expected vs actual).',
    'If the request suggests an outage or data loss, say so at the top in one line.',
    'Never blame the customer and never promise a fix date.',
  ].join('\n'),
  ...openai,
  llmModel: 'gpt-4o-mini',
  temperature: 20,
  maxTokens: 1000,
};

const generalSupport: TemplateAgent = {
  key: 'general',
  name: 'General Support Agent',
  description:
    'Answers everything that is neither billing nor a bug: how-to questions, requests and feedback.',
  role: 'Customer support generalist',
  goal: 'Give the reply writer what it needs to answer how-to questions, feature requests, access problems and feedback.',
  backstory:
    'You have answered thousands of questions across every part of the product. You know most customers need one clear next step, not a manual.',
  systemPrompt: [
    'You receive a customer request the Support Classifier marked as other, and its classification.',
    'Write notes for the reply writer, not a reply to the customer:',
    '## Request type — how-to question, feature request, account access, feedback or something else.',
    '## Answer — the steps or explanation that answer it, numbered when there are steps.',
    '## Next step — what the customer or the team should do now (link to docs, pass a feature request on, verify identity for access).',
    '## Open points — what you could not answer from the request alone.',
    'For account access, never suggest sharing passwords; point to the reset flow and identity checks.',
    'For feature requests, thank the customer and say it will be passed on; never promise it will ship.',
    'Keep it under 250 words.',
  ].join('\n'),
  ...openai,
  llmModel: 'gpt-4o-mini',
  temperature: 30,
  maxTokens: 1000,
};

const replyWriter: TemplateAgent = {
  key: 'reply',
  name: 'Support Reply Writer',
  description: 'Writes the reply to the customer from the classification and the specialist’s notes.',
  role: 'Customer support writer',
  goal: 'Write a warm, accurate reply the support agent can send with little or no editing.',
  backstory:
    'You were the person your support team asked to rewrite replies to unhappy customers. You keep replies short, concrete and human.',
  systemPrompt: [
    'Your prompt gives the classification (category, urgency, summary), the customer’s message and the specialist’s notes.',
    'Write the reply to the customer, in Markdown, then notes for the support agent:',
    '## Reply',
    '- Greet the customer and acknowledge the problem in one sentence.',
    '- Give the answer or the next steps from the specialist’s notes; number steps the customer must take.',
    '- Ask for any missing details the specialist listed, in one short list.',
    '- Say what happens next and, for high urgency, that the team is on it now.',
    '- Under 180 words, plain and friendly, no internal jargon.',
    '## Notes for the agent — what to check or approve before sending.',
    'Never promise refunds, credits, fix dates or features; the specialist’s options need approval.',
  ].join('\n'),
  ...openai,
  llmModel: 'gpt-4o',
  temperature: 45,
  maxTokens: 1500,
};

/** Support triage: classify (structured) → route → billing | bug | else general → merge → reply → End. */
const supportTriage: SampleWorkflowTemplate = {
  slug: 'routed-support-triage',
  name: 'Support Triage with Routing',
  description:
    'Start it with { "message": "…" }: a classifier sorts the request into billing, bug or other with its urgency, a condition sends it to the matching specialist only, and a writer turns the specialist’s notes into the reply.',
  category: 'Customer Service',
  tags: ['support', 'routing', 'structured-output'],
  processType: 'sequential',
  triggerType: 'manual',
  triggerConfig: {},
  agents: [classifier, billingSpecialist, bugSpecialist, generalSupport, replyWriter],
  nodes: [
    start(),
    agentStep('classify', classifier, COLORS.indigo, { x: col(0), y: ROW_Y }),
    {
      id: 'route',
      type: 'condition',
      position: { x: col(1), y: ROW_Y },
      data: {
        label: 'Route by category',
        branches: [
          { id: 'billing', label: 'Billing', when: 'nodes.classify.data.category == "billing"' },
          { id: 'bug', label: 'Bug', when: 'nodes.classify.data.category == "bug"' },
        ],
      },
    },
    agentStep('billing', billingSpecialist, COLORS.sky, { x: col(2), y: ROW_Y - ROW }),
    agentStep('bug', bugSpecialist, COLORS.emerald, { x: col(2), y: ROW_Y }),
    agentStep('general', generalSupport, COLORS.amber, { x: col(2), y: ROW_Y + ROW }),
    { id: 'join', type: 'merge', position: { x: col(3), y: PILL_Y }, data: { label: 'Join', mode: 'all' } },
    agentStep(
      'reply',
      replyWriter,
      COLORS.pink,
      { x: col(4), y: ROW_Y },
      [
        'Classification: {{ nodes.classify.data.category }} request, {{ nodes.classify.data.urgency }} urgency.',
        'Summary: {{ nodes.classify.data.summary }}',
        '',
        'Customer message:',
        '{{ input.message }}',
        '',
        'Specialist notes:',
        '{{ nodes.join.data[0].content }}',
      ].join('\n'),
    ),
    end(col(4) + 300),
  ],
  edges: [
    edge('start', 'classify'),
    edge('classify', 'route'),
    edge('route', 'billing', 'billing'),
    edge('route', 'bug', 'bug'),
    edge('route', 'general', 'else'),
    edge('billing', 'join'),
    edge('bug', 'join'),
    edge('general', 'join'),
    edge('join', 'reply'),
    edge('reply', 'end'),
  ],
};

// ----- Lead enrichment -------------------------------------------------------------------------

const COMPANY_SIZES = ['startup', 'small', 'mid-market', 'enterprise', 'unknown'] as const;

const leadResearcher: TemplateAgent = {
  key: 'lead-researcher',
  name: 'Lead Researcher',
  description: 'Researches one lead’s company: website, industry, size and a short profile.',
  role: 'Sales research analyst',
  goal: 'Build an accurate, short company profile for each lead so sales can decide who to call first.',
  backstory:
    'You built prospect lists for a fast-growing sales team and learned that one wrong fact costs more than a missing one. You say "unknown" rather than guess.',
  systemPrompt: [
    'You research one lead at a time; your prompt names the company and gives everything known about the lead.',
    'Answer with the structured fields only:',
    '- company: the company’s usual name, cleaned up (no "Inc." unless it is part of the brand).',
    '- website: its main website as a URL, or "unknown".',
    '- industry: a short industry label such as "B2B software" or "Logistics", or "unknown".',
    '- size: startup, small (under 50 people), mid-market (50 to 1,000), enterprise (over 1,000), or unknown.',
    '- summary: two or three sentences on what the company does and why it might need our product.',
    'Use what you know and what the lead record says; do not invent funding rounds, revenue or people.',
    'When the lead record and your knowledge disagree, trust the record and mention the difference in the summary.',
    'If you do not recognise the company, say so in the summary and use "unknown" for what you cannot tell.',
  ].join('\n'),
  ...openai,
  llmModel: 'gpt-4o-mini',
  temperature: 20,
  maxTokens: 800,
  outputSchema: objectSchema({
    company: { type: 'string', description: 'The company’s name.' },
    website: { type: 'string', description: 'Its main website, or "unknown".' },
    industry: { type: 'string', description: 'A short industry label, or "unknown".' },
    size: { type: 'string', enum: [...COMPANY_SIZES], description: 'Company size band.' },
    summary: { type: 'string', description: 'What the company does and why it may need us.' },
  }),
};

const leadPrioritizer: TemplateAgent = {
  key: 'lead-prioritizer',
  name: 'Lead Prioritizer',
  description: 'Ranks the enriched leads and says who sales should contact first, and why.',
  role: 'Sales development lead',
  goal: 'Turn the enriched lead profiles into a ranked call list the sales team can work through today.',
  backstory:
    'You ran a sales development team and reviewed every lead list before it reached a rep. You rank by fit first and size second.',
  systemPrompt: [
    'Your prompt gives the enriched lead profiles as JSON and how many leads could not be researched.',
    'Write, in Markdown:',
    '## Call first — the three to five best-fit leads, each with one line on why and a suggested opening angle.',
    '## Worth a follow-up — the remaining leads in order, one line each.',
    '## Not a fit — leads that look wrong for us, with the reason.',
    '## Could not research — the count of failed leads, and what to check for them (spelling, website).',
    'Rank by fit (industry and need in the summary) before size; a small company with a clear need beats a large one without.',
    'Use only the facts in the profiles; keep every "unknown" as unknown.',
    'Keep the whole list under 400 words.',
  ].join('\n'),
  ...openai,
  llmModel: 'gpt-4o',
  temperature: 30,
  maxTokens: 2000,
};

/** Lead enrichment: map over `input.leads` (5 at a time) → collect the profiles → rank → End. */
const leadEnrichment: SampleWorkflowTemplate = {
  slug: 'lead-enrichment',
  name: 'Lead Enrichment',
  description:
    'Start it with { "leads": [{ "company": "Acme", "email": "…", "notes": "…" }, …] }: each lead’s company is researched, five at a time (a lead that fails is kept aside, the others go on), then the profiles are ranked into a call list.',
  category: 'Business Intelligence',
  tags: ['sales', 'leads', 'enrichment'],
  processType: 'sequential',
  triggerType: 'manual',
  triggerConfig: {},
  agents: [leadResearcher, leadPrioritizer],
  nodes: [
    start(),
    {
      id: 'enrich',
      type: 'map',
      position: { x: col(0), y: ROW_Y },
      data: {
        label: 'Research each lead',
        items: 'input.leads',
        run: {
          agentId: leadResearcher.key,
          prompt: 'Research {{ item.company }} for our sales team. The lead record: {{ item }}',
        },
        concurrency: 5,
        onItemError: 'continue',
      },
    },
    {
      id: 'collect',
      type: 'transform',
      position: { x: col(1), y: ROW_Y },
      data: {
        label: 'Collect profiles',
        assignments: [
          {
            name: 'profiles',
            value: 'nodes.enrich.data.filter(r, r.status == "completed").map(r, r.data)',
          },
          { name: 'failed', value: 'nodes.enrich.data.filter(r, r.status != "completed").size()' },
        ],
      },
    },
    agentStep(
      'rank',
      leadPrioritizer,
      COLORS.sky,
      { x: col(2), y: ROW_Y },
      [
        'Rank these enriched leads into a call list.',
        'Profiles: {{ vars.profiles }}',
        'Leads that could not be researched: {{ vars.failed }}',
      ].join('\n'),
    ),
    end(col(2) + 300),
  ],
  edges: [edge('start', 'enrich'), edge('enrich', 'collect'), edge('collect', 'rank'), edge('rank', 'end')],
};

// ----- Draft-review loop -----------------------------------------------------------------------

const draftEditor: TemplateAgent = {
  key: 'draft-editor',
  name: 'Draft Editor',
  description: 'Writes a draft, reviews it against the brief and rewrites it until it is ready to publish.',
  role: 'Writer and editor',
  goal: 'Produce a draft on the topic that a demanding editor approves, improving it with each pass.',
  backstory:
    'You have been both the writer and the editor on a small content team, so you know how to critique your own work honestly. You approve a draft only when you would publish it under your own name.',
  systemPrompt: [
    'You run in a loop of at most three passes: each pass sees the current draft and the feedback from the last review.',
    'On the first pass your prompt gives the topic: write a complete first draft of about 300 to 500 words.',
    'On later passes, rewrite the draft to address every point of the feedback; keep what already works.',
    'Then review the new draft as a strict editor would, and answer with the structured fields:',
    '- draft: the full new draft in Markdown (never a summary or a diff).',
    '- approved: true only if the draft is accurate, clear, well structured and ready to publish as is.',
    '- feedback: when not approved, the three most important concrete changes still needed; when approved, one line on why.',
    'Judge against the topic and any audience or tone the run input names.',
    'Do not approve a draft that contains unsupported statistics, filler or an unclear ending.',
    'Never invent quotes or sources; mark a fact that needs checking as [verify].',
  ].join('\n'),
  ...openai,
  llmModel: 'gpt-4o',
  temperature: 50,
  maxTokens: 3000,
  outputSchema: objectSchema({
    draft: { type: 'string', description: 'The full draft after this pass, in Markdown.' },
    approved: { type: 'boolean', description: 'Whether the draft is ready to publish.' },
    feedback: { type: 'string', description: 'What still needs to change, or why it is approved.' },
  }),
};

/** Draft-review loop: the editor rewrites the draft until it approves it, at most 3 passes → End. */
const draftReviewLoop: SampleWorkflowTemplate = {
  slug: 'draft-review-loop',
  name: 'Draft Review Loop',
  description:
    'Start it with { "topic": "…" }: an editor writes a draft, reviews it and rewrites it from its own feedback until it approves the draft, at most three passes; the last pass holds the final draft.',
  category: 'Content Marketing',
  tags: ['writing', 'editing', 'loop'],
  processType: 'sequential',
  triggerType: 'manual',
  triggerConfig: {},
  agents: [draftEditor],
  nodes: [
    start(),
    {
      id: 'revise',
      type: 'loop',
      position: { x: col(0), y: ROW_Y },
      data: {
        label: 'Draft until approved',
        run: {
          agentId: draftEditor.key,
          prompt: [
            'Topic: {{ input.topic }}',
            '',
            'Current draft:',
            '{{ last == null ? input.topic : last.data.draft }}',
            '',
            'Feedback from the last review:',
            '{{ last == null ? "None yet: this is the first draft." : last.data.feedback }}',
          ].join('\n'),
        },
        until: 'last.data.approved == true',
        maxIterations: 3,
      },
    },
    end(col(0) + 300),
  ],
  edges: [edge('start', 'revise'), edge('revise', 'end')],
};

export const decidingWorkflowTemplates: SampleWorkflowTemplate[] = [
  supportTriage,
  leadEnrichment,
  draftReviewLoop,
];
