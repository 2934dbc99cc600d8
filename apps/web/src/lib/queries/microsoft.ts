// GET /api/auth/microsoft/status: read by the settings' Microsoft 365 card and the builder's email trigger.
import type { MicrosoftStatus } from '@crewline/contracts';
import { useQuery } from '@tanstack/react-query';

import { queryKeys } from './keys';

export function useMicrosoftStatus() {
  return useQuery<MicrosoftStatus>({ queryKey: queryKeys.microsoftStatus, staleTime: 30_000 });
}
