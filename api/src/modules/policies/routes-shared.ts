// What every policy route shares: the plan gate's module, the API docs' tag and error answers, and
// the checks that find a policy and resolve a policy's values.
import {
  detailResponse,
  fieldErrorsResponse,
  type PolicyValues,
  scheduleProblems,
  uuid,
} from '@coverdesk/contract';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Transaction } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import { requireRole, signedInUser } from '../../http/authenticate.js';
import { fieldError, HttpError, notFound } from '../../http/errors.js';
import { findParties, findPolicy, findPolicyForChange } from './queries.js';
import { type PolicyInput, policyInput } from './writes.js';

export const idParams = z.object({ id: uuid });
export const tags = ['policies'];
export const errors = {
  400: fieldErrorsResponse,
  402: detailResponse,
  403: detailResponse,
  404: detailResponse,
};
export const MODULE = 'module_policies';
export const NOT_FOUND = 'Policy not found.';
const NUMBER_TAKEN = 'This insurer already has a policy with this number starting on this date.';

export async function requirePolicy(tx: Transaction, tenantId: string, id: string) {
  const found = await findPolicy(tx, tenantId, id);
  if (!found) throw notFound(NOT_FOUND);
  return found;
}

export async function requirePolicyForChange(tx: Transaction, tenantId: string, id: string) {
  const found = await findPolicyForChange(tx, tenantId, id);
  if (!found) throw notFound(NOT_FOUND);
  return found;
}

/**
 * The customer, insurer and type must be the agency's own and the insurer must sell the type; the
 * foreign keys would refuse another agency's rows too, but only as a server error. Fills in the
 * insurer's rate for the type and the net premium when the broker left them out. A policy being
 * edited keeps its insurer and type even when the insurer has stopped selling that type since.
 */
export async function resolveInput(
  tx: Transaction,
  tenantId: string,
  values: PolicyValues,
  stored?: { companyId: string; policyTypeId: string; commissionPercentage: string },
): Promise<PolicyInput> {
  // The body's rules say the same; checked again on the one path to every schedule the API builds,
  // so that no change to those rules lets a request make the server write thousands of instalments.
  const problems = scheduleProblems(
    values.start_date,
    values.end_date,
    values.payment_frequency,
    values.custom_installments,
  );
  if (problems.length > 0) {
    throw new HttpError(400, Object.fromEntries(problems.map(({ field, message }) => [field, [message]])));
  }
  const { customerExists, company, policyType } = await findParties(tx, tenantId, values);
  const keepsCover =
    stored?.companyId === values.company_id && stored?.policyTypeId === values.policy_type_id;
  const rate = company?.rate ?? (keepsCover ? stored?.commissionPercentage : undefined);
  if (!customerExists || !company || !policyType || rate === undefined) {
    const messages: Record<string, string[]> = {};
    if (!customerExists) messages.customer_id = ['No customer with this id.'];
    if (!company) messages.company_id = ['No insurer with this id.'];
    if (!policyType) messages.policy_type_id = ['No policy type with this id.'];
    else if (company && rate === undefined) {
      messages.policy_type_id = [`${company.name} does not sell ${policyType.name}.`];
    }
    throw new HttpError(400, messages);
  }
  return policyInput(values, rate);
}

/**
 * A policy's producer's share overrides the member's default share, which is the team's business
 * (`team`, as a member's own share is): a body that names it from another role answers 403, even
 * when the rest of the change is the member's to make.
 */
export function assertMaySetProducerShare(
  request: FastifyRequest,
  values: Pick<PolicyValues, 'producer_split_percentage'>,
): void {
  if (values.producer_split_percentage !== undefined) requireRole(signedInUser(request), 'team');
}

/** A duplicate number is the broker's mistake to fix, not a server error. */
export const numberTaken = (error: unknown): never => {
  if (isUniqueViolation(error, 'policies_number_key')) throw fieldError('policy_number', NUMBER_TAKEN);
  throw error;
};
