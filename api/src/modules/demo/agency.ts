import { addDays, fromCents } from '@coverdesk/contract';
import { eq, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Transaction } from '../../db/client.js';
import { Random } from '../../seeded-random.js';
import { seedDemoAlerts } from '../alerts/demo.js';
import { seedDemoMeetings } from '../calendar/demo.js';
import { clearDemoClaims, seedDemoClaims } from '../claims/demo.js';
import { seedDemoStatement } from '../commission-statements/demo.js';
import { companies, companyPolicyTypes } from '../companies/tables.js';
import { customers } from '../customers/tables.js';
import { seedDemoDocuments } from '../documents/demo.js';
import type { FileStore } from '../documents/storage.js';
import { seedDemoLeads } from '../leads/demo.js';
import { seedDemoNotifications } from '../notifications/demo.js';
import { installments, policies } from '../policies/tables.js';
import { policyTypes } from '../policy-types/tables.js';
import { sampleInstalments, sampleTerms } from './sample-book.js';
import { sampleCustomers } from './sample-customers.js';
import {
  BUSINESSES,
  EMAIL_DOMAINS,
  FIRST_NAMES,
  INSURERS,
  LAST_NAMES,
  TYPES,
  type TypeKey,
} from './sample-data.js';

// The sample agency behind "Try the demo": a few hundred policies around one broker's book, every
// date relative to the day it is seeded, so the demo always has renewals coming up, instalments
// just paid and a few overdue. The same day always gives the same agency (a seeded generator);
// only the row ids, which must be UUIDv7, differ. Its catalogue and name lists are in sample-data.ts,
// its customers in sample-customers.ts, its policies and instalments in sample-book.ts; each other
// module seeds its own part.

/** Rows per INSERT: a few thousand parameters, far below PostgreSQL's 65,535. */
const BATCH = 500;

/** The calendar day of a moment on this server's clock, like the daily reset. */
const localDay = (moment: Date) =>
  `${moment.getFullYear()}-${String(moment.getMonth() + 1).padStart(2, '0')}-${String(moment.getDate()).padStart(2, '0')}`;

/**
 * Replaces the agency's book with the sample one, relative to `today`. Runs in the caller's tenant
 * transaction, so a reset is all or nothing and visitors never see half an agency; its documents'
 * bytes go into `files`.
 */
