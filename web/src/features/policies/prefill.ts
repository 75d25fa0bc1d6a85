import { moneyInput, uuid } from '@coverdesk/contract';

/** What the new-policy form can be opened with: `/policies/create?customer_id=…&policy_type_id=…&total_premium=…`. */
export interface PolicyPrefill {
  customer_id: string;
  policy_type_id: string;
  total_premium: string;
}

/**
 * Reads what a link (a customer's page, a converted lead) fills in on a new policy. A value that is
 * not an id or an amount is ignored rather than shown as a mistake the broker did not make.
 */
export function policyPrefill(params: URLSearchParams): PolicyPrefill {
  const id = (name: string) => {
    const parsed = uuid.safeParse(params.get(name) ?? '');
    return parsed.success ? parsed.data : '';
  };
  const premium = moneyInput.safeParse(params.get('total_premium') ?? '');
  return {
    customer_id: id('customer_id'),
    policy_type_id: id('policy_type_id'),
    total_premium: premium.success ? premium.data : '',
  };
}
