import { describe, expect, it } from 'vitest';
import { resolveConnection } from './connection';
import { LlmConfigurationError } from './errors';

describe('resolveConnection', () => {
  it("prefers the organization's key and base URL", () => {
    expect(
      resolveConnection('openai', {
        organization: { apiKey: ' org-key ', baseUrl: 'https://llm.example.com/v1/' },
        env: { openai: 'env-key' },
      }),
    ).toEqual({ provider: 'openai', apiKey: 'org-key', baseUrl: 'https://llm.example.com/v1' });
  });

  it("falls back to the server's env key at the official URL, marked as the server's", () => {
    expect(resolveConnection('openai', { env: { openai: 'env-key' } })).toEqual({
      provider: 'openai',
      apiKey: 'env-key',
      baseUrl: 'https://api.openai.com/v1',
      serverKey: true,
    });
    expect(
      resolveConnection('anthropic', { organization: { apiKey: '' }, env: { anthropic: 'a-key' } }),
    ).toEqual({
      provider: 'anthropic',
      apiKey: 'a-key',
      baseUrl: 'https://api.anthropic.com/v1',
      serverKey: true,
    });
  });

  it('says where to configure a missing key', () => {
    expect(() => resolveConnection('openai', {})).toThrow(
      new LlmConfigurationError(
        'No OpenAI API key is configured. Add one in Settings → Tools → LLM Connections, or set OPENAI_API_KEY on the server.',
      ),
    );
    expect(() => resolveConnection('anthropic', { env: { openai: 'x' } })).toThrow(
      'No Anthropic API key is configured. Add one in Settings → Tools → LLM Connections, or set ANTHROPIC_API_KEY on the server.',
    );
  });

  it("never sends the server's key to an organization's own base URL", () => {
    expect(() =>
      resolveConnection('openai', {
        organization: { baseUrl: 'https://evil.example.com/v1' },
        env: { openai: 'env-key' },
      }),
    ).toThrow(
      'No OpenAI API key is configured for https://evil.example.com/v1. Add one in Settings → Tools → LLM Connections.',
    );
  });

  it('local needs no key and defaults to Ollama', () => {
    expect(resolveConnection('local')).toEqual({ provider: 'local', baseUrl: 'http://127.0.0.1:11434/v1' });
    expect(
      resolveConnection('local', { organization: { baseUrl: 'http://gpu-box:11434/v1', apiKey: 'k' } }),
    ).toEqual({
      provider: 'local',
      baseUrl: 'http://gpu-box:11434/v1',
      apiKey: 'k',
    });
  });

  it('custom needs a base URL', () => {
    expect(() => resolveConnection('custom', { env: { openai: 'env-key' } })).toThrow(
      'Set the base URL of your OpenAI-compatible server in Settings → Tools.',
    );
    expect(resolveConnection('custom', { organization: { baseUrl: 'http://127.0.0.1:8000/v1' } })).toEqual({
      provider: 'custom',
      baseUrl: 'http://127.0.0.1:8000/v1',
    });
  });

  it('rejects a base URL that is not http(s)', () => {
    expect(() => resolveConnection('custom', { organization: { baseUrl: 'not a url' } })).toThrow(
      LlmConfigurationError,
    );
    expect(() => resolveConnection('custom', { organization: { baseUrl: 'file:///etc/passwd' } })).toThrow(
      'must start with http:// or https://',
    );
  });

  it('refuses a base URL whose query, fragment or user name would send requests to other paths', () => {
    for (const baseUrl of [
      'http://127.0.0.1:11434/api/pull?x=',
      'http://127.0.0.1:11434/api/delete#',
      'http://admin:secret@127.0.0.1:11434/v1',
    ]) {
      expect(() => resolveConnection('local', { organization: { baseUrl } })).toThrow(
        'must be a plain address and path, without ?, # or a user name',
      );
    }
    expect(resolveConnection('local', { organization: { baseUrl: 'http://127.0.0.1:11434/v1/' } })).toEqual({
      provider: 'local',
      baseUrl: 'http://127.0.0.1:11434/v1',
    });
  });
});
