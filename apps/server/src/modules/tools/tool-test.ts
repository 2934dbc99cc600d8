import type { KnowledgeBase, ToolTestResult } from '@crewline/contracts';
import { createSecretMasker } from '../../platform/crypto';
import { EgressError, type Egress } from '../../platform/egress';
import { AppError, BadRequestError } from '../../platform/errors';
import { PineconeError } from './runtime/pinecone-client';
import { pineconeSettings, testPineconeIndex } from './runtime/pinecone-tool';
import type { ToolsService } from './tools.service';

/**
 * The Test action of a Vector Store tool (POST /api/tools/:id/test): whether agents could search with
 * it now. A knowledge base must exist in the organization and hold ready passages; a Pinecone index
 * must answer with the tool's key and hold vectors of the tool's dimensions. Failures are answers
 * (`ok: false` with the reason), not errors: the user asked a question and gets its answer.
 */
export function createToolTester(deps: {
  tools: Pick<ToolsService, 'resolveOne'>;
  egress: Egress;
  pineconeApiUrl: string;
  /** The organization's knowledge base (modules/knowledge); throws 404 for one it does not have. */
  knowledgeBase(organizationId: string, id: string): Promise<KnowledgeBase>;
}) {
  async function testKnowledgeBase(organizationId: string, id: string): Promise<ToolTestResult> {
    let base: KnowledgeBase;
    try {
      base = await deps.knowledgeBase(organizationId, id);
    } catch (error) {
      if (error instanceof AppError && error.statusCode === 404)
        return { ok: false, message: 'The knowledge base this tool searches no longer exists.' };
      throw error;
    }
    if (base.chunkCount === 0) {
      return {
        ok: false,
        message: `The knowledge base "${base.name}" has no ready documents yet: add one before agents search it.`,
      };
    }
    const documents = `${base.documentCount} document${base.documentCount === 1 ? '' : 's'}`;
    const passages = `${base.chunkCount} passage${base.chunkCount === 1 ? '' : 's'}`;
    return { ok: true, message: `The knowledge base "${base.name}" is ready: ${documents}, ${passages}.` };
  }

  return {
    async test(organizationId: string, id: string): Promise<ToolTestResult> {
      const tool = await deps.tools.resolveOne(organizationId, id);
      if (tool.category !== 'vector_store') {
        throw new BadRequestError('Only Vector Store tools have a Test action.');
      }
      const settings = tool.settings;
      if (typeof settings.knowledgeBaseId === 'string' && settings.knowledgeBaseId) {
        return testKnowledgeBase(organizationId, settings.knowledgeBaseId);
      }
      const pinecone = pineconeSettings(settings);
      if (!pinecone) {
        return {
          ok: false,
          message: 'Choose a knowledge base, or enter a Pinecone index name and API key.',
        };
      }
      const masker = createSecretMasker();
      masker.add(pinecone.apiKey);
      try {
        return await testPineconeIndex(pinecone, { egress: deps.egress, controllerUrl: deps.pineconeApiUrl });
      } catch (error) {
        if (error instanceof PineconeError || error instanceof EgressError) {
          return { ok: false, message: masker.text(error.message) };
        }
        throw error;
      }
    },
  };
}
export type ToolTester = ReturnType<typeof createToolTester>;
