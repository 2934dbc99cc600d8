/** The API reference's sections, in the order it lists them; every endpoint names one. */
export const endpointTags = [
  {
    name: 'Authentication',
    description: 'Sign up, sign in and out, and the organizations of the signed-in user.',
  },
  { name: 'Profile', description: "The signed-in user's own account." },
  { name: 'Organizations', description: 'Dashboard figures, members, roles, invitations and settings.' },
  { name: 'API keys', description: "The organization's API keys (shown once, when created)." },
  {
    name: 'Audit',
    description:
      'The audit log (owners only): sign-ins, roles, invitations, API keys, connections, billing, publishing and workflow activations, and its CSV export.',
  },
  { name: 'Agents', description: 'AI agents: role, goal, model and tools.' },
  { name: 'Tools', description: "The organization's tools and the tools linked to each agent." },
  {
    name: 'Connections',
    description: 'Model providers and other credentials the organization connects (admins change them).',
  },
  {
    name: 'Knowledge',
    description:
      'Knowledge bases: documents indexed by the workers (queued, processing, ready or failed), and search by meaning.',
  },
  { name: 'Workflows', description: 'Multi-agent workflows and their saved versions.' },
  { name: 'Executions', description: 'Starting, following, cancelling and retrying workflow runs.' },
  {
    name: 'Approvals',
    description: 'Decisions runs wait for: the approvals pending for you, and approving or rejecting them.',
  },
  {
    name: 'Costs',
    description:
      'What model calls cost: the price table in force, the organization’s own prices, its spend and its monthly budget.',
  },
  {
    name: 'MCP',
    description:
      "Publishing workflows as tools of the organization's MCP server (`POST /mcp`, Streamable HTTP, authenticated with an API key).",
  },
  {
    name: 'Chat',
    description:
      'Chat apps: the public routes their page and widget use (a thread per conversation, replies streamed as Server-Sent Events), and their threads for the organization. The OpenAI-compatible `POST /v1/chat/completions` and `GET /v1/models` are described in the Chat apps guide.',
  },
  {
    name: 'Evaluations',
    description:
      'Datasets of cases, evaluations that grade a workflow version on them, eval runs and their comparison.',
  },
  { name: 'Webhooks', description: 'Starting a workflow from another system with its webhook secret.' },
  { name: 'Templates', description: 'The template library and the organization’s own templates.' },
  { name: 'Billing', description: 'Plan, subscription and invoices.' },
  { name: 'Microsoft 365', description: "The organization's Microsoft 365 mailbox connection." },
  { name: 'System', description: 'Health, status and Talk to Sales.' },
] as const;

export type EndpointTag = (typeof endpointTags)[number]['name'];
