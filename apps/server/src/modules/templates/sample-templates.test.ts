import { processTypeValues, templateAgentSchema, templateCategories } from '@crewline/contracts';
import { describeCron, isValidCron, sequentialOrder, validateWorkflow } from '@crewline/engine';
import { describe, expect, it } from 'vitest';
import {
  sampleAgentTemplates,
  sampleWorkflowTemplates,
  type SampleWorkflowTemplate,
} from './sample-templates';

const kebab = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const GRID = 15;

/** The texts a user reads: descriptions, roles, goals, backstories and prompts. */
const texts = (agent: {
  name: string;
  description: string | null;
  role: string;
  goal: string;
  backstory: string | null;
  systemPrompt: string | null;
}) => [
  agent.name,
  agent.description ?? '',
  agent.role,
  agent.goal,
  agent.backstory ?? '',
  agent.systemPrompt ?? '',
];

const allAgents = [
  ...sampleAgentTemplates.map((a) => ({ where: a.slug, agent: a })),
  ...sampleWorkflowTemplates.flatMap((t) => t.agents.map((a) => ({ where: `${t.slug}/${a.key}`, agent: a }))),
];

/** Templates made only of agent steps (the others decide: conditions, merges, maps, loops). */
const agentOnly = (t: SampleWorkflowTemplate) =>
  t.nodes.every((n) => n.type === 'start' || n.type === 'end' || n.type === 'agent');

/** The agent keys a template's steps name: agent steps', and what maps and loops run. */
const agentRefs = (t: SampleWorkflowTemplate) =>
  t.nodes.flatMap((n) => {
    if (n.type === 'agent') return [n.agentId ?? ''];
    const run = n.data.run as { agentId?: string } | undefined;
    return (n.type === 'map' || n.type === 'loop') && run?.agentId ? [run.agentId] : [];
  });

const validate = (t: SampleWorkflowTemplate) => {
  const keys = new Set(t.agents.map((a) => a.key));
  return validateWorkflow(
    {
      name: t.name,
      processType: t.processType,
      triggerType: t.triggerType,
      triggerConfig: t.triggerConfig,
      nodes: t.nodes,
      edges: t.edges,
    },
    (agentId) => keys.has(agentId),
  );
};

