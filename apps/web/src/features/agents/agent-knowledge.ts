// Pure rules of an agent's Knowledge section: which knowledge bases are picked, as ids in the order
// they were picked (the order the agent's tools are linked in).
import { AGENT_KNOWLEDGE_BASES_MAX } from '@crewline/contracts';

/** The picked ids after a base's checkbox is ticked (`on`) or cleared; at most the API's limit. */
export function toggledKnowledgeBases(picked: readonly string[], id: string, on: boolean): string[] {
  if (!on) return picked.filter((each) => each !== id);
  if (picked.includes(id) || picked.length >= AGENT_KNOWLEDGE_BASES_MAX) return [...picked];
  return [...picked, id];
}

/** Whether another base can still be ticked (a ticked one can always be cleared). */
export function canPickMore(picked: readonly string[]): boolean {
  return picked.length < AGENT_KNOWLEDGE_BASES_MAX;
}

/** The line under a base's name: its description, else how much it holds. */
export function knowledgeBaseSummary(base: { description: string | null; documentCount: number }): string {
  const description = base.description?.trim();
  if (description) return description;
  return base.documentCount === 1 ? '1 document' : `${base.documentCount} documents`;
}
