import { KNOWLEDGE_MAX_DOCUMENT_BYTES } from '@crewline/contracts';
import { describe, expect, it } from 'vitest';

import {
  bytesToBase64,
  checkFile,
  checkFileText,
  checkPdfBytes,
  detectMediaType,
  FILE_MESSAGES,
  fileExtension,
  formatBytes,
  KNOWLEDGE_EXTENSIONS_TEXT,
  KNOWLEDGE_FILE_ACCEPT,
} from './knowledge-files';

describe('detectMediaType', () => {
  it('reads the type from the extension, in any case', () => {
    expect(detectMediaType('notes.txt')).toBe('text/plain');
    expect(detectMediaType('README.MD')).toBe('text/markdown');
    expect(detectMediaType('guide.markdown')).toBe('text/markdown');
    expect(detectMediaType('page.html')).toBe('text/html');
    expect(detectMediaType('page.HTM')).toBe('text/html');
    expect(detectMediaType('prices.csv')).toBe('text/csv');
    expect(detectMediaType('archive.2024.csv')).toBe('text/csv');
    expect(detectMediaType('report.pdf')).toBe('application/pdf');
    expect(detectMediaType('SCAN.PDF', 'application/octet-stream')).toBe('application/pdf');
  });

  it('trusts the extension over the browser, so a renamed binary is refused', () => {
    expect(detectMediaType('photo.png', 'text/plain')).toBeNull();
    expect(detectMediaType('slides.pptx', 'application/pdf')).toBeNull();
    expect(detectMediaType('data.json', 'application/json')).toBeNull();
    // Windows often calls a CSV an Excel file: the extension decides.
    expect(detectMediaType('prices.csv', 'application/vnd.ms-excel')).toBe('text/csv');
  });

  it("uses the browser's type only for a name without an extension", () => {
    expect(detectMediaType('README', 'text/markdown')).toBe('text/markdown');
    expect(detectMediaType('README', 'text/x-markdown')).toBe('text/markdown');
    expect(detectMediaType('LICENSE', 'text/plain; charset=utf-8')).toBe('text/plain');
    expect(detectMediaType('.hidden', 'text/csv')).toBe('text/csv');
    expect(detectMediaType('download', 'application/pdf')).toBe('application/pdf');
    expect(detectMediaType('README', '')).toBeNull();
    expect(detectMediaType('blob', 'application/octet-stream')).toBeNull();
  });

  it('finds the extension of the file name, not of a folder', () => {
    expect(fileExtension('docs.v2/README')).toBe('');
    expect(fileExtension('a/b/notes.Md')).toBe('md');
    expect(fileExtension('.env')).toBe('');
  });

  it('offers every supported extension in the file picker', () => {
    for (const extension of ['.txt', '.md', '.markdown', '.html', '.htm', '.csv', '.pdf']) {
      expect(KNOWLEDGE_FILE_ACCEPT.split(',')).toContain(extension);
    }
    expect(KNOWLEDGE_FILE_ACCEPT.split(',')).toContain('application/pdf');
    expect(KNOWLEDGE_EXTENSIONS_TEXT).toBe('.txt, .md, .markdown, .html, .htm, .csv, .pdf');
  });
});

describe('checkFile', () => {
  it('accepts a supported, non-empty file within the limit', () => {
    expect(checkFile({ name: 'faq.md', size: 10 })).toEqual({ ok: true, mediaType: 'text/markdown' });
    expect(checkFile({ name: 'big.csv', size: KNOWLEDGE_MAX_DOCUMENT_BYTES })).toEqual({
      ok: true,
      mediaType: 'text/csv',
    });
    expect(checkFile({ name: 'report.pdf', size: 900 })).toEqual({ ok: true, mediaType: 'application/pdf' });
  });

  it('refuses unsupported types, empty files and files over 20 MiB, type first', () => {
    expect(checkFile({ name: 'slides.pptx', size: 0 })).toEqual({
      ok: false,
      reason: FILE_MESSAGES.unsupported,
    });
    expect(checkFile({ name: 'empty.txt', size: 0 })).toEqual({ ok: false, reason: FILE_MESSAGES.empty });
    expect(checkFile({ name: 'huge.txt', size: KNOWLEDGE_MAX_DOCUMENT_BYTES + 1 })).toEqual({
      ok: false,
      reason: FILE_MESSAGES.tooLarge,
    });
  });

  it('names the supported extensions in the refusal', () => {
    expect(FILE_MESSAGES.unsupported).toContain('.md');
    expect(FILE_MESSAGES.unsupported).toContain('.csv');
  });
});

describe('checkFileText', () => {
  it('passes text', () => {
    expect(checkFileText('# Title\nBody')).toBeNull();
  });

  it('refuses blanks only and binary content', () => {
    expect(checkFileText(' \n\t ')).toBe(FILE_MESSAGES.empty);
    expect(checkFileText('PK\u0003\u0004\u0000\u0000')).toBe(FILE_MESSAGES.notText);
  });

  it('counts the UTF-8 bytes of the text against the limit', () => {
    // Each é is two bytes: 11 MiB of them is 22 MiB of UTF-8.
    expect(checkFileText('é'.repeat(11 * 1024 * 1024))).toBe(FILE_MESSAGES.tooLarge);
  });
});

describe('checkPdfBytes', () => {
  const bytes = (text: string) => new TextEncoder().encode(text);

  it('passes a file that starts as a PDF, even after a few bytes of junk', () => {
    expect(checkPdfBytes(bytes('%PDF-1.4\n1 0 obj'))).toBeNull();
    expect(checkPdfBytes(bytes('\u00ef\u00bb\u00bf junk %PDF-1.7\n'))).toBeNull();
  });

  it('refuses an empty file, a renamed file that is not a PDF, and more than 20 MiB', () => {
    expect(checkPdfBytes(new Uint8Array())).toBe(FILE_MESSAGES.empty);
    expect(checkPdfBytes(bytes('PK\u0003\u0004 a zip renamed to .pdf'))).toBe(FILE_MESSAGES.notPdf);
    expect(checkPdfBytes(bytes(`${' '.repeat(1100)}%PDF-1.4`))).toBe(FILE_MESSAGES.notPdf);
    const huge = new Uint8Array(KNOWLEDGE_MAX_DOCUMENT_BYTES + 1);
    huge.set(bytes('%PDF-1.4'));
    expect(checkPdfBytes(huge)).toBe(FILE_MESSAGES.tooLarge);
  });
});

describe('bytesToBase64', () => {
  it('encodes what btoa encodes, across the pieces it is cut into', () => {
    expect(bytesToBase64(new Uint8Array())).toBe('');
    expect(bytesToBase64(new TextEncoder().encode('%PDF'))).toBe(btoa('%PDF'));
    // 100,001 bytes: several 24 KiB pieces, and a last one that needs padding.
    const large = Uint8Array.from({ length: 100_001 }, (_, i) => (i * 31) % 256);
    expect(bytesToBase64(large)).toBe(Buffer.from(large).toString('base64'));
  });
});

describe('formatBytes', () => {
  it('picks a unit a person reads at a glance', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1024)).toBe('1 KiB');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(150 * 1024)).toBe('150 KiB');
    expect(formatBytes(KNOWLEDGE_MAX_DOCUMENT_BYTES)).toBe('20 MiB');
    expect(formatBytes(3.25 * 1024 ** 3)).toBe('3.3 GiB');
  });

  it('never shows a negative or missing size', () => {
    expect(formatBytes(-5)).toBe('0 B');
    expect(formatBytes(Number.NaN)).toBe('0 B');
  });
});
