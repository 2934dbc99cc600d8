import { describe, expect, it } from 'vitest';

import { agentLabelsOf, outputJson, readableOutput } from './execution-facts';

describe("the card's Output box", () => {
  it('shows a sequential or hierarchical answer as its text', () => {
    expect(
      readableOutput({ result: 'Prices rose 4%.\n\nSee the table.', processType: 'sequential' }),
    ).toEqual([{ key: 'result', label: null, text: 'Prices rose 4%.\n\nSee the table.' }]);
    // An answer that happens to be JSON is still the answer.
    expect(readableOutput({ result: '{"a":"b"}', processType: 'hierarchical' })).toEqual([
      { key: 'result', label: null, text: '{"a":"b"}' },
    ]);
  });

  it("shows a parallel run's texts one per agent, named from the canvas, blank ones left out", () => {
    const result = JSON.stringify({ n1: 'Market is up.', n2: 'Risks are low.', n3: '  ' });
    expect(readableOutput({ result, processType: 'parallel' }, { n1: 'Analyst' })).toEqual([
      { key: 'n1', label: 'Analyst', text: 'Market is up.' },
      { key: 'n2', label: 'n2', text: 'Risks are low.' },
    ]);
    // Cut at the preview length it is no longer JSON: shown as it is.
    expect(readableOutput({ result: '{"n1":"Mark', processType: 'parallel' })).toEqual([
      { key: 'result', label: null, text: '{"n1":"Mark' },
    ]);
  });

  it('gives the raw JSON: pretty-printed when the result is JSON, else as a JSON string', () => {
    expect(outputJson('{"n1":"Market is up."}')).toBe('{\n  "n1": "Market is up."\n}');
    expect(outputJson('Prices rose "4%"')).toBe('"Prices rose \\"4%\\""');
  });

  it('names agents by their canvas labels', () => {
    expect(
      agentLabelsOf({
        nodes: [
          { id: 's', type: 'start', data: { label: 'Start' } },
          { id: 'n1', type: 'agent', data: { label: 'Analyst' } },
          { id: 'n2', type: 'agent', data: {} },
        ],
      }),
    ).toEqual({ n1: 'Analyst' });
    expect(agentLabelsOf(undefined)).toEqual({});
  });
});
