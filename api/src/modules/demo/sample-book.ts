import {
  addDays,
  addMonths,
  buildSchedule,
  fromCents,
  type InstallmentStatus,
  type PaymentFrequency,
  type PaymentMethod,
  renewalTerm,
  termEnd,
  toCents,
} from '@coverdesk/contract';
import { v7 as uuidv7 } from 'uuid';
import type { Random } from '../../seeded-random.js';
import type { installments } from '../policies/tables.js';
import type { Person } from './sample-customers.js';
import { CUSTOMER_COUNT, PROSPECTS } from './sample-customers.js';
import {
  CANCELLATION_REASONS,
  CARS,
  INSURERS,
  type InsurerTemplate,
  TYPES,
  type TypeKey,
} from './sample-data.js';

/** Roughly how many policies the agency holds: well inside Professional's 500. */
const POLICY_TARGET = 300;

const DAY_MS = 86_400_000;
const daysFrom = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);
const minDate = (a: string, b: string) => (a < b ? a : b);

export interface Term {
  id: string;
  customer: Person;
  insurer: InsurerTemplate;
  companyId: string;
  typeKey: TypeKey;
  number: string;
  start: string;
  end: string;
  /** Whole cents, integers well inside a double's exact range. */
  totalCents: number;
  netCents: number;
  rate: string;
  frequency: PaymentFrequency;
  customInstallments: number | null;
  insuredItem: string;
  sumInsured: number | null;
  deductible: number | null;
  /** The term that renews this one. */
  renewedToId: string | null;
  cancelledAt: string | null;
  cancellationReason: string;
  createdOn: string;
}

/** The agency's policies, as chains of yearly terms: each renewal starts the day after the term it renews. */
export function sampleTerms(
  random: Random,
  day: string,
  people: Person[],
  companyIds: Map<InsurerTemplate, string>,
): Term[] {
  const terms: Term[] = [];
  const numbers = new Map<InsurerTemplate, number>();
  const sellersOf = (key: TypeKey) => INSURERS.filter((insurer) => insurer.sells[key]);
  const moneyIn = ([min, max]: [number, number]) => random.int(min * 100, max * 100);

  const firstTerm = (customer: Person, start: string, months = 12): Term => {
    const typeKey: TypeKey = customer.business
      ? random.chance(0.7)
        ? 'business'
        : 'motor'
      : random.pick(['motor', 'motor', 'motor', 'home', 'home', 'life', 'health', 'travel'] as const);
    const insurer = random.pick(sellersOf(typeKey));
    const template = TYPES[typeKey];
    const serial = (numbers.get(insurer) ?? 0) + 1;
    numbers.set(insurer, serial);
    const totalCents = moneyIn(template.premium);
    const frequency = random.pick(template.frequencies);
    return {
      id: uuidv7(),
      customer,
      insurer,
      companyId: companyIds.get(insurer) as string,
      typeKey,
      number: `${insurer.prefix}-${start.slice(0, 4)}-${String(serial * 37 + random.int(0, 36)).padStart(5, '0')}`,
      start,
      end: termEnd(start, months),
      totalCents,
      netCents: Math.round((totalCents * random.int(85, 100)) / 100),
      rate: insurer.sells[typeKey]?.rate ?? '0.00',
      frequency,
      customInstallments: frequency === 'custom' ? random.pick([2, 4, 10]) : null,
      ...insured(typeKey, customer),
      renewedToId: null,
      cancelledAt: null,
      cancellationReason: '',
      createdOn: addDays(start, -random.int(3, 30)),
    };
  };

  const insured = (typeKey: TypeKey, customer: Person) => {
    switch (typeKey) {
      case 'motor':
        return {
          insuredItem: `${random.int(2012, Number(day.slice(0, 4)))} ${random.pick(CARS)}`,
          sumInsured: random.int(12, 60) * 1000,
          deductible: random.pick([250, 500, 750, 1000]),
        };
      case 'home':
        return {
          insuredItem: `Residence at ${customer.addressLine}, ${customer.city}`,
          sumInsured: random.int(18, 95) * 10_000,
          deductible: random.pick([500, 1000, 2500]),
        };
      case 'life':
        return {
          insuredItem: `Life of ${customer.firstName} ${customer.lastName}`,
          sumInsured: random.int(2, 20) * 50_000,
          deductible: null,
        };
      case 'health':
        return {
          insuredItem: random.pick(['Individual plan', 'Couple plan', 'Family plan']),
          sumInsured: null,
          deductible: random.pick([250, 500, 1500]),
        };
      case 'business':
        return {
          insuredItem: `General liability, ${customer.businessName}`,
          sumInsured: random.int(5, 20) * 100_000,
          deductible: random.pick([1000, 2500, 5000]),
        };
      case 'travel':
        return {
          insuredItem: random.pick([
            'Multi-trip, Europe',
            'Multi-trip, worldwide',
            'Multi-trip, worldwide with winter sports',
          ]),
          sumInsured: random.int(5, 25) * 10_000,
          deductible: random.pick([0, 100, 150]),
        };
    }
  };

  /** The next term of `previous`: same cover, premium up to 8% higher, at the insurer's rate. */
  const renewalOf = (previous: Term): Term => {
    const id = uuidv7();
    previous.renewedToId = id;
    const { start_date: start, end_date: end } = renewalTerm({
      start_date: previous.start,
      end_date: previous.end,
    });
    const totalCents = Math.round((previous.totalCents * random.int(100, 108)) / 100);
    return {
      ...previous,
      id,
      start,
      end,
      totalCents,
      netCents: Math.round((totalCents * previous.netCents) / previous.totalCents),
      frequency: random.chance(0.85) ? previous.frequency : random.pick(TYPES[previous.typeKey].frequencies),
      renewedToId: null,
      createdOn: minDate(addDays(previous.end, -random.int(2, 25)), day),
    };
  };
  const cancel = (term: Term, on: string) => {
    term.cancelledAt = on;
    term.cancellationReason = random.pick(CANCELLATION_REASONS);
  };

  // A few set pieces, so every date shows each status and renewals due soon.
  const customersWithPolicies = people.slice(0, CUSTOMER_COUNT - PROSPECTS);
  let next = 0;
  const nextCustomer = () =>
    next < customersWithPolicies.length
      ? (customersWithPolicies[next++] as Person)
      : random.pick(customersWithPolicies);
  for (const daysLeft of [3, 8, 12, 17, 22, 27]) {
    // Active, ending within 30 days, not yet renewed.
    const end = addDays(day, daysLeft);
    const term = firstTerm(nextCustomer(), addMonths(addDays(end, 1), -12));
    terms.push(term);
  }
  for (const daysAhead of [5, 16, 34]) terms.push(firstTerm(nextCustomer(), addDays(day, daysAhead)));
  {
    const lapsed = firstTerm(nextCustomer(), addDays(day, -random.int(420, 600)));
    const renewed = firstTerm(nextCustomer(), addDays(day, -random.int(400, 700)));
    const cancelled = firstTerm(nextCustomer(), addDays(day, -random.int(60, 200)));
    cancel(cancelled, addDays(day, -random.int(5, 40)));
    terms.push(lapsed, renewed, cancelled);
    terms.push(renewalOf(renewed));
  }

  // Then the bulk: terms begun over the last two years, most renewed when they ended.
  while (terms.length < POLICY_TARGET) {
    const newBusiness = random.chance(0.04);
    let term = firstTerm(nextCustomer(), addDays(day, newBusiness ? random.int(1, 60) : -random.int(1, 730)));
    terms.push(term);
    while (term.start <= day) {
      if (term.end < day) {
        if (random.chance(0.75)) {
          term = renewalOf(term);
          terms.push(term);
          continue;
        }
        // Not renewed: most lapsed at the end of the term, some were cancelled during it.
        if (random.chance(0.3))
          cancel(term, addDays(term.start, random.int(20, daysFrom(term.start, term.end))));
        break;
      }
      // In force today: a few cancelled already, some renewed ahead of their end.
      if (random.chance(0.06) && daysFrom(term.start, day) > 10) {
        cancel(term, addDays(day, -random.int(1, Math.min(90, daysFrom(term.start, day)))));
      } else if (daysFrom(day, term.end) <= 30 && random.chance(0.4)) {
        terms.push(renewalOf(term));
      }
      break;
    }
  }
  return terms;
}

