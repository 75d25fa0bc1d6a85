import { useParams } from 'react-router';
import { DetailSkeleton, ErrorState } from '../../../components/page-states.js';
import { useLead } from '../api.js';
import { LeadForm } from '../components/lead-form.js';

/** /leads/create and /leads/{id}/edit. */
export function Component() {
  const { id } = useParams();
  if (!id) return <LeadForm />;
  return <EditLead id={id} />;
}

function EditLead({ id }: { id: string }) {
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
  return <LeadForm key={lead.data.updated_at} lead={lead.data} />;
}
