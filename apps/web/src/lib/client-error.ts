// The server's word on a refused request, for a toast: shown for a 4xx, never for a 5xx (nothing a
// person can act on) nor a 401 (the session handling answers it).
import { parseApiError } from './api';

/** The server's reason for a refused request (409 draft, 400 bad parameters…), never for a 5xx. */
export function clientErrorMessage(error: unknown): string | null {
  const { status, message } = parseApiError(error);
  return status !== null && status >= 400 && status < 500 && status !== 401 ? message : null;
}
