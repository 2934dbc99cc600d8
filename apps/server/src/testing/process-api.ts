import type { FakeLlmServer } from './fake-llm-server';
import { chainOf } from './workflow-shapes';

export type ApiAnswer = {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary answers
};

/**
 * Calls a server process's API over HTTP as the browser does. Every call has a deadline, so a
 * request that hangs fails the test with a clear error instead of running into its timeout.
 */
export function processApi(base: () => string, deadlineMs = 5000) {
  return async function call(
    method: string,
    path: string,
    body?: unknown,
    token?: string,
  ): Promise<ApiAnswer> {
    const res = await fetch(`${base()}${path}`, {
      method,
      headers: {
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(deadlineMs),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: the test sees the raw text
    }
    return { status: res.status, headers: res.headers, body: parsed };
  };
}
export type ProcessApi = ReturnType<typeof processApi>;

/**
 * A new account whose organization talks to the fake model, with an active chain workflow of the
 * named agents (node n1 for the first, n2 for the second, …).
 */
export async function signUpWithChain(call: ProcessApi, fake: FakeLlmServer, agentNames: string[]) {
  const signup = await call('POST', '/api/auth/signup', {
    username: 'faulty',
    email: 'faulty@example.com',
    password: 'faulty12',
    confirmPassword: 'faulty12',
    firstName: 'Fault',
    lastName: 'Tolerant',
    role: 'user',
  });
  if (signup.status !== 201)
    throw new Error(`signup answered ${signup.status}: ${JSON.stringify(signup.body)}`);
  const token = signup.body.token as string;
  const organizationId = signup.body.organization.id as string;
  await call(
    'PUT',
    '/api/tools/configurations/openai_config',
    { config: { apiKey: 'sk-x', baseUrl: fake.url } },
    token,
  );
  const agentIds: string[] = [];
  for (const name of agentNames) {
    const res = await call(
      'POST',
      '/api/agents',
      { name, role: `${name} role`, goal: 'Help', llmModel: 'gpt-4o' },
      token,
    );
    agentIds.push(res.body.id as string);
  }
  const workflow = await call(
    'POST',
    '/api/workflows',
    { name: 'Faults', status: 'active', ...chainOf(agentIds) },
    token,
  );
  if (workflow.status !== 201) throw new Error(`workflow answered ${workflow.status}`);
  return { token, organizationId, workflowId: workflow.body.id as string };
}

/** Chat requests the fake model received from one agent (named in the system prompt) about input containing `marker`. */
export function modelCallsFor(fake: FakeLlmServer, agentName: string, marker?: string) {
  type Message = { role: string; content: string };
  return fake.requests.filter((r) => {
    if (!r.path.endsWith('/chat/completions')) return false;
    const messages = r.body.messages as Message[];
    const fromAgent = messages.some(
      (m) => m.role === 'system' && m.content.includes(`You are ${agentName},`),
    );
    return fromAgent && (!marker || messages.some((m) => m.role === 'user' && m.content.includes(marker)));
  }).length;
}
