import { TWO_STEP_GRACE_DAYS } from '@coverdesk/contract';
import { Box, Card, Skeleton, Switch, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog.js';
import { FormError } from '../../../components/form-error.js';
import { ErrorState } from '../../../components/page-states.js';
import { errorText } from '../../../lib/error-message.js';
import { formatDate } from '../../../lib/format.js';
import { useCan } from '../../../lib/use-can.js';
import { useSaveTeamSettings, useTeamSettings } from '../api.js';

/**
 * The team's rules: whether agents see the whole book or only what is assigned to them, and whether
 * every member must sign in with two steps (the owner's call).
 */
export function TeamSettingsCard() {
  const settings = useTeamSettings();
  const save = useSaveTeamSettings();
  const canChange = useCan('agency_settings');
  const canRequireTwoStep = useCan('agency_security');
  const [confirmingOff, setConfirmingOff] = useState(false);
  const requireTwoStep = (required: boolean) =>
    save.mutate(
      { require_two_step: required },
      {
        onSuccess: (saved) => {
          setConfirmingOff(false);
          notifications.show({
            color: 'green',
            message: saved.require_two_step
              ? `Every member without two-step sign-in has until their deadline (${TWO_STEP_GRACE_DAYS} days from when it was first required, or from joining) to turn it on.`
              : 'Two-step sign-in is up to each member again.',
          });
        },
      },
    );
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="team-settings-title">
      <Title order={2} fz="h4" id="team-settings-title" mb="sm">
        Team settings
      </Title>
      {settings.isError && !settings.data ? (
        <ErrorState error={settings.error} onRetry={() => void settings.refetch()} />
      ) : settings.isPending ? (
        <Skeleton h={48} aria-busy="true" aria-label="Loading" />
      ) : (
        <>
          <Switch
            label="Agents see only their own customers"
            description="An agent then sees the customers assigned to them, with their policies, payments, claims and leads. Owners, managers and viewers always see the whole book."
            checked={
              save.isPending
                ? (save.variables?.agents_see_own_book ?? settings.data.agents_see_own_book)
                : settings.data.agents_see_own_book
            }
            disabled={!canChange || save.isPending}
            onChange={(event) =>
              save.mutate(
                { agents_see_own_book: event.currentTarget.checked },
                {
                  onSuccess: (saved) =>
                    notifications.show({
                      color: 'green',
                      message: saved.agents_see_own_book
                        ? 'Agents now see only their own customers.'
                        : 'Agents now see the whole book.',
                    }),
                },
              )
            }
          />
          <Switch
            mt="md"
            label="Everyone signs in with two steps"
            description={`Each member has ${TWO_STEP_GRACE_DAYS} days to turn on two-step sign-in in their profile settings; after that, only their own account opens until they do.${
              settings.data.require_two_step_since
                ? ` Required since ${formatDate(settings.data.require_two_step_since)}.`
                : ''
            }`}
            checked={
              save.isPending
                ? (save.variables?.require_two_step ?? settings.data.require_two_step)
                : settings.data.require_two_step
            }
            disabled={!canRequireTwoStep || save.isPending}
            onChange={(event) =>
              // Turning it off lowers the agency's guard: asked first.
              event.currentTarget.checked ? requireTwoStep(true) : setConfirmingOff(true)
            }
          />
          <ConfirmDialog
            opened={confirmingOff}
            title="Stop requiring two-step sign-in?"
            confirmLabel="Stop requiring it"
            busy={save.isPending}
            error={save.isError ? errorText(save.error) : null}
            onConfirm={() => requireTwoStep(false)}
            onClose={() => setConfirmingOff(false)}
          >
            Members who have not turned on two-step sign-in will then sign in with their password alone.
            Required again later, each member keeps the deadline they have now.
          </ConfirmDialog>
          {!canChange && (
            <Text fz="xs" c="dimmed" mt="xs">
              Owners and managers change the team’s settings.
            </Text>
          )}
          {canChange && !canRequireTwoStep && (
            <Text fz="xs" c="dimmed" mt="xs">
              Only an owner can require two-step sign-in.
            </Text>
          )}
          {save.error && (
            <Box mt="sm">
              <FormError message={errorText(save.error)} />
            </Box>
          )}
        </>
      )}
    </Card>
  );
}
