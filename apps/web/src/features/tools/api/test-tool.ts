import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-call';

/** POST /api/tools/:id/test → whether a Vector Store tool can search now, and why not. */
export function useTestTool() {
  return useMutation({
    mutationFn: (id: string) => api.call(endpoints.tools.test, { params: { id } }),
  });
}
