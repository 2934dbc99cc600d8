/** The API paths of the knowledge bases (packages/contracts/src/knowledge.ts lists the routes). */
export const KNOWLEDGE_BASES_PATH = '/api/knowledge-bases';

export function knowledgeBaseApiPath(id: string): string {
  return `${KNOWLEDGE_BASES_PATH}/${encodeURIComponent(id)}`;
}

export function documentsApiPath(id: string): string {
  return `${knowledgeBaseApiPath(id)}/documents`;
}

export function documentApiPath(id: string, documentId: string): string {
  return `${documentsApiPath(id)}/${encodeURIComponent(documentId)}`;
}

export function searchApiPath(id: string): string {
  return `${knowledgeBaseApiPath(id)}/search`;
}
