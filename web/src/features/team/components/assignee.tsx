import type { TeamMember } from '@coverdesk/contract';
import { Button, Checkbox, Group, Modal, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { createElement, type ReactNode, useState } from 'react';
import type { Column } from '../../../components/data-list.js';
import { errorText } from '../../../lib/error-message.js';
import { useSession } from '../../../lib/session-context.js';
import { useCan } from '../../../lib/use-can.js';
import { useDevice } from '../../../lib/viewport.js';
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

/**
 * "All" or "Mine" on a list: its assignee filter (`assigned_to`, a lead's `assigned_user_id`) set to
 * the signed-in member, or not. Filtered on another member, neither is highlighted.
 */
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
      value={!value ? 'all' : value === me ? 'mine' : ''}
      onChange={(choice) => onChange(choice === 'mine' && me ? me : null)}
    />
  );
}

type ReassignKind = 'customer_ids' | 'policy_ids' | 'claim_ids' | 'lead_ids';
type Noun = { one: string; many: string };

/** The rows chosen to reassign, by id; kept across pages until they are reassigned. */
function useChosen() {
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string, on: boolean) =>
    setChosen((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  return { chosen, toggle, clear: () => setChosen(new Set()) };
}

/**
 * Bulk reassignment on a list, for the roles that hand records to others (`team`: owners and
 * managers): a checkbox per row (a last column, and beside each card on a phone) and the list's
 * toolbar actions with the button first. For the other roles the list stays as it is.
 */
export function useBulkReassign<Row extends { id: string }>({
  kind,
  noun,
  name,
  shown = true,
}: {
  kind: ReassignKind;
  noun: Noun;
  /** How the checkbox names the row, "Choose POL-1". */
  name(row: Row): string;
  /** False while the list shows no rows to choose (the leads' board); the choice is kept. */
  shown?: boolean;
}): {
  columns(columns: Column<Row>[]): Column<Row>[];
  listProps: { cardAction?(row: Row): ReactNode; cardActionBeside?: boolean };
  /** The toolbar's actions: "Reassign" before the list's own (`false` for one the role lacks). */
  actions(...own: ReactNode[]): ReactNode;
} {
  const canReassign = useCan('team') && shown;
  const touch = useDevice() === 'mobile';
  const { chosen, toggle, clear } = useChosen();
  const choose = (row: Row) => (
    <Checkbox
      aria-label={`Choose ${name(row)}`}
      checked={chosen.has(row.id)}
      onChange={(event) => toggle(row.id, event.currentTarget.checked)}
    />
  );
  const actions = (...shown: ReactNode[]) => {
    const present = shown.filter(Boolean);
    // A phone gives each action the width it needs and wraps the rest onto a line of their own, so
    // four (the leads') keep their labels whole. As children one by one, not an array: a fixed few.
    const layout = touch
      ? ({ gap: 'sm', wrap: 'wrap', grow: true, preventGrowOverflow: false } as const)
      : ({ gap: 'sm', wrap: 'nowrap' } as const);
    return present.length === 0 ? null : createElement(Group, layout, ...present);
  };
  if (!canReassign) return { columns: (columns) => columns, listProps: {}, actions };
  const button = <ReassignButton ids={[...chosen]} kind={kind} noun={noun} onDone={clear} />;
  return {
    columns: (columns) => [...columns, { key: 'choose', header: 'Choose', render: choose }],
    listProps: { cardAction: choose, cardActionBeside: true },
    actions: (...own) => actions(button, ...own),
  };
}

/** "Reassign" for the rows chosen on a list: hands them to one active member. */
function ReassignButton({
  ids,
  kind,
  noun,
  onDone,
}: {
  ids: string[];
  kind: ReassignKind;
  noun: Noun;
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
