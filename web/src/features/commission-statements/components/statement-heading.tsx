import type { CommissionStatementDetail } from '@coverdesk/contract';
import { Group, Stack, Text, Title } from '@mantine/core';
import { formatDate } from '../../../lib/format.js';
import { StatementStatusBadge } from './badges.js';

/** A statement's insurer, date, file and status, at the head of its page. */
export function StatementHeading({ statement }: { statement: CommissionStatementDetail }) {
  return (
    <Group justify="space-between" align="flex-start">
      <Stack gap={2}>
        <Title order={2} fz="h3">
          {statement.company_name}
        </Title>
        <Text c="dimmed" fz="sm">
          Statement of {formatDate(statement.statement_date)} · {statement.file_name}
        </Text>
      </Stack>
      <StatementStatusBadge status={statement.status} />
    </Group>
  );
}
