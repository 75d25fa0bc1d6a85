import type { TeamMember } from '@coverdesk/contract';
import { Button, Group, Modal, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { errorText } from '../../../lib/error-message.js';
import { useSession } from '../../../lib/session-context.js';
import { useMembers, useReassign } from '../api.js';

const memberName = (member: TeamMember) =>
  [member.first_name, member.last_name].filter(Boolean).join(' ') || member.email;

/** The signed-in member's id, or '' before the profile is known. */
export function useMyId(): string {
  return useSession().state.user?.id ?? '';
}

/**
 * The member a record is assigned to, among the agency's active members. The one assigned now stays
 * offered even after leaving the agency, named as the record names them.
 */
export function AssigneeSelect({
  value,
  onChange,
  currentName,
  error,
  label = 'Assigned to',
}: {
  value: string | null | undefined;
  onChange(value: string | null): void;
  /** The record's assignee's name as it reads it, for one no longer active. */
  currentName?: string;
  error?: string | undefined;
  label?: string;
}) {
  const members = useMembers();
  const active = (members.data ?? []).filter((member) => member.is_active);
  const data = active.map((member) => ({ value: member.id, label: memberName(member) }));
  if (value && !data.some((option) => option.value === value)) {
    data.push({ value, label: currentName || 'A former member' });
  }
  return (
    <Select
      label={label}
      placeholder="No one"
      data={data}
      value={value ?? null}
      onChange={onChange}
      clearable
      searchable
      error={error}
      disabled={members.isPending}
    />
  );
}

/** "All" or "Mine" on a list: its `assigned_to` filter set to the signed-in member, or not. */
export function MineFilter({
  value,
  onChange,
}: {
  value: string | undefined;
  onChange(value: string | null): void;
}) {
  const me = useMyId();
  return (
    <SegmentedControl
      aria-label="Whose records"
      data={[
        { value: 'all', label: 'All' },
        { value: 'mine', label: 'Mine' },
      ]}
      value={value && value === me ? 'mine' : 'all'}
      onChange={(choice) => onChange(choice === 'mine' && me ? me : null)}
    />
  );
}

type ReassignKind = 'customer_ids' | 'policy_ids' | 'claim_ids' | 'lead_ids';

/** "Reassign" for the rows chosen on a list: hands them to one active member. */
export function ReassignButton({
  ids,
  kind,
  noun,
  onDone,
}: {
  ids: string[];
  kind: ReassignKind;
  noun: { one: string; many: string };
  onDone(): void;
}) {
  const [open, setOpen] = useState(false);
  const [to, setTo] = useState<string | null>(null);
  const reassign = useReassign();
  const count = ids.length === 1 ? `1 ${noun.one}` : `${ids.length} ${noun.many}`;
  const submit = async () => {
    if (!to) return;
    try {
      await reassign.mutateAsync({ to, [kind]: ids });
      notifications.show({ color: 'green', message: `${count} reassigned.` });
      setOpen(false);
      setTo(null);
      onDone();
    } catch (error) {
      notifications.show({ color: 'red', message: errorText(error) });
    }
  };
  return (
    <>
      <Button variant="default" disabled={ids.length === 0} onClick={() => setOpen(true)}>
        Reassign{ids.length > 0 ? ` (${ids.length})` : ''}
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={`Reassign ${count}`}>
        <Stack>
          <Text fz="sm">Choose the member who looks after them from now on.</Text>
          <AssigneeSelect label="Member" value={to} onChange={setTo} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button onClick={submit} loading={reassign.isPending} disabled={!to}>
              Reassign
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
