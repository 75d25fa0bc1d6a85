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

/** A result as every search list shows it: what it is, its name, what tells it apart, status and amount. */
export function SearchResultRow({ result }: { result: SearchResult }) {
  const ResultIcon = ICONS[result.icon] ?? IconFileText;
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
      </Box>
      <Group gap={6} wrap="nowrap" visibleFrom="xs">
        {result.amount !== null && (
          <Text fz="sm" ff="monospace" style={{ fontVariantNumeric: 'tabular-nums' }}>
            <Money amount={result.amount} />
          </Text>
        )}
        {result.status && (
          <Badge color={STATUS_COLORS[result.status] ?? 'gray'} variant="light" miw="max-content">
            {statusLabel(result.status)}
          </Badge>
        )}
      </Group>
    </Group>
  );
}
