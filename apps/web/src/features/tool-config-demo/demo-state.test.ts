import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import {
  demoReducer,
  initialDemoState,
  maskSecret,
  MESSAGES,
  startDemoTest,
  validateDemoValues,
  type DemoAction,
  type DemoState,
} from './demo-state';
import { DEMO_TABS, DEMO_TOOLS, demoToolById, type DemoToolId } from './demo-tools';

function run(state: DemoState, ...actions: DemoAction[]): DemoState {
  return actions.reduce(demoReducer, state);
}

const edit = (id: DemoToolId): DemoAction => ({ type: 'edit', id });
const change = (id: DemoToolId, key: string, value: string): DemoAction => ({
  type: 'change',
  id,
  key,
  value,
});
const save = (id: DemoToolId): DemoAction => ({ type: 'save', id });

describe('demo tools', () => {
  it('has the three tabs and a card per tool in its tab', () => {
    expect(DEMO_TABS.map((tab) => tab.label)).toEqual([
      'LLM Connections',
      'Specialist Tools',
      'Infrastructure',
    ]);
    expect(DEMO_TOOLS.map((tool) => [tool.id, tool.tab])).toEqual([
      ['openai', 'llm'],
      ['anthropic', 'llm'],
      ['pinecone', 'specialist'],
      ['sendgrid', 'infrastructure'],
    ]);
  });

  it('lists the Anthropic models by their names and starts Pinecone at dimension 1536', () => {
    const model = demoToolById('anthropic').fields.find((field) => field.key === 'defaultModel');
    expect(model?.options?.map((option) => option.label)).toEqual([
      'Claude 4.0 Sonnet',
      'Claude 3.7 Sonnet',
      'Claude 3.5 Sonnet',
    ]);
    expect(initialDemoState().pinecone.values.dimension).toBe('1536');
  });

  it('starts every card untested, with only OpenAI active', () => {
    const state = initialDemoState();
    expect(Object.values(state).map((card) => card.status)).toEqual([
      'untested',
      'untested',
      'untested',
      'untested',
    ]);
    expect(Object.values(state).map((card) => card.isActive)).toEqual([true, false, false, false]);
  });
});

describe('masking', () => {
  it('shows only the last 4 characters of a long secret, and none of a short one', () => {
    expect(maskSecret('sk-demo-3f9c2a7b41d8e6c0')).toBe('••••••••e6c0');
    expect(maskSecret('short-key')).toBe('••••••••');
    expect(maskSecret('')).toBe('');
  });
});

describe('validation', () => {
  const pinecone = demoToolById('pinecone');
  const valid = {
    apiKey: 'pc-key',
    environment: 'us-east-1-aws',
    indexName: 'agent-memory',
    dimension: '1536',
  };

  it('accepts a complete Pinecone configuration', () => {
    expect(validateDemoValues(pinecone, valid)).toEqual({});
  });

  it('requires the API key and the required fields', () => {
    expect(validateDemoValues(pinecone, { ...valid, apiKey: '  ', indexName: '' })).toEqual({
      apiKey: 'API Key is required.',
      indexName: 'Index Name is required.',
    });
  });

  it('wants a whole dimension from 1 to 20000', () => {
    for (const dimension of ['abc', '0', '12.5', '-3', '20001']) {
      expect(validateDemoValues(pinecone, { ...valid, dimension }).dimension).toBe(
        'Dimension must be a whole number from 1 to 20000.',
      );
    }
    expect(validateDemoValues(pinecone, { ...valid, dimension: '20000' })).toEqual({});
  });

  it('follows the index name rules', () => {
    expect(validateDemoValues(pinecone, { ...valid, indexName: 'Agent_Memory' }).indexName).toMatch(
      /lowercase letters, numbers and hyphens/,
    );
    expect(validateDemoValues(pinecone, { ...valid, indexName: '-memory' }).indexName).toBeDefined();
    expect(validateDemoValues(pinecone, { ...valid, indexName: 'a'.repeat(46) }).indexName).toBe(
      'Index Name must be at most 45 characters.',
    );
  });

  it('checks the sender address and leaves optional fields alone', () => {
    const sendgrid = demoToolById('sendgrid');
    expect(validateDemoValues(sendgrid, { apiKey: 'SG.x', fromEmail: 'agents', fromName: '' })).toEqual({
      fromEmail: 'From Email must be an email address.',
    });
    expect(validateDemoValues(sendgrid, { apiKey: 'SG.x', fromEmail: 'a@b.co', fromName: '' })).toEqual({});
  });

  it('only takes a listed model', () => {
    const openai = demoToolById('openai');
    expect(validateDemoValues(openai, { apiKey: 'k', defaultModel: 'gpt-9' }).defaultModel).toBe(
      'Choose a Default Model.',
    );
  });
});

