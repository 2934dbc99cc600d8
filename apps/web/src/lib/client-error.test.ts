import { describe, expect, it } from 'vitest';

import { clientErrorMessage } from './client-error';

describe('clientErrorMessage', () => {
  it("gives the server's message for a refused request", () => {
    expect(clientErrorMessage(new Error('409: {"message":"This workflow is a draft."}'))).toBe(
      'This workflow is a draft.',
    );
    expect(clientErrorMessage(new Error('400: Bad parameters'))).toBe('Bad parameters');
  });

  it('gives nothing for a server failure, a 401 or a request that got no answer', () => {
    expect(clientErrorMessage(new Error('500: {"message":"Internal"}'))).toBeNull();
    expect(clientErrorMessage(new Error('401: {"message":"Unauthorized"}'))).toBeNull();
    expect(clientErrorMessage(new Error('Failed to fetch'))).toBeNull();
  });
});
