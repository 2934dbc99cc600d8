import { describe, expect, it } from 'vitest';

import {
  agentCopyName,
  agentCreatedToast,
  creationFailedToast,
  processTypeLabel,
  providerLabel,
  SEED_FAILED_TOAST,
  seededToast,
  triggerTypeLabel,
  usageLabel,
  visibleTags,
  workflowCopyName,
  workflowCreatedToast,
  WORKFLOW_CREATE_FAILED,
} from './template-texts';

describe('labels', () => {
  it('names uses, process types, triggers and providers', () => {
    expect(usageLabel(0)).toBe('0 uses');
    expect(usageLabel(1)).toBe('1 use');
    expect(usageLabel(1204)).toBe('1,204 uses');
    expect(['sequential', 'hierarchical', 'parallel'].map((p) => processTypeLabel(p as never))).toEqual([
      'Sequential',
      'Hierarchical',
      'Parallel',
    ]);
    expect(triggerTypeLabel('schedule')).toBe('Schedule');
    expect(providerLabel('openai')).toBe('OpenAI');
  });

  it('shows at most two tags', () => {
    expect(visibleTags(['a', 'b', 'c', 'd'])).toEqual({ shown: ['a', 'b'], hidden: 2 });
    expect(visibleTags(['a'])).toEqual({ shown: ['a'], hidden: 0 });
  });

  it('names what Use Template makes', () => {
    expect(workflowCopyName({ name: 'Blog Post Pipeline' })).toBe('Blog Post Pipeline (Copy)');
    expect(agentCopyName({ name: 'SEO Blog Writer' })).toBe('SEO Blog Writer');
  });
});

describe('toasts', () => {
  it('says how many samples seeding added', () => {
    expect(
      seededToast({ added: { workflows: 12, agents: 1 }, total: { workflows: 12, agents: 15 } }),
    ).toEqual({
      title: 'Templates Seeded',
      description: 'Added 12 workflow templates and 1 agent template.',
    });
    expect(seededToast({ added: { workflows: 0, agents: 0 }, total: { workflows: 12, agents: 15 } })).toEqual(
      {
        title: 'Templates Seeded',
        description: 'Every sample template is already in the library.',
      },
    );
    expect(SEED_FAILED_TOAST).toMatchObject({
      title: 'Seeding Failed',
      description: 'Failed to seed templates. Please try again.',
    });
  });

  it('confirms what Use Template made, and prefers the server message on failure', () => {
    expect(workflowCreatedToast('Blog Post Pipeline (Copy)', 3)).toEqual({
      title: 'Workflow Created',
      description: '"Blog Post Pipeline (Copy)" was created from the template with 3 agents.',
    });
    expect(agentCreatedToast('SEO Blog Writer')).toEqual({
      title: 'Agent Created',
      description: '"SEO Blog Writer" was created from the template.',
    });
    expect(creationFailedToast(null, WORKFLOW_CREATE_FAILED).description).toBe(
      'Failed to create workflow from template',
    );
    expect(creationFailedToast('Template not found', WORKFLOW_CREATE_FAILED)).toMatchObject({
      title: 'Creation Failed',
      description: 'Template not found',
    });
  });
});
