import type { LeadMatch } from '@coverdesk/contract';
import { Anchor } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconUsers } from '@tabler/icons-react';
import type { CSSProperties } from 'react';
import { Link } from 'react-router';
import { MatchWarning } from '../../../components/match-warning.js';
import { useDevice } from '../../../lib/viewport.js';
import { useLeadMatches } from '../api.js';

/** Typing pauses this long before the agency's customers and leads are checked for the same person. */
const CHECK_DEBOUNCE_MS = 400;

const MATCH_LABELS: Record<LeadMatch['matched_on'][number], string> = {
  email: 'email',
  phone: 'phone number',
};
const listFormat = new Intl.ListFormat('en', { type: 'conjunction' });
const matched = (match: LeadMatch) => listFormat.format(match.matched_on.map((field) => MATCH_LABELS[field]));
const KIND = { customer: 'customer', lead: 'lead' } as const;
/** A link alone on its list line gets a fingertip-sized target on a phone. */
const TOUCH_LINK = { display: 'inline-flex', alignItems: 'center', minHeight: 44 } as const;

/** In the alert's own text colour: the primary colour on its yellow tint fails contrast. */
const matchLink = (match: LeadMatch, style?: CSSProperties) => (
  <Anchor
    component={Link}
    to={match.kind === 'customer' ? `/customers/${match.id}` : `/leads/${match.id}`}
    fw={600}
    c="inherit"
    style={style}
  >
    {match.display_name}
  </Anchor>
);

/** Names the customers and leads that share an email or phone with this lead. */
export function LeadMatches({ matches, saved }: { matches: LeadMatch[]; saved: boolean }) {
  const onPhone = useDevice() === 'mobile';
  return (
    <MatchWarning
      matches={matches}
      icon={<IconUsers size={18} aria-hidden />}
      one={(match) => (
        <>
          A {KIND[match.kind]} with this {matched(match)} already exists: {matchLink(match)}
        </>
      )}
      several="Customers or leads with the same details already exist:"
      line={(match) => (
        <>
          {matchLink(match, onPhone ? TOUCH_LINK : undefined)} ({KIND[match.kind]}, same {matched(match)})
        </>
      )}
      footnote={
        saved
          ? 'It may be the same person: check before calling twice.'
          : 'You can still save if this is someone else.'
      }
    />
  );
}

/** Warns, while the broker types, that a customer or lead with the same email or phone is on record. */
export function LeadMatchWarning(props: { email: string; phone: string; excludeId?: string }) {
  const [email] = useDebouncedValue(props.email.trim(), CHECK_DEBOUNCE_MS);
  const [phone] = useDebouncedValue(props.phone.trim(), CHECK_DEBOUNCE_MS);
  const matches = useLeadMatches({
    ...(email ? { email } : {}),
    ...(phone ? { phone } : {}),
    ...(props.excludeId ? { exclude_id: props.excludeId } : {}),
  });
  return <LeadMatches matches={matches} saved={false} />;
}
