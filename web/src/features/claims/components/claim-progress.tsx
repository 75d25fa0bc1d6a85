import { CLAIM_STATUS_LABELS, type ClaimDetail, type ClaimStatus } from '@coverdesk/contract';
import { Stepper } from '@mantine/core';
import { useDevice } from '../../../lib/viewport.js';

/**
 * The road a claim is on: open, in review, then approved and paid or rejected, then closed. A claim
 * closed after a rejection shows the rejected road.
 */
function roadOf(claim: ClaimDetail): ClaimStatus[] {
  const lastClosing = claim.timeline.find((event) => event.kind === 'status' && event.to_status === 'closed');
  const rejected =
    claim.status === 'rejected' || (claim.status === 'closed' && lastClosing?.from_status === 'rejected');
  return rejected
    ? ['open', 'in_review', 'rejected', 'closed']
    : ['open', 'in_review', 'approved', 'paid', 'closed'];
}

/** The status stepper of a claim's page: how far it has come on its road, closed being the end of it. */
export function ClaimProgress({ claim }: { claim: ClaimDetail }) {
  const device = useDevice();
  const road = roadOf(claim);
  // Every step reached is ticked, the claim's own status included; the next one is highlighted.
  const active = road.indexOf(claim.status) + 1;
  const phone = device === 'mobile';
  return (
    <Stepper
      active={active}
      size="sm"
      // Down the screen on a phone, close together: five steps do not fit across it.
      orientation={phone ? 'vertical' : 'horizontal'}
      iconSize={phone ? 26 : undefined}
      styles={phone ? { step: { minHeight: 40 } } : undefined}
      allowNextStepsSelect={false}
      color={claim.status === 'rejected' ? 'red' : undefined}
      aria-label={`Claim status: ${CLAIM_STATUS_LABELS[claim.status]}`}
    >
      {road.map((status) => (
        <Stepper.Step
          key={status}
          label={CLAIM_STATUS_LABELS[status]}
          color={status === 'rejected' ? 'red' : undefined}
          allowStepSelect={false}
        />
      ))}
    </Stepper>
  );
}
