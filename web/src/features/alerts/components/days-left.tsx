import { Badge } from '@mantine/core';

/** "in 12 days", "tomorrow", "today", "lapsed yesterday", "lapsed 5 days ago". */
export function daysLeftText(days: number): string {
  if (days > 1) return `in ${days} days`;
  if (days === 1) return 'tomorrow';
  if (days === 0) return 'today';
  if (days === -1) return 'lapsed yesterday';
  return `lapsed ${-days} days ago`;
}

/** Lapsed red, within a week orange, within the month yellow, later blue; the words say it too. */
function colorOf(days: number): string {
  if (days < 0) return 'red';
  if (days <= 7) return 'orange';
  if (days <= 30) return 'yellow';
  return 'blue';
}

/** How long until the policy ends, or since it lapsed. */
export function DaysLeft({ days }: { days: number }) {
  return (
    <Badge color={colorOf(days)} tt="none" miw="max-content">
      {daysLeftText(days)}
    </Badge>
  );
}
