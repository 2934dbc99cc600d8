// The tools of the tool-configuration demo (docs/product-rules.md): which cards each tab shows, their
// fields and the values a visit starts with. Everything here lives in the browser tab only.

/** How long the demo's Test pretends to reach the service before it succeeds. */
export const DEMO_TEST_DELAY_MS = 2000;

/** The vector dimension a Pinecone index starts with (OpenAI's text-embedding models' size). */
const DEFAULT_VECTOR_DIMENSION = 1536;

export type DemoTabId = 'llm' | 'specialist' | 'infrastructure';

export const DEMO_TABS: readonly { id: DemoTabId; label: string; description: string }[] = [
  { id: 'llm', label: 'LLM Connections', description: 'The model providers agents think with.' },
  { id: 'specialist', label: 'Specialist Tools', description: 'Services that give agents extra skills.' },
  {
    id: 'infrastructure',
    label: 'Infrastructure',
    description: 'Services workflows deliver their results through.',
  },
];

export type DemoToolId = 'openai' | 'anthropic' | 'pinecone' | 'sendgrid';

export interface DemoFieldDef {
  key: string;
  label: string;
  /** secret: masked when read; select: one of `options`; number: a whole number. */
  kind: 'text' | 'secret' | 'select' | 'number' | 'email';
  required?: boolean;
  placeholder?: string;
  hint?: string;
  options?: readonly { value: string; label: string }[];
}

export interface DemoToolDef {
  id: DemoToolId;
  tab: DemoTabId;
  title: string;
  description: string;
  fields: readonly DemoFieldDef[];
  /** What the card holds when the page opens. */
  initialValues: Readonly<Record<string, string>>;
  initiallyActive: boolean;
}

const OPENAI_MODELS = [
  { value: 'gpt-4o', label: 'gpt-4o' },
  { value: 'gpt-4o-mini', label: 'gpt-4o-mini' },
  { value: 'gpt-3.5-turbo', label: 'gpt-3.5-turbo' },
] as const;

const ANTHROPIC_MODELS = [
  { value: 'claude-sonnet-4-0', label: 'Claude 4.0 Sonnet' },
  { value: 'claude-3-7-sonnet-latest', label: 'Claude 3.7 Sonnet' },
  { value: 'claude-3-5-sonnet-latest', label: 'Claude 3.5 Sonnet' },
] as const;

const apiKey = (placeholder: string): DemoFieldDef => ({
  key: 'apiKey',
  label: 'API Key',
  kind: 'secret',
  required: true,
  placeholder,
});

export const DEMO_TOOLS: readonly DemoToolDef[] = [
  {
    id: 'openai',
    tab: 'llm',
    title: 'OpenAI',
    description: 'GPT models through the OpenAI API',
    fields: [
      apiKey('sk-…'),
      { key: 'defaultModel', label: 'Default Model', kind: 'select', required: true, options: OPENAI_MODELS },
      {
        key: 'organization',
        label: 'Organization',
        kind: 'text',
        placeholder: 'org-…',
        hint: 'Optional. For accounts in several OpenAI organizations.',
      },
    ],
    // A made-up key, so that Test succeeds on a fresh page.
    initialValues: { apiKey: 'sk-demo-3f9c2a7b41d8e6c0', defaultModel: 'gpt-4o', organization: '' },
    initiallyActive: true,
  },
  {
    id: 'anthropic',
    tab: 'llm',
    title: 'Anthropic',
    description: 'Claude models through the Anthropic API',
    fields: [
      apiKey('sk-ant-…'),
      {
        key: 'defaultModel',
        label: 'Default Model',
        kind: 'select',
        required: true,
        options: ANTHROPIC_MODELS,
      },
    ],
    initialValues: { apiKey: '', defaultModel: 'claude-sonnet-4-0' },
    initiallyActive: false,
  },
  {
    id: 'pinecone',
    tab: 'specialist',
    title: 'Pinecone',
    description: 'A vector database for agent memory and document search',
    fields: [
      apiKey('pcsk_…'),
      {
        key: 'environment',
        label: 'Environment',
        kind: 'text',
        required: true,
        placeholder: 'us-east-1-aws',
      },
      {
        key: 'indexName',
        label: 'Index Name',
        kind: 'text',
        required: true,
        placeholder: 'agent-memory',
        hint: 'Lowercase letters, numbers and hyphens.',
      },
      {
        key: 'dimension',
        label: 'Dimension',
        kind: 'number',
        required: true,
        hint: `The size of the embeddings; ${DEFAULT_VECTOR_DIMENSION} for OpenAI's embedding models.`,
      },
    ],
    initialValues: {
      apiKey: '',
      environment: 'us-east-1-aws',
      indexName: '',
      dimension: String(DEFAULT_VECTOR_DIMENSION),
    },
    initiallyActive: false,
  },
  {
    id: 'sendgrid',
    tab: 'infrastructure',
    title: 'SendGrid',
    description: 'Sends the email of workflow results and notifications',
    fields: [
      apiKey('SG.…'),
      {
        key: 'fromEmail',
        label: 'From Email',
        kind: 'email',
        required: true,
        placeholder: 'agents@yourcompany.com',
      },
      { key: 'fromName', label: 'From Name', kind: 'text', placeholder: 'Crewline Agents' },
    ],
    initialValues: { apiKey: '', fromEmail: '', fromName: '' },
    initiallyActive: false,
  },
];

export function demoToolById(id: DemoToolId): DemoToolDef {
  const def = DEMO_TOOLS.find((tool) => tool.id === id);
  if (!def) throw new Error(`Unknown demo tool ${id}`);
  return def;
}
