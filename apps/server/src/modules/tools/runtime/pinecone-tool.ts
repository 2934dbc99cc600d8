import {
  DEFAULT_EMBEDDING_MODEL,
  embeddingProviderValues,
  type EmbeddingProvider,
} from '@crewline/contracts';
import type { LlmTool } from '../../../platform/llm';
import { createPineconeClient, type PineconeIndex, type PineconeMatch } from './pinecone-client';
import type { Egress } from '../../../platform/egress';
import { createSearchTool, type SearchHit } from './vector-store-tool';

/** The vectors' length when a tool does not say (OpenAI's text-embedding-3-small). */
const DEFAULT_PINECONE_DIMENSIONS = 1536;

/** A Vector Store tool's settings when it names a Pinecone index rather than a knowledge base. */
export type PineconeSettings = {
  indexName: string;
  apiKey: string;
  dimensions: number;
  namespace?: string;
  embeddingProvider: EmbeddingProvider;
  embeddingModel: string;
};

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/**
 * The tool's Pinecone settings, or undefined when it is not a Pinecone tool: one on a knowledge base,
 * or one without an index name or API key (nothing to search with).
 */
export function pineconeSettings(settings: Record<string, unknown>): PineconeSettings | undefined {
  if (text(settings.knowledgeBaseId)) return undefined;
  const indexName = text(settings.indexName);
  const apiKey = text(settings.apiKey);
  if (!indexName || !apiKey) return undefined;
  const dimensions =
    typeof settings.dimensions === 'number' && settings.dimensions > 0
      ? settings.dimensions
      : DEFAULT_PINECONE_DIMENSIONS;
  const provider = text(settings.embeddingProvider);
  return {
    indexName,
    apiKey,
    dimensions,
    namespace: text(settings.namespace) || undefined,
    embeddingProvider: (embeddingProviderValues as readonly string[]).includes(provider)
      ? (provider as EmbeddingProvider)
      : 'openai',
    embeddingModel: text(settings.embeddingModel) || DEFAULT_EMBEDDING_MODEL,
  };
}

function dimensionMismatch(index: PineconeIndex, dimensions: number): string {
  return `The index "${index.name}" holds vectors of ${index.dimension} dimensions; this tool is set to ${dimensions}.`;
}

/**
 * A hit from a match's metadata: the passage is its `text` (or `content`), the source its `source`
 * (or `title`), else the match's id — the keys LangChain and most ingestion scripts write.
 */
function toHit(match: PineconeMatch): SearchHit {
  const metadata = match.metadata ?? {};
  const source = text(metadata.source) || text(metadata.title) || match.id;
  const passage = typeof metadata.passage === 'number' ? metadata.passage : undefined;
  return {
    source,
    ...(passage !== undefined ? { passage } : {}),
    score: match.score,
    text: typeof metadata.text === 'string' ? metadata.text : text(metadata.content),
  };
}

export type PineconeToolDeps = {
  egress: Egress;
  /** Pinecone's control plane (config.pineconeApiUrl). */
  controllerUrl: string;
  /** The query's embedding with the tool's embedding model, `dimensions` long. */
  embed(query: string, settings: PineconeSettings, signal?: AbortSignal): Promise<number[]>;
};

/**
 * A `vector_store` tool on a Pinecone index: the model's query is embedded with the organization's
 * embeddings connection (at the tool's dimensions), and the index answers its closest records, shaped
 * as the built-in store's hits. The index is described once per tool (per run), and its dimension must
 * be the tool's: otherwise every search would fail, so the model is told why.
 */
export function createPineconeTool(
  settings: PineconeSettings,
  tool: { name: string },
  deps: PineconeToolDeps,
): LlmTool {
  const client = createPineconeClient({
    egress: deps.egress,
    controllerUrl: deps.controllerUrl,
    apiKey: settings.apiKey,
  });
  let described: Promise<PineconeIndex> | undefined;
  const index = (signal?: AbortSignal) => {
    described ??= client.describeIndex(settings.indexName, signal);
    // A failure is not kept: the next call asks again.
    described.catch(() => (described = undefined));
    return described;
  };

  return createSearchTool(
    `Searches the Pinecone index "${settings.indexName}" (${tool.name}) for the passages closest in ` +
      'meaning to a query, and answers them with their source and a similarity score. Cite the sources you use.',
    async (query, topK, signal) => {
      const found = await index(signal);
      if (found.dimension !== settings.dimensions)
        throw new Error(dimensionMismatch(found, settings.dimensions));
      const vector = await deps.embed(query, settings, signal);
      const matches = await client.query(found, { vector, topK, namespace: settings.namespace }, signal);
      return matches.map(toHit);
    },
  );
}

/**
 * The Test action of a Pinecone tool: the index is reachable with the key, and holds vectors of the
 * tool's dimensions. Answers what a user reads; Pinecone's refusals come back in its own words.
 */
export async function testPineconeIndex(
  settings: PineconeSettings,
  deps: Pick<PineconeToolDeps, 'egress' | 'controllerUrl'>,
): Promise<{ ok: boolean; message: string }> {
  const client = createPineconeClient({ ...deps, apiKey: settings.apiKey });
  const index = await client.describeIndex(settings.indexName);
  if (index.dimension !== settings.dimensions) {
    return { ok: false, message: dimensionMismatch(index, settings.dimensions) };
  }
  if (!index.ready) {
    return { ok: false, message: `The index "${index.name}" is not ready yet; try again in a minute.` };
  }
  return {
    ok: true,
    message: `Connected to the index "${index.name}": ${index.dimension} dimensions, ${index.metric} metric.`,
  };
}
