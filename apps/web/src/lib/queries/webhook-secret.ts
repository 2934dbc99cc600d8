// GET /api/workflows/:id/webhook-secret: a webhook workflow's secret and the URL callers post to. Read
// only once a member reveals it, and dropped from the cache as soon as nothing shows it.
import type { WebhookSecret } from '@crewline/contracts';
import { useQuery } from '@tanstack/react-query';

import { queryKeys } from './keys';

export function useWebhookSecret(workflowId: string | null | undefined, options: { enabled: boolean }) {
  return useQuery<WebhookSecret>({
    queryKey: queryKeys.workflows.webhookSecret(workflowId ?? ''),
    enabled: !!workflowId && options.enabled,
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
}
