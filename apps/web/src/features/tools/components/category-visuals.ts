import type { ToolCategory } from '@crewline/contracts';
import {
  Boxes,
  Database,
  FileText,
  Globe,
  MessageSquare,
  Network,
  Plug,
  Puzzle,
  Sparkles,
  type LucideIcon,
} from 'lucide-react';

export const categoryIcon: Record<ToolCategory, LucideIcon> = {
  web: Globe,
  vector_store: Boxes,
  api: Plug,
  file: FileText,
  communication: MessageSquare,
  database: Database,
  ai: Sparkles,
  custom: Puzzle,
  mcp: Network,
};

/** Icon tile colours, one hue per category. */
export const categoryTone: Record<ToolCategory, string> = {
  web: 'bg-sky-500/10 text-sky-600 dark:text-sky-400',
  vector_store: 'bg-fuchsia-500/10 text-fuchsia-600 dark:text-fuchsia-400',
  api: 'bg-indigo-500/10 text-indigo-600 dark:text-indigo-400',
  file: 'bg-amber-500/10 text-amber-600 dark:text-amber-400',
  communication: 'bg-emerald-500/10 text-emerald-600 dark:text-emerald-400',
  database: 'bg-blue-500/10 text-blue-600 dark:text-blue-400',
  ai: 'bg-violet-500/10 text-violet-600 dark:text-violet-400',
  custom: 'bg-slate-500/10 text-slate-600 dark:text-slate-300',
  mcp: 'bg-teal-500/10 text-teal-600 dark:text-teal-400',
};

/** One line under each category in the Category select. */
export const categoryHint: Record<ToolCategory, string> = {
  web: 'Search and fetch pages from the web',
  vector_store: 'Semantic search over an embeddings index',
  api: 'Call a REST API with a key',
  file: 'Read and write files',
  communication: 'Send messages and email',
  database: 'Query a PostgreSQL database',
  ai: 'Call another AI service',
  custom: 'Your own endpoint',
  mcp: 'The tools of a remote MCP server',
};

export const providerPlaceholder: Record<ToolCategory, string> = {
  web: 'e.g. Serper',
  vector_store: 'e.g. Pinecone',
  api: 'e.g. Stripe',
  file: 'e.g. Amazon S3',
  communication: 'e.g. Slack',
  database: 'e.g. PostgreSQL',
  ai: 'e.g. Replicate',
  custom: 'e.g. Internal service',
  mcp: 'e.g. GitHub',
};
