// What the browser checks about a file before it reads or sends it (docs/product-rules.md, Knowledge):
// the type from its name's extension (the browser's own type only when the name has none), an empty
// file and the 20 MiB limit. The server checks the same again; refusing here saves the upload. A PDF
// is sent as its bytes (base64), its text read on the server.
import { KNOWLEDGE_MAX_DOCUMENT_BYTES, utf8Bytes, type KnowledgeMediaType } from '@crewline/contracts';

const EXTENSION_MEDIA_TYPES: Record<string, KnowledgeMediaType> = {
  txt: 'text/plain',
  md: 'text/markdown',
  markdown: 'text/markdown',
  html: 'text/html',
  htm: 'text/html',
  csv: 'text/csv',
  pdf: 'application/pdf',
};

/** The file picker's `accept`: the extensions, and the types for pickers that filter by type. */
export const KNOWLEDGE_FILE_ACCEPT = [
  ...Object.keys(EXTENSION_MEDIA_TYPES).map((extension) => `.${extension}`),
  'text/plain',
  'text/markdown',
  'text/html',
  'text/csv',
  'application/pdf',
].join(',');

/** The extensions as a user reads them: '.txt, .md, .markdown, .html, .htm, .csv, .pdf'. */
export const KNOWLEDGE_EXTENSIONS_TEXT = Object.keys(EXTENSION_MEDIA_TYPES)
  .map((extension) => `.${extension}`)
  .join(', ');

export const FILE_MESSAGES = {
  unsupported: `Unsupported file type: upload ${KNOWLEDGE_EXTENSIONS_TEXT}`,
  empty: 'The file is empty',
  tooLarge: 'The file is larger than 20 MiB',
  notText: 'The file is not text',
  notPdf: 'The file is not a PDF',
} as const;

/** Browsers name some of these types in other ways (and Markdown often not at all). */
const BROWSER_MEDIA_TYPES: Record<string, KnowledgeMediaType> = {
  'text/plain': 'text/plain',
  'text/markdown': 'text/markdown',
  'text/x-markdown': 'text/markdown',
  'text/html': 'text/html',
  'application/xhtml+xml': 'text/html',
  'text/csv': 'text/csv',
  'application/csv': 'text/csv',
  'application/pdf': 'application/pdf',
};

/** 'Notes.MD' → 'md'; '' for a name without one ('README', '.env'). */
export function fileExtension(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/**
 * The document type of a file: from its extension when it has one (an unknown extension is refused
 * even if the browser calls it text), else from the browser's type; null when it is not one we take.
 */
export function detectMediaType(name: string, browserType = ''): KnowledgeMediaType | null {
  const extension = fileExtension(name);
  if (extension) return EXTENSION_MEDIA_TYPES[extension] ?? null;
  const type = browserType.split(';')[0].trim().toLowerCase();
  return BROWSER_MEDIA_TYPES[type] ?? null;
}

export type FileCheck = { ok: true; mediaType: KnowledgeMediaType } | { ok: false; reason: string };

/** Before reading: the type, then an empty file, then the size limit. */
export function checkFile(file: { name: string; size: number; type?: string }): FileCheck {
  const mediaType = detectMediaType(file.name, file.type);
  if (!mediaType) return { ok: false, reason: FILE_MESSAGES.unsupported };
  if (file.size === 0) return { ok: false, reason: FILE_MESSAGES.empty };
  if (file.size > KNOWLEDGE_MAX_DOCUMENT_BYTES) return { ok: false, reason: FILE_MESSAGES.tooLarge };
  return { ok: true, mediaType };
}

/**
 * After reading: a file of blanks is empty too, a NUL character means a binary file renamed, and the
 * text's UTF-8 size is what the server counts. Null when it may be sent.
 */
export function checkFileText(text: string): string | null {
  if (text.trim().length === 0) return FILE_MESSAGES.empty;
  if (text.includes('\u0000')) return FILE_MESSAGES.notText;
  if (utf8Bytes(text) > KNOWLEDGE_MAX_DOCUMENT_BYTES) return FILE_MESSAGES.tooLarge;
  return null;
}

/** A PDF starts with '%PDF-' within its first 1024 bytes (readers allow some bytes before it). */
const PDF_HEADER = [0x25, 0x50, 0x44, 0x46, 0x2d];

/** After reading a PDF's bytes: empty, not a PDF at all (a file renamed), or too large. Null when it may be sent. */
export function checkPdfBytes(bytes: Uint8Array): string | null {
  if (bytes.length === 0) return FILE_MESSAGES.empty;
  const end = Math.min(bytes.length, 1024) - PDF_HEADER.length;
  let found = false;
  for (let at = 0; at <= end && !found; at++) {
    found = PDF_HEADER.every((byte, i) => bytes[at + i] === byte);
  }
  if (!found) return FILE_MESSAGES.notPdf;
  if (bytes.length > KNOWLEDGE_MAX_DOCUMENT_BYTES) return FILE_MESSAGES.tooLarge;
  return null;
}

/** Bytes per btoa call: a multiple of 3, so each piece's base64 has no padding and they join as one. */
const BASE64_PIECE = 3 * 8 * 1024;

/**
 * A file's bytes as base64, for the JSON body. Encoded in pieces of 24 KiB joined once at the end: no
 * string of the whole file's bytes is built, nor one grown by repeated concatenation.
 */
export function bytesToBase64(bytes: Uint8Array): string {
  const pieces: string[] = [];
  for (let start = 0; start < bytes.length; start += BASE64_PIECE) {
    const piece = bytes.subarray(start, start + BASE64_PIECE);
    pieces.push(btoa(String.fromCharCode(...piece)));
  }
  return pieces.join('');
}

/** Sizes are written the same way on every knowledge page and the billing page's storage meter. */
export { formatBytes } from '@/lib/format';
