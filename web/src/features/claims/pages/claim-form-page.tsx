import { useParams } from 'react-router';
import { DetailSkeleton, ErrorState } from '../../../components/page-states.js';
import { useClaim } from '../api.js';
import { ClaimForm } from '../components/claim-form.js';

/** /claims/create (with `?policy_id=` from a policy's page) and /claims/{id}/edit. */
export function Component() {
  const { id } = useParams();
  if (!id) return <ClaimForm />;
  return <EditClaim id={id} />;
}

function EditClaim({ id }: { id: string }) {
  const claim = useClaim(id);
  if (claim.isPending) return <DetailSkeleton />;
  if (claim.isError)
    return (
      <ErrorState
        error={claim.error}
        onRetry={() => void claim.refetch()}
        back={{ to: '/claims', label: 'Back to claims' }}
      />
    );
  return <ClaimForm key={claim.data.updated_at} claim={claim.data} />;
}
