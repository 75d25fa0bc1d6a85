import { Box, Card, Skeleton, Switch, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { FormError } from '../../../components/form-error.js';
import { ErrorState } from '../../../components/page-states.js';
import { errorText } from '../../../lib/error-message.js';
import { useCan } from '../../../lib/use-can.js';
import { useSaveTeamSettings, useTeamSettings } from '../api.js';

/** The team's one rule: whether agents see the whole book or only what is assigned to them. */
export function TeamSettingsCard() {
  const settings = useTeamSettings();
  const save = useSaveTeamSettings();
  const canChange = useCan('agency_settings');
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
                ? (save.variables?.agents_see_own_book ?? false)
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
          {!canChange && (
            <Text fz="xs" c="dimmed" mt="xs">
              Owners and managers change the team’s settings.
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
