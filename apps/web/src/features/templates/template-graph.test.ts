import type { TemplateAgent } from '@crewline/contracts';
import { describe, expect, it } from 'vitest';

import { templateGraph } from './template-graph';

function agent(key: string, name: string): TemplateAgent {
  return {
    key,
    name,
    description: null,
    role: `${name} role`,
    goal: `${name} goal`,
    backstory: null,
    llmProvider: 'openai',
    llmModel: 'gpt-4o',
    temperature: 70,
    maxTokens: 2000,
    systemPrompt: null,
  };
}

describe('templateGraph', () => {
  it("labels each agent node with its template agent's name, role and model, by key", () => {
    const graph = templateGraph({
      agents: [agent('researcher', 'Topic Researcher'), agent('writer', 'Blog Writer')],
      nodes: [
        { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { label: 'Start' } },
        {
          id: 'n1',
          type: 'agent',
          agentId: 'researcher',
          position: { x: 1, y: 0 },
          data: { label: 'Research', name: 'Old name' },
        },
        { id: 'n2', type: 'agent', position: { x: 2, y: 0 }, data: { agentId: 'writer' } },
        { id: 'n3', type: 'agent', agentId: 'gone', position: { x: 3, y: 0 }, data: { label: 'Orphan' } },
      ],
    });
    expect(graph.nodes[0]).toEqual({
      id: 'start',
      type: 'start',
      position: { x: 0, y: 0 },
      data: { label: 'Start' },
    });
    expect(graph.nodes[1]?.data).toEqual({
      label: 'Research',
      name: 'Topic Researcher',
      role: 'Topic Researcher role',
      model: 'gpt-4o',
    });
    expect(graph.nodes[2]?.data).toMatchObject({ agentId: 'writer', name: 'Blog Writer' });
    expect(graph.nodes[3]?.data).toEqual({ label: 'Orphan' });
    expect(graph.agents.map((a) => [a.id, a.name])).toEqual([
      ['researcher', 'Topic Researcher'],
      ['writer', 'Blog Writer'],
    ]);
  });
});
