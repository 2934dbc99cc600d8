import { createHash, randomBytes } from 'node:crypto';

import { createAccount, expect, expectToast, snapScreens, test } from './fixtures';

// Where the MCP client waits for the browser: nothing listens, the page's route catches the visit.
const CALLBACK = 'http://127.0.0.1:5398/oauth/callback';

test('an MCP client connects with OAuth: the member signs in, allows, and later revokes it in Settings', async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const owner = await createAccount(request);

  // The client registers itself and sends the browser to the authorization endpoint with PKCE.
  const registered = await request.post('/oauth/register', {
    data: { client_name: 'E2E Claude', redirect_uris: [CALLBACK] },
  });
  expect(registered.status()).toBe(201);
  const clientId = ((await registered.json()) as { client_id: string }).client_id;
  const verifier = randomBytes(32).toString('base64url');
  const authorize = new URL('/oauth/authorize', baseURL);
  authorize.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: CALLBACK,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state: 'e2e-state',
    resource: `${baseURL}/mcp`,
  }).toString();
  let callback: URL | undefined;
  await page.route(`${CALLBACK}**`, (route) => {
    callback = new URL(route.request().url());
    return route.fulfill({ contentType: 'text/plain', body: 'Connected' });
  });

  // Signed out: sign in first, and back to the consent page.
  await page.goto(authorize.toString());
  await expect(page).toHaveURL(/\/login\?next=%2Foauth%2Fconsent/);
  await page.getByLabel('Email').fill(owner.email);
  await page.getByLabel('Password').fill(owner.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  const consent = page.getByTestId('oauth-consent');
  await expect(
    consent.getByRole('heading', { name: 'E2E Claude wants to use your Crewline workflows' }),
  ).toBeVisible();
  await expect(consent.getByRole('radio')).toBeChecked();
  await expect(
    consent.getByText('You go back to 127.0.0.1:5398 after deciding.', { exact: false }),
  ).toBeVisible();
  await snapScreens(page, consent, 'mcp-oauth-consent', { waitForToasts: false });
  await consent.getByRole('button', { name: 'Allow' }).click();
  await expect.poll(() => callback?.searchParams.get('state')).toBe('e2e-state');
  expect(callback!.searchParams.get('iss')).toBe(baseURL);

  // The client exchanges the code and calls the MCP endpoint with the access token.
  const tokens = await request.post('/oauth/token', {
    form: {
      grant_type: 'authorization_code',
      code: callback!.searchParams.get('code')!,
      code_verifier: verifier,
      redirect_uri: CALLBACK,
      client_id: clientId,
    },
  });
  expect(tokens.status()).toBe(200);
  const accessToken = ((await tokens.json()) as { access_token: string }).access_token;
  const listTools = () =>
    request.post('/mcp', {
      headers: {
        authorization: `Bearer ${accessToken}`,
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
      },
      data: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
    });
  expect((await listTools()).status()).toBe(200);

  // Settings → API keys: the connected app, with who connected it; Revoke stops it at once.
  await page.goto('/settings/profile?tab=api-keys');
  const card = page.getByTestId('connected-apps-card');
  const app = card.getByRole('listitem', { name: 'E2E Claude' });
  await expect(app).toContainText('Connected by Eve Tester');
  await snapScreens(page, card, 'mcp-oauth-connected-apps');
  await app.getByRole('button', { name: 'Revoke E2E Claude' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Revoke access' });
  await snapScreens(page, confirm, 'mcp-oauth-revoke', { waitForToasts: false });
  await confirm.getByRole('button', { name: 'Revoke' }).click();
  await expectToast(page, 'App disconnected');
  await expect(card.getByText('No connected apps')).toBeVisible();
  expect((await listTools()).status()).toBe(401);
});
