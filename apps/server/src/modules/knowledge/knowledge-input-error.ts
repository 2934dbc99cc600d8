/** A document that cannot be used as it is; `message` is for the user (the document's error). */
export class KnowledgeInputError extends Error {
  override name = 'KnowledgeInputError';
}
