import {
  isoDate,
  percentage,
  TEAM_ROLE_LABELS,
  type TeamMember,
  type TeamMemberPatchBody,
  type TeamRole,
} from '@coverdesk/contract';
import { Button, Group, List, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type ReactNode, useState } from 'react';
import { FormError } from '../../../components/form-error.js';
import { errorText } from '../../../lib/error-message.js';
import { formatDate, TABULAR_FIGURES } from '../../../lib/format.js';
import { useSession } from '../../../lib/session-context.js';
import { useAgencyToday } from '../../../lib/use-agency-today.js';
import { useChangeMember } from '../api.js';
import { memberName } from './role-badge.js';
import { roleDescription, rolesToGive } from './role-choices.js';

export type MemberChange = 'role' | 'share' | 'deactivate' | 'reactivate';

/** The dialog of one change to one member; each asks before it acts and shows why it failed. */
export function MemberDialog({
  change,
  member,
  members,
  onClose,
}: {
  change: MemberChange | null;
  member: TeamMember | null;
  members: TeamMember[];
  onClose(): void;
}) {
  if (!change || !member) return null;
  const props = { member, onClose };
  switch (change) {
    case 'role':
      return <ChangeRoleDialog {...props} />;
    case 'share':
      return <ShareDialog {...props} />;
    case 'deactivate':
      return <DeactivateDialog {...props} members={members} />;
    case 'reactivate':
      return <ReactivateDialog {...props} />;
  }
}

interface DialogProps {
  member: TeamMember;
  onClose(): void;
}

/** Sends one change; on success a toast says what happened and the dialog closes. */
function useChange(member: TeamMember, onClose: () => void) {
  const change = useChangeMember();
  const [error, setError] = useState<string | null>(null);
  const send = (body: TeamMemberPatchBody, done: string) => {
    setError(null);
    change.mutate(
      { id: member.id, ...body },
      {
        onSuccess: () => {
          notifications.show({ color: 'green', message: done });
          onClose();
        },
        onError: (failure) => setError(errorText(failure)),
      },
    );
  };
  return { send, error, busy: change.isPending };
}

