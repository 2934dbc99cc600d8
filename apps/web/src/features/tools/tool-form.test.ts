import { describe, expect, it } from 'vitest';

import {
  applyJsonText,
  buildToolPayload,
  emptyToolForm,
  errorTarget,
  jsonEditorFromValue,
  KEY_AGAIN_MESSAGE,
  keyAgainErrors,
  mapServerErrors,
  toolCategoryLabel,
  knowledgeBaseIdOf,
  toolConfigSummary,
  toolSubtitle,
  toolFormFromTool,
  visibleConfigFields,
  usesJsonEditor,
  validateToolPayload,
  type ToolFormValues,
} from './tool-form';

function form(overrides: Partial<ToolFormValues> = {}, fields: Partial<ToolFormValues['fields']> = {}) {
  const base = emptyToolForm();
  return { ...base, name: 'Search', ...overrides, fields: { ...base.fields, ...fields } };
}

describe('JSON editor', () => {
  it('accepts a JSON object', () => {
    const next = applyJsonText(jsonEditorFromValue({}), '{"channel":"#ops"}');
    expect(next).toEqual({ text: '{"channel":"#ops"}', value: { channel: '#ops' }, valid: true });
  });

  it('silently ignores invalid JSON and keeps the last valid value', () => {
    let state = applyJsonText(jsonEditorFromValue({}), '{"a":1}');
    state = applyJsonText(state, '{"a":1,');
    expect(state.value).toEqual({ a: 1 });
    expect(state.text).toBe('{"a":1,');
    expect(state.valid).toBe(false);
    state = applyJsonText(state, '{"a":1,"b":2}');
    expect(state.value).toEqual({ a: 1, b: 2 });
  });

  it('keeps the last value for JSON that is not an object', () => {
    const start = jsonEditorFromValue({ keep: true });
    expect(applyJsonText(start, '[1,2]').value).toEqual({ keep: true });
    expect(applyJsonText(start, '42').value).toEqual({ keep: true });
    expect(applyJsonText(start, 'null').value).toEqual({ keep: true });
  });

  it('treats an empty text as an empty object', () => {
    expect(applyJsonText(jsonEditorFromValue({ a: 1 }), '  ')).toMatchObject({ value: {}, valid: true });
  });

  it('starts from pretty JSON, or {} when empty', () => {
    expect(jsonEditorFromValue({}).text).toBe('{}');
    expect(jsonEditorFromValue({ a: 1 }).text).toBe('{\n  "a": 1\n}');
  });
});

