// Setup of the 'web-dom' test project (vitest.config.ts): the rendered components are unmounted after
// each test, and MSW answers the network (each test adds its handlers; an unanswered request fails).
import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';

import { server } from './msw-server';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
});
afterAll(() => server.close());
