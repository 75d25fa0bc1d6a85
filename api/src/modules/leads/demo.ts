import {
  addDays,
  LEAD_SOURCES,
  type LeadSource,
  type LeadStatus,
  LOGGED_LEAD_ACTIVITY_TYPES,
} from '@coverdesk/contract';
import { eq, sql } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import type { Random } from '../../seeded-random.js';
import { agencyUsers } from '../tenants/tables.js';
import { convertLead } from './convert.js';
import { actAs } from './queries.js';
import { leadActivities, leads } from './tables.js';

/** The way each demo lead went, one status after another; the last is where it stands today. */
const PATHS: LeadStatus[][] = [
  ...Array.from({ length: 7 }, () => ['new'] as LeadStatus[]),
  ...Array.from({ length: 6 }, () => ['new', 'contacted'] as LeadStatus[]),
  ...Array.from({ length: 5 }, () => ['new', 'contacted', 'qualified'] as LeadStatus[]),
  ...Array.from({ length: 5 }, () => ['new', 'contacted', 'qualified', 'quoted'] as LeadStatus[]),
  ...Array.from({ length: 4 }, () => ['new', 'contacted', 'qualified', 'quoted', 'won'] as LeadStatus[]),
  ['new', 'contacted', 'lost'],
  ['new', 'contacted', 'qualified', 'quoted', 'lost'],
  ['new', 'lost'],
];
/** Of the won leads, this many have already been converted into customers. */
const CONVERTED = 2;

const LOST_REASONS = ['Went with their bank’s insurer', 'Price too high', 'Decided to wait a year'];
const SUMMARIES: Record<(typeof LOGGED_LEAD_ACTIVITY_TYPES)[number], string[]> = {
  call: [
    'Called back; they want cover from next month.',
    'Left a voicemail, will try again.',
    'Talked through the options and the excess.',
  ],
  email: [
    'Sent the brochure and our terms.',
    'Emailed the quote with two options.',
    'Asked for the current schedule.',
  ],
  meeting: ['Met at the office to go through their needs.', 'Visited the premises to see the risk.'],
  note: ['Prefers to be called in the evening.', 'Renewal with the current insurer is in six weeks.'],
};

/**
 * The demo agency's pipeline: about thirty leads in every status with their timelines, follow-ups
 * overdue, due today, this week and later, and two won leads converted into customers by the same
 * rules as the Convert button. Statuses are moved one step at a time, so the status trigger writes
 * the timeline, dated through `app.activity_at`. Deterministic for a day, like the rest of the demo.
 */
/** The demo's seeded generator, as the leads draw from it. */
/** The demo's name lists the leads' people and businesses are drawn from. */
export interface DemoLeadNames {
  firstNames: readonly string[];
  lastNames: readonly string[];
  businesses: readonly string[];
  emailDomains: readonly string[];
}

export async function seedDemoLeads(
  tx: Transaction,
  {
    tenantId,
    today,
    day,
    typeIds,
    random,
    names,
  }: { tenantId: string; today: Date; day: string; typeIds: string[]; random: Random; names: DemoLeadNames },
): Promise<void> {
  await tx.delete(leads).where(eq(leads.tenantId, tenantId));
  const [user] = await tx.select({ id: agencyUsers.id }).from(agencyUsers).limit(1);
  if (user) await actAs(tx, user.id);
  const at = (moment: Date) =>
    tx.execute(sql`select set_config('app.activity_at', ${moment.toISOString()}, true)`);
  /** A moment `days` from today in business hours, never later than now. */
  const moment = (days: number) => {
    const value = new Date(
      `${addDays(day, days)}T${String(random.int(8, 17)).padStart(2, '0')}:${String(random.int(0, 59)).padStart(2, '0')}:00Z`,
    );
    return value > today ? new Date(today.getTime() - random.int(5, 90) * 60_000) : value;
  };
  const followUp = (slot: number): Date | null => {
    const time = `${String(9 + (slot % 8)).padStart(2, '0')}:${slot % 2 ? '30' : '00'}:00Z`;
    // Overdue, due today, this week, later, or none, in turn.
    switch (slot % 5) {
      case 0:
        return new Date(`${addDays(day, -random.int(1, 6))}T${time}`);
      case 1:
        return new Date(`${day}T${time}`);
      case 2:
        return new Date(`${addDays(day, random.int(1, 5))}T${time}`);
      case 3:
        return new Date(`${addDays(day, random.int(8, 30))}T${time}`);
      default:
        return null;
    }
  };

  const won: string[] = [];
  for (const [index, path] of PATHS.entries()) {
    const business = index % 6 === 5;
    const firstName = random.pick(names.firstNames);
    const lastName = random.pick(names.lastNames);
    const businessName = business ? random.pick(names.businesses) : '';
    const local = `${firstName}.${lastName}`.toLowerCase().replace(/[^a-z.]+/g, '');
    const final = path[path.length - 1] as LeadStatus;
    const open = final !== 'won' && final !== 'lost';
    const source: LeadSource = random.pick(LEAD_SOURCES);
    // Older leads went further down the pipeline.
    let daysAgo = random.int(3 + path.length * 6, 12 + path.length * 12);
    const created = moment(-daysAgo);
    await at(created);
    const [row] = await tx
      .insert(leads)
      .values({
        tenantId,
        firstName,
        lastName,
        businessName,
        email: random.chance(0.85) ? `${local}@${random.pick(names.emailDomains)}` : '',
        // 555-0200 to 555-0299: fictional, and apart from the customers' numbers.
        phone: `(555) 555-02${String(index).padStart(2, '0')}`,
        source,
        policyTypeId: random.chance(0.9) ? random.pick(typeIds) : null,
        estimatedPremium: random.chance(0.85) ? `${random.int(4, 60) * 50}.00` : null,
        nextFollowUpAt: open ? followUp(index) : null,
        assignedUserId: user && random.chance(0.8) ? user.id : null,
        notes: source === 'referral' ? 'Referred by an existing customer.' : '',
        createdAt: created,
        updatedAt: created,
      })
      .returning({ id: leads.id });
    if (!row) continue;
    const activities = [];
    for (const status of path.slice(1)) {
      daysAgo = Math.max(0, daysAgo - random.int(2, 6));
      const type = random.pick(LOGGED_LEAD_ACTIVITY_TYPES);
      activities.push({
        tenantId,
        leadId: row.id,
        userId: user?.id ?? null,
        activityType: type,
        summary: random.pick(SUMMARIES[type]),
        occurredAt: moment(-daysAgo),
      });
      await at(moment(-daysAgo));
      await tx
        .update(leads)
        .set({ status, lostReason: status === 'lost' ? random.pick(LOST_REASONS) : '' })
        .where(eq(leads.id, row.id));
    }
    if (activities.length > 0) await tx.insert(leadActivities).values(activities);
    if (final === 'won') won.push(row.id);
  }
  for (const leadId of won.slice(0, CONVERTED)) await convertLead(tx, tenantId, leadId);
  await tx.execute(sql`select set_config('app.activity_at', '', true), set_config('app.user_id', '', true)`);
}
