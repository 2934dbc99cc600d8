import { messages } from '@crewline/contracts';
import { expect, it } from 'vitest';

import { NO_TOKEN_MESSAGE } from './session';

it('uses the contracts wording for a missing token', () => {
  expect(NO_TOKEN_MESSAGE).toBe(messages.noToken);
});
