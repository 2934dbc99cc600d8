import { describe, expect, it } from 'vitest';

import {
  adjacentDocsPages,
  API_REFERENCE_HREF,
  DOCS_NAV,
  DOCS_PAGES,
  docsPageForPath,
  headingId,
  isExternalDocsLink,
  normalizeDocsPath,
} from './docs-nav';

describe('docsPageForPath', () => {
  it('finds each page at its path, with or without a trailing slash, in any case', () => {
    expect(docsPageForPath('/docs')?.id).toBe('getting-started');
    expect(docsPageForPath('/docs/')?.id).toBe('getting-started');
    expect(docsPageForPath('/docs/concepts')?.id).toBe('concepts');
    expect(docsPageForPath('/docs/workflow-nodes')?.id).toBe('workflow-nodes');
    expect(docsPageForPath('/docs/Webhooks/')?.id).toBe('webhooks');
    expect(docsPageForPath('/docs//api-keys')?.id).toBe('api-keys');
    expect(docsPageForPath('/docs/mcp-server')?.id).toBe('mcp-server');
    expect(docsPageForPath('/docs/MCP-tools/')?.id).toBe('mcp-tools');
    expect(docsPageForPath('/docs/chat-apps')?.id).toBe('chat-apps');
  });

  it('has no page for unknown paths nor for the server-served API reference', () => {
    expect(docsPageForPath('/docs/nope')).toBeNull();
    expect(docsPageForPath(API_REFERENCE_HREF)).toBeNull();
    expect(docsPageForPath('/docsx')).toBeNull();
  });
});

describe('normalizeDocsPath', () => {
  it('drops trailing and doubled slashes but keeps the root', () => {
    expect(normalizeDocsPath('/')).toBe('/');
    expect(normalizeDocsPath('/docs///')).toBe('/docs');
    expect(normalizeDocsPath('//docs//concepts')).toBe('/docs/concepts');
  });
});

describe('DOCS_NAV', () => {
  it('lists every page once, in reading order, and the API reference as a server link', () => {
    const links = DOCS_NAV.flatMap((group) => group.links);
    const pages = links.filter((link) => !isExternalDocsLink(link));
    expect(pages.map((p) => p.href)).toEqual(DOCS_PAGES.map((p) => p.href));
    const external = links.filter(isExternalDocsLink);
    expect(external.map((l) => l.href)).toEqual([API_REFERENCE_HREF]);
  });
});

describe('adjacentDocsPages', () => {
  it('links the first page forward only and the last back only', () => {
    expect(adjacentDocsPages('getting-started')).toEqual({ previous: null, next: DOCS_PAGES[1] });
    expect(adjacentDocsPages('concepts')).toEqual({ previous: DOCS_PAGES[0], next: DOCS_PAGES[2] });
    expect(adjacentDocsPages('workflow-nodes')).toEqual({ previous: DOCS_PAGES[1], next: DOCS_PAGES[3] });
    expect(adjacentDocsPages('api-keys')).toEqual({ previous: DOCS_PAGES[3], next: DOCS_PAGES[5] });
    expect(adjacentDocsPages('mcp-tools')).toEqual({ previous: DOCS_PAGES[5], next: DOCS_PAGES[7] });
    expect(adjacentDocsPages('chat-apps')).toEqual({ previous: DOCS_PAGES[6], next: null });
  });
});

describe('headingId', () => {
  it('makes a URL fragment of a heading', () => {
    expect(headingId('Email (Microsoft 365)')).toBe('email-microsoft-365');
    expect(headingId('  What a key can do  ')).toBe('what-a-key-can-do');
    expect(headingId('Déjà vu — retries')).toBe('deja-vu-retries');
    expect(headingId('429: Too many calls!')).toBe('429-too-many-calls');
  });
});
