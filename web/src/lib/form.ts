import type { UseFormReturnType } from '@mantine/form';
import { useState } from 'react';
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
      // Nested fields keep their full path ("policy_types.0.commission_percentage"), as @mantine/form names them.
      const field = issue.path.join('.');
      errors[field] ??= issue.message;
    }
    return errors;
  };
}

/**
 * Splits a failed call into messages for the inputs it names and one message for the form: field
 * errors go beside their inputs, anything else above the submit button.
 */
function formErrors(
  error: unknown,
  knownFields: string[],
): { fields: Record<string, string>; form: string | null } {
  if (!(error instanceof ApiError)) {
    return { fields: {}, form: error instanceof Error ? error.message : String(error) };
  }
  const all = error.status === 400 ? fieldErrors(error.body) : {};
  const fields = Object.fromEntries(
    Object.entries(all).filter(([field]) => knownFields.includes(field.split('.')[0] ?? field)),
  );
  const unplaced = Object.keys(all).length > Object.keys(fields).length || Object.keys(all).length === 0;
  return { fields, form: unplaced ? error.message : null };
}

/**
 * Submitting a form to the API: busy while it runs, the server's field errors beside their inputs
 * and any other failure as one message for the form.
 */
export function useFormSubmit<Values extends Record<string, unknown>>(
  form: UseFormReturnType<Values>,
  action: (values: Values) => Promise<void>,
) {
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const onSubmit = form.onSubmit(async (values) => {
    setError(null);
    setSubmitting(true);
    try {
      await action(values);
    } catch (failure) {
      const { fields, form: message } = formErrors(failure, Object.keys(form.getValues()));
      form.setErrors(fields);
      setError(message);
    } finally {
      setSubmitting(false);
    }
  });
  return { onSubmit, error, submitting };
}
