import { KNOWLEDGE_MAX_TOP_K, type KnowledgeSearchResult } from '@crewline/contracts';
import { z } from 'zod';
import type { LlmTool } from '../../../platform/llm';

const searchArgs = z.object({
  query: z.string().trim().min(1).max(2000),
  topK: z.number().int().min(1).max(KNOWLEDGE_MAX_TOP_K).optional(),
});

/** How many passages a search answers when the model does not say. */
const DEFAULT_TOP_K = 5;

export type KnowledgeSearch = (
  knowledgeBaseId: string,
  query: string,
  topK: number,
  signal?: AbortSignal,
) => Promise<KnowledgeSearchResult>;

/** A passage a vector store found, as the model receives it. */
export type SearchHit = { source: string; passage?: number; score: number; text: string };

/**
 * A `vector_store` tool as the model sees it, whatever store answers: `search(query, topK)`, answered
 * with the closest passages, their source and score. `find` is the store's own search.
 */
export function createSearchTool(
  description: string,
  find: (query: string, topK: number, signal?: AbortSignal) => Promise<SearchHit[]>,
): LlmTool {
  return {
    description,
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What to look for, in a few words or a question' },
        topK: {
          type: 'integer',
          minimum: 1,
          maximum: KNOWLEDGE_MAX_TOP_K,
          description: `How many passages to return (default ${DEFAULT_TOP_K})`,
        },
      },
      required: ['query'],
    },
    async execute(raw, options) {
      const args = searchArgs.parse(raw);
      const hits = await find(args.query, args.topK ?? DEFAULT_TOP_K, options?.signal);
      return { query: args.query, hits };
    },
  };
}

/**
 * A `vector_store` tool on the organization's own store: the model searches one of its knowledge bases
 * (the tool's `knowledgeBaseId`) and gets the closest passages with their source document and score,
 * which it can cite. The search is the organization's: `search` is bound to it by the caller.
 */
export function createVectorStoreTool(
  settings: { knowledgeBaseId?: unknown },
  tool: { name: string; description?: string | null },
  search: KnowledgeSearch,
): LlmTool | undefined {
  const knowledgeBaseId = typeof settings.knowledgeBaseId === 'string' ? settings.knowledgeBaseId : '';
  if (!knowledgeBaseId) return undefined;
  // The model picks a base by what it holds: its name, and its description when it has one (a base
  // picked on the agent's page gives its tool both, docs/decisions/0027-knowledge-on-the-agent.md).
  const described = tool.description?.trim().replace(/[.\s]+$/, '');
  return createSearchTool(
    `Search the knowledge base '${tool.name}'${described ? `: ${described}` : ''}. Answers the ` +
      'passages closest in meaning to a query with their source document and a similarity score (0 to ' +
      '1). Cite the sources you use.',
    async (query, topK, signal) =>
      (await search(knowledgeBaseId, query, topK, signal)).hits.map((hit) => ({
        source: hit.documentName,
        passage: hit.chunkIndex + 1,
        score: hit.score,
        text: hit.text,
      })),
  );
}
