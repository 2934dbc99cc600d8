import type { Usage } from '@crewline/contracts';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';

import { UsageNotice } from './delete-with-usage-dialog';
import { usageLines } from './usage-summary';

// The delete dialogs of agents, tools and knowledge bases list what uses the thing (docs/product-rules.md).

const none: Usage = { workflows: [], agents: [] };

/** The notice's text, one line per paragraph, as the dialog shows it. */
const shown = (props: Parameters<typeof UsageNotice>[0]) =>
  renderToStaticMarkup(createElement(UsageNotice, props))
    .replace(/<\/p>/g, '\n')
    .replace(/<[^>]+>/g, '')
    .trim()
    .split('\n');

describe('the delete dialog’s usage list', () => {
  it('names the workflows that use an agent, with their status, and what happens to them', () => {
    const usage: Usage = {
      workflows: [
        { id: 'w1', name: 'Lead triage', status: 'active' },
        { id: 'w2', name: 'Digest', status: 'draft' },
      ],
      agents: [],
    };
    expect(shown({ usage, thing: 'agent' })).toEqual([
      'Used by 2 workflows: Lead triage (Active), Digest (Draft).',
      'They will not run until another agent is chosen for those steps.',
    ]);
  });

  it('speaks of one workflow as one', () => {
    expect(
      usageLines({ ...none, workflows: [{ id: 'w1', name: 'Lead triage', status: 'paused' }] }, 'agent'),
    ).toEqual([
      'Used by 1 workflow: Lead triage (Paused).',
      'It will not run until another agent is chosen for that step.',
    ]);
  });

  it('names the agents linked to a tool, and the tools and agents searching a knowledge base', () => {
    expect(usageLines({ ...none, agents: [{ id: 'a1', name: 'Writer' }] }, 'tool')).toEqual([
      'Used by 1 agent: Writer.',
    ]);
    expect(
      usageLines(
        {
          ...none,
          tools: [{ id: 't1', name: 'Handbook search' }],
          agents: [
            { id: 'a1', name: 'Support' },
            { id: 'a2', name: 'Sales' },
          ],
        },
        'knowledge base',
      ),
    ).toEqual(['Searched by 1 tool: Handbook search.', 'Used by 2 agents: Support, Sales.']);
  });

  it('says when nothing uses it, while it is being checked, and when the check failed', () => {
    expect(shown({ usage: none, thing: 'agent' })).toEqual(['No workflow uses this agent.']);
    expect(shown({ usage: { ...none, tools: [] }, thing: 'knowledge base' })).toEqual([
      'Nothing uses this knowledge base.',
    ]);
    expect(shown({ usage: undefined, thing: 'tool' })).toEqual(['Checking what uses this tool...']);
    expect(shown({ usage: undefined, thing: 'tool', failed: true })).toEqual([
      'Could not check what uses this tool.',
    ]);
  });

  it('marks a used thing as a warning, and an unused one not', () => {
    const used = renderToStaticMarkup(
      createElement(UsageNotice, { usage: { ...none, agents: [{ id: 'a', name: 'A' }] }, thing: 'tool' }),
    );
    expect(used).toContain('data-used="true"');
    expect(renderToStaticMarkup(createElement(UsageNotice, { usage: none, thing: 'tool' }))).toContain(
      'data-used="false"',
    );
  });
});
