import { ATTACHMENT_HINT, ATTACHMENT_TYPES, MAX_ATTACHMENT_BYTES } from '@coverdesk/contract';
import { CloseButton, FileInput } from '@mantine/core';
import { IconPaperclip } from '@tabler/icons-react';

const ACCEPT = [...Object.keys(ATTACHMENT_TYPES), ...Object.values(ATTACHMENT_TYPES), '.jpeg'].join(',');
const EXTENSIONS = /\.(png|jpe?g|pdf|txt|csv)$/i;

/** Why a chosen file cannot be sent, checked as the server checks it; null when it can. */
export function attachmentProblem(file: File | null): string | null {
  if (!file) return null;
  if (!(Object.hasOwn(ATTACHMENT_TYPES, file.type) || EXTENSIONS.test(file.name))) {
    return `This type of file cannot be attached. ${ATTACHMENT_HINT}`;
  }
  if (file.size > MAX_ATTACHMENT_BYTES) return 'An attachment can be at most 5 MB.';
  if (file.size === 0) return 'This file is empty.';
  return null;
}

/** One optional file beside a message, with the types and size allowed said below it. */
export function AttachmentInput(props: {
  value: File | null;
  onChange(file: File | null): void;
  error?: string | null;
}) {
  return (
    <FileInput
      label="Attachment"
      description={`Optional. ${ATTACHMENT_HINT}`}
      placeholder="Choose a file"
      // Mantine's placeholder grey is too faint on white to read.
      styles={{ placeholder: { color: 'var(--mantine-color-gray-7)' } }}
      leftSection={<IconPaperclip size={16} aria-hidden />}
      accept={ACCEPT}
      // Mantine's own clear button is 28 px: this one is finger-sized (44 px).
      rightSection={
        props.value ? (
          <CloseButton size={44} aria-label="Remove the attachment" onClick={() => props.onChange(null)} />
        ) : null
      }
      rightSectionWidth={48}
      rightSectionPointerEvents="all"
      value={props.value}
      onChange={props.onChange}
      error={props.error}
    />
  );
}