describe('buildToolPayload', () => {
  it('defaults to the web category, active, with no config', () => {
    expect(buildToolPayload(form())).toEqual({
      name: 'Search',
      description: null,
      category: 'web',
      provider: null,
      config: {},
      isActive: true,
    });
  });

  it('sends only the fields of the chosen category', () => {
    const values = form(
      { category: 'api', provider: ' Stripe ', description: ' Payments ' },
      {
        baseUrl: ' https://api.stripe.com/v1 ',
        apiKey: 'sk_live_1',
        connectionString: 'postgres://x',
        indexName: 'docs',
      },
    );
    expect(buildToolPayload(values)).toEqual({
      name: 'Search',
      description: 'Payments',
      category: 'api',
      provider: 'Stripe',
      config: { baseUrl: 'https://api.stripe.com/v1', apiKey: 'sk_live_1' },
      isActive: true,
    });
  });

  it('sends dimensions as a number for a vector store', () => {
    const values = form(
      { category: 'vector_store' },
      { indexName: 'docs', apiKey: 'pc-1', dimensions: '3072' },
    );
    expect(buildToolPayload(values).config).toEqual({ indexName: 'docs', dimensions: 3072, apiKey: 'pc-1' });
  });

  it("sends a Pinecone namespace, and keeps the tool's settings the form does not show", () => {
    const tool = {
      name: 'Pinecone',
      description: null,
      category: 'vector_store' as const,
      provider: 'Pinecone',
      config: {
        indexName: 'docs',
        dimensions: 768,
        apiKey: '••••••••abcd',
        embeddingModel: 'nomic-embed-text',
      },
      isActive: true,
    };
    const values = toolFormFromTool(tool);
    values.fields.namespace = ' tenant-a ';
    expect(buildToolPayload(values, tool).config).toEqual({
      indexName: 'docs',
      namespace: 'tenant-a',
      dimensions: 768,
      apiKey: '••••••••abcd',
      embeddingModel: 'nomic-embed-text',
    });
  });

  it('shows and sends only the knowledge base of a Vector Store on one, dropping its Pinecone settings', () => {
    const tool = {
      name: 'Handbook',
      description: null,
      category: 'vector_store' as const,
      provider: null,
      config: { indexName: 'docs', dimensions: 768, apiKey: '••••••••abcd', namespace: 'a' },
      isActive: true,
    };
    const values = toolFormFromTool(tool);
    expect(visibleConfigFields('vector_store', values.fields).map((f) => f.key)).toEqual([
      'knowledgeBaseId',
      'indexName',
      'namespace',
      'dimensions',
      'apiKey',
    ]);
    values.fields.knowledgeBaseId = 'kb-1';
    expect(visibleConfigFields('vector_store', values.fields).map((f) => f.key)).toEqual(['knowledgeBaseId']);
    expect(buildToolPayload(values, tool).config).toEqual({ knowledgeBaseId: 'kb-1' });
  });

  it('shows 1536 dimensions by default for a new vector store', () => {
    expect(buildToolPayload(form({ category: 'vector_store' })).config).toEqual({ dimensions: 1536 });
  });

  it('sends a database connection string and schema', () => {
    const values = form(
      { category: 'database' },
      { connectionString: 'postgres://u:p@h:5432/d', schema: 'sales' },
    );
    expect(buildToolPayload(values).config).toEqual({
      connectionString: 'postgres://u:p@h:5432/d',
      schema: 'sales',
    });
  });

  it('sends the JSON object for categories without fields of their own', () => {
    const values = form({
      category: 'communication',
      json: applyJsonText(jsonEditorFromValue({}), '{"channel":"#ops"}'),
    });
    expect(buildToolPayload(values).config).toEqual({ channel: '#ops' });
    const invalid = { ...values, json: applyJsonText(values.json, '{"channel":') };
    expect(buildToolPayload(invalid).config).toEqual({ channel: '#ops' });
  });

  it('merges the custom endpoint URL over the extra JSON settings', () => {
    const values = form(
      { category: 'custom', json: applyJsonText(jsonEditorFromValue({}), '{"method":"POST","url":"x"}') },
      { url: 'https://hooks.example.com/a' },
    );
    expect(buildToolPayload(values).config).toEqual({ method: 'POST', url: 'https://hooks.example.com/a' });
  });

  it('leaves a masked secret untouched and clears an emptied one', () => {
    const tool = {
      name: 'Pinecone',
      description: null,
      category: 'vector_store' as const,
      provider: 'Pinecone',
      config: { indexName: 'docs', dimensions: 1536, apiKey: '••••••••abcd' },
      isActive: true,
    };
    const values = toolFormFromTool(tool);
    expect(values.fields.apiKey).toBe('••••••••abcd');
    expect(buildToolPayload(values, tool).config).toEqual({
      indexName: 'docs',
      dimensions: 1536,
      apiKey: '••••••••abcd',
    });

    const cleared = { ...values, fields: { ...values.fields, apiKey: '' } };
    expect(buildToolPayload(cleared, tool).config.apiKey).toBe('');

    const replaced = { ...values, fields: { ...values.fields, apiKey: 'pc-new' } };
    expect(buildToolPayload(replaced, tool).config.apiKey).toBe('pc-new');
  });

  it('does not send an empty secret that was never set', () => {
    expect(buildToolPayload(form({ category: 'api' }, { apiKey: '' })).config).toEqual({});
  });
});

