import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-call';
import { queryKeys } from '@/lib/queries/keys';

/** What the sign-in popup posts to the page that opened it (same origin only). */
export interface MicrosoftConnectedMessage {
  type: 'microsoft_connected';
  success: boolean;
  message?: string;
}

const microsoftStatusKey = queryKeys.microsoftStatus;

export function isMicrosoftConnectedMessage(data: unknown): data is MicrosoftConnectedMessage {
  return (
    typeof data === 'object' &&
    data !== null &&
    (data as { type?: unknown }).type === 'microsoft_connected' &&
    typeof (data as { success?: unknown }).success === 'boolean'
  );
}

/** GET /api/auth/microsoft: the URL of Microsoft's sign-in page for this organization. */
export function startMicrosoftConnection(): Promise<{ authUrl: string }> {
  return api.call(endpoints.microsoft.connect);
}

/** POST /api/auth/microsoft/disconnect: forgets the organization's Microsoft tokens. */
export function useDisconnectMicrosoft() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.call(endpoints.microsoft.disconnect),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: microsoftStatusKey }),
  });
}
