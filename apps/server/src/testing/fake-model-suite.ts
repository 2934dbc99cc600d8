import type { AuthResponse } from '@crewline/contracts';
import { configureModel } from './app-fixtures';
import { startFakeLlmServer, type FakeLlmServer } from './fake-llm-server';
import { createTestApp, type TestApp } from './test-app';

/*
 * The world of the suites whose runs call a model: the app with its worker, a fake model server of
 * the file's own, and two accounts (Ada and Bob, each in an organization of their own) whose OpenAI
 * connection is that server. Bob is there to prove what Ada owns stays hers.
 */

export type FakeModelSuite = { t: TestApp; fake: FakeLlmServer; ada: AuthResponse; bob: AuthResponse };

/** Closes each that was started, in the order given (the app before the servers it talks to). */
export async function closeInOrder(...started: ({ close(): Promise<unknown> } | undefined)[]) {
  for (const closable of started) await closable?.close();
}

/** Starts the suite's world; what was started is closed again when a step of it fails. */
export async function startFakeModelSuite(): Promise<FakeModelSuite> {
  const fake = await startFakeLlmServer();
  let t: TestApp | undefined;
  try {
    t = await createTestApp({ worker: true });
    const ada = await t.signup();
    const bob = await t.signup();
    await configureModel(t, ada.token, fake.url);
    await configureModel(t, bob.token, fake.url);
    return { t, fake, ada, bob };
  } catch (error) {
    await closeInOrder(t, fake);
    throw error;
  }
}