function Shell(props: {
  title: string;
  children: ReactNode;
  error: string | null;
  busy: boolean;
  confirmLabel: string;
  danger?: boolean;
  onConfirm(): void;
  onClose(): void;
}) {
  return (
    <Modal
      opened
      onClose={props.onClose}
      title={props.title}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          props.onConfirm();
        }}
        noValidate
      >
        <Stack gap="md">
          {props.children}
          <FormError message={props.error} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={props.onClose}>
              Cancel
            </Button>
            <Button type="submit" color={props.danger ? 'red' : undefined} loading={props.busy}>
              {props.confirmLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function ChangeRoleDialog({ member, onClose }: DialogProps) {
  const { state } = useSession();
  const [role, setRole] = useState<TeamRole>(member.role);
  const { send, error, busy } = useChange(member, onClose);
  const name = memberName(member);
  const self = state.user?.id === member.id;
  return (
    <Shell
      title={`Change ${name}’s role`}
      error={error}
      busy={busy}
      confirmLabel="Change role"
      onConfirm={() =>
        role === member.role
          ? onClose()
          : send({ role }, `${name} is now ${TEAM_ROLE_LABELS[role]}. They sign in again to continue.`)
      }
      onClose={onClose}
    >
      <Select
        label="Role"
        description={roleDescription(role)}
        data={rolesToGive(state.user?.role)}
        value={role}
        onChange={(value) => value && setRole(value as TeamRole)}
        allowDeselect={false}
        data-autofocus
      />
      <Text fz="sm">
        {self
          ? 'Changing your own role signs you out on every device: you sign in again with the new role.'
          : `Changing the role signs ${name} out on every device: they sign in again with the new role.`}
      </Text>
    </Shell>
  );
}

/** "30% from the start", "35% from 1 Jul 2026": a member's share over time. */
const shareSince = (change: TeamMember['commission_split_history'][number]) =>
  `${Number(change.share)}% ${change.effective_from ? `from ${formatDate(change.effective_from)}` : 'from the start'}`;

function ShareDialog({ member, onClose }: DialogProps) {
  const today = useAgencyToday();
  const [value, setValue] = useState(member.commission_split_percentage);
  const [from, setFrom] = useState(today);
  const [invalid, setInvalid] = useState<{ share?: string; from?: string }>({});
  const { send, error, busy } = useChange(member, onClose);
  const name = memberName(member);
  return (
    <Shell
      title={`Commission share of ${name}`}
      error={error}
      busy={busy}
      confirmLabel="Save share"
      onConfirm={() => {
        const share = percentage.safeParse(value);
        const day = isoDate.safeParse(from);
        setInvalid({
          share: share.success
            ? undefined
            : (share.error.issues[0]?.message ?? 'Enter a number from 0 to 100.'),
          from: !day.success
            ? (day.error.issues[0]?.message ?? 'Enter a valid date.')
            : day.data < today
              ? 'Policies already written keep their share: choose today or a later day.'
              : undefined,
        });
        if (!share.success || !day.success || day.data < today) return;
        send(
          { commission_split_percentage: share.data, commission_split_effective_from: day.data },
          `${name}’s commission share is saved, from ${formatDate(day.data)}.`,
        );
      }}
      onClose={onClose}
    >
      <TextInput
        label="Commission share (%)"
        description="Their default share of the agency’s commission on the business they bring in."
        inputMode="decimal"
        value={value}
        onChange={(event) => setValue(event.currentTarget.value)}
        error={invalid.share}
        rightSection={<Text fz="sm">%</Text>}
        data-autofocus
      />
      <TextInput
        type="date"
        label="Applies to policies written from"
        description="New policies and renewals from this day on. Those already written keep their share."
        min={today}
        value={from}
        onChange={(event) => setFrom(event.currentTarget.value)}
        error={invalid.from}
      />
      <Stack gap={4}>
        <Text fz="sm" fw={600} id="share-history">
          Share over time
        </Text>
        <List size="sm" spacing={2} aria-labelledby="share-history" style={TABULAR_FIGURES}>
          {member.commission_split_history.map((change) => (
            <List.Item key={change.effective_from ?? 'start'}>{shareSince(change)}</List.Item>
          ))}
        </List>
      </Stack>
    </Shell>
  );
}

function DeactivateDialog({ member, members, onClose }: DialogProps & { members: TeamMember[] }) {
  const [successor, setSuccessor] = useState<string | null>(null);
  const { send, error, busy } = useChange(member, onClose);
  const name = memberName(member);
  // A viewer may not change the book, so cannot look after it (the server refuses one too).
  const others = members
    .filter((other) => other.is_active && other.id !== member.id && other.role !== 'viewer')
    .map((other) => ({ value: other.id, label: memberName(other) }));
  return (
    <Shell
      title={`Deactivate ${name}?`}
      error={error}
      busy={busy}
      confirmLabel="Deactivate"
      danger
      onConfirm={() =>
        send(
          { is_active: false, ...(successor ? { reassign_to: successor } : {}) },
          successor
            ? `${name} is deactivated; ${others.find((o) => o.value === successor)?.label} now looks after their book.`
            : `${name} is deactivated.`,
        )
      }
      onClose={onClose}
    >
      <Text fz="sm">
        {name} is signed out at once and can no longer sign in. Everything they did stays on record, and you
        can reactivate them later.
      </Text>
      <Text fz="sm">
        The policies {name} wrote stay credited to them in the producers’ report, at the share they were
        written at.
      </Text>
      <Select
        label="Hand their book to"
        description="This member looks after their customers, policies, claims and leads from now on. Without one, they stay assigned to the one who left."
        placeholder="Nobody: keep it assigned to them"
        data={others}
        value={successor}
        onChange={setSuccessor}
        clearable
        data-autofocus
      />
    </Shell>
  );
}

function ReactivateDialog({ member, onClose }: DialogProps) {
  const { send, error, busy } = useChange(member, onClose);
  const name = memberName(member);
  return (
    <Shell
      title={`Reactivate ${name}?`}
      error={error}
      busy={busy}
      confirmLabel="Reactivate"
      onConfirm={() => send({ is_active: true }, `${name} can sign in again.`)}
      onClose={onClose}
    >
      <Text fz="sm">
        {name} can sign in again as {TEAM_ROLE_LABELS[member.role]}. They count again among the users your
        plan allows.
      </Text>
    </Shell>
  );
}
