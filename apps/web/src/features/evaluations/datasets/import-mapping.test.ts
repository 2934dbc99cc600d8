import { describe, expect, it } from 'vitest';

import { importContentType, importQuery, initialMapping, withColumnRole } from './import-mapping';

describe('the import mapping', () => {
  it('sends each file under the content type of its extension', () => {
    expect(importContentType('cases.CSV')).toBe('text/csv');
    expect(importContentType('samples.jsonl')).toBe('application/jsonl');
    expect(importContentType('eval-export.json')).toBe('application/json');
    expect(importContentType('notes.txt')).toBeNull();
    expect(importContentType('csv')).toBeNull();
  });

  it('starts an answer-like column as expected and a tags column as tags', () => {
    expect(initialMapping(['question', 'Ideal', 'answer', 'tags', 'id'])).toEqual([
      { column: 'question', role: 'input' },
      { column: 'Ideal', role: 'expected' },
      { column: 'answer', role: 'input' },
      { column: 'tags', role: 'tags' },
      { column: 'id', role: 'input' },
    ]);
  });

  it('keeps one expected column, and puts the rest of the mapping in the query', () => {
    let mapping = initialMapping(['q', 'answer', 'alt', 'kind', 'x', 'y']);
    mapping = withColumnRole(mapping, 'alt', 'expected');
    mapping = withColumnRole(mapping, 'kind', 'tags');
    mapping = withColumnRole(mapping, 'x', 'ignore');
    mapping = withColumnRole(mapping, 'y', 'ignore');
    expect(mapping.find((entry) => entry.column === 'answer')?.role).toBe('input');
    expect(importQuery(mapping)).toEqual({ expected: 'alt', tags: 'kind', ignore: 'x,y' });
    // Without an expected column the query says so; before the columns are known it says nothing.
    expect(importQuery(withColumnRole(mapping, 'alt', 'input'))).toEqual({
      expected: '',
      tags: 'kind',
      ignore: 'x,y',
    });
    expect(importQuery([])).toEqual({});
  });
});
