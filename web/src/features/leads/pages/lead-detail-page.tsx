import { Card, Grid, Stack, Text, Title } from '@mantine/core';
import { useParams } from 'react-router';
import { DetailSkeleton, ErrorState } from '../../../components/page-states.js';
import { DocumentsPanel } from '../../documents/components/documents-panel.js';
import { useLead } from '../api.js';
import { LeadMatches } from '../components/lead-match-warning.js';
import { LeadSummary } from '../components/lead-summary.js';
import { LeadTimeline } from '../components/lead-timeline.js';

/** /leads/{id}: the summary, the people it may duplicate, notes beside the timeline. */
export function Component() {
  const { id = '' } = useParams();
  const lead = useLead(id);
  if (lead.isPending) return <DetailSkeleton />;
  if (lead.isError)
    return (
      <ErrorState
        error={lead.error}
        onRetry={() => void lead.refetch()}
        back={{ to: '/leads', label: 'Back to leads' }}
      />
    );
  return (
    <Stack maw={1200}>
      <LeadSummary lead={lead.data} />
      <LeadMatches matches={lead.data.matches} saved />
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Card withBorder padding="lg">
            <Title order={3} fz="h4" mb="sm">
              Notes
            </Title>
            {lead.data.notes ? (
              <Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{lead.data.notes}</Text>
            ) : (
              <Text c="dimmed">No notes yet.</Text>
            )}
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <LeadTimeline leadId={lead.data.id} />
        </Grid.Col>
      </Grid>
      <DocumentsPanel of={{ lead_id: lead.data.id }} what="lead" />
    </Stack>
  );
}
