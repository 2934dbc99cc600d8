import {
  mcpMessages,
  type McpToolList,
  type OrganizationRole,
  type Session,
  type Tool,
  type UpdateToolInput,
} from '@crewline/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { Toaster } from '@/components/ui/toaster';
import { clearStoredAuth, setAuthToken } from '@/lib/auth-token';
import { useTools } from '@/lib/queries/tools';
import { answerGet, ORIGIN, server } from '@/testing/msw-server';
import { renderWithApp } from '@/testing/render';
import { aSession } from '@/testing/session';

import { McpServerTools } from './mcp-server-tools';

const connection: Tool = {
  id: 't1',
  name: 'Everything',
  description: null,
  category: 'mcp',
  provider: null,
  config: { url: 'https://mcp.example.com/mcp', headerName: 'Authorization', headerValue: '••••••••abcd' },
  isActive: true,
  organizationId: 'o1',
  createdBy: null,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
};

const tool = (name: string, hints: { readOnly?: boolean; destructive?: boolean } = {}) => ({
  name,
  title: null,
  description: `The ${name} tool`,
  inputSchema: { type: 'object' },
  readOnly: hints.readOnly ?? false,
  destructive: hints.destructive ?? false,
});

const listing: McpToolList = {
  tools: [tool('echo', { readOnly: true }), tool('delete-file', { destructive: true }), tool('get-env')],
  listedAt: new Date(Date.now() - 5 * 60_000).toISOString(),
  error: null,
};

/** The tool list and the connection's tools; PUT /api/tools/t1 keeps what it is sent. */
function answerConnection(list: McpToolList = listing) {
  let stored = connection;
  const sent: UpdateToolInput[] = [];
  server.use(
    http.get(`${ORIGIN}/api/tools`, () => HttpResponse.json([stored])),
    answerGet<McpToolList>('/api/tools/t1/mcp-tools', list),
    http.put(`${ORIGIN}/api/tools/t1`, async ({ request }) => {
      const body = (await request.json()) as UpdateToolInput;
      sent.push(body);
      stored = { ...stored, config: body.config ?? stored.config };
      return HttpResponse.json(stored);
    }),
  );
  return sent;
}

/** The component as the Tools page mounts it: with the connection as the tool list holds it. */
function FromList() {
  const tools = useTools();
  const found = tools.data?.find((item) => item.id === 't1');
  return found ? <McpServerTools tool={found} /> : null;
}

function render() {
  const user = userEvent.setup();
  renderWithApp(
    <>
      <FromList />
      <Toaster />
    </>,
  );
  return user;
}

const session = (role: OrganizationRole) => aSession({ role });

const row = (name: string) => screen.findByRole('listitem', { name });

describe("an MCP server connection's tools", () => {
  it('lists each tool with its description, its hints’ badge and when it was listed', async () => {
    answerConnection();
    render();
    expect(within(await row('echo')).getByText('Read-only')).toBeTruthy();
    expect(within(await row('echo')).getByText('The echo tool')).toBeTruthy();
    expect(within(await row('delete-file')).getByText('Destructive')).toBeTruthy();
    expect(within(await row('get-env')).queryByText(/Read-only|Destructive/)).toBeNull();
    expect(screen.getByText('Listed 5 minutes ago')).toBeTruthy();
    // Absent enabledTools: every tool is allowed.
    for (const name of ['echo', 'delete-file', 'get-env'])
      expect(screen.getByRole('switch', { name: `Allowed: ${name}` }).getAttribute('aria-checked')).toBe(
        'true',
      );
  });

  it('Allowed off writes the other tools as enabledTools, keeping the masked header; all on again drops the list', async () => {
    const sent = answerConnection();
    const user = render();
    await user.click(await screen.findByRole('switch', { name: 'Allowed: delete-file' }));

    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({
      config: {
        url: 'https://mcp.example.com/mcp',
        headerName: 'Authorization',
        headerValue: '••••••••abcd',
        enabledTools: ['echo', 'get-env'],
      },
    });
    await waitFor(() =>
      expect(screen.getByRole('switch', { name: 'Allowed: delete-file' }).getAttribute('aria-checked')).toBe(
        'false',
      ),
    );

    await user.click(screen.getByRole('switch', { name: 'Allowed: delete-file' }));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1].config).not.toHaveProperty('enabledTools');
  });

  it('says why the last listing failed, and Refresh tools shows the list read again', async () => {
    answerConnection({ tools: [], listedAt: null, error: 'The server did not answer within 60 seconds.' });
    let refreshed = 0;
    server.use(
      http.post(`${ORIGIN}/api/tools/t1/mcp-refresh`, () => {
        refreshed++;
        return HttpResponse.json({ ...listing, listedAt: new Date().toISOString() });
      }),
    );
    const user = render();
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The server did not answer within 60 seconds.',
    );
    expect(screen.getByText('Not listed yet')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Refresh tools' }));
    expect(await row('echo')).toBeTruthy();
    expect(refreshed).toBe(1);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText('Listed just now')).toBeTruthy();
  });
});

