import { useParams } from 'react-router';
import { DetailSkeleton, ErrorState } from '../../../components/page-states.js';
import { useCustomer } from '../api.js';
import { CustomerForm } from '../components/customer-form.js';

/** /customers/create and /customers/{id}/edit. */
export function Component() {
  const { id } = useParams();
  if (!id) return <CustomerForm />;
  return <EditCustomer id={id} />;
}

function EditCustomer({ id }: { id: string }) {
  const customer = useCustomer(id);
  if (customer.isPending) return <DetailSkeleton />;
  if (customer.isError)
    return (
      <ErrorState
        error={customer.error}
        onRetry={() => void customer.refetch()}
        back={{ to: '/customers', label: 'Back to customers' }}
      />
    );
  return <CustomerForm key={customer.data.updated_at} customer={customer.data} />;
}
