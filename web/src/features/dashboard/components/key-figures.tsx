import type { Dashboard, FigureName, ModuleName } from '@coverdesk/contract';
import { Card, SimpleGrid, Skeleton } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useAccess } from '../../../app/access.js';
import { formatCount } from '../../../components/charts/chart-format.js';
import { FigureLines } from '../../../components/five-figures.js';
import { formatDate } from '../../../lib/format.js';
import { Money } from '../../../lib/money.js';

/** A figure's value and the line that puts it in context. */
interface Reading {
  value: ReactNode;
  note: ReactNode;
}

/**
 * One headline figure: what it is, what it will show before the agency has data, the module it
 * comes from, the list behind it (filtered to exactly what it counts) and how it reads from the
 * dashboard's answer (null when the plan leaves its section out).
 */
interface KeyFigure {
  label: string;
  figure?: FigureName;
  teaches: string;
  module: ModuleName;
  to: string;
  /** The module the linked screen needs, when not `module`: without it the card links nowhere. */
  linkModule?: ModuleName;
  read(data: Dashboard): Reading | null;
}

const dateAfter = (today: string, days: number) => {
  const date = new Date(`${today}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
};

/** A period's commission, expected and received, and the screen that explains it behind it. */
const commissionFigure = (
  period: 'this_month' | 'this_year',
  label: string,
  teaches: string,
  link: Pick<KeyFigure, 'to' | 'linkModule'>,
): KeyFigure => ({
  label,
  figure: period,
  teaches,
  module: 'module_commission_reports',
  ...link,
  read: ({ commission }) =>
    commission && {
      value: <Money amount={commission[period].expected} />,
      note: (
        <>
          Expected; <Money amount={commission[period].received} /> earned on customer payments
        </>
      ),
    },
});

export const KEY_FIGURES: KeyFigure[] = [
  {
    label: 'Active policies',
    figure: 'in_force',
    teaches: 'How many policies are in force today.',
    module: 'module_policies',
    to: '/policies?status=active',
    read: ({ policies }) =>
      policies && { value: formatCount(policies.active_policies), note: 'In force today' },
  },
  {
    label: 'Premium in force',
    figure: 'in_force',
    teaches: 'The total premium of the policies in force.',
    module: 'module_policies',
    to: '/policies?status=active',
    read: ({ policies }) =>
      policies && { value: <Money amount={policies.premium_in_force} />, note: 'On the active policies' },
  },
  {
    label: 'Expiring in 30 days',
    teaches: 'Active policies ending within a month: your next renewals.',
    module: 'module_policies',
    to: '/policies?expiring_within_days=30',
    read: ({ policies, today }) =>
      policies && {
        value: formatCount(policies.expiring_in_30_days),
        note: `Ending by ${formatDate(dateAfter(today, 30))}`,
      },
  },
  {
    label: 'Overdue instalments',
    teaches: 'Instalments unpaid after their due date, and what is owed on them.',
    module: 'module_payments',
    to: '/payments?status=overdue',
    read: ({ payments }) =>
      payments && {
        value: formatCount(payments.overdue_count),
        note: (
          <>
            <Money amount={payments.overdue_amount} /> unpaid
          </>
        ),
      },
  },
  // This month's figures are the portfolio history's current month, where they are set beside the
  // months before.
  commissionFigure(
    'this_month',
    'Commission this month',
    "Commission expected on the policies that started this month, and what insurers owe on this month's payments.",
    { to: '/portfolio-history', linkModule: 'module_portfolio_history' },
  ),
  commissionFigure(
    'this_year',
    'Commission this year',
    'Commission expected, and earned on customer payments, on the policies covering this calendar year.',
    { to: '/commission-report?period=this_year' },
  ),
  {
    label: 'Open leads',
    teaches: 'Prospects still in your pipeline and the premium you expect to write.',
    module: 'module_leads',
    to: '/leads',
    read: ({ leads }) =>
      leads && {
        value: formatCount(leads.open_count),
        note: (
          <>
            <Money amount={leads.open_pipeline_premium} /> estimated premium
          </>
        ),
      },
  },
  {
    label: 'Open claims',
    teaches: 'Claims your customers have made that are not closed yet.',
    module: 'module_claims',
    to: '/claims',
    read: ({ claims }) => claims && { value: formatCount(claims.open_count), note: 'Not yet closed' },
  },
];

const GRID = { base: 1, xs: 2, md: 4 } as const;

/** The headline figures, each a link to the list it counts. */
export function KeyFigures({ data }: { data: Dashboard }) {
  const { canOpen } = useAccess();
  const shown = KEY_FIGURES.flatMap((figure) => {
    const reading = figure.read(data);
    return reading ? [{ ...figure, ...reading }] : [];
  });
  return (
    <SimpleGrid cols={GRID} spacing="sm" component="section" aria-label="Key figures">
      {shown.map((figure) =>
        !figure.linkModule || canOpen(figure.linkModule) ? (
          <Card key={figure.label} withBorder padding="md" component={Link} to={figure.to} mih={44}>
            <FigureLines figure={figure} />
          </Card>
        ) : (
          <Card key={figure.label} withBorder padding="md" role="group" aria-label={figure.label}>
            <FigureLines figure={figure} />
          </Card>
        ),
      )}
    </SimpleGrid>
  );
}

export function KeyFiguresSkeleton() {
  return (
    <SimpleGrid cols={GRID} spacing="sm" aria-busy="true" aria-label="Loading">
      {KEY_FIGURES.map((figure) => (
        <Skeleton key={figure.label} h={96} radius="md" />
      ))}
    </SimpleGrid>
  );
}
