import type { SearchResult, SearchResultType } from '@coverdesk/contract';
import { Badge, Box, Group, Text, ThemeIcon } from '@mantine/core';
import {
  type Icon,
  IconAlertTriangle,
  IconBuilding,
  IconCash,
  IconFileText,
  IconTarget,
  IconUser,
} from '@tabler/icons-react';
import { Money } from '../../../lib/money.js';

/** The API names each result's icon; these are the icons behind the names. */
const ICONS: Record<string, Icon> = {
  user: IconUser,
  'file-text': IconFileText,
  cash: IconCash,
  building: IconBuilding,
  target: IconTarget,
  'alert-triangle': IconAlertTriangle,
};

export const RESULT_TYPE_LABELS: Record<SearchResultType, string> = {
  customer: 'Customer',
  policy: 'Policy',
  payment: 'Payment',
  company: 'Insurer',
  lead: 'Lead',
  claim: 'Claim',
};

/** One colour meaning everywhere (UI.md): what is current green, in progress blue, over grey, refused red. */
const STATUS_COLORS: Record<string, string> = {
  active: 'green',
  paid: 'green',
  won: 'green',
  approved: 'green',
  pending: 'blue',
  new: 'blue',
  open: 'blue',
  in_review: 'blue',
  contacted: 'blue',
  qualified: 'blue',
  quoted: 'blue',
  partially_paid: 'yellow',
  expired: 'gray',
  inactive: 'gray',
  closed: 'gray',
  cancelled: 'red',
  rejected: 'red',
  lost: 'red',
  renewed: 'violet',
};

const statusLabel = (status: string) => {
  const words = status.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** The figures of a result: its amount and its status. */
function Figures({ result }: { result: SearchResult }) {
  return (
    <>
      {result.amount !== null && (
        <Text fz="sm" style={{ fontVariantNumeric: 'tabular-nums' }}>
          <Money amount={result.amount} />
        </Text>
      )}
      {result.status && (
        <Badge color={STATUS_COLORS[result.status] ?? 'gray'} variant="light" miw="max-content">
          {statusLabel(result.status)}
        </Badge>
      )}
    </>
  );
}

/**
 * A result as every search list shows it: what it is, its name, what tells it apart, then its amount
 * and status, at the right on a desk and on a line of their own on a phone.
 */
export function SearchResultRow({ result }: { result: SearchResult }) {
  const ResultIcon = ICONS[result.icon] ?? IconFileText;
  const hasFigures = result.amount !== null || result.status !== null;
  return (
    <Group gap="sm" wrap="nowrap" align="center" mih={36}>
      <ThemeIcon variant="light" color="indigo" size="lg" radius="md" aria-hidden>
        <ResultIcon size={18} />
      </ThemeIcon>
      <Box miw={0} style={{ flex: 1 }}>
        <Text fz="sm" fw={600} truncate>
          {result.title}
        </Text>
        <Text fz="xs" c="dimmed" truncate>
          {RESULT_TYPE_LABELS[result.type]}
          {result.subtitle && ` · ${result.subtitle}`}
        </Text>
        {hasFigures && (
          <Group gap={6} wrap="nowrap" mt={2} hiddenFrom="sm">
            <Figures result={result} />
          </Group>
        )}
      </Box>
      {hasFigures && (
        <Group gap={6} wrap="nowrap" visibleFrom="sm">
          <Figures result={result} />
        </Group>
      )}
    </Group>
  );
}