describe('toolFormFromTool', () => {
  it('fills the category fields and keeps other keys in the JSON editor', () => {
    const values = toolFormFromTool({
      name: 'Hook',
      description: 'Posts',
      category: 'custom',
      provider: null,
      config: { url: 'https://a.example', retries: 3 },
      isActive: false,
    });
    expect(values.fields.url).toBe('https://a.example');
    expect(values.json.value).toEqual({ retries: 3 });
    expect(values.isActive).toBe(false);
    expect(values.provider).toBe('');
  });

  it('uses the whole config as JSON for a file tool', () => {
    const values = toolFormFromTool({
      name: 'Files',
      description: null,
      category: 'file',
      provider: null,
      config: { root: '/data' },
      isActive: true,
    });
    expect(values.json.value).toEqual({ root: '/data' });
    expect(usesJsonEditor('file')).toBe(true);
    expect(usesJsonEditor('api')).toBe(false);
  });
});

describe('validation', () => {
  it('requires the tool name', () => {
    expect(validateToolPayload(buildToolPayload(form({ name: '  ' })))).toEqual({
      name: 'Tool Name is required',
    });
  });

  it('checks the base URL', () => {
    const errors = validateToolPayload(buildToolPayload(form({ category: 'api' }, { baseUrl: 'ftp://x' })));
    expect(errors['config.baseUrl']).toBe('Enter a URL starting with http:// or https://');
  });

  it('accepts a masked connection string', () => {
    const values = form({ category: 'database' }, { connectionString: '••••••••5432' });
    expect(validateToolPayload(buildToolPayload(values))).toEqual({});
  });

  it('places server errors on the fields of the category', () => {
    expect(
      mapServerErrors(
        [
          { path: 'name', message: 'Tool Name is required' },
          { path: 'config.baseUrl', message: 'Enter a URL starting with http:// or https://' },
        ],
        'api',
      ),
    ).toEqual({
      name: 'Tool Name is required',
      'config.baseUrl': 'Enter a URL starting with http:// or https://',
    });
    expect(errorTarget('config.channel', 'communication')).toBe('config');
    expect(errorTarget('config.other', 'database')).toBe('form');
    expect(errorTarget('organizationId', 'web')).toBe('form');
  });
});

describe('a key and its address', () => {
  const stored = {
    category: 'api' as const,
    config: { baseUrl: 'https://api.example.com/v1', apiKey: '••••••••abcd' },
  };
  /** The edit dialog opened on `stored`, with some values changed. */
  const edit = (overrides: Partial<ToolFormValues>, fields: Partial<ToolFormValues['fields']>) => {
    const opened = toolFormFromTool({
      ...stored,
      name: 'Orders',
      description: null,
      provider: null,
      isActive: true,
    });
    return buildToolPayload({ ...opened, ...overrides, fields: { ...opened.fields, ...fields } }, stored);
  };

  it('asks for the key again when the address changes and the key is still the mask', () => {
    const payload = edit({}, { baseUrl: 'https://elsewhere.example.com' });
    expect(keyAgainErrors(payload, stored)).toEqual({ 'config.apiKey': KEY_AGAIN_MESSAGE });
    expect(mapServerErrors([{ path: 'config.apiKey', message: KEY_AGAIN_MESSAGE }], 'api')).toEqual({
      'config.apiKey': KEY_AGAIN_MESSAGE,
    });
  });

  it('asks for it when the category changes too, on the JSON editor for a key held there', () => {
    const payload = edit(
      { category: 'custom', json: jsonEditorFromValue({ apiKey: '••••••••abcd' }) },
      { url: 'https://hooks.example.com' },
    );
    expect(keyAgainErrors(payload, stored)).toEqual({ 'config.apiKey': KEY_AGAIN_MESSAGE });
    expect(errorTarget('config.apiKey', 'custom')).toBe('config');
  });

  it('does not ask when the address stays, a new key is typed, or the key is cleared', () => {
    expect(keyAgainErrors(edit({ name: 'Renamed' }, {}), stored)).toEqual({});
    expect(keyAgainErrors(edit({}, { baseUrl: ' https://api.example.com/v1 ' }), stored)).toEqual({});
    expect(
      keyAgainErrors(edit({}, { baseUrl: 'https://new.example.com', apiKey: 'sk-new' }), stored),
    ).toEqual({});
    expect(keyAgainErrors(edit({}, { baseUrl: 'https://new.example.com', apiKey: '' }), stored)).toEqual({});
    expect(
      keyAgainErrors(buildToolPayload(form({ category: 'api' }, { baseUrl: 'https://x.example.com' }))),
    ).toEqual({});
  });
});

