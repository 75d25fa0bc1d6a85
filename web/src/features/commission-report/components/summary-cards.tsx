import type { CommissionSummary } from '@coverdesk/contract';
import { FiveFigures } from '../../../components/five-figures.js';
import { Money } from '../../../lib/money.js';

/** The period's totals over every matching policy (not only the page shown). */
export function SummaryCards({ summary }: { summary: CommissionSummary }) {
  const policies = `${summary.total_policies} ${summary.total_policies === 1 ? 'policy' : 'policies'}`;
  return (
    <FiveFigures
      label="Totals"
      figures={[
        { label: 'Total premium', value: <Money amount={summary.total_premium} />, note: policies },
        {
          label: 'Commission expected',
          value: <Money amount={summary.total_expected_commission} />,
          note: `${summary.average_commission_percentage}% of net premium`,
        },
        {
          label: 'Earned on customer payments',
          value: <Money amount={summary.total_received_commission} />,
          note: 'What insurers owe on what customers paid',
        },
        {
          label: 'Outstanding',
          value: <Money amount={summary.outstanding_commission} />,
          note: 'Expected, not yet earned on payments',
        },
        {
          label: 'Earned on payments %',
          value: `${summary.commission_received_percentage}%`,
          note: 'Of the commission expected',
        },
      ]}
    />
  );
}

export { FiveFiguresSkeleton as SummaryCardsSkeleton } from '../../../components/five-figures.js';
