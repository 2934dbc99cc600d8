import { describe, expect, it } from 'vitest';
import { auditCsvLine, csvCell } from './audit-csv';

describe('audit CSV cells', () => {
  it('quotes commas, quotes and line breaks, doubling the quotes', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a, b')).toBe('"a, b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(null)).toBe('');
  });

  it('keeps a spreadsheet from reading any cell as a formula', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) {
      expect(csvCell(`${start}1+1`).replace(/^"/, '')).toMatch(/^'/);
    }
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('a=b')).toBe('a=b');
  });

  it('writes an event as one CRLF line, the system as the actor of a webhook change', () => {
    const line = auditCsvLine({
      id: 'e1',
      at: '2026-12-04T10:00:00.000Z',
      actor: null,
      action: 'billing.plan_changed',
      target: { type: 'subscription', id: 'org', name: 'starter' },
      ip: null,
      details: { from: 'professional', to: 'starter' },
    });
    expect(line).toBe(
      '2026-12-04T10:00:00.000Z,System,,Changed the plan,billing.plan_changed,subscription,org,starter,,' +
        '"{""from"":""professional"",""to"":""starter""}"\r\n',
    );
  });
});
