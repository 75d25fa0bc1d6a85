import type { StatementDuplicate } from '@coverdesk/contract';
import { Alert, Anchor, List, Text } from '@mantine/core';
import { IconCopy } from '@tabler/icons-react';
import { Link } from 'react-router';
import { formatDate } from '../../../lib/format.js';
import { Money } from '../../../lib/money.js';

/** The lines that repeat a line of an accepted statement: accepting them records the payment twice. */
export function DuplicateLines({ duplicates }: { duplicates: StatementDuplicate[] }) {
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<IconCopy size={18} aria-hidden />}
      title={`${duplicates.length} ${duplicates.length === 1 ? 'line repeats' : 'lines repeat'} an accepted statement`}
    >
      <Text fz="sm" mb="xs">
        Same policy, amount and transaction date as a line already paid. Check with the insurer before
        accepting: accepted again, the payment counts twice.
      </Text>
      <List size="sm" spacing={4}>
        {duplicates.map((line) => (
          <List.Item key={line.line_number}>
            Line {line.line_number}: {line.policy_number}, <Money amount={line.paid_commission} /> on{' '}
            {formatDate(line.transaction_date)}, as line {line.accepted_line_number} of{' '}
            <Anchor
              component={Link}
              to={`/commission-statements/${line.accepted_statement_id}`}
              fz="sm"
              c="blue.9"
            >
              the statement of {formatDate(line.accepted_statement_date)}
            </Anchor>{' '}
            ({line.accepted_file_name})
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