describe('the shipped template library', () => {
  it('has at least twelve workflow and twelve agent templates', () => {
    expect(sampleWorkflowTemplates.length).toBeGreaterThanOrEqual(12);
    expect(sampleAgentTemplates.length).toBeGreaterThanOrEqual(12);
  });

  it('keys every template by a unique kebab-case slug', () => {
    const slugs = [...sampleWorkflowTemplates, ...sampleAgentTemplates].map((t) => t.slug);
    for (const slug of slugs) expect(slug).toMatch(kebab);
    expect(new Set(slugs).size).toBe(slugs.length);
  });

  it('gives every template a unique name, a description and two to four lowercase tags', () => {
    for (const list of [sampleWorkflowTemplates, sampleAgentTemplates]) {
      const names = list.map((t) => t.name);
      expect(new Set(names).size).toBe(names.length);
      for (const t of list) {
        expect(t.description?.trim(), t.slug).toBeTruthy();
        expect(t.tags.length, t.slug).toBeGreaterThanOrEqual(2);
        expect(t.tags.length, t.slug).toBeLessThanOrEqual(4);
        for (const tag of t.tags) expect(tag, t.slug).toMatch(kebab);
        expect(new Set(t.tags).size, t.slug).toBe(t.tags.length);
      }
    }
  });

  it('covers every marketplace category at least twice, with workflows and with agents', () => {
    for (const list of [sampleWorkflowTemplates, sampleAgentTemplates]) {
      for (const category of templateCategories) {
        expect(list.filter((t) => t.category === category).length, category).toBeGreaterThanOrEqual(2);
      }
      for (const t of list) expect(templateCategories as readonly string[]).toContain(t.category);
    }
  });

  it('covers every process type and the manual, webhook and schedule triggers at least twice', () => {
    for (const processType of processTypeValues) {
      expect(
        sampleWorkflowTemplates.filter((t) => t.processType === processType).length,
        processType,
      ).toBeGreaterThanOrEqual(2);
    }
    for (const trigger of ['manual', 'webhook', 'schedule'] as const) {
      expect(
        sampleWorkflowTemplates.filter((t) => t.triggerType === trigger).length,
        trigger,
      ).toBeGreaterThanOrEqual(2);
    }
    expect(sampleWorkflowTemplates.filter((t) => t.triggerType === 'email')).toEqual([]);
  });

  it('ships the Blog Post Pipeline as researcher, writer and editor in sequence', () => {
    const blog = sampleWorkflowTemplates.find((t) => t.slug === 'blog-post-pipeline');
    expect(blog).toMatchObject({
      name: 'Blog Post Pipeline',
      category: 'Content Marketing',
      processType: 'sequential',
      triggerType: 'manual',
    });
    expect(blog!.agents.map((a) => a.key)).toEqual(['researcher', 'writer', 'editor']);
  });

  it('includes webhook ticket triage, a scheduled KPI digest and email campaign drafting', () => {
    const bySlug = new Map(sampleWorkflowTemplates.map((t) => [t.slug, t]));
    expect(bySlug.get('support-ticket-triage')).toMatchObject({
      category: 'Customer Service',
      triggerType: 'webhook',
    });
    expect(bySlug.get('weekly-kpi-digest')).toMatchObject({
      category: 'Business Intelligence',
      triggerType: 'schedule',
    });
    expect(bySlug.get('email-campaign-drafting')).toMatchObject({ category: 'Email Marketing' });
  });

  it('gives schedules a valid 5-field cron in UTC and webhooks no stored secret', () => {
    for (const t of sampleWorkflowTemplates) {
      if (t.triggerType === 'schedule') {
        expect(isValidCron(t.triggerConfig.cron), t.slug).toBe(true);
        expect(t.triggerConfig.cron!.trim().split(/\s+/), t.slug).toHaveLength(5);
        expect(describeCron(t.triggerConfig.cron), t.slug).toBeTruthy();
        expect(t.triggerConfig, t.slug).toEqual({ cron: t.triggerConfig.cron, timezone: 'UTC' });
      } else {
        expect(t.triggerConfig, t.slug).toEqual({});
      }
    }
  });

  it('defines every agent so that it parses as a template agent', () => {
    for (const t of sampleWorkflowTemplates) {
      for (const agent of t.agents) expect(templateAgentSchema.safeParse(agent).success, t.slug).toBe(true);
    }
    const standalone = templateAgentSchema.omit({ key: true });
    for (const t of sampleAgentTemplates) {
      const { slug: _slug, category: _category, tags: _tags, ...agent } = t;
      expect(standalone.strict().safeParse(agent).success, t.slug).toBe(true);
    }
  });

  it('writes every agent in full: OpenAI models, sensible settings, a real backstory and system prompt', () => {
    for (const { where, agent } of allAgents) {
      expect(agent.llmProvider, where).toBe('openai');
      expect(['gpt-4o', 'gpt-4o-mini'], where).toContain(agent.llmModel);
      expect(agent.temperature, where).toBeGreaterThanOrEqual(0);
      expect(agent.temperature, where).toBeLessThanOrEqual(100);
      expect(agent.maxTokens, where).toBeGreaterThanOrEqual(500);
      expect(agent.maxTokens, where).toBeLessThanOrEqual(4000);
      expect(agent.description?.trim(), where).toBeTruthy();
      const sentences = agent.backstory?.split(/(?<=[.!?])\s+/).filter(Boolean) ?? [];
      expect(sentences.length, where).toBeGreaterThanOrEqual(2);
      expect(sentences.length, where).toBeLessThanOrEqual(4);
      const lines = agent.systemPrompt?.split('\n') ?? [];
      expect(lines.length, where).toBeGreaterThanOrEqual(8);
      expect(lines.length, where).toBeLessThanOrEqual(20);
      for (const text of texts(agent)) {
        expect(text, where).not.toMatch(/lorem|ipsum|\btodo\b|\btbd\b|xxx/i);
        expect(text, where).toBe(text.trim());
      }
    }
  });

  it('gives agents unique kebab-case keys and unique names within their template', () => {
    for (const t of sampleWorkflowTemplates) {
      const keys = t.agents.map((a) => a.key);
      for (const key of keys) expect(key, t.slug).toMatch(kebab);
      expect(new Set(keys).size, t.slug).toBe(keys.length);
      expect(new Set(t.agents.map((a) => a.name)).size, t.slug).toBe(t.agents.length);
    }
  });

  it('names a template agent on every agent node, map and loop, uses every template agent once, and labels agent nodes as the builder does', () => {
    for (const t of sampleWorkflowTemplates) {
      const byKey = new Map(t.agents.map((a) => [a.key, a]));
      const agentNodes = t.nodes.filter((n) => n.type === 'agent');
      for (const node of agentNodes) {
        expect(byKey.has(node.agentId ?? ''), `${t.slug}/${node.id}`).toBe(true);
        expect(node.data.label, `${t.slug}/${node.id}`).toBe(byKey.get(node.agentId!)!.name);
      }
      const refs = agentRefs(t);
      for (const ref of refs) expect(byKey.has(ref), `${t.slug}: ${ref}`).toBe(true);
      expect([...refs].sort(), t.slug).toEqual([...byKey.keys()].sort());

      expect(
        t.nodes.filter((n) => n.type === 'start'),
        t.slug,
      ).toEqual([expect.objectContaining({ id: 'start', data: { label: 'Start' } })]);
      expect(
        t.nodes.filter((n) => n.type === 'end'),
        t.slug,
      ).toEqual([expect.objectContaining({ id: 'end', data: { label: 'End' } })]);
      const ids = t.nodes.map((n) => n.id);
      expect(new Set(ids).size, t.slug).toBe(ids.length);
      const edgeIds = t.edges.map((e) => e.id);
      expect(new Set(edgeIds).size, t.slug).toBe(edgeIds.length);
      for (const e of t.edges) {
        expect(ids, t.slug).toContain(e.source);
        expect(ids, t.slug).toContain(e.target);
      }
    }
  });

  it('passes the engine’s validation with the agent keys as the existing agents, without errors or warnings', () => {
    for (const t of sampleWorkflowTemplates) {
      expect(validate(t), t.slug).toEqual({ errors: [], warnings: [] });
    }
  });

  it('connects every agent to End, runs sequential agents in the order listed and makes the first agent the hierarchical lead', () => {
    for (const t of sampleWorkflowTemplates.filter(agentOnly)) {
      const order = sequentialOrder(t.nodes, t.edges).map((id) => t.nodes.find((n) => n.id === id)!.agentId);
      expect(order, t.slug).toHaveLength(t.agents.length);
      if (t.processType !== 'parallel') expect(order[0], t.slug).toBe(t.agents[0].key);
      if (t.processType === 'sequential') expect(order, t.slug).toEqual(t.agents.map((a) => a.key));
      if (t.processType === 'hierarchical') expect(t.agents.length, t.slug).toBeGreaterThanOrEqual(3);
      if (t.processType === 'parallel') {
        for (const node of t.nodes.filter((n) => n.type === 'agent')) {
          expect(t.edges, t.slug).toContainEqual(
            expect.objectContaining({ source: 'start', target: node.id }),
          );
          expect(t.edges, t.slug).toContainEqual(expect.objectContaining({ source: node.id, target: 'end' }));
        }
      }
    }
  });

  it('leaves no dead ends: every node of every template reaches End', () => {
    for (const t of sampleWorkflowTemplates) {
      const into = new Map<string, string[]>();
      for (const e of t.edges) into.set(e.target, [...(into.get(e.target) ?? []), e.source]);
      const reachesEnd = new Set(['end']);
      const queue = ['end'];
      while (queue.length > 0) {
        for (const source of into.get(queue.shift()!) ?? []) {
          if (!reachesEnd.has(source)) {
            reachesEnd.add(source);
            queue.push(source);
          }
        }
      }
      for (const node of t.nodes) expect(reachesEnd.has(node.id), `${t.slug}/${node.id}`).toBe(true);
    }
  });

  it('lays nodes out left to right on the builder’s 15 px grid', () => {
    for (const t of sampleWorkflowTemplates) {
      for (const node of t.nodes) {
        expect(node.position.x % GRID, `${t.slug}/${node.id}`).toBe(0);
        expect(node.position.y % GRID, `${t.slug}/${node.id}`).toBe(0);
        expect(node.position.x, `${t.slug}/${node.id}`).toBeGreaterThanOrEqual(0);
        expect(node.position.y, `${t.slug}/${node.id}`).toBeGreaterThanOrEqual(0);
      }
      const x = new Map(t.nodes.map((n) => [n.id, n.position.x]));
      for (const e of t.edges) expect(x.get(e.source)!, `${t.slug}/${e.id}`).toBeLessThan(x.get(e.target)!);
      // No two nodes overlap: agent, map, loop, transform and tool cards are 240 px wide and about
      // 120 px high, a condition 240 px by 60 px plus 40 px a path, a merge 210 px by 60 px, Start and
      // End about 150 px by 50 px; at least 15 px apart either way.
      const size = (node: (typeof t.nodes)[number]) => {
        if (node.type === 'condition')
          return { w: 240, h: 60 + 40 * ((node.data.branches as unknown[] | undefined)?.length ?? 0) + 40 };
        if (node.type === 'merge') return { w: 210, h: 60 };
        if (node.type === 'start' || node.type === 'end') return { w: 150, h: 50 };
        return { w: 240, h: 120 };
      };
      for (const a of t.nodes) {
        for (const b of t.nodes) {
          if (a === b) continue;
          const [sa, sb] = [size(a), size(b)];
          const apart =
            a.position.x + sa.w + GRID <= b.position.x ||
            b.position.x + sb.w + GRID <= a.position.x ||
            a.position.y + sa.h + GRID <= b.position.y ||
            b.position.y + sb.h + GRID <= a.position.y;
          expect(apart, `${t.slug}: ${a.id} and ${b.id}`).toBe(true);
        }
      }
    }
  });
});
