import type { Customer } from '@coverdesk/contract';
import { Anchor, Card, SimpleGrid, Text, Title } from '@mantine/core';
import { DetailField } from '../../../components/detail-field.js';
import { formatDate } from '../../../lib/format.js';
import { useDevice } from '../../../lib/viewport.js';

/** How to reach the customer and how to tell them apart: email, phone, address, birth date, id. */
export function CustomerContact({ customer }: { customer: Customer }) {
  // Links stand alone on their line, so on a phone they get a fingertip-sized target.
  const linkStyle =
    useDevice() === 'mobile' ? { display: 'inline-flex', alignItems: 'center', minHeight: 44 } : undefined;
  const place = [customer.postal_code, customer.city].filter(Boolean).join(' ');
  const address = [customer.address_line, place, customer.country].filter(Boolean);

  return (
    <Card withBorder padding="lg">
      <Title order={3} fz="h4" mb="sm">
        Contact
      </Title>
      <SimpleGrid component="dl" cols={1} spacing="sm" m={0}>
        <DetailField label="Email">
          {customer.email && (
            <Anchor href={`mailto:${customer.email}`} style={{ ...linkStyle, overflowWrap: 'anywhere' }}>
              {customer.email}
            </Anchor>
          )}
        </DetailField>
        <DetailField label="Phone">
          {customer.phone && (
            <Anchor href={`tel:${customer.phone.replace(/[^\d+]/g, '')}`} style={linkStyle}>
              {customer.phone}
            </Anchor>
          )}
        </DetailField>
        <DetailField label="Address">
          {address.length > 0 &&
            address.map((line) => (
              <Text key={line} style={{ overflowWrap: 'anywhere' }}>
                {line}
              </Text>
            ))}
        </DetailField>
        {customer.customer_type === 'individual' && (
          <DetailField label="Date of birth">
            {customer.date_of_birth && formatDate(customer.date_of_birth)}
          </DetailField>
        )}
        <DetailField label="National ID / Tax ID">{customer.national_id}</DetailField>
      </SimpleGrid>
    </Card>
  );
}
