import type { CostRow } from '@crewline/contracts';
import { describe, expect, it } from 'vitest';

import { costsCsv, costsFileName, csvText, csvUsd } from './costs-csv';

function row(values: Partial<CostRow>): CostRow {
  return {
    key: 'agent-1',
    label: 'Market Analyst',
    costUsd: 0.0042,
    inputTokens: 1200,
    cachedInputTokens: 200,
    outputTokens: 300,
    calls: 3,
    unpricedCalls: 0,
    unpricedModels: [],
    ...values,
  };
}

describe('the costs CSV', () => {
  it('has the header and one CRLF-ended line per row, figures in the header order', () => {
    const csv = costsCsv([row({}), row({ key: 'agent-2', label: 'Writer', costUsd: 1.5, calls: 1 })]);
    expect(csv).toBe(
      'key,label,cost_usd,calls,input_tokens,cached_input_tokens,output_tokens,unpriced_calls\r\n' +
        'agent-1,Market Analyst,0.0042,3,1200,200,300,0\r\n' +
        'agent-2,Writer,1.5,1,1200,200,300,0\r\n',
    );
  });

  it('is only the header without rows', () => {
    expect(costsCsv([])).toBe(
      'key,label,cost_usd,calls,input_tokens,cached_input_tokens,output_tokens,unpriced_calls\r\n',
    );
  });

  it('quotes a cell with a comma, a quote or a line break, doubling its quotes', () => {
    expect(csvText('Sales, EU')).toBe('"Sales, EU"');
    expect(csvText('The "fast" one')).toBe('"The ""fast"" one"');
    expect(csvText('two\nlines')).toBe('"two\nlines"');
    expect(csvText('plain name')).toBe('plain name');
    expect(costsCsv([row({ label: 'Sales, EU' })]).split('\r\n')[1]).toBe(
      'agent-1,"Sales, EU",0.0042,3,1200,200,300,0',
    );
  });

  it('defuses a name a spreadsheet would run as a formula', () => {
    expect(csvText('=HYPERLINK("http://evil","x")')).toBe(`"'=HYPERLINK(""http://evil"",""x"")"`);
    expect(csvText('+1')).toBe("'+1");
    expect(csvText('-2+3')).toBe("'-2+3");
    expect(csvText('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvText('\tcmd')).toBe("'\tcmd");
    expect(csvText('a=b')).toBe('a=b');
  });

  it('writes costs to the micro-dollar, and leaves a cost no price could tell empty (unknown, not 0)', () => {
    expect(csvUsd(0)).toBe('0');
    expect(csvUsd(12)).toBe('12');
    expect(csvUsd(0.0000004)).toBe('0');
    expect(csvUsd(0.1234567)).toBe('0.123457');
    expect(csvUsd(1e-7 * 30)).toBe('0.000003');
    const unpriced = row({ costUsd: 0, calls: 2, unpricedCalls: 2, unpricedModels: ['llama3'] });
    const partly = row({ costUsd: 0.5, calls: 3, unpricedCalls: 1, unpricedModels: ['llama3'] });
    const [, first, second] = costsCsv([unpriced, partly]).split('\r\n');
    expect(first).toBe('agent-1,Market Analyst,,2,1200,200,300,2');
    expect(second).toBe('agent-1,Market Analyst,0.5,3,1200,200,300,1');
  });

  it('is named after the first and last day and the grouping', () => {
    expect(costsFileName('2026-11-27', '2026-12-03', 'agent')).toBe(
      'crewline-costs-2026-11-27-2026-12-03-agent.csv',
    );
  });
});
