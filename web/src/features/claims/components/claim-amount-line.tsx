import type { Claim } from '@coverdesk/contract';
import { Money } from '../../../lib/money.js';

/**
 * A claim's money in one line, named: what the insurer paid once it paid, else what it approved once
 * it decided, else what was claimed.
 */
export function ClaimAmountLine({
  claim,
}: {
  claim: Pick<Claim, 'amount_claimed' | 'amount_approved' | 'amount_paid'>;
}) {
  if (claim.amount_paid !== '0.00') {
    return (
      <>
        Paid <Money amount={claim.amount_paid} />
      </>
    );
  }
  if (claim.amount_approved !== null) {
    return (
      <>
        Approved <Money amount={claim.amount_approved} />
      </>
    );
  }
  return (
    <>
      Claimed <Money amount={claim.amount_claimed} />
    </>
  );
}
