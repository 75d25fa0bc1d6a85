import { addDays, type ClaimStatus, type ClaimType, fromCents } from '@coverdesk/contract';
import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Transaction } from '../../db/client.js';
import type { Random } from '../../seeded-random.js';
import { claimEvents, claims } from './tables.js';

/** What the demo's claims need to know of a policy the agency seeded. */
export interface DemoPolicy {
  id: string;
  /** The demo's type key: motor, home, life, health, business or travel. */
  kind: string;
  start: string;
  end: string;
  cancelledAt: string | null;
  insurerDomain: string;
}

/**
 * Removes the demo agency's claims (their timelines go with them) before its book is rebuilt: a policy
 * with claims cannot be deleted.
 */
export async function clearDemoClaims(tx: Transaction, tenantId: string) {
  await tx.delete(claims).where(eq(claims.tenantId, tenantId));
}

/** The demo agency's broker, who writes the timelines. */
const BROKER = 'Dana Demo';

const TYPES_BY_KIND: Record<string, ClaimType[]> = {
  motor: ['accident', 'accident', 'theft', 'liability'],
  home: ['water_damage', 'water_damage', 'fire', 'theft'],
  life: ['other'],
  health: ['medical'],
  business: ['liability', 'fire', 'water_damage'],
  travel: ['travel', 'medical'],
};

const STORIES: Record<ClaimType, { description: string; location: string[] }> = {
  accident: {
    description: 'Rear-ended at a traffic light; bumper and boot lid damaged, no injuries.',
    location: ['Main St & 5th Ave', 'Highway 101, exit 12', 'Supermarket car park'],
  },
  theft: {
    description: 'Broken into overnight; the police report number is on file.',
    location: ['Outside the customer’s home', 'Station car park'],
  },
  fire: {
    description: 'Kitchen fire; smoke damage to the ground floor.',
    location: ['Insured premises'],
  },
  water_damage: {
    description: 'A burst pipe flooded the kitchen and the hallway below.',
    location: ['Insured premises', 'Upstairs bathroom'],
  },
  liability: {
    description: 'A third party claims for damage caused by the insured.',
    location: ['Customer site', 'Shop floor'],
  },
  medical: {
    description: 'Hospital admission and outpatient treatment.',
    location: ['City General Hospital', 'Riverside Clinic'],
  },
  travel: {
    description: 'Luggage lost on the return flight; receipts for replacements attached.',
    location: ['Lisbon airport', 'Rome Fiumicino'],
  },
  other: {
    description: 'Claim under the policy; documents requested from the family.',
    location: [''],
  },
};

const ADJUSTERS = ['Rina Azulay', 'Tom Becker', 'Maya Okafor', 'Luis Ortega', 'Hannah Reid'];

/** The road to each status the demo shows, every claim starting open; three in each of the first. */
const ROADS: ClaimStatus[][] = [
  [],
  [],
  [],
  ['in_review'],
  ['in_review'],
  ['in_review'],
  ['in_review', 'approved'],
  ['in_review', 'approved'],
  ['in_review', 'rejected'],
  ['rejected'],
  ['in_review', 'approved', 'paid'],
  ['in_review', 'approved', 'paid'],
  ['in_review', 'approved', 'paid', 'closed'],
  ['in_review', 'rejected', 'closed'],
  ['closed'],
];

const NOTES: Partial<Record<ClaimStatus, string[]>> = {
  in_review: ['Sent to the insurer with photos and the repair estimate.', 'Forms and receipts forwarded.'],
  approved: ['Approved after the adjuster’s visit.', 'Insurer confirmed cover by email.'],
  rejected: ['Excluded under the policy wording; customer informed.', 'Damage predates the policy.'],
  paid: ['Insurer paid by bank transfer.', 'Payment received; customer thanked us.'],
  closed: ['Settled; file closed.', 'Customer withdrew the claim.'],
};

/**
 * About fifteen claims in every status on the demo's current policies, each with a timeline from its
 * report to today. Runs after the policies are written, in the demo's reset transaction; `random` is
 * the reset's own, so the same day gives the same claims.
 */
