// Signing in to an OAuth MCP server connection, shared by the Tools page's Server tools dialog and
// Settings → Tools → MCP servers (features never import each other). The Microsoft 365 pattern: the
// server answers the authorization server's address (and binds the sign-in to this browser with a
// cookie), a popup signs in, and the server's callback page posts `mcp_connected` back to this window.
import type { McpOauthStatus } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useQueryClient } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';

import { StatusBadge, type StatusTone } from '@/components/status-badge';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { getErrorMessage } from '@/lib/api';
import { api } from '@/lib/api-call';
import { mcpKeys } from '@/lib/mcp-keys';
import { openOAuthPopup, type OAuthPopup } from '@/lib/oauth-popup';

/** What the sign-in popup posts to the page that opened it (same origin only). */
interface McpConnectedMessage {
  type: 'mcp_connected';
  success: boolean;
  message?: string;
}

function isMcpConnectedMessage(data: unknown): data is McpConnectedMessage {
  return (
    typeof data === 'object' &&
    data !== null &&
    (data as { type?: unknown }).type === 'mcp_connected' &&
    typeof (data as { success?: unknown }).success === 'boolean'
  );
}

export const MCP_SIGN_IN_FAILED = 'Could not sign in to the MCP server.';
const POPUP_BLOCKED = 'The sign-in window was blocked: allow pop-ups for this site and try again.';

/** Owners and admins sign a connection in (the server checks it again); members see its status. */
export function canSignInToMcp(role: string | null | undefined): boolean {
  return role === 'owner' || role === 'admin';
}

/**
 * Signs the connection in through a popup. On success the server lists the tools itself: the
 * connection's listing is fetched again (its `oauth` with it).
 */
function useMcpSignIn(toolId: string) {
  const queryClient = useQueryClient();
  const [signingIn, setSigningIn] = useState(false);
  const pending = useRef<OAuthPopup | null>(null);

  useEffect(() => () => pending.current?.stop(), []);

  const failed = (description: string) =>
    toast({ variant: 'destructive', title: 'Sign-in failed', description });

  async function signIn() {
    pending.current?.stop();
    setSigningIn(true);
    let authUrl: string;
    try {
      ({ authUrl } = await api.call(endpoints.tools.mcpAuthorize, { params: { id: toolId } }));
    } catch (error) {
      setSigningIn(false);
      failed(getErrorMessage(error, MCP_SIGN_IN_FAILED));
      return;
    }
    const handle = openOAuthPopup(authUrl, 'mcp-auth', isMcpConnectedMessage, {
      onAnswer(message) {
        if (message.success) toast({ title: 'MCP server connected' });
        else failed(message.message || MCP_SIGN_IN_FAILED);
        void queryClient.invalidateQueries({ queryKey: mcpKeys.tools(toolId) });
      },
      onEnd() {
        if (pending.current === handle) pending.current = null;
        setSigningIn(false);
      },
    });
    if (!handle) {
      setSigningIn(false);
      failed(POPUP_BLOCKED);
      return;
    }
    pending.current = handle;
  }

  return { signIn, signingIn };
}

const STATUS: Record<McpOauthStatus, { label: string; tone: StatusTone; action: string }> = {
  connected: { label: 'Signed in', tone: 'green', action: 'Sign in again' },
  disconnected: { label: 'Not signed in', tone: 'gray', action: 'Sign in' },
  reconnect: { label: 'Needs reconnecting', tone: 'red', action: 'Reconnect' },
};

/** An OAuth connection's state as a badge, in the product's words (not capitalised). */
export function McpOauthBadge({ status }: { status: McpOauthStatus }) {
  const { label, tone } = STATUS[status];
  return <StatusBadge label={label} tone={tone} className="normal-case" />;
}

/**
 * Sign in (never signed in), Reconnect (the server refused a refresh) or Sign in again (signed in,
 * secondary). `describedBy` names what it signs in to, e.g. the connection's name in a list.
 */
export function McpSignInButton({
  toolId,
  status,
  describedBy,
  className,
}: {
  toolId: string;
  status: McpOauthStatus;
  describedBy?: string;
  className?: string;
}) {
  const { signIn, signingIn } = useMcpSignIn(toolId);
  return (
    <Button
      type="button"
      size="sm"
      variant={status === 'connected' ? 'secondary' : 'default'}
      disabled={signingIn}
      aria-busy={signingIn}
      aria-describedby={describedBy}
      className={className}
      onClick={() => void signIn()}
    >
      {signingIn && <Loader2 className="animate-spin" aria-hidden="true" />}
      {STATUS[status].action}
    </Button>
  );
}
