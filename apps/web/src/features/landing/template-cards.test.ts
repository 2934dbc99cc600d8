import { templateCategories } from '@crewline/contracts';
import { describe, expect, it } from 'vitest';

import { templates } from './content/landing-content';
import {
  categoryChips,
  compactCount,
  inCategory,
  LANDING_CATEGORIES,
  LANDING_TEMPLATE_COUNT,
  LANDING_TEMPLATE_RATING,
  libraryCard,
  staticCard,
  templateCards,
  templateSignupHref,
  topLibraryWorkflows,
  triggerLabel,
  usesLabel,
  type LibraryWorkflow,
} from './template-cards';

const workflow = (
  name: string,
  usageCount: number,
  patch: Partial<LibraryWorkflow> = {},
): LibraryWorkflow => ({
  id: `id-${name}`,
  name,
  description: `${name} description`,
  category: 'Content Marketing',
  processType: 'sequential',
  triggerType: 'manual',
  agentCount: 3,
  usageCount,
  ...patch,
});

describe('compactCount and usesLabel', () => {
  it('shortens thousands and millions, one decimal at most', () => {
    expect(compactCount(0)).toBe('0');
    expect(compactCount(950)).toBe('950');
    expect(compactCount(1000)).toBe('1k');
    expect(compactCount(1250)).toBe('1.3k');
    expect(compactCount(12_400)).toBe('12.4k');
    expect(compactCount(999_999)).toBe('1M');
    expect(compactCount(2_000_000)).toBe('2M');
  });

  it('says use for one', () => {
    expect(usesLabel(1)).toBe('1 use');
    expect(usesLabel(0)).toBe('0 uses');
    expect(usesLabel(15_200)).toBe('15.2k uses');
  });
});

describe('topLibraryWorkflows', () => {
  it('takes the six most used, a tie by name', () => {
    const list = [
      workflow('G', 1),
      workflow('B', 9),
      workflow('A', 9),
      workflow('C', 7),
      workflow('D', 5),
      workflow('E', 3),
      workflow('F', 2),
    ];
    expect(topLibraryWorkflows(list).map((w) => w.name)).toEqual(['A', 'B', 'C', 'D', 'E', 'F']);
    expect(list[0].name).toBe('G');
  });
});

describe('libraryCard', () => {
  it('shows the flow type, the agents, the fixed rating, the uses and where Use Template goes', () => {
    expect(libraryCard(workflow('Blog Post Pipeline', 1200, { processType: 'hierarchical' }))).toEqual({
      key: 'id-Blog Post Pipeline',
      title: 'Blog Post Pipeline',
      description: 'Blog Post Pipeline description',
      category: 'Content Marketing',
      agents: 3,
      flowType: 'Hierarchical',
      trigger: null,
      rating: LANDING_TEMPLATE_RATING,
      uses: '1.2k uses',
      useHref: '/signup?template=id-Blog+Post+Pipeline',
    });
  });

  it('labels the trigger as it is: a schedule is Scheduled, a webhook or an email Event-driven', () => {
    const label = (triggerType: LibraryWorkflow['triggerType']) =>
      libraryCard(workflow('X', 0, { triggerType, processType: 'parallel' }));
    expect(label('schedule')).toMatchObject({ trigger: 'Scheduled', flowType: 'Parallel' });
    expect(label('webhook')).toMatchObject({ trigger: 'Event-driven', flowType: 'Parallel' });
    expect(label('email')).toMatchObject({ trigger: 'Event-driven', flowType: 'Parallel' });
    expect(label('manual')).toMatchObject({ trigger: null });
    expect(triggerLabel('schedule')).toBe('Scheduled');
    expect(libraryCard(workflow('X', 0, { description: null })).description).toBe('');
  });

  it('Use Template signs up with the template named, the static previews without', () => {
    expect(templateSignupHref('0b6c3f8e-1d2a-4c5b-9e7f-123456789abc')).toBe(
      '/signup?template=0b6c3f8e-1d2a-4c5b-9e7f-123456789abc',
    );
    expect(staticCard(templates[0]).useHref).toBe('/signup');
  });
});

