import {
  CUSTOMER_STATUS_LABELS,
  CUSTOMER_STATUSES,
  CUSTOMER_TYPE_LABELS,
  CUSTOMER_TYPES,
} from '@coverdesk/contract';

export const CUSTOMER_TYPE_OPTIONS = CUSTOMER_TYPES.map((value) => ({
  value,
  label: CUSTOMER_TYPE_LABELS[value],
}));
export const CUSTOMER_STATUS_OPTIONS = CUSTOMER_STATUSES.map((value) => ({
  value,
  label: CUSTOMER_STATUS_LABELS[value],
}));
