import type { StatementLine } from '@coverdesk/contract';
import { Alert, Button, Group, Modal, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { errorText } from '../../../lib/error-message.js';
import { useInsurerPolicies, useUpdateLine } from '../api.js';

/** Change a line's policy (one of the statement's insurer), clear it, or note the line. */
export function LineEditor({
  statementId,
  companyId,
  line,
  onClose,
}: {
  statementId: string;
  companyId: string;
  line: StatementLine;
  onClose: () => void;
}) {
  const [search, setSearch] = useState(line.raw_policy_number || line.insured_name);
  const [debounced] = useDebouncedValue(search, 300);
  const policies = useInsurerPolicies(companyId, debounced);
  const [policyId, setPolicyId] = useState<string | null>(line.policy_id);
  const [note, setNote] = useState(line.note);
  const update = useUpdateLine(statementId);
  const options = (policies.data?.results ?? []).map((policy) => ({
    value: policy.id,
    label: `${policy.policy_number} · ${policy.customer_name}`,
  }));
  if (line.policy_id && line.policy_number && !options.some((option) => option.value === line.policy_id)) {
    options.unshift({ value: line.policy_id, label: `${line.policy_number} · ${line.customer_name ?? ''}` });
  }

  const save = () => {
    const body: { policy_id?: string | null; note?: string } = {};
    if (policyId !== line.policy_id) body.policy_id = policyId;
    if (note !== line.note) body.note = note;
    if (Object.keys(body).length === 0) return onClose();
    update.mutate({ line: line.line_number, ...body }, { onSuccess: onClose });
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title={`Line ${line.line_number}`}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack gap="sm">
        <Text fz="sm" c="dimmed">
          As written: {line.raw_policy_number || '—'} · {line.insured_name || '—'}
        </Text>
        <TextInput
          label="Find a policy"
          description="This insurer's policies, by number or customer"
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
        />
        <Select
          label="Policy"
          placeholder="Not matched"
          clearable
          clearButtonProps={{ 'aria-label': 'Clear the policy' }}
          nothingFoundMessage={policies.isFetching ? 'Searching…' : 'No policy of this insurer matches'}
          data={options}
          value={policyId}
          onChange={setPolicyId}
        />
        <Textarea
          label="Note"
          value={note}
          maxLength={500}
          autosize
          minRows={2}
          onChange={(event) => setNote(event.currentTarget.value)}
        />
        {update.isError && (
          <Alert color="red" variant="light" role="alert">
            {errorText(update.error)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button loading={update.isPending} onClick={save}>
            Save
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
