import type { z } from 'zod';
import { fieldErrors } from './error-message.js';
import { ApiError } from './http.js';

/** Browser-side validation with the same zod schema the API uses: `{ field: firstMessage }`. */
export function zodValidate<T>(schema: z.ZodType<T>) {
  return (values: unknown): Record<string, string> => {
    const result = schema.safeParse(values);
    if (result.success) return {};
    const errors: Record<string, string> = {};
    for (const issue of result.error.issues) {
      const field = String(issue.path[0] ?? '');
      errors[field] ??= issue.message;
    }
    return errors;
  };
}

/**
 * Splits a failed call into messages for the inputs it names and one message for the form: field
 * errors go beside their inputs, anything else above the submit button.
 */
export function formErrors(
  error: unknown,
  knownFields: string[],
): { fields: Record<string, string>; form: string | null } {
  if (!(error instanceof ApiError)) {
    return { fields: {}, form: error instanceof Error ? error.message : String(error) };
  }
  const all = error.status === 400 ? fieldErrors(error.body) : {};
  const fields = Object.fromEntries(Object.entries(all).filter(([field]) => knownFields.includes(field)));
  const unplaced = Object.keys(all).length > Object.keys(fields).length || Object.keys(all).length === 0;
  return { fields, form: unplaced ? error.message : null };
}
