// The figures and fixed texts the documentation quotes. Kept here rather than imported from
// @crewline/contracts, whose values would pull zod into the docs chunk; docs-facts.test.ts checks each
// one against the contracts, so the pages cannot drift from what the product does.

export const TRIAL_DAYS = 14;

export interface DocsPlan {
  id: 'starter' | 'professional' | 'enterprise';
  name: string;
  /** Dollars a month per organization. */
  price: number;
  /** null: unlimited. */
  agents: number | null;
  executionsPerMonth: number | null;
  members: number | null;
  /** Bytes of knowledge documents; null: unlimited. */
  knowledgeStorageBytes: number | null;
  apiAccess: boolean;
}

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

export const DOCS_PLANS: readonly DocsPlan[] = [
  {
    id: 'starter',
    name: 'Starter',
    price: 19,
    agents: 5,
    executionsPerMonth: 1000,
    members: 3,
    knowledgeStorageBytes: GiB,
    apiAccess: false,
  },
  {
    id: 'professional',
    name: 'Professional',
    price: 49,
    agents: null,
    executionsPerMonth: 10_000,
    members: 15,
    knowledgeStorageBytes: 10 * GiB,
    apiAccess: true,
  },
  {
    id: 'enterprise',
    name: 'Enterprise',
    price: 149,
    agents: null,
    executionsPerMonth: null,
    members: null,
    knowledgeStorageBytes: null,
    apiAccess: true,
  },
];

/** The tier an organization falls to after a trial or a canceled subscription ends. */
export const DOCS_FREE_LIMITS = {
  agents: 3,
  executionsPerMonth: 100,
  members: 1,
  knowledgeStorageBytes: 50 * MiB,
} as const;

export const EXECUTION_STATUSES = ['pending', 'running', 'completed', 'failed', 'cancelled'] as const;

export const TOOL_CATEGORIES = [
  {
    id: 'web',
    label: 'Web Tools',
    does: 'Sends HTTP requests to a base URL (with an optional API key) and hands the status and body back to the agent.',
  },
  {
    id: 'api',
    label: 'API Integration',
    does: 'The same HTTP tool, for the APIs of your own systems: the agent gives a method, a path and a JSON body.',
  },
  {
    id: 'custom',
    label: 'Custom',
    does: 'POSTs the agent’s arguments as JSON to one URL of yours (a custom webhook) and returns its answer.',
  },
  {
    id: 'database',
    label: 'Database',
    does: 'Runs one read-only SQL statement on a PostgreSQL database; writes are refused.',
  },
  {
    id: 'file',
    label: 'File Operations',
    does: 'Reads, writes, appends, lists and deletes text files in the organization’s own folder.',
  },
  {
    id: 'communication',
    label: 'Communication',
    does: 'Sends plain-text email through the organization’s SendGrid connection.',
  },
  {
    id: 'ai',
    label: 'AI Services',
    does: 'Asks another model (any connected provider) a question and returns its answer.',
  },
  {
    id: 'vector_store',
    label: 'Vector Store',
    does: 'Can be created and configured today; agents cannot call it yet.',
  },
] as const;

export const WEBHOOK_SECRET_HEADER = 'X-Webhook-Secret';
/** Signed calls (Require signed calls): the time in unix seconds, and `v1=` + the hex HMAC-SHA256. */
export const WEBHOOK_TIMESTAMP_HEADER = 'X-Crewline-Timestamp';
export const WEBHOOK_SIGNATURE_HEADER = 'X-Crewline-Signature';
/** How long `?wait=true` waits for the run to end. */
export const WEBHOOK_WAIT_SECONDS = 30;
/** Server defaults of WEBHOOK_MAX_PER_MINUTE and API_KEY_MAX_PER_MINUTE (README, Configuration). */
export const WEBHOOK_MAX_PER_MINUTE_DEFAULT = 120;
export const API_KEY_MAX_PER_MINUTE_DEFAULT = 600;

export const WEBHOOK_MESSAGES = {
  notFound: 'Workflow not found',
  badSecret: 'Missing or invalid webhook secret',
  notActive: 'Workflow is not active',
} as const;

export const API_KEY_PREFIX = 'crw_';

export const API_KEY_MESSAGES = {
  invalid: 'Invalid or expired API key',
  sessionOnly: 'API keys cannot call this route: it needs a signed-in user',
} as const;