describe('an OAuth connection', () => {
  const oauthConnection: Tool = {
    ...connection,
    config: { url: 'https://mcp.example.com/mcp', auth: 'oauth' },
  };
  const signedOut: McpToolList = { tools: [], listedAt: null, error: null, oauth: 'disconnected' };
  const AUTH_URL = 'https://auth.example.com/authorize?client_id=c1';

  beforeEach(() => setAuthToken('token'));
  afterEach(() => {
    clearStoredAuth();
    vi.restoreAllMocks();
  });

  /** The connection, the viewer's session and its listing (`list()` is read at every request). */
  function answerOauth(list: () => McpToolList, role: OrganizationRole = 'admin') {
    const authorized: string[] = [];
    server.use(
      http.get(`${ORIGIN}/api/tools`, () => HttpResponse.json([oauthConnection])),
      http.get(`${ORIGIN}/api/tools/t1/mcp-tools`, () => HttpResponse.json(list())),
      answerGet<Session>('/api/auth/me', session(role)),
      http.get(`${ORIGIN}/api/tools/t1/mcp-authorize`, ({ request }) => {
        authorized.push(request.url);
        return HttpResponse.json({ authUrl: AUTH_URL });
      }),
    );
    return authorized;
  }

  it('never signed in: says so and offers Sign in instead of an empty list', async () => {
    answerOauth(() => signedOut);
    render();
    expect(await screen.findByText('Not signed in')).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeTruthy();
    expect(screen.queryByText('The server offers no tools.')).toBeNull();
    expect(screen.queryByText('Not listed yet')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Refresh tools' })).toBeNull();
  });

  it('a refused refresh: Needs reconnecting and Reconnect, without repeating the error', async () => {
    answerOauth(() => ({ ...listing, error: mcpMessages.reconnect('Everything'), oauth: 'reconnect' }));
    render();
    expect(await screen.findByText('Needs reconnecting')).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Reconnect' })).toBeTruthy();
    expect(screen.getByText(/no longer accepts the sign-in/)).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    // The tools last listed stay, with their switches.
    expect(await row('echo')).toBeTruthy();
  });

  it('signed in: the tools, and Sign in again', async () => {
    answerOauth(() => ({ ...listing, oauth: 'connected' }));
    render();
    expect(await screen.findByText('Signed in')).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Sign in again' })).toBeTruthy();
    expect(await row('echo')).toBeTruthy();
  });

  it('a member sees the status without the button', async () => {
    answerOauth(() => signedOut, 'member');
    render();
    expect(await screen.findByText(/An owner or admin signs in/)).toBeTruthy();
    expect(screen.getByText('Not signed in')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Sign in' })).toBeNull();
  });

  /** Sign in clicked, with the popup's window mocked; answers what window.open was called with. */
  async function clickSignIn(user: ReturnType<typeof render>) {
    const open = vi.spyOn(window, 'open').mockReturnValue({ closed: false } as Window);
    await user.click(await screen.findByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(open).toHaveBeenCalledTimes(1));
    return open;
  }

  const post = (data: unknown, origin = window.location.origin) =>
    act(() => void window.dispatchEvent(new MessageEvent('message', { data, origin })));

  it('opens the sign-in in a popup; its success message is taken from this origin only, then the tools show', async () => {
    let current: McpToolList = signedOut;
    const authorized = answerOauth(() => current);
    const user = render();
    const open = await clickSignIn(user);
    expect(authorized).toHaveLength(1);
    expect(open.mock.calls[0][0]).toBe(AUTH_URL);
    expect(screen.getByRole('button', { name: 'Sign in' }).hasAttribute('disabled')).toBe(true);

    current = { ...listing, oauth: 'connected' };
    // Another site's message, or another kind of message, is ignored.
    post({ type: 'mcp_connected', success: true }, 'https://evil.example.com');
    post({ type: 'microsoft_connected', success: true });
    expect(screen.queryByText('MCP server connected')).toBeNull();
    expect(screen.getByText('Not signed in')).toBeTruthy();

    post({ type: 'mcp_connected', success: true });
    expect(await screen.findByText('MCP server connected')).toBeTruthy();
    expect(await screen.findByText('Signed in')).toBeTruthy();
    expect(await row('echo')).toBeTruthy();
  });

  it("shows the callback's message when the sign-in failed", async () => {
    answerOauth(() => signedOut);
    const user = render();
    await clickSignIn(user);
    post({ type: 'mcp_connected', success: false, message: 'The authorization server refused the sign-in.' });
    expect(await screen.findByText('The authorization server refused the sign-in.')).toBeTruthy();
    expect(screen.getByText('Not signed in')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign in' }).hasAttribute('disabled')).toBe(false);
  });

  it('says so when the browser blocked the popup', async () => {
    answerOauth(() => signedOut);
    const user = render();
    vi.spyOn(window, 'open').mockReturnValue(null);
    await user.click(await screen.findByRole('button', { name: 'Sign in' }));
    // The toast's own text (Radix also announces it, for a moment, in a hidden live region).
    await waitFor(() =>
      expect(document.querySelector('[data-slot="toast-description"]')?.textContent).toBe(
        'The sign-in window was blocked: allow pop-ups for this site and try again.',
      ),
    );
  });
});
