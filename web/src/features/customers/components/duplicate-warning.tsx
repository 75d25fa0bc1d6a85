import type { CustomerDuplicate, CustomerDuplicateQuery } from '@coverdesk/contract';
import { Anchor } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconUsers } from '@tabler/icons-react';
import type { CSSProperties } from 'react';
import { Link } from 'react-router';
import { MatchWarning } from '../../../components/match-warning.js';
import { useDevice } from '../../../lib/viewport.js';
import { useCustomerDuplicates } from '../api.js';

/** Typing pauses this long before the agency's customers are checked for the same person. */
const CHECK_DEBOUNCE_MS = 400;

const MATCH_LABELS: Record<CustomerDuplicate['matched_on'][number], string> = {
  email: 'email',
  phone: 'phone number',
  national_id: 'national ID / tax ID',
};
const listFormat = new Intl.ListFormat('en', { type: 'conjunction' });
const matched = (duplicate: CustomerDuplicate) =>
  listFormat.format(duplicate.matched_on.map((field) => MATCH_LABELS[field]));

/** In the alert's own text colour: the primary colour on its yellow tint fails contrast. */
const customerLink = (duplicate: CustomerDuplicate, style?: CSSProperties) => (
  <Anchor component={Link} to={`/customers/${duplicate.id}`} fw={600} c="inherit" style={style}>
    {duplicate.display_name}
  </Anchor>
);
/** A link alone on its list line gets a fingertip-sized target on a phone. */
const TOUCH_LINK = { display: 'inline-flex', alignItems: 'center', minHeight: 44 } as const;

/** Warns, while the broker types, that a customer with the same email, phone or national id is on record. */
export function DuplicateWarning(props: {
  email: string;
  phone: string;
  nationalId: string;
  excludeId?: string;
}) {
  const [email] = useDebouncedValue(props.email.trim(), CHECK_DEBOUNCE_MS);
  const [phone] = useDebouncedValue(props.phone.trim(), CHECK_DEBOUNCE_MS);
  const [nationalId] = useDebouncedValue(props.nationalId.trim(), CHECK_DEBOUNCE_MS);
  const query: CustomerDuplicateQuery = {};
  if (email) query.email = email;
  if (phone) query.phone = phone;
  if (nationalId) query.national_id = nationalId;
  if (props.excludeId) query.exclude_id = props.excludeId;
  const duplicates = useCustomerDuplicates(query);
  const onPhone = useDevice() === 'mobile';
  return (
    <MatchWarning
      matches={duplicates}
      icon={<IconUsers size={18} aria-hidden />}
      one={(duplicate) => (
        <>
          A customer with this {matched(duplicate)} already exists: {customerLink(duplicate)}
        </>
      )}
      several="Customers with the same details already exist:"
      line={(duplicate) => (
        <>
          {customerLink(duplicate, onPhone ? TOUCH_LINK : undefined)} (same {matched(duplicate)})
        </>
      )}
      footnote="You can still save if this is someone else."
    />
  );
}
