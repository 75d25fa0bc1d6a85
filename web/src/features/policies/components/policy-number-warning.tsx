import type { PolicyNumberMatch } from '@coverdesk/contract';
import { Anchor } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconFileAlert } from '@tabler/icons-react';
import { Link } from 'react-router';
import { MatchWarning } from '../../../components/match-warning.js';
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
 * Warns, while the broker types, that the agency already has a policy with this number under any
 * insurer. Insurers may reuse numbers, and a renewal often keeps one.
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
  return (
    <MatchWarning
      matches={matches}
      icon={<IconFileAlert size={18} aria-hidden />}
      one={(match) => (
        <>
          Policy number {match.policy_number} is already used: {policyLink(match)} ({term(match)}).
        </>
      )}
      several={`Policy number ${matches[0]?.policy_number} is already used by:`}
      line={(match) => (
        <>
          {policyLink(match)} ({term(match)})
        </>
      )}
      footnote="You can still save if this insurer issued it again."
    />
  );
}
