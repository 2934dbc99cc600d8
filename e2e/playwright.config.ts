import { defineConfig } from '@playwright/test';

import { fakeSmtp } from './mail-inbox';

const port = Number(process.env.E2E_PORT ?? 5199);
export const baseURL = `http://127.0.0.1:${port}`;
/** The fake OpenAI-compatible server the agents talk to in the browser tests. */
export const fakeLlmPort = Number(process.env.E2E_FAKE_LLM_PORT ?? 5299);
/** The fake Microsoft sign-in and Graph server the Microsoft 365 connection talks to. */
export const fakeMicrosoftPort = Number(process.env.E2E_FAKE_MS_PORT ?? 5399);
/**
 * A real MCP server for the MCP connections' tests: `@modelcontextprotocol/server-everything` (the
 * protocol's reference server) in its Streamable HTTP mode, at `fakeMcpUrl`.
 */
export const fakeMcpPort = Number(process.env.E2E_FAKE_MCP_PORT ?? 6599);
export const fakeMcpUrl = `http://127.0.0.1:${fakeMcpPort}/mcp`;
export const fakeMicrosoft = {
  url: `http://127.0.0.1:${fakeMicrosoftPort}`,
  clientId: '00000000-0000-4000-8000-0000000000e2',
  clientSecret: 'e2e-microsoft-client-secret',
};

// Debian's Chromium, never a downloaded browser. The flags keep it off the network.
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: './.artifacts/results',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 60_000,
  // CI runs the browsers beside the server suite: on a loaded CI machine a page has taken
  // over 7 s to show. Assertions wait for conditions, so longer limits cost a passing test nothing.
  expect: { timeout: 15_000 },
  reporter: [['list']],
  use: {
    baseURL,
    browserName: 'chromium',
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
  },
  webServer: [
    {
      command: `node --import tsx apps/server/src/testing/fake-llm-server.ts --port ${fakeLlmPort}`,
      cwd: '..',
      url: `http://127.0.0.1:${fakeLlmPort}/v1/models`,
      timeout: 30_000,
      reuseExistingServer: false,
    },
    {
      command:
        `node --import tsx apps/server/src/testing/fake-microsoft-server.ts --port ${fakeMicrosoftPort}` +
        ` --client-id ${fakeMicrosoft.clientId} --client-secret ${fakeMicrosoft.clientSecret}` +
        ` --redirect-uri ${baseURL}/api/auth/microsoft/callback`,
      cwd: '..',
      url: `${fakeMicrosoft.url}/health`,
      timeout: 30_000,
      reuseExistingServer: false,
    },
    {
      // Its port comes from PORT; GET /mcp without a session answers 400, which counts as up.
      command: 'node node_modules/@modelcontextprotocol/server-everything/dist/index.js streamableHttp',
      cwd: '..',
      url: fakeMcpUrl,
      env: { PORT: String(fakeMcpPort) },
      timeout: 30_000,
      reuseExistingServer: false,
    },
    {
      // The server's mail transport: verification, password reset and invitation mails land here.
      command:
        `node --import tsx apps/server/src/testing/fake-smtp-server.ts --port ${fakeSmtp.port}` +
        ` --http-port ${fakeSmtp.inboxPort} --user ${fakeSmtp.user} --pass ${fakeSmtp.pass}`,
      cwd: '..',
      url: `${fakeSmtp.inbox}/health`,
      timeout: 30_000,
      reuseExistingServer: false,
    },
    {
      command: 'node --import tsx e2e/serve.ts',
      cwd: '..',
      url: `${baseURL}/api/health`,
      // The fake model server and the MCP server listen on loopback, which the egress module refuses
      // unless allowed (every port of 127.0.0.1, for every use; an http:// MCP URL needs its host here too).
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        EGRESS_ALLOW_LIST: '127.0.0.1',
        // Every spec signs up from 127.0.0.1: more accounts in an hour than the default limit takes.
        AUTH_SIGNUP_MAX_PER_HOUR: '100000',
        // The browser is on 127.0.0.1: the sign-in popup must come back to the same origin.
        PUBLIC_URL: baseURL,
        MICROSOFT_CLIENT_ID: fakeMicrosoft.clientId,
        MICROSOFT_CLIENT_SECRET: fakeMicrosoft.clientSecret,
        MICROSOFT_AUTHORITY_HOST: fakeMicrosoft.url,
        MICROSOFT_GRAPH_URL: `${fakeMicrosoft.url}/v1.0`,
        SMTP_URL: fakeSmtp.url,
        MAIL_FROM: 'Crewline <no-reply@crewline.test>',
      },
      timeout: 90_000,
      reuseExistingServer: false,
      stdout: 'pipe',
    },
  ],
});
