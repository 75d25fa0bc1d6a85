import { COMMISSION_PAYMENT_STATUS_LABELS, COMMISSION_PAYMENT_STATUSES } from '@coverdesk/contract';
import { Select, TextInput } from '@mantine/core';
import { FilterSelect, InsurerAndTypeFilters } from '../../../components/list-toolbar.js';
import { useInsurerFilterChoices } from '../api.js';
import { isPeriod, PERIOD_LABELS, PERIODS } from '../period.js';
import type { ReportParams } from '../report-params.js';

const PERIOD_OPTIONS = PERIODS.map((value) => ({ value, label: PERIOD_LABELS[value] }));
const STATUS_OPTIONS = COMMISSION_PAYMENT_STATUSES.map((value) => ({
  value,
  label: COMMISSION_PAYMENT_STATUS_LABELS[value],
}));

/** The period first (what an insurer's statement covers), then insurer, type and payment status. */
export function ReportFilters({ report }: { report: ReportParams }) {
  const { params, period, range } = report;
  const insurers = useInsurerFilterChoices();
  const backwards = Boolean(range.start && range.end && range.end < range.start);

  return (
    <>
      <Select
        label="Period"
        data={PERIOD_OPTIONS}
        value={period}
        allowDeselect={false}
        onChange={(value) => {
          if (!isPeriod(value ?? undefined)) return;
          // A custom range starts from the dates on screen, for the broker to adjust.
          params.set(
            value === 'custom'
              ? { period: value, start_date: range.start, end_date: range.end }
              : { period: value, start_date: null, end_date: null },
          );
        }}
        w={{ base: '100%', sm: 150 }}
      />
      {period === 'custom' && (
        <>
          <TextInput
            type="date"
            label="From"
            value={range.start}
            onChange={(event) => params.set({ start_date: event.currentTarget.value || null })}
            w={{ base: '100%', sm: 160 }}
          />
          <TextInput
            type="date"
            label="To"
            value={range.end}
            onChange={(event) => params.set({ end_date: event.currentTarget.value || null })}
            error={backwards ? 'Ends before it starts.' : undefined}
            w={{ base: '100%', sm: 160 }}
          />
        </>
      )}
      <InsurerAndTypeFilters params={params} insurers={insurers.data} />
      <FilterSelect
        params={params}
        name="payment_status"
        label="Payment status"
        placeholder="Any status"
        data={STATUS_OPTIONS}
        width={160}
      />
    </>
  );
}
