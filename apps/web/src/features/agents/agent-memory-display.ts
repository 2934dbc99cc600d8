// How the Advanced tab shows an agent's memories (docs/product-rules.md, Agents and tools). Pure, so the
// panel only lays them out.

/** The search waits this long after the last keystroke before asking the server. */
export const MEMORY_SEARCH_DEBOUNCE_MS = 300;

/** A memory as a toast names it: its start, cut at a word. */
export function memoryExcerpt(content: string, max = 60): string {
  const text = content.trim().replace(/\s+/g, ' ');
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s.,;:]+$/, '')}…`;
}

/** The empty list's hint: how memories come. */
export function noMemoriesHint(memoryOn: boolean): string {
  return memoryOn
    ? 'Run the agent in a workflow: it keeps the facts worth remembering.'
    : 'Turn Memory on and run the agent in a workflow.';
}

/** Forget all's question. */
export function forgetAllQuestion(total: number, agentName: string): string {
  return total === 1
    ? `Forget the only memory of ${agentName}? This cannot be undone.`
    : `Forget all ${total} memories of ${agentName}? This cannot be undone.`;
}

/** Under the search box: how many match, and whether the list shows only the newest of them. */
export function memoryCountLine(shown: number, total: number, searching: boolean): string | null {
  if (searching) {
    if (total === 0) return null;
    const matches = `${total} ${total === 1 ? 'memory matches' : 'memories match'}`;
    return shown < total ? `${matches}; the newest ${shown} are shown.` : `${matches}.`;
  }
  return shown < total ? `The newest ${shown} of ${total} memories are shown.` : null;
}
