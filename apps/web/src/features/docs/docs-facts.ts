// The figures and fixed texts the documentation quotes. Plans, statuses and tool categories come from
// the contracts' vocabulary (zod-free); the webhook and API key texts are kept here rather than
// imported from @crewline/contracts, whose values would pull zod into the docs chunk, and
// docs-facts.test.ts checks each one against the contracts, so the pages cannot drift from the product.
import {
  API_ACCESS_PLANS,
  FREE_LIMITS,
  PLAN_LIMITS,
  PLAN_PRICE_CENTS,
  planDisplayNames,
  planIdValues,
  toolCategoryLabels,
  type PlanId,
  type PlanLimits,
  type ToolCategory,
} from '@crewline/contracts/vocabulary';

export { TRIAL_DAYS } from '@crewline/contracts/vocabulary';

export interface DocsPlan extends PlanLimits {
  id: PlanId;
  name: string;
  /** Dollars a month per organization. */
  price: number;
  apiAccess: boolean;
}

export const DOCS_PLANS: readonly DocsPlan[] = planIdValues.map((id) => ({
  id,
  name: planDisplayNames[id],
  price: PLAN_PRICE_CENTS[id] / 100,
  ...PLAN_LIMITS[id],
  apiAccess: API_ACCESS_PLANS.includes(id),
}));

/** The tier an organization falls to after a trial or a canceled subscription ends. */
export const DOCS_FREE_LIMITS = FREE_LIMITS;

/** What each kind of tool does, in the order the page lists them. */
const TOOL_CATEGORY_DOES: readonly { id: ToolCategory; does: string }[] = [
  {
    id: 'web',
    does: 'Sends HTTP requests to a base URL (with an optional API key) and hands the status and body back to the agent.',
  },
  {
    id: 'api',
    does: 'The same HTTP tool, for the APIs of your own systems: the agent gives a method, a path and a JSON body.',
  },
  {
    id: 'custom',
    does: 'POSTs the agent’s arguments as JSON to one URL of yours (a custom webhook) and returns its answer.',
  },
  {
    id: 'database',
    does: 'Runs one read-only SQL statement on a PostgreSQL database; writes are refused.',
  },
  {
    id: 'file',
    does: 'Reads, writes, appends, lists and deletes text files in the organization’s own folder.',
  },
  {
    id: 'communication',
    does: 'Sends plain-text email through the organization’s SendGrid connection.',
  },
  {
    id: 'ai',
    does: 'Asks another model (any connected provider) a question and returns its answer.',
  },
  {
    id: 'mcp',
    does: 'Connects a remote MCP server over Streamable HTTP: each of its tools can be enabled per agent.',
  },
  {
    id: 'vector_store',
    does: 'Can be created and configured today; agents cannot call it yet.',
  },
];

export const TOOL_CATEGORIES = TOOL_CATEGORY_DOES.map(({ id, does }) => ({
  id,
  label: toolCategoryLabels[id],
  does,
}));

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

/** The MCP guides' figures and texts (both directions: docs/product-rules.md, MCP). */
export const MCP_DEFAULT_TIMEOUT_SECONDS = 60;
export const MCP_MAX_TIMEOUT_SECONDS = 600;
/** The largest result of an MCP tool call that reaches the model, in MiB. */
export const MCP_MAX_RESULT_MIB = 1;
export const MCP_GET_RUN_TOOL = 'get_run';
export const MCP_MESSAGES = {
  notActive: 'Only an active workflow can be published: activate it first.',
  toolNameTaken: (name: string) =>
    `Another workflow is already published as "${name}": choose another tool name.`,
  plainHttp:
    "Use an https:// URL. A plain http:// URL is allowed only for a host on the server's egress allow-list.",
} as const;

/** The Chat apps guide's figures and texts (docs/product-rules.md, Chat apps). */
export const CHAT_DEFAULT_RATE_LIMIT_PER_MINUTE = 10;
export const CHAT_DEFAULT_APP_RATE_LIMIT_PER_MINUTE = 120;
export const CHAT_MAX_MESSAGE_CHARS = 8_000;
export const CHAT_MAX_SUGGESTIONS = 4;
export const CHAT_MAX_ALLOWED_ORIGINS = 20;
export const CHAT_THREAD_DAYS = 30;
export const CHAT_HISTORY_TOKEN_BUDGET = 4_000;
export const CHAT_REPLY_WAIT_SECONDS = 120;
export const CHAT_MIN_PASSWORD_CHARS = 8;
export const CHAT_MESSAGES = {
  notActive: 'Only an active workflow can be published as a chat: activate it first.',
  slugTaken: (slug: string) => `The chat address "${slug}" is taken: choose another slug.`,
  tooMany: (seconds: number) => `Too many messages. Try again in ${seconds} s.`,
  off: 'This chat is switched off right now. Try again later.',
  capReached: 'This chat has used its budget for the month. Try again next month.',
} as const;
export const CHAT_ACCESS_LABELS = {
  members: 'Members of the organization',
  link: 'Anyone with the link',
  password: 'Anyone with the link and the password',
} as const;
