import type { ExpiringPolicy } from '@coverdesk/contract';
import { Anchor, Button, Menu, Text } from '@mantine/core';
import { IconChevronDown, IconMail, IconPhone } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** A phone number as a `tel:` link dials it: digits and a leading +, an extension after a comma. */
function dialable(phone: string): string {
  const [number = '', extension] = phone.split(/\s*(?:ext\.?|x)\s*/i);
  const digits = number.replace(/[^\d+]/g, '');
  return extension ? `${digits},${extension}` : digits;
}

/** Email or call the customer about the renewal; what is missing says where to add it. */
export function ContactMenu({ policy, touch }: { policy: ExpiringPolicy; touch?: number }) {
  const subject = encodeURIComponent(`Renewing your policy ${policy.policy_number}`);
  const missing = [
    !policy.customer_email && 'email address',
    !policy.customer_phone && 'phone number',
  ].filter(Boolean);
  return (
    <Menu position="bottom-end" withinPortal withInitialFocusPlaceholder={false}>
      <Menu.Target>
        <Button
          variant="default"
          size="xs"
          px={10}
          mih={touch}
          rightSection={<IconChevronDown size={12} aria-hidden />}
          aria-label={`Contact ${policy.customer_name}`}
        >
          Contact
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <ContactItem
          href={policy.customer_email && `mailto:${policy.customer_email}?subject=${subject}`}
          icon={<IconMail size={14} aria-hidden />}
          label={policy.customer_email ? `Email ${policy.customer_email}` : 'Email: no address on file'}
        />
        <ContactItem
          href={policy.customer_phone && `tel:${dialable(policy.customer_phone)}`}
          icon={<IconPhone size={14} aria-hidden />}
          label={policy.customer_phone ? `Call ${policy.customer_phone}` : 'Call: no phone number on file'}
        />
        {missing.length > 0 && (
          <Text fz="xs" c="dimmed" px="sm" py={6} maw={260}>
            Add the {missing.join(' and ')} on{' '}
            <Anchor component={Link} to={`/customers/${policy.customer_id}/edit`} inherit>
              {policy.customer_name}'s details
            </Anchor>
            .
          </Text>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}

/** A link that emails or dials; without the address or number, a disabled item that says so. */
function ContactItem({ href, icon, label }: { href: string; icon: ReactNode; label: string }) {
  if (!href)
    return (
      <Menu.Item disabled leftSection={icon}>
        {label}
      </Menu.Item>
    );
  return (
    <Menu.Item component="a" href={href} leftSection={icon}>
      {label}
    </Menu.Item>
  );
}
