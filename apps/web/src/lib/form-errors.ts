// Where a form shows the server's refusal of what it sent: field messages under their fields, the rest
// in the form's banner. Shared by the settings forms and the dialogs of other features. Pure, so it is
// unit-tested without a browser (features/settings/profile-forms.test.ts).
import { messages } from '@crewline/contracts';

type ApiError = {
  status: number | null;
  message: string | null;
  errors: { path: string; message: string }[];
};

/**
 * Where a refusal goes: field messages under their fields (a 400's `errors`, a 409 on the field it
 * names); anything else (429, network) in the form's banner.
 */
export function placeServerError<F extends string>(
  error: ApiError,
  fields: readonly F[],
): { fields: Partial<Record<F, string>>; banner: string | null } {
  const placed: Partial<Record<F, string>> = {};
  for (const issue of error.errors) {
    const name = issue.path.split('.')[0] as F;
    if (fields.includes(name) && !placed[name]) placed[name] = issue.message;
  }
  if (error.status === 409 && error.message) {
    const taken = (
      error.message === messages.emailTaken
        ? 'email'
        : error.message === messages.usernameTaken
          ? 'username'
          : null
    ) as F | null;
    if (taken && fields.includes(taken)) placed[taken] = error.message;
  }
  const onFields = Object.keys(placed).length > 0;
  return { fields: placed, banner: onFields ? null : error.message };
}

/**
 * Shows a refusal in a form: each field message through `setFieldError`, and answers the banner text —
 * null when a field took it, else the server's message or `fallback`.
 */
export function applyServerError<F extends string>(
  error: ApiError,
  fields: readonly F[],
  setFieldError: (name: F, message: string) => void,
  fallback: string,
): string | null {
  const placed = placeServerError(error, fields);
  const onFields = Object.entries(placed.fields) as [F, string][];
  for (const [name, message] of onFields) setFieldError(name, message);
  return onFields.length > 0 ? null : (placed.banner ?? fallback);
}
