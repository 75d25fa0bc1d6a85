import { passwordField } from '@coverdesk/contract';

// Apart from lib/form.ts so that forms without a new password (sign-in) do not load zod.

/** The checks for choosing a new password: the API's rule, typed twice alike. */
export const newPasswordRules = {
  new_password: (value: string) => {
    const result = passwordField.safeParse(value);
    return result.success ? null : (result.error.issues[0]?.message ?? null);
  },
  confirm: (value: string, values: { new_password: string }) =>
    value === values.new_password ? null : 'The two passwords do not match.',
};
