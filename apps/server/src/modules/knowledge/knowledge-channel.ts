/**
 * The NOTIFY channel that wakes the workers when a document is queued (the insert's own RETURNING
 * sends it, at commit); each worker also looks now and then, for documents whose worker died and any
 * wake-up that was missed.
 */
export const KNOWLEDGE_CHANNEL = 'crewline_knowledge';
