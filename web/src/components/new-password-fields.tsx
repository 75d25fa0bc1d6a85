import { PasswordInput } from '@mantine/core';

/** Choosing a new password: typed twice, checked by `newPasswordRules` (lib/password-rules.ts). */
export function NewPasswordFields({
  form,
}: {
  form: { getInputProps(path: 'new_password' | 'confirm'): object };
}) {
  return (
    <>
      <PasswordInput
        label="New password"
        description="At least 8 characters, not a common password."
        autoComplete="new-password"
        required
        {...form.getInputProps('new_password')}
      />
      <PasswordInput
        label="Repeat the new password"
        autoComplete="new-password"
        required
        {...form.getInputProps('confirm')}
      />
    </>
  );
}
