import { addDays, OPEN_LEAD_STATUSES } from '@coverdesk/contract';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import type { Random } from '../../seeded-random.js';
import { customers } from '../customers/tables.js';
import { leads } from '../leads/tables.js';
import { agencyUsers } from '../tenants/tables.js';
import { meetings } from './tables.js';

/** The demo broker's fortnight: what each meeting is, and with whom (a customer or a lead). */
const PLAN: { title: string; with: 'customer' | 'lead'; online?: boolean; allDay?: boolean }[] = [
  { title: 'Renewal review', with: 'customer' },
  { title: 'Quote walkthrough', with: 'lead', online: true },
  { title: 'Claim follow-up call', with: 'customer', online: true },
  { title: 'First meeting', with: 'lead' },
  { title: 'Fleet cover review', with: 'customer' },
  { title: 'Home insurance options', with: 'lead', online: true },
  { title: 'Insurer roadshow', with: 'customer', allDay: true },
  { title: 'Annual policy check-up', with: 'customer' },
  { title: 'Signing the new policy', with: 'lead' },
];

const OFFICE = '12 Harbour Street, Suite 4';

/**
 * A handful of meetings over the two weeks from the demo's today, on working days in business
 * hours of the agency's time zone (the transaction's), with its customers and open leads. Runs
 * after customers and leads are seeded; deterministic for a day, like the rest of the demo.
 */
/** The demo's seeded generator, as the meetings draw from it. */
export async function seedDemoMeetings(
  tx: Transaction,
  { tenantId, day, random }: { tenantId: string; day: string; random: Random },
): Promise<void> {
  await tx.delete(meetings).where(eq(meetings.tenantId, tenantId));
  const [owner] = await tx.select({ id: agencyUsers.id }).from(agencyUsers).limit(1);
  const people = {
    customer: await tx
      .select({ id: customers.id, name: customers.displayName })
      .from(customers)
      .where(eq(customers.tenantId, tenantId))
      .orderBy(asc(customers.id))
      .limit(20),
    lead: await tx
      .select({ id: leads.id, name: leads.displayName })
      .from(leads)
      .where(and(eq(leads.tenantId, tenantId), inArray(leads.status, [...OPEN_LEAD_STATUSES])))
      .orderBy(asc(leads.id))
      .limit(20),
  };
  const rows = PLAN.flatMap((meeting, index) => {
    const person = people[meeting.with].length > 0 ? random.pick(people[meeting.with]) : undefined;
    // Today, then about every working day and a half; weekends skipped.
    let date = addDays(day, Math.floor(index * 1.5));
    while ([0, 6].includes(new Date(`${date}T00:00:00Z`).getUTCDay())) date = addDays(date, 1);
    const hour = random.int(9, 16);
    const minutes = random.pick([0, 30]);
    const at = (hours: number, offset = 0) =>
      sql`(${date}::date + make_interval(hours => ${hours}, mins => ${minutes + offset}))::timestamptz`;
    return {
      tenantId,
      ownerId: owner?.id ?? null,
      title: person ? `${meeting.title} with ${person.name}` : meeting.title,
      allDay: meeting.allDay ?? false,
      startsAt: meeting.allDay ? null : at(hour),
      endsAt: meeting.allDay ? null : at(hour, random.pick([30, 45, 60])),
      startDate: meeting.allDay ? date : null,
      endDate: meeting.allDay ? date : null,
      customerId: meeting.with === 'customer' ? (person?.id ?? null) : null,
      leadId: meeting.with === 'lead' ? (person?.id ?? null) : null,
      location: meeting.online ? '' : OFFICE,
      videoUrl: meeting.online ? `https://meet.example.com/coverdesk-${index + 1}` : '',
      notes: meeting.with === 'lead' ? 'Bring the comparison of the two quotes.' : '',
      reminderMinutes: meeting.allDay ? null : random.pick([15, 30, 60]),
    };
  });
  await tx.insert(meetings).values(rows);
}
