import { describe, expect, it } from 'vitest';

import {
  buildConnectionConfig,
  cancelEditing,
  displayValue,
  fieldErrorsFromServer,
  LLM_CONNECTIONS,
  modelChoices,
  normalizeProviderModels,
  OTHER_CONNECTIONS,
  startEditing,
  updateDraft,
  validateConnectionConfig,
  withErrors,
  type ConnectionDef,
} from './connections';

const def = (id: string): ConnectionDef =>
  [...LLM_CONNECTIONS, ...OTHER_CONNECTIONS].find((d) => d.id === id)!;
const openai = def('openai_config');

describe('connection definitions', () => {
  it('shows OpenAI, Anthropic, Local (Ollama) and Custom in that order', () => {
    expect(LLM_CONNECTIONS.map((d) => d.title)).toEqual([
      'OpenAI',
      'Anthropic',
      'Local (Ollama)',
      'Custom (OpenAI-compatible)',
    ]);
  });

  it('gives each connection its fields', () => {
    expect(openai.fields.map((f) => f.key)).toEqual(['defaultModel', 'baseUrl', 'apiKey']);
    expect(def('anthropic_config').fields.find((f) => f.key === 'baseUrl')?.advanced).toBe(true);
    expect(def('local_config').fields.map((f) => f.key)).toEqual(['baseUrl', 'defaultModel']);
    expect(def('local_config').fields[0].placeholder).toBe('http://127.0.0.1:11434/v1');
    expect(openai.fields[1].placeholder).toBe('https://api.openai.com/v1');
    expect(def('custom_config').fields.map((f) => f.key)).toEqual(['baseUrl', 'apiKey', 'defaultModel']);
  });
});

describe('read-only values', () => {
  it('keeps secrets masked and says when nothing is set', () => {
    const key = openai.fields[2];
    expect(displayValue(key, { apiKey: '••••••••abcd' })).toEqual({
      text: '••••••••abcd',
      muted: false,
      mono: true,
    });
    expect(displayValue(key, {})).toEqual({ text: 'Not set', muted: true, mono: false });
  });

  it('shows the default base URL and SSL mode when none is stored', () => {
    expect(displayValue(openai.fields[1], { baseUrl: '' }).text).toBe('Default (https://api.openai.com/v1)');
    const ssl = def('database_config').fields.find((f) => f.key === 'ssl')!;
    expect(displayValue(ssl, {}).text).toBe('Default (Require)');
    expect(displayValue(ssl, { ssl: 'prefer' }).text).toBe('Prefer');
  });
});

describe('edit and cancel', () => {
  it('starts from the stored values, edits the draft and cancels without a trace', () => {
    const stored = { defaultModel: 'gpt-4o', apiKey: '••••••••abcd' };
    let state = startEditing(openai, stored);
    expect(state).toEqual({
      mode: 'edit',
      draft: { defaultModel: 'gpt-4o', baseUrl: '', apiKey: '••••••••abcd' },
      errors: {},
    });
    state = withErrors(state, { baseUrl: 'Enter a URL starting with http:// or https://' });
    state = updateDraft(state, 'baseUrl', 'https://gateway.example/v1');
    expect(state.mode === 'edit' && state.errors).toEqual({});
    expect(cancelEditing()).toEqual({ mode: 'view' });
    expect(startEditing(openai, stored).mode === 'edit' && startEditing(openai, stored)).toMatchObject({
      draft: { baseUrl: '' },
    });
  });

  it('defaults the SSL mode to require and shows the port as text', () => {
    const state = startEditing(def('database_config'), { port: 5432 });
    expect(state.mode === 'edit' && state.draft).toMatchObject({ port: '5432', ssl: 'require' });
  });

  it('ignores draft changes outside edit mode', () => {
    expect(updateDraft({ mode: 'view' }, 'apiKey', 'x')).toEqual({ mode: 'view' });
  });
});

describe('save body', () => {
  it('sends the draft over the stored config, a masked key unchanged', () => {
    const stored = { defaultModel: 'gpt-4o', apiKey: '••••••••abcd', organization: 'org-1' };
    const config = buildConnectionConfig(
      openai,
      { defaultModel: 'gpt-4o-mini', baseUrl: ' https://gw.example/v1 ', apiKey: '••••••••abcd' },
      stored,
    );
    expect(config).toEqual({
      defaultModel: 'gpt-4o-mini',
      baseUrl: 'https://gw.example/v1',
      apiKey: '••••••••abcd',
      organization: 'org-1',
    });
  });

  it('clears an emptied key and converts the port', () => {
    expect(
      buildConnectionConfig(openai, { defaultModel: '', baseUrl: '', apiKey: '' }, { apiKey: '••••abcd' }),
    ).toEqual({ defaultModel: '', baseUrl: '', apiKey: '' });
    const db = def('database_config');
    expect(buildConnectionConfig(db, { port: '6543', ssl: 'disable' }).port).toBe(6543);
    expect('port' in buildConnectionConfig(db, { port: '' }, { port: 5432 })).toBe(false);
  });

  it('validates with the contract messages', () => {
    expect(validateConnectionConfig('openai_config', { baseUrl: 'api.openai.com' })).toEqual({
      baseUrl: 'Enter a URL starting with http:// or https://',
    });
    expect(validateConnectionConfig('openai_config', { baseUrl: '', apiKey: '••••abcd' })).toEqual({});
    expect(validateConnectionConfig('database_config', { port: 70000 })).toEqual({
      port: 'Enter a port from 1 to 65535',
    });
    expect(validateConnectionConfig('sendgrid_config', { fromEmail: 'nope' })).toEqual({
      fromEmail: 'Invalid email address',
    });
  });

  it('places server errors on fields', () => {
    expect(
      fieldErrorsFromServer(openai, [
        { path: 'config.baseUrl', message: 'Bad URL' },
        { path: 'isActive', message: 'Odd' },
      ]),
    ).toEqual({ baseUrl: 'Bad URL', form: 'Odd' });
  });
});

describe('model choices', () => {
  it('reads the catalogue and falls back to built-in lists', () => {
    const models = normalizeProviderModels({
      openai: { name: 'OpenAI', models: ['gpt-4.1', { id: 'gpt-4o' }] },
      local: {},
    });
    expect(models.openai).toEqual(['gpt-4.1', 'gpt-4o']);
    expect(models.anthropic.length).toBeGreaterThan(0);
    expect(normalizeProviderModels(null).openai).toEqual(['gpt-4o', 'gpt-4o-mini', 'gpt-3.5-turbo']);
  });

  it('keeps the stored model listed', () => {
    expect(modelChoices({ openai: ['gpt-4o'] }, 'openai', 'o3')).toEqual(['o3', 'gpt-4o']);
    expect(modelChoices({ openai: ['gpt-4o'] }, 'openai', 'gpt-4o')).toEqual(['gpt-4o']);
  });
});
