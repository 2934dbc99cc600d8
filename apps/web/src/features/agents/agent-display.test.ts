import { describe, expect, it } from 'vitest';

import {
  agentStatusDisplay,
  DEFAULT_AGENT_FILTERS,
  deleteConfirmationText,
  displayMaxTokens,
  displayTemperature,
  filterAgents,
  hasActiveFilters,
  nextToggleStatus,
  providerLabel,
  providerTone,
  statusToggleToast,
  TEST_ERROR_TOAST,
  testResultToast,
  toolBadgeLabels,
  truncateDescription,
  type FilterableAgent,
} from './agent-display';

const agents: (FilterableAgent & { id: string })[] = [
  { id: '1', name: 'Research Analyst', role: 'Market researcher', status: 'active', llmProvider: 'openai' },
  {
    id: '2',
    name: 'Copywriter',
    role: 'Senior content WRITER',
    status: 'inactive',
    llmProvider: 'anthropic',
  },
  { id: '3', name: 'Support Bot', role: 'Customer support', status: 'busy', llmProvider: 'local' },
  { id: '4', name: 'Ledger', role: 'Finance analyst', status: 'error', llmProvider: 'custom' },
];

const ids = (list: { id: string }[]) => list.map((a) => a.id);

describe('filterAgents', () => {
  it("keeps everything when every filter is 'all' and the search is empty", () => {
    expect(ids(filterAgents(agents, DEFAULT_AGENT_FILTERS))).toEqual(['1', '2', '3', '4']);
  });

  it('searches name or role, case-insensitively, as a substring', () => {
    expect(ids(filterAgents(agents, { ...DEFAULT_AGENT_FILTERS, search: 'ANALYST' }))).toEqual(['1', '4']);
    expect(ids(filterAgents(agents, { ...DEFAULT_AGENT_FILTERS, search: 'writer' }))).toEqual(['2']);
    expect(ids(filterAgents(agents, { ...DEFAULT_AGENT_FILTERS, search: '  support ' }))).toEqual(['3']);
    expect(filterAgents(agents, { ...DEFAULT_AGENT_FILTERS, search: 'nobody' })).toEqual([]);
  });

  it('matches status and provider exactly', () => {
    expect(ids(filterAgents(agents, { ...DEFAULT_AGENT_FILTERS, status: 'busy' }))).toEqual(['3']);
    expect(ids(filterAgents(agents, { ...DEFAULT_AGENT_FILTERS, provider: 'anthropic' }))).toEqual(['2']);
    expect(ids(filterAgents(agents, { ...DEFAULT_AGENT_FILTERS, provider: 'custom' }))).toEqual(['4']);
  });

  it('combines the filters', () => {
    expect(ids(filterAgents(agents, { search: 'analyst', status: 'active', provider: 'openai' }))).toEqual([
      '1',
    ]);
    expect(filterAgents(agents, { search: 'analyst', status: 'active', provider: 'custom' })).toEqual([]);
  });
});

describe('hasActiveFilters', () => {
  it("is false only when nothing narrows the list ('No agents created yet' vs 'No agents found')", () => {
    expect(hasActiveFilters(DEFAULT_AGENT_FILTERS)).toBe(false);
    expect(hasActiveFilters({ ...DEFAULT_AGENT_FILTERS, search: '   ' })).toBe(false);
    expect(hasActiveFilters({ ...DEFAULT_AGENT_FILTERS, search: 'a' })).toBe(true);
    expect(hasActiveFilters({ ...DEFAULT_AGENT_FILTERS, status: 'inactive' })).toBe(true);
    expect(hasActiveFilters({ ...DEFAULT_AGENT_FILTERS, provider: 'local' })).toBe(true);
  });
});

describe('agentStatusDisplay', () => {
  it('shows active, busy and error as such and anything else as inactive', () => {
    expect(agentStatusDisplay('active')).toBe('active');
    expect(agentStatusDisplay('busy')).toBe('busy');
    expect(agentStatusDisplay('error')).toBe('error');
    expect(agentStatusDisplay('inactive')).toBe('inactive');
    expect(agentStatusDisplay('paused')).toBe('inactive');
    expect(agentStatusDisplay('')).toBe('inactive');
    expect(agentStatusDisplay(null)).toBe('inactive');
    expect(agentStatusDisplay(undefined)).toBe('inactive');
  });

  it('toggles between active and inactive: Pause when active, Activate otherwise', () => {
    expect(nextToggleStatus('active')).toBe('inactive');
    expect(nextToggleStatus('inactive')).toBe('active');
    expect(nextToggleStatus('busy')).toBe('active');
    expect(nextToggleStatus('error')).toBe('active');
  });
});