describe("an MCP server's header", () => {
  const stored = {
    category: 'mcp' as const,
    config: {
      url: 'https://mcp.example.com/mcp',
      headerName: 'Authorization',
      headerValue: '••••••••abcd',
    },
  };
  const opened = toolFormFromTool({
    ...stored,
    name: 'MCP',
    description: null,
    provider: null,
    isActive: true,
  });
  const edit = (fields: Partial<ToolFormValues['fields']>) =>
    buildToolPayload({ ...opened, fields: { ...opened.fields, ...fields } }, stored);

  it('asks for the value again when the header name or the URL changes and the value is still the mask', () => {
    expect(keyAgainErrors(edit({ headerName: 'X-Api-Key' }), stored)).toEqual({
      'config.headerValue': KEY_AGAIN_MESSAGE,
    });
    expect(keyAgainErrors(edit({ url: 'https://other.example.com/mcp' }), stored)).toEqual({
      'config.headerValue': KEY_AGAIN_MESSAGE,
    });
    expect(keyAgainErrors(edit({ timeoutSeconds: '120' }), stored)).toEqual({});
    expect(keyAgainErrors(edit({ headerName: 'X-Api-Key', headerValue: 'k-new' }), stored)).toEqual({});
  });

  it("places the server's errors on the credentials at their fields", () => {
    expect(
      mapServerErrors([{ path: 'credentials.headerName', message: 'Enter a header name' }], 'mcp'),
    ).toEqual({ 'config.headerName': 'Enter a header name' });
    expect(errorTarget('config.timeoutSeconds', 'mcp')).toBe('config.timeoutSeconds');
  });

  it('summarizes the connection by its host, without the header’s value', () => {
    expect(toolConfigSummary(stored)).toEqual([
      { label: 'Server URL', value: 'mcp.example.com' },
      { label: 'Header name', value: 'Authorization' },
      { label: 'Header value', value: 'Set' },
    ]);
  });
});

describe('labels and summary', () => {
  it('uses the contract labels', () => {
    expect(toolCategoryLabel('vector_store')).toBe('Vector Store');
    expect(toolCategoryLabel('api')).toBe('API Integration');
    expect(toolCategoryLabel('mystery')).toBe('Mystery');
  });

  it('summarizes a configuration without revealing secrets', () => {
    expect(
      toolConfigSummary({
        category: 'api',
        config: { baseUrl: 'https://api.stripe.com/v1', apiKey: '••••••••abcd' },
      }),
    ).toEqual([
      { label: 'Base URL', value: 'api.stripe.com' },
      { label: 'API Key', value: 'Set' },
    ]);
    expect(
      toolConfigSummary({ category: 'communication', config: { channel: '#ops', token: '••••1234' } }),
    ).toEqual([{ label: 'Settings', value: '2 keys (1 secret)' }]);
  });

  it("names a vector store's knowledge base under the tool's name, else its provider and category", () => {
    const store = { category: 'vector_store' as const, provider: null, config: { knowledgeBaseId: 'kb-1' } };
    const names = (id: string) => (id === 'kb-1' ? 'Product FAQ' : undefined);
    expect(toolSubtitle(store, names)).toBe('Knowledge base: Product FAQ');
    expect(toolSubtitle(store)).toBe('Knowledge base');
    expect(toolSubtitle({ ...store, config: { knowledgeBaseId: 'gone' } }, names)).toBe(
      'Knowledge base: not found',
    );
    expect(knowledgeBaseIdOf(store)).toBe('kb-1');
    // A Pinecone index has no knowledge base.
    expect(toolSubtitle({ ...store, config: { indexName: 'docs' } }, names)).toBe(
      'No provider · vector_store',
    );
    expect(toolSubtitle({ category: 'api' as const, provider: 'stripe', config: {} }, names)).toBe(
      'stripe · api',
    );
  });
});
