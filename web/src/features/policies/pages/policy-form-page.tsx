import { useParams } from 'react-router';
import { DetailSkeleton, ErrorState } from '../../../components/page-states.js';
import { usePolicy } from '../api.js';
import { PolicyForm } from '../components/policy-form.js';

/** /policies/create and /policies/{id}/edit. */
export function Component() {
  const { id } = useParams();
  if (!id) return <PolicyForm />;
  return <EditPolicy id={id} />;
}

function EditPolicy({ id }: { id: string }) {
  const policy = usePolicy(id);
  if (policy.isPending) return <DetailSkeleton />;
  if (policy.isError)
    return (
      <ErrorState
        error={policy.error}
        onRetry={() => void policy.refetch()}
        back={{ to: '/policies', label: 'Back to policies' }}
      />
    );
  return <PolicyForm key={policy.data.updated_at} policy={policy.data} />;
}
