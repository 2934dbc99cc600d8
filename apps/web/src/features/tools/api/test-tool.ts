import type { ToolTestResult } from '@crewline/contracts';
import { useMutation } from '@tanstack/react-query';

import { apiRequest } from '@/lib/api';

import { toolPath } from './tool-path';

/** POST /api/tools/:id/test → whether a Vector Store tool can search now, and why not. */
export function useTestTool() {
  return useMutation({
    mutationFn: (id: string) => apiRequest<ToolTestResult>('POST', `${toolPath(id)}/test`),
  });
}
