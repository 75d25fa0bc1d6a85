import { agencyDateOrder, DATE_ORDERS, type DateOrder, NUMERIC_DATE } from '@coverdesk/contract';
import { Radio, Stack } from '@mantine/core';
import { useSession } from '../lib/session-context.js';

const MONTHS = new Intl.DateTimeFormat('en-US', { month: 'long', timeZone: 'UTC' });

/** "05/01/2026" read in `order`, in words: "5 January 2026" or "May 1, 2026". */
function inWords(example: string, order: DateOrder) {
  const match = NUMERIC_DATE.exec(example);
  if (!match) return '';
  const [, first = '', second = '', year = ''] = match;
  const [day, month] =
    order === 'day_first' ? [Number(first), Number(second)] : [Number(second), Number(first)];
  if (month < 1 || month > 12 || day < 1 || day > 31) return 'not a date';
  const name = MONTHS.format(new Date(Date.UTC(2000, month - 1, 1)));
  return order === 'day_first' ? `${day} ${name} ${year}` : `${name} ${day}, ${year}`;
}

const ORDER_NAMES: Record<DateOrder, string> = { day_first: 'Day first', month_first: 'Month first' };

/** The agency's usual date order, offered when a file's dates cannot tell. */
export function useAgencyDateOrder(): DateOrder {
  const user = useSession().state.user;
  return user ? agencyDateOrder(user) : 'day_first';
}

/**
 * Day first or month first, each shown as `example` reads in it ("05/01/2026 is May 1, 2026"), so the
 * broker sees what their file's dates will become.
 */
export function DateOrderChoice({
  value,
  onChange,
  example,
  label,
  description,
}: {
  value: DateOrder;
  onChange: (order: DateOrder) => void;
  example: string;
  label: string;
  description: string;
}) {
  return (
    <Radio.Group
      label={label}
      description={description}
      value={value}
      onChange={(next) => onChange(next as DateOrder)}
    >
      <Stack gap="xs" mt="xs">
        {DATE_ORDERS.map((order) => (
          <Radio
            key={order}
            value={order}
            label={`${ORDER_NAMES[order]}: ${example} is ${inWords(example, order)}`}
          />
        ))}
      </Stack>
    </Radio.Group>
  );
}
