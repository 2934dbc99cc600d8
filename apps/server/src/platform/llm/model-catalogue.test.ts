import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import { createLlmGateway } from './gateway';
import { createModelCatalogue } from './model-catalogue';

let fake: FakeLlmServer;
beforeAll(async () => {
  fake = await startFakeLlmServer();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

function setup() {
  let clock = 0;
  const catalogue = createModelCatalogue({ gateway: createLlmGateway({ maxRetries: 0 }), now: () => clock });
  return { catalogue, advance: (ms: number) => (clock += ms) };
}

const listings = () => fake.requests.filter((r) => r.path === '/v1/models').length;

describe('model catalogue', () => {
  it('uses built-in lists and names when nothing is configured', async () => {
    const { catalogue } = setup();
    expect(await catalogue.providers({}, 'org-1')).toEqual({
      openai: {
        name: 'OpenAI',
        models: ['gpt-4o', 'gpt-4o-mini', 'gpt-3.5-turbo'],
        defaultModel: 'gpt-4o',
      },
      anthropic: {
        name: 'Anthropic',
        models: ['claude-sonnet-4-5', 'claude-opus-4-1', 'claude-haiku-4-5'],
        defaultModel: 'claude-sonnet-4-5',
      },
      // A built-in name is only a suggestion for a local server: it may not serve it.
      // Local and Custom say why their server's models are not listed.
      local: {
        name: 'Local (Ollama)',
        models: ['llama3.1:8b', 'mistral', 'qwen2.5'],
        defaultModel: '',
        listError: 'no server is set up in Settings → Tools',
      },
      custom: {
        name: 'Custom (OpenAI-compatible)',
        models: [],
        defaultModel: '',
        listError: 'no server is set up in Settings → Tools',
      },
    });
    expect(fake.requests).toHaveLength(0);
  });

  it("defaults to the connection's model, else a local or custom server's first reported model", async () => {
    const { catalogue } = setup();
    fake.setModels(['qwen2.5:7b', 'llama3.2:3b']);
    const connections = {
      openai: { provider: 'openai' as const, apiKey: 'k', baseUrl: fake.url },
      local: { provider: 'local' as const, baseUrl: fake.url },
      custom: { provider: 'custom' as const, baseUrl: fake.url },
    };
    const result = await catalogue.providers(connections, 'org-1', {
      openai: 'gpt-4o-mini',
      custom: ' my-model ',
    });
    expect(result.openai.defaultModel).toBe('gpt-4o-mini');
    expect(result.anthropic.defaultModel).toBe('claude-sonnet-4-5');
    expect(result.local.defaultModel).toBe('llama3.2:3b');
    expect(result.custom.defaultModel).toBe('my-model');
    expect(result.local).toMatchObject({ models: ['llama3.2:3b', 'qwen2.5:7b'] });
    expect(result.local.listError).toBeUndefined();
    expect(result.openai.listError).toBeUndefined();

    // A server that cannot be listed names no model: the built-in list is offered, none is chosen.
    fake.failNext(500);
    const failed = await catalogue.providers({ local: connections.local }, 'org-2');
    expect(failed.local).toMatchObject({ models: ['llama3.1:8b', 'mistral', 'qwen2.5'], defaultModel: '' });
    // …and says why, for the form to show under its model field.
    expect(failed.local.listError).toMatch(/500/);

    fake.setModels([]);
    const empty = await catalogue.providers({ custom: connections.custom }, 'org-3');
    expect(empty.custom).toMatchObject({ models: [], listError: 'the server reported no models' });
  });

  it("uses the provider's list when configured, without non-chat models", async () => {
    const { catalogue } = setup();
    fake.setModels(['gpt-4o', 'text-embedding-3-small', 'whisper-1', 'gpt-4.1', 'dall-e-3']);
    const result = await catalogue.providers(
      { openai: { provider: 'openai', apiKey: 'k', baseUrl: fake.url } },
      'org-1',
    );
    expect(result.openai.models).toEqual(['gpt-4.1', 'gpt-4o']);
    expect(result.anthropic.models).toEqual(['claude-sonnet-4-5', 'claude-opus-4-1', 'claude-haiku-4-5']);
  });

  it('caches per key and provider for 5 minutes', async () => {
    const { catalogue, advance } = setup();
    const connections = {
      openai: { provider: 'openai' as const, apiKey: 'k', baseUrl: fake.url },
      custom: { provider: 'custom' as const, baseUrl: fake.url },
    };
    fake.setModels(['m-1']);
    await catalogue.providers(connections, 'org-1');
    expect(listings()).toBe(2);

    fake.setModels(['m-2']);
    advance(299_000);
    expect((await catalogue.providers(connections, 'org-1')).custom.models).toEqual(['m-1']);
    expect(listings()).toBe(2);

    // Another organization has its own entry.
    expect((await catalogue.providers(connections, 'org-2')).custom.models).toEqual(['m-2']);
    expect(listings()).toBe(4);

    advance(2_000);
    expect((await catalogue.providers(connections, 'org-1')).custom.models).toEqual(['m-2']);
    expect(listings()).toBe(6);
  });

  it('falls back to the built-in list on failure and tries again sooner', async () => {
    const { catalogue, advance } = setup();
    const connections = { openai: { provider: 'openai' as const, apiKey: 'bad', baseUrl: fake.url } };
    fake.failNext(401);
    expect((await catalogue.providers(connections, 'org-1')).openai.models).toEqual([
      'gpt-4o',
      'gpt-4o-mini',
      'gpt-3.5-turbo',
    ]);
    advance(10_000);
    await catalogue.providers(connections, 'org-1');
    expect(listings()).toBe(1);
    advance(25_000);
    fake.setModels(['gpt-5']);
    expect((await catalogue.providers(connections, 'org-1')).openai.models).toEqual(['gpt-5']);
  });

  it('shares one listing between concurrent callers', async () => {
    const { catalogue } = setup();
    const connections = { custom: { provider: 'custom' as const, baseUrl: fake.url } };
    await Promise.all([catalogue.providers(connections, 'o'), catalogue.providers(connections, 'o')]);
    expect(listings()).toBe(1);
  });

  it('treats a keyless OpenAI connection as not configured', async () => {
    const { catalogue } = setup();
    await catalogue.providers({ openai: { provider: 'openai', baseUrl: fake.url } }, 'o');
    expect(listings()).toBe(0);
  });
});