/** The demo's seeded generator, as the claims draw from it. */
export async function seedDemoClaims(
  tx: Transaction,
  tenantId: string,
  {
    day,
    random,
    policies,
    moment,
  }: {
    day: string;
    random: Random;
    policies: DemoPolicy[];
    moment: (isoDay: string) => Date;
  },
): Promise<void> {
  // Policies in force for at least the last four months, so every incident falls in its term.
  const eligible = policies.filter(
    (policy) => !policy.cancelledAt && policy.start <= addDays(day, -120) && policy.end >= day,
  );
  const claimRows: (typeof claims.$inferInsert)[] = [];
  const eventRows: (typeof claimEvents.$inferInsert)[] = [];
  for (const road of ROADS) {
    const policy = eligible.splice(random.int(0, eligible.length - 1), 1)[0];
    if (!policy) break;
    const type: ClaimType = random.pick(TYPES_BY_KIND[policy.kind] ?? ['other']);
    const story = STORIES[type];
    // Settled claims are older than those still open.
    const age = road.length === 0 ? random.int(2, 12) : random.int(8 * road.length, 25 * road.length + 10);
    const incident = addDays(day, -age);
    const reported = addDays(incident, random.int(0, Math.min(3, age)));
    const claimedCents = random.int(40, 1800) * 1000 + random.int(0, 99) * 10;
    const approvedCents = Math.round((claimedCents * random.int(70, 100)) / 100);
    const reached = (status: ClaimStatus) => road.includes(status);
    const id = uuidv7();
    const status = road.at(-1) ?? 'open';
    // The moves spread between the report and today.
    const span = Math.max(1, Math.round((Date.parse(day) - Date.parse(reported)) / 86_400_000));
    const stepDays = road.map((_, index) => Math.round(((index + 1) * span) / (road.length + 1)));
    const adjuster = reached('in_review') || reached('rejected') ? random.pick(ADJUSTERS) : '';
    claimRows.push({
      id,
      tenantId,
      policyId: policy.id,
      claimNumber: '', // numbered below, once every claim's reported date is known
      insurerReference: reached('in_review')
        ? `${policy.insurerDomain.slice(0, 3).toUpperCase()}-${random.int(10000, 99999)}`
        : '',
      incidentDate: incident,
      reportedDate: reported,
      claimType: type,
      description: story.description,
      location: random.pick(story.location),
      status,
      amountClaimed: fromCents(BigInt(claimedCents)),
      amountApproved: reached('approved') ? fromCents(BigInt(approvedCents)) : null,
      amountPaid: reached('paid') ? fromCents(BigInt(approvedCents)) : '0.00',
      adjusterName: adjuster,
      adjusterPhone: adjuster ? `+1 555 01${random.int(10, 99)}` : '',
      adjusterEmail: adjuster ? `${adjuster.split(' ')[0]?.toLowerCase()}@${policy.insurerDomain}` : '',
      closedOn: status === 'closed' ? addDays(reported, stepDays.at(-1) ?? 0) : null,
      createdAt: moment(reported),
      updatedAt: moment(addDays(reported, stepDays.at(-1) ?? 0)),
    });
    // Each entry at least a few minutes after the one before, even when both fall on one day.
    let last = 0;
    const event = (on: string, values: Omit<typeof claimEvents.$inferInsert, 'tenantId' | 'claimId'>) => {
      last = Math.max(moment(on).getTime(), last + 7 * 60_000);
      eventRows.push({
        id: uuidv7(),
        tenantId,
        claimId: id,
        authorName: BROKER,
        createdAt: new Date(last),
        ...values,
      });
    };
    event(reported, { kind: 'created', toStatus: 'open' });
    if (random.chance(0.5)) {
      event(reported, { kind: 'note', note: 'Called the customer to collect photos and the police report.' });
    }
    let from: ClaimStatus = 'open';
    road.forEach((to, index) => {
      const note = random.chance(0.8) ? random.pick(NOTES[to] ?? ['']) : '';
      event(addDays(reported, stepDays[index] ?? 0), {
        kind: 'status',
        fromStatus: from,
        toStatus: to,
        note,
      });
      from = to;
    });
  }
  if (claimRows.length === 0) return;
  // Numbered as the API numbers them: in the order reported, from 0001 in each reported year.
  const serials = new Map<string, number>();
  for (const row of claimRows.toSorted((a, b) =>
    (a.reportedDate ?? '').localeCompare(b.reportedDate ?? ''),
  )) {
    const year = (row.reportedDate ?? day).slice(0, 4);
    const serial = (serials.get(year) ?? 0) + 1;
    serials.set(year, serial);
    row.claimNumber = `CLM-${year}-${String(serial).padStart(4, '0')}`;
  }
  await tx.insert(claims).values(claimRows);
  await tx.insert(claimEvents).values(eventRows);
}
