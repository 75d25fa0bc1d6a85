import { Fieldset, SimpleGrid } from '@mantine/core';
import type { ReactNode } from 'react';

/** A named group of a form (customer, lead): two fields a row on a desk, one on a phone. */
export function FormSection({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <Fieldset legend={legend} radius="md" styles={{ legend: { fontWeight: 600 } }}>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
        {children}
      </SimpleGrid>
    </Fieldset>
  );
}

/** Lets a field in a `FormSection` take the whole row (address line, notes). */
export const FULL_ROW = { gridColumn: '1 / -1' } as const;
