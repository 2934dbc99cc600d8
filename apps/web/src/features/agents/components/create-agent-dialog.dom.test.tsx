import type { Agent, CreateAgentInput, providerCatalogueSchema } from '@crewline/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { z } from 'zod';
import { describe, expect, it, vi } from 'vitest';

import { answerGet, answerPost, server } from '@/testing/msw-server';
import { renderWithApp } from '@/testing/render';

import { CreateAgentDialog } from './create-agent-dialog';

/** GET /api/llm/providers, as the contracts describe it. */
type ProviderCatalogue = z.infer<typeof providerCatalogueSchema>;

const catalogue: ProviderCatalogue = {
  openai: { name: 'OpenAI', models: ['gpt-4o', 'gpt-4o-mini'], defaultModel: 'gpt-4o-mini' },
};

describe('the agent form (create dialog)', () => {
  it('says what is missing, then sends the filled form as the new agent', async () => {
    const sent: CreateAgentInput[] = [];
    server.use(
      answerGet<ProviderCatalogue>('/api/llm/providers', catalogue),
      answerPost<CreateAgentInput, Agent>('/api/agents', { id: 'a1' } as Agent, sent),
    );
    const onOpenChange = vi.fn();
    const user = userEvent.setup();
    renderWithApp(<CreateAgentDialog open onOpenChange={onOpenChange} />);

    await user.click(await screen.findByRole('button', { name: 'Create Agent' }));
    expect(await screen.findByText('Name is required')).toBeTruthy();
    expect(screen.getByText('Role is required')).toBeTruthy();
    expect(screen.getByText('Goal is required')).toBeTruthy();
    expect(sent).toEqual([]);

    await user.click(screen.getByRole('textbox', { name: /^Name/ }));
    await user.paste('Researcher');
    await user.click(screen.getByRole('textbox', { name: /^Role/ }));
    await user.paste('Finds the facts');
    await user.click(screen.getByRole('textbox', { name: /^Goal/ }));
    await user.paste('A short, sourced brief');
    await user.click(screen.getByRole('button', { name: 'Create Agent' }));

    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(sent).toEqual([
      {
        name: 'Researcher',
        role: 'Finds the facts',
        goal: 'A short, sourced brief',
        description: null,
        backstory: null,
        llmProvider: 'openai',
        llmModel: 'gpt-4o-mini',
        temperature: 70,
        maxTokens: 2000,
        systemPrompt: null,
        status: 'inactive',
        guardrails: {},
      },
    ]);
  });

  it('sends the guardrails set on the Advanced tab: a PII check on its answer, a secrets check on its tool calls', async () => {
    const sent: CreateAgentInput[] = [];
    server.use(
      answerGet<ProviderCatalogue>('/api/llm/providers', catalogue),
      answerPost<CreateAgentInput, Agent>('/api/agents', { id: 'a1' } as Agent, sent),
    );
    const onOpenChange = vi.fn();
    const user = userEvent.setup();
    renderWithApp(<CreateAgentDialog open onOpenChange={onOpenChange} />);
    await user.click(await screen.findByRole('textbox', { name: /^Name/ }));
    await user.paste('Support');
    await user.click(screen.getByRole('textbox', { name: /^Role/ }));
    await user.paste('Answers customers');
    await user.click(screen.getByRole('textbox', { name: /^Goal/ }));
    await user.paste('Kind answers');

    await user.click(screen.getByRole('tab', { name: 'Advanced' }));
    const guardrails = screen.getByRole('region', { name: 'Guardrails' });
    expect(within(guardrails).getAllByText('No checks.')).toHaveLength(3);
    await user.click(within(guardrails).getByRole('button', { name: 'Add check (On its answer)' }));
    await user.click(await screen.findByRole('menuitem', { name: 'PII' }));
    await user.click(within(guardrails).getByRole('button', { name: 'Add check (On its tool calls)' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Secrets' }));
    // Adding a check is not submitting the form.
    expect(sent).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Create Agent' }));
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(sent[0]!.guardrails).toEqual({
      output: [{ type: 'pii', enabled: true, action: 'redact' }],
      tools: [{ type: 'secrets', enabled: true, action: 'block' }],
    });
  });
});
