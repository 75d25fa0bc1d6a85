import type { ModuleName } from '@coverdesk/contract';
import { Button, Group } from '@mantine/core';
import { IconCash, IconFileText, IconTargetArrow, IconUserPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useAccess } from '../../../app/access.js';
import { useCan } from '../../../lib/use-can.js';

const ACTIONS: { label: string; to: string; module: ModuleName; icon: typeof IconCash }[] = [
  { label: 'New customer', to: '/customers/create', module: 'module_customers', icon: IconUserPlus },
  { label: 'New policy', to: '/policies/create', module: 'module_policies', icon: IconFileText },
  { label: 'New lead', to: '/leads/create', module: 'module_leads', icon: IconTargetArrow },
  // The instalments still to be paid, each with its payment button.
  { label: 'Record payment', to: '/payments?status=due', module: 'module_payments', icon: IconCash },
];

/** What a broker starts most often, for the modules the plan includes. */
export function QuickActions() {
  const access = useAccess();
  // Each starts a change to the book: a role that only reads has none of them.
  if (!useCan('work')) return null;
  return (
    <Group gap="sm" component="nav" aria-label="Quick actions">
      {ACTIONS.filter((action) => access.canOpen(action.module)).map((action) => (
        <Button
          key={action.to}
          component={Link}
          to={action.to}
          variant="default"
          mih={44}
          leftSection={<action.icon size={18} aria-hidden />}
        >
          {action.label}
        </Button>
      ))}
    </Group>
  );
}
