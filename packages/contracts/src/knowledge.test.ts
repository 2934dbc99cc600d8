import { describe, expect, it } from 'vitest';

import {
  KNOWLEDGE_MAX_DOCUMENT_BYTES,
  addKnowledgeDocumentSchema,
  base64DecodedBytes,
  utf8Bytes,
} from './knowledge';

describe('utf8Bytes', () => {
  it('counts the bytes of a text as UTF-8, as the server stores it', () => {
    for (const text of ['', 'plain', 'café', '€ and ✓', 'emoji 😀 pair', '\u{10FFFF}', 'lone \ud800 half']) {
      expect(utf8Bytes(text)).toBe(Buffer.byteLength(text));
    }
  });
});

describe('base64DecodedBytes', () => {
  it('counts the bytes base64 stands for, padding included', () => {
    for (const bytes of [0, 1, 2, 3, 4, 5, 100]) {
      const base64 = Buffer.alloc(bytes, 7).toString('base64');
      expect(base64DecodedBytes(base64)).toBe(bytes);
    }
  });

  it('is null for what is not base64', () => {
    for (const text of ['abc', 'ab!d', 'ab=d', 'a===', 'YWJj\nZGVm', 'YWJj ZGVm', 'YW-_']) {
      expect(base64DecodedBytes(text)).toBeNull();
    }
  });
});

describe('addKnowledgeDocumentSchema', () => {
  const errors = (body: unknown) => {
    const result = addKnowledgeDocumentSchema.safeParse(body);
    return result.success ? [] : result.error.issues.map((issue) => issue.message);
  };
  const pdf = Buffer.from('%PDF-1.4 ...').toString('base64');

  it('takes text types as content and a PDF as contentBase64', () => {
    expect(errors({ name: 'a.md', mediaType: 'text/markdown', content: '# A' })).toEqual([]);
    expect(errors({ name: 'a.pdf', mediaType: 'application/pdf', contentBase64: pdf })).toEqual([]);
  });

  it('refuses the wrong combination, saying which field the type takes', () => {
    expect(errors({ name: 'a.pdf', mediaType: 'application/pdf', content: '%PDF-1.4' })).toEqual([
      "A PDF is sent as contentBase64 (the file's bytes, base64), not as content",
    ]);
    expect(errors({ name: 'a.pdf', mediaType: 'application/pdf' })).toEqual([
      "A PDF needs contentBase64: the file's bytes, base64",
    ]);
    expect(errors({ name: 'a.txt', mediaType: 'text/plain', contentBase64: pdf })).toEqual([
      'contentBase64 is only for PDF files: send the text of this document as content',
    ]);
    expect(errors({ name: 'a.txt', mediaType: 'text/plain' })).toEqual([
      "The document's text (content) is required",
    ]);
  });

  it('holds a PDF to 20 MiB of bytes once decoded, and refuses invalid or empty base64', () => {
    const limit = Buffer.alloc(KNOWLEDGE_MAX_DOCUMENT_BYTES).toString('base64');
    const over = Buffer.alloc(KNOWLEDGE_MAX_DOCUMENT_BYTES + 1).toString('base64');
    expect(limit.length).toBeGreaterThan(KNOWLEDGE_MAX_DOCUMENT_BYTES);
    expect(errors({ name: 'a.pdf', mediaType: 'application/pdf', contentBase64: limit })).toEqual([]);
    expect(errors({ name: 'a.pdf', mediaType: 'application/pdf', contentBase64: over })).toEqual([
      'The document is larger than 20 MiB',
    ]);
    expect(errors({ name: 'a.pdf', mediaType: 'application/pdf', contentBase64: '%PDF-1.4' })).toEqual([
      'contentBase64 is not valid base64',
    ]);
    expect(errors({ name: 'a.pdf', mediaType: 'application/pdf', contentBase64: '' })).toEqual([
      'The document is empty',
    ]);
  });
});
