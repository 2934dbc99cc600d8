import { describe, expect, it } from 'vitest';

import { templates } from './content/landing-content';
import {
  compactCount,
  LANDING_TEMPLATE_RATING,
  libraryCard,
  templateCards,
  topLibraryWorkflows,
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
  it('shows the flow type, the agents, the fixed rating and the uses', () => {
    expect(libraryCard(workflow('Blog Post Pipeline', 1200, { processType: 'hierarchical' }))).toEqual({
      key: 'id-Blog Post Pipeline',
      title: 'Blog Post Pipeline',
      description: 'Blog Post Pipeline description',
      category: 'Content Marketing',
      agents: 3,
      flowType: 'Hierarchical',
      eventDriven: false,
      rating: LANDING_TEMPLATE_RATING,
      uses: '1.2k uses',
    });
  });

  it('marks webhook, schedule and email workflows event-driven, keeping their process type', () => {
    for (const triggerType of ['webhook', 'schedule', 'email'] as const) {
      const card = libraryCard(workflow('X', 0, { triggerType, processType: 'parallel' }));
      expect(card).toMatchObject({ eventDriven: true, flowType: 'Parallel' });
    }
    expect(libraryCard(workflow('X', 0, { description: null })).description).toBe('');
  });
});

describe('templateCards', () => {
  it('is loading until the library answers', () => {
    expect(templateCards({ status: 'pending' }, templates)).toBe('loading');
  });

  it('shows the library when it answers with workflows', () => {
    const cards = templateCards(
      { status: 'success', data: { workflows: [workflow('Blog Post Pipeline', 4)] } },
      templates,
    );
    expect(cards).not.toBe('loading');
    expect((cards as Exclude<typeof cards, 'loading'>).map((c) => c.title)).toEqual(['Blog Post Pipeline']);
  });

  it('falls back to the static previews when the call fails or the library is empty', () => {
    const titles = templates.map((t) => t.title);
    for (const library of [
      { status: 'error' as const },
      { status: 'success' as const, data: { workflows: [] } },
    ]) {
      const cards = templateCards(library, templates);
      expect((cards as Exclude<typeof cards, 'loading'>).map((c) => c.title)).toEqual(titles);
    }
    const first = templateCards({ status: 'error' }, templates) as Exclude<
      ReturnType<typeof templateCards>,
      'loading'
    >;
    expect(first[0].uses).toBe(`${templates[0].uses} uses`);
  });
});
