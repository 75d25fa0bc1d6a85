import {
  POLICY_CATEGORIES,
  POLICY_CATEGORY_LABELS,
  type PolicyType,
  type PolicyTypeBody,
  policyTypeBody,
} from '@coverdesk/contract';
import {
  Button,
  Card,
  Fieldset,
  Group,
  Select,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog.js';
import { FormError } from '../../../components/form-error.js';
import { DetailSkeleton, ErrorState } from '../../../components/page-states.js';
import { ReadOnlyNote } from '../../../components/read-only-note.js';
import { errorText } from '../../../lib/error-message.js';
import { useFormSubmit, zodValidate } from '../../../lib/form.js';
import { ApiError } from '../../../lib/http.js';
import { useCan } from '../../../lib/use-can.js';
import { useDeletePolicyType, usePolicyType, useSavePolicyType } from '../api.js';

const CATEGORY_OPTIONS = POLICY_CATEGORIES.map((value) => ({ value, label: POLICY_CATEGORY_LABELS[value] }));
const LIST = '/policy-types';

/** /policy-types/create and /policy-types/{id}/edit. */
export function Component() {
  const { id } = useParams();
  if (!id) return <PolicyTypeForm />;
  return <EditPolicyType id={id} />;
}

function EditPolicyType({ id }: { id: string }) {
  const type = usePolicyType(id);
  const canEdit = useCan('agency_settings');
  if (type.isPending) return <DetailSkeleton />;
  if (type.isError)
    return (
      <ErrorState
        error={type.error}
        onRetry={() => void type.refetch()}
        back={{ to: LIST, label: 'Back to policy types' }}
      />
    );
  return (
    <Stack maw={720}>
      <PolicyTypeForm key={type.data.updated_at} type={type.data} />
      {canEdit && <DeletePolicyType type={type.data} />}
    </Stack>
  );
}

function PolicyTypeForm({ type }: { type?: PolicyType }) {
  const navigate = useNavigate();
  const save = useSavePolicyType(type?.id);
  const canEdit = useCan('agency_settings');
  const form = useForm<Required<PolicyTypeBody>>({
    initialValues: {
      name: type?.name ?? '',
      category: type?.category ?? ('' as PolicyType['category']),
      description: type?.description ?? '',
      is_active: type?.is_active ?? true,
    },
    validate: zodValidate(policyTypeBody),
  });
  const { onSubmit, error } = useFormSubmit(form, async (values) => {
    const saved = await save.mutateAsync(values);
    notifications.show({ color: 'green', message: type ? `${saved.name} saved.` : `${saved.name} added.` });
    navigate(LIST);
  });

  return (
    <Card withBorder padding="lg" maw={720}>
      <form onSubmit={onSubmit} noValidate>
        <Fieldset disabled={!canEdit} variant="unstyled">
          <Stack gap="sm">
            <Title order={2} fz="h4">
              {!canEdit ? (type?.name ?? 'Policy type') : type ? `Edit ${type.name}` : 'New policy type'}
            </Title>
            {!canEdit && <ReadOnlyNote>Owners and managers change the agency’s policy types.</ReadOnlyNote>}
            <TextInput
              label="Name"
              required
              placeholder="e.g. Private motor"
              description="As your agency calls it. Each insurer can have its own name for it."
              {...form.getInputProps('name')}
            />
            <Select
              label="Category"
              required
              placeholder="Choose a category"
              data={CATEGORY_OPTIONS}
              allowDeselect={false}
              {...form.getInputProps('category')}
            />
            <Textarea
              label="Description"
              autosize
              minRows={2}
              maxRows={6}
              {...form.getInputProps('description')}
            />
            <Switch
              label="Active"
              description="Inactive types stay on existing policies but are not offered on new ones."
              {...form.getInputProps('is_active', { type: 'checkbox' })}
            />
            <FormError message={error} />
            {canEdit && (
              <Group justify="flex-end" gap="sm">
                <Button variant="default" component={Link} to={LIST}>
                  Cancel
                </Button>
                <Button type="submit" loading={save.isPending}>
                  {type ? 'Save changes' : 'Add policy type'}
                </Button>
              </Group>
            )}
          </Stack>
        </Fieldset>
      </form>
    </Card>
  );
}

/** Deleting asks first; a type still in use is explained, with deactivating offered instead. */
function DeletePolicyType({ type }: { type: PolicyType }) {
  const navigate = useNavigate();
  const remove = useDeletePolicyType();
  const deactivate = useSavePolicyType(type.id);
  const [opened, { open, close }] = useDisclosure(false);
  const [inUse, setInUse] = useState<string | null>(null);

  const confirm = () =>
    remove.mutate(type.id, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: `${type.name} deleted.` });
        navigate(LIST);
      },
      onError: (failure) => {
        if (failure instanceof ApiError && failure.status === 409) setInUse(failure.message);
      },
    });
  const deactivateInstead = () =>
    deactivate.mutate(
      { name: type.name, category: type.category, description: type.description, is_active: false },
      {
        onSuccess: () => {
          notifications.show({ color: 'green', message: `${type.name} deactivated.` });
          navigate(LIST);
        },
      },
    );
  const failure =
    remove.error && !inUse ? errorText(remove.error) : deactivate.error ? errorText(deactivate.error) : null;

  return (
    <Card withBorder padding="lg">
      <Group justify="space-between" gap="sm">
        <div>
          <Text fw={600}>Delete this policy type</Text>
          <Text fz="sm" c="dimmed">
            Only a type no insurer sells and no policy uses can be deleted.
          </Text>
        </div>
        <Button
          color="red"
          variant="light"
          onClick={() => {
            setInUse(null);
            remove.reset();
            open();
          }}
        >
          Delete
        </Button>
      </Group>
      <ConfirmDialog
        opened={opened}
        onClose={close}
        title={inUse ? `${type.name} is in use` : `Delete policy type ${type.name}?`}
        confirmLabel="Delete"
        busy={remove.isPending}
        error={failure}
        onConfirm={confirm}
        hideConfirm={inUse !== null}
        alternative={
          inUse && type.is_active ? (
            <Button loading={deactivate.isPending} onClick={deactivateInstead}>
              Deactivate instead
            </Button>
          ) : null
        }
      >
        {inUse ?? 'It will be removed from your catalogue. This cannot be undone.'}
      </ConfirmDialog>
    </Card>
  );
}