describe('edit, save and cancel', () => {
  it('edits from the saved values, with the secret masked', () => {
    const state = run(initialDemoState(), edit('openai'));
    expect(state.openai.draft).toEqual({ apiKey: '••••••••e6c0', defaultModel: 'gpt-4o', organization: '' });
  });

  it('saves a valid draft: the card becomes connected and leaves edit mode', () => {
    const state = run(
      initialDemoState(),
      edit('pinecone'),
      change('pinecone', 'apiKey', 'pc-secret-key-1234'),
      change('pinecone', 'indexName', ' agent-memory '),
      save('pinecone'),
    );
    expect(state.pinecone).toMatchObject({
      draft: null,
      status: 'connected',
      message: MESSAGES.saved,
      values: { apiKey: 'pc-secret-key-1234', indexName: 'agent-memory', dimension: '1536' },
    });
  });

  it('keeps the saved secret when its mask is left as it is', () => {
    const state = run(
      initialDemoState(),
      edit('openai'),
      change('openai', 'organization', 'org-42'),
      save('openai'),
    );
    expect(state.openai.values).toEqual({
      apiKey: 'sk-demo-3f9c2a7b41d8e6c0',
      defaultModel: 'gpt-4o',
      organization: 'org-42',
    });
  });

  it('refuses an invalid draft with field errors and stays in edit mode', () => {
    const state = run(
      initialDemoState(),
      edit('pinecone'),
      change('pinecone', 'apiKey', 'pc-key'),
      change('pinecone', 'indexName', 'memory'),
      change('pinecone', 'dimension', 'lots'),
      save('pinecone'),
    );
    expect(state.pinecone.status).toBe('untested');
    expect(state.pinecone.draft?.dimension).toBe('lots');
    expect(state.pinecone.errors).toEqual({ dimension: 'Dimension must be a whole number from 1 to 20000.' });
    // Typing in the field clears its error.
    expect(run(state, change('pinecone', 'dimension', '768')).pinecone.errors).toEqual({});
  });

  it('discards the draft on Cancel', () => {
    const before = initialDemoState();
    const state = run(before, edit('sendgrid'), change('sendgrid', 'fromName', 'Ops'), {
      type: 'cancel',
      id: 'sendgrid',
    });
    expect(state.sendgrid).toEqual(before.sendgrid);
  });

  it('leaves the other cards as they are', () => {
    const before = initialDemoState();
    const state = run(before, edit('sendgrid'));
    expect(state.openai).toBe(before.openai);
  });
});

describe('toggle', () => {
  it('flips active, in read-only and edit mode alike, without touching the status', () => {
    let state = run(initialDemoState(), { type: 'toggle', id: 'openai' });
    expect(state.openai.isActive).toBe(false);
    state = run(state, edit('openai'), { type: 'toggle', id: 'openai' });
    expect(state.openai.isActive).toBe(true);
    expect(state.openai.status).toBe('untested');
  });
});

describe('test', () => {
  let state: DemoState;
  const dispatch = (action: DemoAction) => {
    state = demoReducer(state, action);
  };

  beforeEach(() => {
    vi.useFakeTimers();
    state = initialDemoState();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is testing for 2 seconds, then connected', () => {
    startDemoTest(dispatch, 'openai');
    expect(state.openai).toMatchObject({ testing: true, status: 'untested', message: MESSAGES.testing });
    vi.advanceTimersByTime(1999);
    expect(state.openai.testing).toBe(true);
    vi.advanceTimersByTime(1);
    expect(state.openai).toMatchObject({
      testing: false,
      status: 'connected',
      message: 'Connection successful.',
    });
  });

  it('fails at once when a saved value is invalid: an empty API key', () => {
    startDemoTest(dispatch, 'anthropic');
    expect(state.anthropic).toMatchObject({
      testing: false,
      status: 'error',
      message: 'Test failed. API Key is required.',
    });
    vi.advanceTimersByTime(2000);
    expect(state.anthropic.status).toBe('error');
  });

  it('fails on a non-numeric dimension', () => {
    state = {
      ...state,
      pinecone: {
        ...state.pinecone,
        values: { apiKey: 'pc-key', environment: 'us-east-1-aws', indexName: 'memory', dimension: 'x' },
      },
    };
    startDemoTest(dispatch, 'pinecone');
    expect(state.pinecone.status).toBe('error');
    expect(state.pinecone.message).toBe('Test failed. Dimension must be a whole number from 1 to 20000.');
  });

  it('turns an error into connected once the values are fixed and tested again', () => {
    startDemoTest(dispatch, 'anthropic');
    state = run(
      state,
      edit('anthropic'),
      change('anthropic', 'apiKey', 'sk-ant-demo-key'),
      save('anthropic'),
    );
    expect(state.anthropic.status).toBe('connected');
    startDemoTest(dispatch, 'anthropic');
    vi.advanceTimersByTime(2000);
    expect(state.anthropic.status).toBe('connected');
    expect(state.anthropic.message).toBe('Connection successful.');
  });

  it('does not start while the card is being edited, nor let editing start during a test', () => {
    state = run(state, edit('openai'));
    startDemoTest(dispatch, 'openai');
    expect(state.openai.testing).toBe(false);
    state = run(state, { type: 'cancel', id: 'openai' });
    startDemoTest(dispatch, 'openai');
    expect(run(state, edit('openai')).openai.draft).toBeNull();
  });

  it('stops the pending timer when asked (the page leaving)', () => {
    const stop = startDemoTest(dispatch, 'openai');
    stop();
    vi.advanceTimersByTime(5000);
    expect(state.openai.testing).toBe(true);
  });
});
