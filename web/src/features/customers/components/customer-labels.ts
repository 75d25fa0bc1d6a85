import {
  CUSTOMER_STATUSES,
  CUSTOMER_TYPES,
  type CustomerStatus,
  type CustomerType,
} from '@coverdesk/contract';

export const CUSTOMER_TYPE_LABELS: Record<CustomerType, string> = {
  individual: 'Individual',
  business: 'Business',
};
export const CUSTOMER_STATUS_LABELS: Record<CustomerStatus, string> = {
  active: 'Active',
  inactive: 'Inactive',
};

export const CUSTOMER_TYPE_OPTIONS = CUSTOMER_TYPES.map((value) => ({
  value,
  label: CUSTOMER_TYPE_LABELS[value],
}));
export const CUSTOMER_STATUS_OPTIONS = CUSTOMER_STATUSES.map((value) => ({
  value,
  label: CUSTOMER_STATUS_LABELS[value],
}));
