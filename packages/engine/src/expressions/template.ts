// Splitting `{{ expr }}` templates (agent prompts, tool arguments) into text and expressions.

export type TemplatePart = { text: string } | { expression: string };

export type SplitTemplate = { parts: TemplatePart[] } | { error: string };

/**
 * Splits a template. An expression ends at the first `}}` that is outside a string literal and
 * outside braces it opened itself, so `{{ "}}" }}` and `{{ {"a": {"b": 1}} }}` are one expression
 * each. A `{{` with no end is an error; a lone `}}` is plain text.
 */
export function splitTemplate(template: string): SplitTemplate {
  const parts: TemplatePart[] = [];
  let text = '';
  let i = 0;
  while (i < template.length) {
    if (template.startsWith('{{', i)) {
      const end = expressionEnd(template, i + 2);
      if (end < 0) return { error: `a "{{" at character ${i + 1} has no matching "}}"` };
      if (text) parts.push({ text });
      text = '';
      const expression = template.slice(i + 2, end).trim();
      if (!expression) return { error: `"{{ }}" at character ${i + 1} is empty` };
      parts.push({ expression });
      i = end + 2;
    } else {
      text += template[i];
      i += 1;
    }
  }
  if (text) parts.push({ text });
  return { parts };
}

/** Where the `}}` closing an expression that starts at `from` is, or -1. */
function expressionEnd(source: string, from: number): number {
  let depth = 0;
  let i = from;
  while (i < source.length) {
    const ch = source[i];
    if (ch === '"' || ch === "'") {
      i = stringEnd(source, i);
      if (i < 0) return -1;
      continue;
    }
    if (ch === '}' && source[i + 1] === '}' && depth === 0) return i;
    if (ch === '{') depth += 1;
    if (ch === '}') depth = Math.max(0, depth - 1);
    i += 1;
  }
  return -1;
}

/** Index after the CEL string literal opening at `start` ('…', "…", '''…''', """…""", raw r"…"). */
function stringEnd(source: string, start: number): number {
  const quote = source[start];
  const raw =
    /[rR]/.test(source[start - 1] ?? '') && !/[A-Za-z0-9_]/.test(source[start - 2] ?? '')
      ? true
      : /[rR][bB]|[bB][rR]/.test(source.slice(start - 2, start)) &&
        !/[A-Za-z0-9_]/.test(source[start - 3] ?? '');
  const triple = source.startsWith(quote.repeat(3), start);
  const close = triple ? quote.repeat(3) : quote;
  let i = start + close.length;
  while (i < source.length) {
    if (!raw && source[i] === '\\') {
      i += 2;
      continue;
    }
    if (!triple && source[i] === '\n') return -1;
    if (source.startsWith(close, i)) return i + close.length;
    i += 1;
  }
  return -1;
}

/** A template that is exactly one `{{ expr }}` (whitespace around allowed): its value keeps its type. */
export function soleExpression(parts: TemplatePart[]): string | null {
  const expressions = parts.filter((part): part is { expression: string } => 'expression' in part);
  if (expressions.length !== 1) return null;
  const onlySpace = parts.every((part) => 'expression' in part || part.text.trim() === '');
  return onlySpace ? expressions[0].expression : null;
}
