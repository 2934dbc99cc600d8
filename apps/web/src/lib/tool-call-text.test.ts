import { describe, expect, it } from 'vitest';

import { formatToolArguments, formatToolResult } from './tool-call-text';

describe('tool call text', () => {
  it('indents JSON arguments and results, and leaves other text as it came', () => {
    expect(formatToolArguments({ path: 'orders/42' })).toBe('{\n  "path": "orders/42"\n}');
    expect(formatToolArguments(undefined)).toBe('{}');
    expect(formatToolArguments('raw text')).toBe('raw text');
    expect(formatToolResult('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(formatToolResult('[1]')).toBe('[\n  1\n]');
    expect(formatToolResult('{"cut":')).toBe('{"cut":');
    expect(formatToolResult('plain')).toBe('plain');
  });
});
