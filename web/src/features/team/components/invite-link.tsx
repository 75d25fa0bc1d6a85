import { ActionIcon, CopyButton, Group, TextInput, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';

/** What the inviter is told when the invitation's email did not go out. */
export const NO_EMAIL_SENT = 'No email was sent: mail is not set up. Copy the link and send it yourself.';

/** An invitation's link, selected on focus, with a button that copies it. */
export function InviteLink({ url }: { url: string }) {
  return (
    <Group gap="xs" wrap="nowrap" align="flex-end">
      <TextInput
        label="Invitation link"
        value={url}
        readOnly
        flex={1}
        onFocus={(event) => event.currentTarget.select()}
      />
      <CopyButton value={url}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? 'Copied' : 'Copy link'}>
            <ActionIcon
              variant="light"
              size={36}
              onClick={copy}
              aria-label={copied ? 'Link copied' : 'Copy link'}
              color={copied ? 'green' : undefined}
            >
              {copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}
