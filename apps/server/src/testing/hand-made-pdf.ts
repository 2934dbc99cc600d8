import { deflateSync } from 'node:zlib';

/*
 * Small PDF files written by hand, for the knowledge suites (server and e2e): a one-page PDF whose
 * page shows lines of text in Helvetica, one whose page has no text (what a scan looks like to a
 * text extractor), one whose small file expands to a great deal of text, and bytes that only claim to
 * be a PDF. The cross-reference table's offsets are computed, so a strict reader takes the files as
 * they are.
 */

/** A PDF string literal: backslashes and parentheses escaped (the text is kept to Latin-1). */
const pdfString = (text: string) => `(${text.replace(/[\\()]/g, (c) => `\\${c}`)})`;

function assemble(pages: string[]): Buffer {
  // Objects: 1 catalog, 2 page tree, 3 font, then a page and its content stream per page.
  const pageIds = pages.map((_, i) => 4 + i * 2);
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  for (const [i, stream] of pages.entries()) {
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageIds[i] + 1} 0 R >>`,
      `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`,
    );
  }
  return write(objects);
}

/** The file of these objects (numbered from 1, the first the catalog), with its cross-reference table. */
function write(objects: string[]): Buffer {
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (const [i, object] of objects.entries()) {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  }
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** A PDF with one page per entry, each page showing its lines top to bottom in 12 pt Helvetica. */
export function pdfWithText(pages: string[][]): Buffer {
  return assemble(
    pages.map((lines) =>
      [
        'BT',
        '/F1 12 Tf',
        '14 TL',
        '72 720 Td',
        ...lines.map((line) => `${pdfString(line)} Tj T*`),
        'ET',
      ].join('\n'),
    ),
  );
}

/** A one-page PDF whose page only draws a filled rectangle: no text to extract. */
export function pdfWithoutText(): Buffer {
  return assemble(['0.8 g\n72 72 468 648 re\nf']);
}

/**
 * A PDF bomb: one page that draws, `draws` times, a form whose compressed content shows `lines` lines
 * of `width` characters in a 1 pt font (so all of it lies on the page, where pdf.js keeps text). The
 * file is tens of kilobytes; its text is lines × width × draws characters.
 */
export function expandingPdf({ lines = 700, width = 1000, draws = 32 } = {}): Buffer {
  const row = 'The quarterly report repeats itself. '.repeat(Math.ceil(width / 37)).slice(0, width);
  const form = [
    'BT',
    '/F1 1 Tf',
    '1 TL',
    '10 780 Td',
    ...Array.from({ length: lines }, () => `${pdfString(row)} Tj T*`),
    'ET',
  ].join('\n');
  const packed = deflateSync(Buffer.from(form, 'latin1')).toString('latin1');
  const page = Array.from({ length: draws }, () => '/X1 Do').join('\n');
  return write([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> /XObject << /X1 6 0 R >> >> /Contents 5 0 R >>',
    `<< /Length ${page.length} >>\nstream\n${page}\nendstream`,
    `<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Filter /FlateDecode /Length ${packed.length} >>\nstream\n${packed}\nendstream`,
  ]);
}

/** Bytes that start like a PDF and are not one. */
export function corruptPdf(): Buffer {
  return Buffer.from('%PDF-1.7\nthis is not a PDF: no objects, no cross-reference table, no trailer\n');
}
