// Rotate: POST /api/workflows/:id/webhook-secret → a new random secret (the old one stops working at
// once), shown in place of the old one.
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-call';
import { clientErrorMessage } from '@/lib/client-error';
import { queryKeys } from '@/lib/queries/keys';

export function useRotateWebhookSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (workflowId: string) =>
      api.call(endpoints.webhooks.rotateSecret, { params: { id: workflowId } }),
    onSuccess: (answer, workflowId) => {
      queryClient.setQueryData(queryKeys.workflows.webhookSecret(workflowId), answer);
      toast({
        title: 'Webhook secret rotated',
        description: 'The old secret no longer works. Give callers the new one.',
      });
    },
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: 'Rotation failed',
        description: clientErrorMessage(error) ?? 'Please try again.',
      }),
  });
}