/** The terms' instalments and the payments on them. */
export function sampleInstalments(
  random: Random,
  tenantId: string,
  day: string,
  today: Date,
  terms: Term[],
  moment: (iso: string) => Date,
): (typeof installments.$inferInsert)[] {
  const reference = (method: PaymentMethod, term: Term, sequence: number): string => {
    switch (method) {
      case 'direct_debit':
        return `DD ${term.number}/${sequence}`;
      case 'bank_transfer':
        return `TRF-${random.int(100000, 999999)}`;
      case 'card':
        return `Card ending ${random.int(1000, 9999)}`;
      case 'cheque':
        return `Cheque ${random.int(100000, 999999)}`;
      default:
        return '';
    }
  };
  const installmentRows: (typeof installments.$inferInsert)[] = [];
  for (const term of terms) {
    const schedule = buildSchedule({
      total_premium: fromCents(BigInt(term.totalCents)),
      payment_frequency: term.frequency,
      custom_installments: term.customInstallments,
      start_date: term.start,
      end_date: term.end,
    });
    for (const row of schedule) {
      const due = toCents(row.amount_due);
      let paid = 0n;
      let paidDate: string | null = null;
      const afterCancellation = term.cancelledAt !== null && row.due_date > term.cancelledAt;
      if (row.due_date < day && !afterCancellation) {
        const roll = random.next();
        // What fell due more than four months ago was settled (or written off) long since: an agency
        // chases recent debts, never a payment "440 days overdue".
        const settledLongAgo = daysFrom(row.due_date, day) > 120;
        if (settledLongAgo || roll < 0.92) paid = due;
        else if (roll < 0.96) paid = (due * BigInt(random.int(25, 75))) / 100n;
        if (paid > 0n) paidDate = minDate(addDays(row.due_date, random.int(-5, 12)), day);
      } else if (
        !term.cancelledAt &&
        row.due_date >= day &&
        daysFrom(day, row.due_date) <= 20 &&
        random.chance(0.1)
      ) {
        // Paid ahead of the due date.
        paid = due;
        paidDate = addDays(day, -random.int(0, 4));
      }
      const method: PaymentMethod | null =
        paid === 0n
          ? null
          : term.frequency === 'monthly' && random.chance(0.75)
            ? 'direct_debit'
            : random.pick(['card', 'card', 'bank_transfer', 'bank_transfer', 'cash', 'cheque'] as const);
      const status: InstallmentStatus =
        paid >= due && paid > 0n
          ? 'paid'
          : afterCancellation
            ? 'cancelled'
            : paid === 0n
              ? 'pending'
              : 'partially_paid';
      installmentRows.push({
        tenantId,
        policyId: term.id,
        sequence: row.sequence,
        dueDate: row.due_date,
        amountDue: row.amount_due,
        amountPaid: fromCents(paid),
        paidDate,
        paymentMethod: method,
        reference: method ? reference(method, term, row.sequence) : '',
        status,
        createdAt: moment(term.createdOn),
        updatedAt: paidDate ? moment(paidDate) : today,
      });
    }
  }
  return installmentRows;
}
