import { COMMISSION_PAYMENT_METHOD_LABELS, type Company, companyBody } from '@coverdesk/contract';
import {
  Button,
  Card,
  Fieldset,
  Group,
  Radio,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog.js';
import { FormError } from '../../../components/form-error.js';
import { DetailSkeleton, ErrorState } from '../../../components/page-states.js';
import { ReadOnlyNote } from '../../../components/read-only-note.js';
import { errorText } from '../../../lib/error-message.js';
import { useFormSubmit, zodValidate } from '../../../lib/form.js';
import { TABULAR_FIGURES } from '../../../lib/format.js';
import { useFormatMoney } from '../../../lib/money.js';
import { useCan } from '../../../lib/use-can.js';
import {
  useCompany,
  useCompanyStats,
  useDeleteCompany,
  useSaveCompany,
  useSellablePolicyTypes,
} from '../api.js';
import { type CompanyFormValues, RatesEditor } from '../components/rates-editor.js';

const LIST = '/companies';

/** /companies/create and /companies/{id}/edit. */
export function Component() {
  const { id } = useParams();
  const types = useSellablePolicyTypes();
  if (types.isError) return <ErrorState error={types.error} onRetry={() => void types.refetch()} />;
  if (types.isPending) return <DetailSkeleton />;
  if (!id) return <CompanyForm />;
  return <EditCompany id={id} />;
}

function EditCompany({ id }: { id: string }) {
  const company = useCompany(id);
  const canEdit = useCan('insurers');
  if (company.isPending) return <DetailSkeleton />;
  if (company.isError)
    return (
      <ErrorState
        error={company.error}
        onRetry={() => void company.refetch()}
        back={{ to: LIST, label: 'Back to insurers' }}
      />
    );
  return (
    <Stack maw={860}>
      <CompanyStatsRow id={id} />
      <CompanyForm key={company.data.updated_at} company={company.data} />
      {canEdit && <DeleteCompany company={company.data} />}
    </Stack>
  );
}

function toFormValues(company?: Company): CompanyFormValues {
  return {
    name: company?.name ?? '',
    contact_person: company?.contact_person ?? '',
    email: company?.email ?? '',
    phone: company?.phone ?? '',
    website: company?.website ?? '',
    address: company?.address ?? '',
    notes: company?.notes ?? '',
    commission_type: company?.commission_type ?? 'percentage',
    commission_payment_method: company?.commission_payment_method ?? 'full_policy',
    policy_types: (company?.policy_types ?? []).map((rate) => ({
      policy_type_id: rate.policy_type_id,
      custom_name: rate.custom_name,
      commission_percentage: rate.commission_percentage,
    })),
  };
}

function CompanyForm({ company }: { company?: Company }) {
  const navigate = useNavigate();
  const types = useSellablePolicyTypes();
  const save = useSaveCompany(company?.id);
  const canEdit = useCan('insurers');
  const form = useForm<CompanyFormValues>({
    initialValues: toFormValues(company),
    validate: zodValidate(companyBody),
  });
  const { onSubmit, error } = useFormSubmit(form, async (values) => {
    const saved = await save.mutateAsync(values);
    notifications.show({
      color: 'green',
      message: company ? `${saved.name} saved.` : `${saved.name} added.`,
    });
    navigate(LIST);
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <Fieldset disabled={!canEdit} variant="unstyled">
        <Stack>
          {!canEdit && (
            <ReadOnlyNote>Owners and managers change the insurers and the commission they pay.</ReadOnlyNote>
          )}
          <Card withBorder padding="lg">
            <Stack gap="sm">
              <Title order={2} fz="h4">
                {!canEdit ? (company?.name ?? 'Insurer') : company ? `Edit ${company.name}` : 'New insurer'}
              </Title>
              <TextInput
                label="Insurer name"
                required
                placeholder="e.g. Harel Insurance"
                {...form.getInputProps('name')}
              />
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                <TextInput
                  label="Contact person"
                  autoComplete="off"
                  {...form.getInputProps('contact_person')}
                />
                <TextInput label="Email" type="email" autoComplete="off" {...form.getInputProps('email')} />
                <TextInput label="Phone" type="tel" autoComplete="off" {...form.getInputProps('phone')} />
                <TextInput label="Website" placeholder="https://" {...form.getInputProps('website')} />
              </SimpleGrid>
              <Textarea label="Address" autosize minRows={2} {...form.getInputProps('address')} />
              <Textarea label="Notes" autosize minRows={2} maxRows={8} {...form.getInputProps('notes')} />
            </Stack>
          </Card>
          <Card withBorder padding="lg">
            <Stack gap="sm">
              <div>
                <Title order={2} fz="h4">
                  Commission
                </Title>
                <Text fz="sm" c="dimmed">
                  Which policy types this insurer sells, and the percentage of the net premium it pays you on
                  each.
                </Text>
              </div>
              <Radio.Group
                label="When the insurer pays commission"
                required
                {...form.getInputProps('commission_payment_method')}
              >
                <Stack gap="xs" mt={6}>
                  <Radio
                    value="full_policy"
                    label={COMMISSION_PAYMENT_METHOD_LABELS.full_policy}
                    description="The full commission once the customer has paid the full premium."
                  />
                  <Radio
                    value="pro_rata"
                    label={COMMISSION_PAYMENT_METHOD_LABELS.pro_rata}
                    description="Commission in proportion to the instalments the customer has paid."
                  />
                </Stack>
              </Radio.Group>
              <Text fw={600} fz="sm" mt="xs">
                Policy types sold
              </Text>
              <RatesEditor form={form} types={types.data ?? []} />
              {typeof form.errors.policy_types === 'string' && (
                <Text c="red" fz="sm">
                  {form.errors.policy_types}
                </Text>
              )}
            </Stack>
          </Card>
          <FormError message={error} />
          {canEdit && (
            <Group justify="flex-end" gap="sm">
              <Button variant="default" component={Link} to={LIST}>
                Cancel
              </Button>
              <Button type="submit" loading={save.isPending}>
                {company ? 'Save changes' : 'Add insurer'}
              </Button>
            </Group>
          )}
        </Stack>
      </Fieldset>
    </form>
  );
}

/** What the insurer's policies add up to (zero until policies are recorded). */
function CompanyStatsRow({ id }: { id: string }) {
  const stats = useCompanyStats(id);
  const formatMoney = useFormatMoney();
  if (!stats.data) return null;
  const figures = [
    ['Policies', String(stats.data.policy_count)],
    ['Active premium', formatMoney(stats.data.active_premium)],
    ['Expected commission', formatMoney(stats.data.expected_commission)],
    ['Earned on customer payments', formatMoney(stats.data.received_commission)],
  ];
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
      {figures.map(([label, value]) => (
        <Card key={label} withBorder padding="sm">
          <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
            {label}
          </Text>
          <Text fw={700} fz="lg" style={TABULAR_FIGURES}>
            {value}
          </Text>
        </Card>
      ))}
    </SimpleGrid>
  );
}

function DeleteCompany({ company }: { company: Company }) {
  const navigate = useNavigate();
  const remove = useDeleteCompany();
  const [opened, { open, close }] = useDisclosure(false);
  const confirm = () =>
    remove.mutate(company.id, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: `${company.name} deleted.` });
        navigate(LIST);
      },
    });
  return (
    <Card withBorder padding="lg">
      <Group justify="space-between" gap="sm">
        <div>
          <Text fw={600}>Delete this insurer</Text>
          <Text fz="sm" c="dimmed">
            Removes the insurer and the commission rates you recorded for it.
          </Text>
        </div>
        <Button color="red" variant="light" onClick={open}>
          Delete
        </Button>
      </Group>
      <ConfirmDialog
        opened={opened}
        onClose={close}
        title={`Delete insurer ${company.name}?`}
        confirmLabel="Delete"
        busy={remove.isPending}
        error={remove.error ? errorText(remove.error) : null}
        onConfirm={confirm}
      >
        {company.name} and its commission rates will be removed. This cannot be undone.
      </ConfirmDialog>
    </Card>
  );
}
