import { type CustomerValues, customerBody, type Lead } from '@coverdesk/contract';
import type { Transaction } from '../../db/client.js';
import { conflict, fieldError, HttpError, notFound, parseWith } from '../../http/errors.js';
import { assertBelowLimit } from '../billing/usage.js';
import { createCustomer, findCustomer } from '../customers/queries.js';
import { findLead, findLeadOfCustomer } from './queries.js';
import { markConverted } from './writes.js';

/** What a lead carries over to the customer it becomes. */
function customerFrom(lead: Lead): CustomerValues {
  if (!lead.first_name || !lead.last_name) {
    throw new HttpError(422, {
      detail: `Add the first and last name of the person to speak to at ${lead.display_name} before converting: every customer has a contact name.`,
    });
  }
  return parseWith(customerBody, {
    customer_type: lead.business_name ? 'business' : 'individual',
    first_name: lead.first_name,
    last_name: lead.last_name,
    business_name: lead.business_name,
    email: lead.email,
    phone: lead.phone,
    preferred_contact: lead.email || !lead.phone ? 'email' : 'phone',
    notes: lead.notes,
  });
}

/**
 * Turns a lead into a customer, once: the customer gets the lead's name, business, email, phone and
 * notes, the lead is linked to it and marked won. With `customerId`, the lead is linked to that
 * existing customer of the agency instead (the same person, found among its matches): nothing is
 * created and the plan's customer limit is not touched, but a customer that already came from
 * another lead is refused, as a customer is linked to one lead at most. A lead already linked to a
 * customer keeps it (and is marked won again if it was moved since), so converting twice never
 * makes two customers. The lead row is locked first, and the customer to link to as well, so two
 * conversions at once run one after the other.
 */
export async function convertLead(tx: Transaction, tenantId: string, leadId: string, customerId?: string) {
  const lead = await findLead(tx, tenantId, leadId, { lock: true });
  if (!lead) throw notFound('Lead not found.');
  const linked = lead.customer_id ? await findCustomer(tx, tenantId, lead.customer_id) : undefined;
  if (linked) {
    if (customerId && customerId !== linked.id) {
      throw conflict({
        detail: `${lead.display_name} was already converted into the customer ${linked.display_name}.`,
      });
    }
    if (lead.status !== 'won') await markConverted(tx, tenantId, leadId, linked.id);
    return { created: false, customer: linked };
  }
  if (customerId) {
    const customer = await findCustomer(tx, tenantId, customerId, { lock: true });
    if (!customer) throw fieldError('customer_id', 'Choose one of your customers.');
    const other = await findLeadOfCustomer(tx, tenantId, customer.id);
    if (other) {
      throw conflict({
        detail: `${customer.display_name} already came from the lead ${other.displayName}: a customer is linked to one lead only. Create a new customer instead, or open that lead.`,
      });
    }
    await markConverted(tx, tenantId, leadId, customer.id);
    return { created: false, customer };
  }
  const values = customerFrom(lead);
  await assertBelowLimit(tx, tenantId, 'customers');
  const created = await createCustomer(tx, tenantId, values);
  await markConverted(tx, tenantId, leadId, created);
  const customer = await findCustomer(tx, tenantId, created);
  if (!customer) throw new Error('the customer just created is missing');
  return { created: true, customer };
}
