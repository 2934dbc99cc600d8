import type { Usage } from '@crewline/contracts';

import { capitalize } from '@/lib/format';

/** What is being deleted, as the delete dialog's usage lines name it. */
export type UsageThing = 'agent' | 'tool' | 'knowledge base';

const count = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * The delete dialog's lines about what uses the thing (docs/product-rules.md, Safe deletes), e.g.
 * 'Used by 2 workflows: Lead triage (Active), Digest (Draft).'; one line saying nothing does otherwise.
 */
export function usageLines(usage: Usage, thing: UsageThing): string[] {
  const lines: string[] = [];
  const { workflows, agents, tools = [] } = usage;
  if (workflows.length > 0) {
    const names = workflows.map((w) => `${w.name} (${capitalize(w.status)})`).join(', ');
    lines.push(`Used by ${count(workflows.length, 'workflow')}: ${names}.`);
  }
  if (tools.length > 0) {
    lines.push(`Searched by ${count(tools.length, 'tool')}: ${tools.map((t) => t.name).join(', ')}.`);
  }
  if (agents.length > 0) {
    lines.push(`Used by ${count(agents.length, 'agent')}: ${agents.map((a) => a.name).join(', ')}.`);
  }
  if (lines.length === 0) {
    return [thing === 'agent' ? 'No workflow uses this agent.' : `Nothing uses this ${thing}.`];
  }
  if (workflows.length > 0) {
    lines.push(
      workflows.length === 1
        ? 'It will not run until another agent is chosen for that step.'
        : 'They will not run until another agent is chosen for those steps.',
    );
  }
  return lines;
}