export async function seedDemoAgency(
  tx: Transaction,
  tenantId: string,
  today: Date,
  files: FileStore,
): Promise<void> {
  const day = localDay(today);
  const random = new Random(`coverdesk-demo-${day}`);
  const moment = (iso: string) => {
    // Business hours on the day, never later than now.
    const at = new Date(
      `${iso}T${String(random.int(8, 17)).padStart(2, '0')}:${String(random.int(0, 59)).padStart(2, '0')}:00Z`,
    );
    return at > today ? new Date(today.getTime() - random.int(1, 120) * 60_000) : at;
  };

  // Children before parents; instalments would go with their policies, but saying so costs nothing.
  // Claims would not: a policy with claims cannot be deleted.
  await clearDemoClaims(tx, tenantId);
  await tx.delete(installments).where(eq(installments.tenantId, tenantId));
  await tx.delete(policies).where(eq(policies.tenantId, tenantId));
  await tx.delete(customers).where(eq(customers.tenantId, tenantId));
  await tx.delete(companyPolicyTypes).where(eq(companyPolicyTypes.tenantId, tenantId));
  await tx.delete(companies).where(eq(companies.tenantId, tenantId));
  await tx.delete(policyTypes).where(eq(policyTypes.tenantId, tenantId));

  // Catalogue: types and insurers with their rates.
  const typeIds = Object.fromEntries(Object.keys(TYPES).map((key) => [key, uuidv7()])) as Record<
    TypeKey,
    string
  >;
  await tx.insert(policyTypes).values(
    (Object.keys(TYPES) as TypeKey[]).map((key) => ({
      id: typeIds[key],
      tenantId,
      name: TYPES[key].name,
      category: TYPES[key].category,
      description: TYPES[key].description,
    })),
  );
  const companyIds = new Map(INSURERS.map((insurer) => [insurer, uuidv7()]));
  await tx.insert(companies).values(
    INSURERS.map((insurer) => ({
      id: companyIds.get(insurer),
      tenantId,
      name: insurer.name,
      contactPerson: insurer.contact,
      email: `brokers@${insurer.domain}`,
      phone: insurer.phone,
      website: `https://www.${insurer.domain}`,
      address: insurer.address,
      notes:
        insurer.method === 'pro_rata'
          ? 'Pays commission as premiums come in.'
          : 'Pays commission once the policy is paid in full.',
      commissionPaymentMethod: insurer.method,
    })),
  );
  await tx.insert(companyPolicyTypes).values(
    INSURERS.flatMap((insurer) =>
      (Object.entries(insurer.sells) as [TypeKey, { rate: string; customName?: string }][]).map(
        ([key, offer]) => ({
          tenantId,
          companyId: companyIds.get(insurer) as string,
          policyTypeId: typeIds[key],
          customName: offer.customName ?? '',
          commissionPercentage: offer.rate,
        }),
      ),
    ),
  );
  const { people, customerRows } = sampleCustomers(random, tenantId, day, today);
  const terms = sampleTerms(random, day, people, companyIds);
  const installmentRows = sampleInstalments(random, tenantId, day, today, terms, moment);

  // Customers were added shortly before their first policy; those with nothing in force went quiet.
  const firstPolicyOn = new Map<string, string>();
  const live = new Set<string>();
  for (const term of terms) {
    const seen = firstPolicyOn.get(term.customer.id);
    if (!seen || term.createdOn < seen) firstPolicyOn.set(term.customer.id, term.createdOn);
    if (!term.cancelledAt && !term.renewedToId && term.end >= day) live.add(term.customer.id);
  }
  for (const row of customerRows) {
    const first = firstPolicyOn.get(row.id);
    const created = moment(first ? addDays(first, -random.int(0, 14)) : addDays(day, -random.int(2, 60)));
    row.createdAt = created;
    row.updatedAt = created;
    if (first && !live.has(row.id) && random.chance(0.5)) row.status = 'inactive';
    if (!first) row.tags = [...new Set([...row.tags, 'prospect'])];
  }

  const policyRows = terms.map((term) => {
    const createdAt = moment(term.createdOn);
    return {
      id: term.id,
      tenantId,
      policyNumber: term.number,
      customerId: term.customer.id,
      companyId: term.companyId,
      policyTypeId: typeIds[term.typeKey],
      startDate: term.start,
      endDate: term.end,
      totalPremium: fromCents(BigInt(term.totalCents)),
      netPremium: fromCents(BigInt(term.netCents)),
      commissionPercentage: term.rate,
      paymentFrequency: term.frequency,
      customInstallments: term.customInstallments,
      insuredItem: term.insuredItem,
      sumInsured: term.sumInsured === null ? null : `${term.sumInsured}.00`,
      deductible: term.deductible === null ? null : `${term.deductible}.00`,
      cancelledAt: term.cancelledAt,
      cancellationReason: term.cancellationReason,
      renewedToId: term.renewedToId,
      createdAt,
      updatedAt: term.cancelledAt ? moment(term.cancelledAt) : createdAt,
    };
  });

  for (let i = 0; i < customerRows.length; i += BATCH) {
    await tx.insert(customers).values(customerRows.slice(i, i + BATCH));
  }
  // Terms precede their renewals in the list; written from the end, a term's link to its renewal
  // never points at a later batch.
  const renewalsFirst = [...policyRows].reverse();
  for (let i = 0; i < renewalsFirst.length; i += BATCH) {
    await tx.insert(policies).values(renewalsFirst.slice(i, i + BATCH));
  }
  for (let i = 0; i < installmentRows.length; i += BATCH) {
    await tx.insert(installments).values(installmentRows.slice(i, i + BATCH));
  }
  // The policies' copies of their instalment totals, summed by the database to the cent.
  await tx.execute(sql`
    update policies
    set amount_paid = totals.amount_paid,
      installments_paid = totals.installments_paid,
      total_installments = totals.total_installments
    from (
      select policy_id,
        sum(amount_paid) as amount_paid,
        count(*) filter (where status = 'paid') as installments_paid,
        count(*) as total_installments
      from installments
      where tenant_id = ${tenantId}
      group by policy_id
    ) totals
    where policies.tenant_id = ${tenantId} and policies.id = totals.policy_id
  `);

  // Each module seeds its own part; the claims were cleared with the policies above.
  await seedDemoClaims(tx, tenantId, {
    day,
    random: new Random(`coverdesk-demo-claims-${day}`),
    policies: terms.map((term) => ({
      id: term.id,
      kind: term.typeKey,
      start: term.start,
      end: term.end,
      cancelledAt: term.cancelledAt,
      insurerDomain: term.insurer.domain,
    })),
    moment,
  });
  await seedDemoLeads(tx, {
    tenantId,
    today,
    day,
    typeIds: Object.values(typeIds),
    random: new Random(`coverdesk-demo-leads-${day}`),
    names: {
      firstNames: FIRST_NAMES,
      lastNames: LAST_NAMES,
      businesses: BUSINESSES,
      emailDomains: EMAIL_DOMAINS,
    },
  });
  await seedDemoAlerts(tx, { tenantId });
  await seedDemoMeetings(tx, { tenantId, day, random: new Random(`coverdesk-demo-meetings-${day}`) });
  await seedDemoNotifications(tx, { tenantId, day, now: today });
  await seedDemoStatement(tx, tenantId, day);
  await seedDemoDocuments(tx, files, { tenantId, moment });
}
