import { TextInput, type TextInputProps } from '@mantine/core';

/**
 * The six digits of an authenticator app's code: the phone's number pad, and the browser's offer of
 * a code it received. Room for the space some apps show in the middle ("123 456").
 */
export function OneTimeCodeInput(props: TextInputProps) {
  return <TextInput inputMode="numeric" autoComplete="one-time-code" maxLength={7} required {...props} />;
}
