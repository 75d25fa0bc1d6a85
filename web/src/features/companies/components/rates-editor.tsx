import { type CompanyBody, POLICY_CATEGORY_LABELS, type PolicyType } from '@coverdesk/contract';
import { Anchor, Checkbox, NumberInput, Paper, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { Link } from 'react-router';

export type CompanyFormValues = Required<Omit<CompanyBody, 'policy_types'>> & {
  policy_types: { policy_type_id: string; custom_name: string; commission_percentage: string | number }[];
};

/**
 * The policy types an insurer sells: tick a type to sell it, then give the insurer's own name for
 * it (optional) and the commission percentage it pays.
 */
export function RatesEditor({
  form,
  types,
}: {
  form: UseFormReturnType<CompanyFormValues>;
  types: PolicyType[];
}) {
  const rates = form.values.policy_types;
  const sold = new Set(rates.map((rate) => rate.policy_type_id));
  // Inactive types are offered only when this insurer already sells them.
  const offered = types.filter((type) => type.is_active || sold.has(type.id));

  if (offered.length === 0) {
    return (
      <Text fz="sm" c="dimmed">
        Your catalogue has no policy types yet.{' '}
        <Anchor component={Link} to="/policy-types/create">
          Add a policy type
        </Anchor>{' '}
        first, then come back to choose which ones this insurer sells.
      </Text>
    );
  }

  const toggle = (type: PolicyType, checked: boolean) => {
    if (checked) {
      form.insertListItem('policy_types', {
        policy_type_id: type.id,
        custom_name: '',
        commission_percentage: '',
      });
    } else {
      form.removeListItem(
        'policy_types',
        rates.findIndex((rate) => rate.policy_type_id === type.id),
      );
    }
  };

  return (
    <Stack gap="xs">
      {offered.map((type) => {
        const index = rates.findIndex((rate) => rate.policy_type_id === type.id);
        return (
          <Paper key={type.id} withBorder p="sm" radius="sm">
            <Stack gap="xs">
              <Checkbox
                label={
                  <>
                    <Text span fw={600} fz="sm">
                      {type.name}
                    </Text>{' '}
                    <Text span c="dimmed" fz="sm">
                      {POLICY_CATEGORY_LABELS[type.category]}
                      {type.is_active ? '' : ' · inactive'}
                    </Text>
                  </>
                }
                checked={index >= 0}
                onChange={(event) => toggle(type, event.currentTarget.checked)}
              />
              {index >= 0 && (
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                  <TextInput
                    label={`Insurer's name for ${type.name}`}
                    placeholder={type.name}
                    {...form.getInputProps(`policy_types.${index}.custom_name`)}
                  />
                  <NumberInput
                    label={`Commission on ${type.name} (%)`}
                    required
                    min={0}
                    max={100}
                    clampBehavior="none"
                    decimalScale={2}
                    step={0.5}
                    suffix="%"
                    {...form.getInputProps(`policy_types.${index}.commission_percentage`)}
                  />
                </SimpleGrid>
              )}
            </Stack>
          </Paper>
        );
      })}
    </Stack>
  );
}
