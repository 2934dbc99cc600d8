import type { WorkflowTemplate } from '@crewline/contracts';
import { describe, expect, it } from 'vitest';

import {
  byPopularity,
  categoriesOf,
  DEFAULT_TEMPLATE_FILTERS,
  featuredTemplates,
  filterTemplates,
  hasActiveFilters,
  matchesSearch,
  missingLibrary,
} from './template-library';

function template(
  fields: Partial<WorkflowTemplate> & Pick<WorkflowTemplate, 'id' | 'name'>,
): WorkflowTemplate {
  return {
    description: null,
    category: 'Content Marketing',
    tags: [],
    processType: 'sequential',
    triggerType: 'manual',
    triggerConfig: {},
    nodes: [],
    edges: [],
    agents: [],
    usageCount: 0,
    isPublic: true,
    isOwn: false,
    createdAt: '2025-01-01T00:00:00.000Z',
    ...fields,
  };
}

const ids = (list: readonly ({ id: string } | null)[]) => list.map((item) => item?.id ?? null);

const blog = template({
  id: 'blog',
  name: 'Blog Post Pipeline',
  description: 'Research, write and edit a blog post',
  tags: ['blog', 'seo'],
  usageCount: 5,
});
const support = template({
  id: 'support',
  name: 'Support Ticket Triage',
  description: 'Routes incoming tickets',
  category: 'Customer Service',
  tags: ['helpdesk'],
  usageCount: 9,
});
const digest = template({
  id: 'digest',
  name: 'Analytics Digest',
  description: null,
  category: 'Business Intelligence',
  tags: ['kpi', 'Weekly'],
  usageCount: 5,
});

describe('matchesSearch', () => {
  it('matches the name, the description and the tags, in any case', () => {
    expect(matchesSearch(blog, 'PIPELINE')).toBe(true);
    expect(matchesSearch(blog, 'edit a blog')).toBe(true);
    expect(matchesSearch(blog, 'seo')).toBe(true);
    expect(matchesSearch(digest, 'weekly')).toBe(true);
    expect(matchesSearch(digest, 'tickets')).toBe(false);
  });

  it('needs every word somewhere, and an empty search matches everything', () => {
    expect(matchesSearch(blog, '  blog   seo ')).toBe(true);
    expect(matchesSearch(blog, 'blog helpdesk')).toBe(false);
    expect(matchesSearch(digest, '   ')).toBe(true);
  });
});

describe('filterTemplates', () => {
  const list = [blog, support, digest];

  it('keeps the server order and applies the category and the search together', () => {
    expect(ids(filterTemplates(list, DEFAULT_TEMPLATE_FILTERS))).toEqual(['blog', 'support', 'digest']);
    expect(ids(filterTemplates(list, { ...DEFAULT_TEMPLATE_FILTERS, category: 'Customer Service' }))).toEqual(
      ['support'],
    );
    expect(
      ids(
        filterTemplates(list, { ...DEFAULT_TEMPLATE_FILTERS, category: 'Customer Service', search: 'blog' }),
      ),
    ).toEqual([]);
    expect(ids(filterTemplates(list, { ...DEFAULT_TEMPLATE_FILTERS, search: 'blog post' }))).toEqual([
      'blog',
    ]);
  });

  it('counts a changed sort, search or category as filtering', () => {
    expect(hasActiveFilters(DEFAULT_TEMPLATE_FILTERS)).toBe(false);
    expect(hasActiveFilters({ ...DEFAULT_TEMPLATE_FILTERS, search: ' ' })).toBe(false);
    expect(hasActiveFilters({ ...DEFAULT_TEMPLATE_FILTERS, search: 'x' })).toBe(true);
    expect(hasActiveFilters({ ...DEFAULT_TEMPLATE_FILTERS, category: 'Email Marketing' })).toBe(true);
    expect(hasActiveFilters({ ...DEFAULT_TEMPLATE_FILTERS, sort: 'recent' })).toBe(true);
  });
});

describe('categoriesOf', () => {
  it('lists the four marketplace categories, then any other one once, alphabetically', () => {
    expect(categoriesOf([])).toEqual([
      'Content Marketing',
      'Customer Service',
      'Email Marketing',
      'Business Intelligence',
    ]);
    expect(
      categoriesOf([
        { category: 'Operations' },
        { category: 'Customer Service' },
        { category: 'HR' },
        { category: 'Operations' },
        { category: ' ' },
      ]).slice(4),
    ).toEqual(['HR', 'Operations']);
  });
});

describe('featuredTemplates', () => {
  it('picks the most used, the first by name, and the second most used without own templates', () => {
    const featured = featuredTemplates([blog, support, digest]);
    expect(featured.mostPopular?.id).toBe('support');
    expect(featured.highestRated?.id).toBe('digest');
    // Blog and Analytics Digest are used as often (the name orders them, as the server's sort
    // does); Analytics Digest is featured already.
    expect(featured.teamFavorite?.id).toBe('blog');
    expect(ids(byPopularity([blog, support, digest]))).toEqual(['support', 'digest', 'blog']);
  });

  it('features three different templates while nothing has been used yet', () => {
    const unused = [blog, support, digest].map((t) => ({ ...t, usageCount: 0 }));
    const featured = featuredTemplates(unused);
    expect(featured.highestRated?.id).toBe('digest');
    expect(featured.mostPopular?.id).toBe('blog');
    expect(featured.teamFavorite?.id).toBe('support');
  });

  it('features the same template twice only when it is both the most used and the first by name', () => {
    const featured = featuredTemplates([{ ...digest, usageCount: 20 }, blog, support]);
    expect(featured.mostPopular?.id).toBe('digest');
    expect(featured.highestRated?.id).toBe('digest');
    expect(featured.teamFavorite?.id).toBe('support');
  });

  it("makes the organization's most recently saved template the Team Favorite", () => {
    const older = template({
      id: 'ops-1',
      name: 'Ops A',
      isOwn: true,
      createdAt: '2025-03-01T00:00:00.000Z',
    });
    const newer = template({
      id: 'ops-2',
      name: 'Ops B',
      isOwn: true,
      createdAt: '2025-04-01T00:00:00.000Z',
    });
    expect(featuredTemplates([blog, older, newer, support]).teamFavorite?.id).toBe('ops-2');
  });

  it('leaves a pick empty when there are not enough templates', () => {
    expect(featuredTemplates([])).toEqual({ mostPopular: null, highestRated: null, teamFavorite: null });
    expect(featuredTemplates([blog])).toEqual({ mostPopular: blog, highestRated: blog, teamFavorite: null });
  });
});

describe('missingLibrary', () => {
  it('is missing a kind when none of the shipped ones is there, whatever the organization saved', () => {
    const own = { isOwn: true };
    const shipped = { isOwn: false };
    expect(missingLibrary({ workflows: [shipped], agents: [shipped] })).toEqual({
      workflows: false,
      agents: false,
      any: false,
    });
    expect(missingLibrary({ workflows: [own], agents: [shipped] })).toEqual({
      workflows: true,
      agents: false,
      any: true,
    });
    expect(missingLibrary({ workflows: [], agents: [] }).any).toBe(true);
  });
});