describe('card defaults', () => {
  it('shows temperature 70 and max tokens 2000 when absent', () => {
    expect(displayTemperature(undefined)).toBe(70);
    expect(displayTemperature(null)).toBe(70);
    expect(displayTemperature(Number.NaN)).toBe(70);
    expect(displayTemperature(0)).toBe(0);
    expect(displayTemperature(35)).toBe(35);
    expect(displayTemperature(140)).toBe(100);
    expect(displayMaxTokens(undefined)).toBe(2000);
    expect(displayMaxTokens(null)).toBe(2000);
    expect(displayMaxTokens(4096)).toBe(4096);
  });

  it('names and colours providers: openai blue, anthropic purple, local green, other gray', () => {
    expect(providerTone('openai')).toBe('blue');
    expect(providerTone('anthropic')).toBe('purple');
    expect(providerTone('local')).toBe('green');
    expect(providerTone('custom')).toBe('gray');
    expect(providerTone('mystery')).toBe('gray');
    expect(providerLabel('openai')).toBe('OpenAI');
    expect(providerLabel('mystery')).toBe('Mystery');
  });
});

describe('truncateDescription', () => {
  const long = 'x'.repeat(99) + 'yz' + ' and more text after the cut';

  it('cuts at 100 characters followed by ... and offers Show more', () => {
    const { text, truncatable } = truncateDescription(long, false);
    expect(truncatable).toBe(true);
    expect(text).toBe('x'.repeat(99) + 'y...');
    expect(text.length).toBe(103);
  });

  it('shows the whole text when expanded (Show less)', () => {
    expect(truncateDescription(long, true)).toEqual({ text: long, truncatable: true });
  });

  it('leaves texts of 100 characters or fewer alone, with no toggle', () => {
    const exact = 'a'.repeat(100);
    expect(truncateDescription(exact, false)).toEqual({ text: exact, truncatable: false });
    expect(truncateDescription('Short.', false)).toEqual({ text: 'Short.', truncatable: false });
    expect(truncateDescription(null, false)).toEqual({ text: '', truncatable: false });
  });
});

describe('toolBadgeLabels', () => {
  it('takes strings, and objects by name or else id, skipping the rest', () => {
    expect(
      toolBadgeLabels([
        'web_search',
        { name: 'Calculator', id: 't2' },
        { id: 't3' },
        { name: '', id: 't4' },
        42,
        null,
        '  ',
      ]),
    ).toEqual(['web_search', 'Calculator', 't3', 't4']);
    expect(toolBadgeLabels(undefined)).toEqual([]);
  });
});

describe('toast texts', () => {
  it('shows the first 100 characters of a successful test followed by ...', () => {
    const response = 'Hello! '.repeat(30);
    expect(testResultToast({ success: true, response, error: null })).toEqual({
      title: 'Agent Test Successful',
      description: `${response.slice(0, 100)}...`,
    });
    expect(testResultToast({ success: true, response: 'Hi there.', error: null }).description).toBe(
      'Hi there....',
    );
  });

  it("shows the server's error for a failed test, destructive", () => {
    expect(
      testResultToast({ success: false, response: null, error: 'OpenAI API key is not configured' }),
    ).toEqual({
      variant: 'destructive',
      title: 'Agent Test Failed',
      description: 'OpenAI API key is not configured',
    });
  });

  it('has fixed texts for a thrown test and for the status toggle', () => {
    expect(TEST_ERROR_TOAST).toEqual({
      variant: 'destructive',
      title: 'Test Error',
      description: 'Failed to test agent',
    });
    expect(statusToggleToast('active')).toEqual({
      title: 'Agent Updated',
      description: 'Agent activated successfully',
    });
    expect(statusToggleToast('inactive').description).toBe('Agent deactivated successfully');
  });

  it('asks before deleting, naming the agent and that it cannot be undone', () => {
    expect(deleteConfirmationText('Research Analyst')).toBe(
      'Are you sure you want to delete "Research Analyst"? This action cannot be undone.',
    );
  });
});
