import type { PolicyNumberMatch } from '@coverdesk/contract';
import { Alert, Anchor, List, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconFileAlert } from '@tabler/icons-react';
import { Link } from 'react-router';
import { formatDate } from '../../../lib/format.js';
import { usePoliciesNumbered } from '../api.js';

/** Typing pauses this long before the agency's policies are checked for the same number. */
const CHECK_DEBOUNCE_MS = 400;

/** In the alert's own text colour: the primary colour on its yellow tint fails contrast. */
const policyLink = (match: PolicyNumberMatch) => (
  <Anchor component={Link} to={`/policies/${match.id}`} fw={600} c="inherit">
    {match.customer_name}, {match.company_name}
  </Anchor>
);

const term = (match: PolicyNumberMatch) => `${formatDate(match.start_date)} – ${formatDate(match.end_date)}`;

/**
 * Warns, while the broker types, that the agency already has a policy with this number (under any
 * insurer), and links to it. Only a hint: insurers may reuse numbers, and a renewal often keeps one.
 */
export function PolicyNumberWarning({
  policyNumber,
  excludeId,
}: {
  policyNumber: string;
  excludeId?: string;
}) {
  const [number] = useDebouncedValue(policyNumber.trim(), CHECK_DEBOUNCE_MS);
  const matches = usePoliciesNumbered(number, excludeId);
  const [first] = matches;
  return (
    <div aria-live="polite">
      {first && (
        <Alert color="yellow" variant="light" icon={<IconFileAlert size={18} aria-hidden />} role="status">
          {matches.length === 1 ? (
            <Text fz="sm">
              Policy number {first.policy_number} is already used: {policyLink(first)} ({term(first)}).
            </Text>
          ) : (
            <>
              <Text fz="sm">Policy number {first.policy_number} is already used by:</Text>
              <List fz="sm" mt={4} spacing={2}>
                {matches.map((match) => (
                  <List.Item key={match.id}>
                    {policyLink(match)} ({term(match)})
                  </List.Item>
                ))}
              </List>
            </>
          )}
          <Text fz="sm" mt={4}>
            You can still save if this insurer issued it again.
          </Text>
        </Alert>
      )}
    </div>
  );
}
