export const FALLBACK_ERROR = 'An unexpected error occurred. Please try again.';

/**
 * The text a screen shows for a failed call: the first message of each field in the response
 * body, joined with commas (`{"email": ["Taken."], "password": ["Too short."]}` -> "Taken., Too short.").
 */
export function errorMessage(body: unknown): string {
  if (typeof body === 'string') return body.trim() || FALLBACK_ERROR;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return FALLBACK_ERROR;
  const messages = Object.values(body)
    .map((value) => (Array.isArray(value) ? value[0] : value))
    .filter((message): message is string => typeof message === 'string' && message.trim() !== '');
  return messages.length > 0 ? messages.join(', ') : FALLBACK_ERROR;
}

/** Per-field messages from a 400 response, for showing beside the inputs. */
export function fieldErrors(body: unknown): Record<string, string> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return {};
  const errors: Record<string, string> = {};
  for (const [field, value] of Object.entries(body)) {
    const message = Array.isArray(value) ? value[0] : undefined;
    if (typeof message === 'string') errors[field] = message;
  }
  return errors;
}

/** What to tell the user about a failed call or action. */
export function errorText(error: unknown): string {
  return error instanceof Error && error.message ? error.message : FALLBACK_ERROR;
}