type Shown = Exclude<ReturnType<typeof templateCards>, 'loading'>;

describe('templateCards', () => {
  it('is loading until the library answers', () => {
    expect(templateCards({ status: 'pending' }, templates)).toBe('loading');
  });

  it('shows the library when it answers with workflows', () => {
    const shown = templateCards(
      { status: 'success', data: { workflows: [workflow('Blog Post Pipeline', 4)] } },
      templates,
    ) as Shown;
    expect(shown.cards.map((c) => c.title)).toEqual(['Blog Post Pipeline']);
  });

  it('falls back to the static previews when the call fails or the library is empty', () => {
    const titles = templates.map((t) => t.title);
    for (const library of [
      { status: 'error' as const },
      { status: 'success' as const, data: { workflows: [] } },
    ]) {
      const shown = templateCards(library, templates) as Shown;
      expect(shown.cards.map((c) => c.title)).toEqual(titles);
    }
    const first = templateCards({ status: 'error' }, templates) as Shown;
    expect(first.cards[0].uses).toBe(`${templates[0].uses} uses`);
  });
});

describe('category chips', () => {
  const library = {
    status: 'success' as const,
    data: {
      workflows: [
        workflow('Blog', 9),
        workflow('Social', 8),
        workflow('Triage', 7, { category: 'Customer Service', triggerType: 'webhook' }),
        workflow('KPI Digest', 1, { category: 'Business Intelligence', triggerType: 'schedule' }),
        ...Array.from({ length: 6 }, (_, i) => workflow(`Popular ${i}`, 50 + i)),
      ],
    },
  };

  it('are the library’s own categories, in the marketplace’s order, each with a template behind it', () => {
    const shown = templateCards(library, templates) as Shown;
    // No Email Marketing template in this library: no chip for it.
    expect(shown.chips).toEqual(['All', 'Content Marketing', 'Customer Service', 'Business Intelligence']);
    expect(LANDING_CATEGORIES).toEqual(templateCategories);
  });

  it('filter the preview: the top templates of the chosen category, however few uses they have', () => {
    const all = templateCards(library, templates) as Shown;
    expect(all.cards).toHaveLength(LANDING_TEMPLATE_COUNT);
    expect(all.cards.map((c) => c.title)).not.toContain('KPI Digest');

    const bi = templateCards(library, templates, 'Business Intelligence') as Shown;
    expect(bi.category).toBe('Business Intelligence');
    expect(bi.cards.map((c) => [c.title, c.trigger])).toEqual([['KPI Digest', 'Scheduled']]);

    const service = templateCards(library, templates, 'Customer Service') as Shown;
    expect(service.cards.map((c) => [c.title, c.trigger])).toEqual([['Triage', 'Event-driven']]);
  });

  it('show All when the chosen chip has nothing behind it', () => {
    const shown = templateCards(library, templates, 'Email Marketing') as Shown;
    expect(shown.category).toBe('All');
    expect(shown.cards).toHaveLength(LANDING_TEMPLATE_COUNT);
  });

  it('filter the static previews too, whose categories are the library’s', () => {
    const shown = templateCards({ status: 'error' }, templates, 'Customer Service') as Shown;
    expect(shown.chips).toEqual(['All', ...LANDING_CATEGORIES]);
    expect(shown.cards.map((c) => c.title)).toEqual(['Support Ticket Triage', 'Customer Feedback Analysis']);
    for (const preview of templates) expect(LANDING_CATEGORIES).toContain(preview.category);
    expect(templates.find((t) => t.title === 'Weekly KPI Digest')?.trigger).toBe('Scheduled');
  });

  it('categoryChips and inCategory keep an unknown category after the known ones', () => {
    expect(categoryChips(['Operations', 'Email Marketing'])).toEqual([
      'All',
      'Email Marketing',
      'Operations',
    ]);
    expect(inCategory([{ category: 'A' }, { category: 'B' }], 'B')).toEqual([{ category: 'B' }]);
    expect(inCategory([{ category: 'A' }], 'All')).toHaveLength(1);
  });
});
