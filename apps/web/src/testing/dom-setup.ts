// Setup of the 'web-dom' test project (vitest.config.ts): the rendered components are unmounted after
// each test, and MSW answers the network (each test adds its handlers; an unanswered request fails).
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';

import { server } from './msw-server';

// findBy… and waitFor give up after 1 s by default: on a loaded CI machine the first render of a lazy
// tab has taken longer. They wait for a condition, so a longer limit costs a passing test nothing.
configure({ asyncUtilTimeout: 10_000 });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
});
afterAll(() => server.close());
