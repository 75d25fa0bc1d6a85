import {
  addDays,
  addMonths,
  buildSchedule,
  type CommissionPaymentMethod,
  type ContactChannel,
  fromCents,
  type InstallmentStatus,
  type PaymentFrequency,
  type PaymentMethod,
  type PolicyCategory,
  renewalTerm,
  termEnd,
  toCents,
} from '@coverdesk/contract';
import { eq, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Transaction } from '../../db/client.js';
import { seedDemoAlerts } from '../alerts/demo.js';
import { seedDemoMeetings } from '../calendar/demo.js';
import { clearDemoClaims, seedDemoClaims } from '../claims/demo.js';
import { companies, companyPolicyTypes } from '../companies/tables.js';
import { customers } from '../customers/tables.js';
import { seedDemoLeads } from '../leads/demo.js';
import { seedDemoNotifications } from '../notifications/demo.js';
import { installments, policies } from '../policies/tables.js';
import { policyTypes } from '../policy-types/tables.js';

// The sample agency behind "Try the demo": a few hundred policies around one broker's book, every
// date relative to the day it is seeded, so the demo always has renewals coming up, instalments
// just paid and a few overdue. The same day always gives the same agency (a seeded generator);
// only the row ids, which must be UUIDv7, differ.

/** Roughly how many policies the agency holds: well inside Professional's 500. */
const POLICY_TARGET = 300;
const CUSTOMER_COUNT = 100;
/** Customers without a policy yet: quotes in progress. */
const PROSPECTS = 6;
/** Rows per INSERT: a few thousand parameters, far below PostgreSQL's 65,535. */
const BATCH = 500;

type TypeKey = 'motor' | 'home' | 'life' | 'health' | 'business' | 'travel';

interface TypeTemplate {
  name: string;
  category: PolicyCategory;
  description: string;
  /** Yearly premium range in whole currency units. */
  premium: [number, number];
  frequencies: PaymentFrequency[];
}

const TYPES: Record<TypeKey, TypeTemplate> = {
  motor: {
    name: 'Private Motor',
    category: 'auto',
    description: 'Comprehensive and third-party cover for private cars.',
    premium: [480, 2400],
    frequencies: ['monthly', 'monthly', 'quarterly', 'single', 'semi_annual'],
  },
  home: {
    name: 'Home & Contents',
    category: 'home',
    description: 'Buildings and contents cover for owner-occupied homes.',
    premium: [320, 1900],
    frequencies: ['single', 'single', 'monthly', 'quarterly'],
  },
  life: {
    name: 'Term Life',
    category: 'life',
    description: 'Level term life cover with optional critical illness.',
    premium: [300, 1650],
    frequencies: ['monthly', 'monthly', 'monthly', 'single'],
  },
  health: {
    name: 'Private Health',
    category: 'health',
    description: 'Hospital and outpatient cover for individuals and families.',
    premium: [900, 6000],
    frequencies: ['monthly', 'monthly', 'quarterly', 'custom'],
  },
  business: {
    name: 'Commercial Liability',
    category: 'business',
    description: 'Public and product liability for small businesses.',
    premium: [1200, 6000],
    frequencies: ['quarterly', 'semi_annual', 'single', 'custom'],
  },
  travel: {
    name: 'Annual Travel',
    category: 'travel',
    description: 'Annual multi-trip travel insurance.',
    premium: [300, 650],
    frequencies: ['single'],
  },
};

interface InsurerTemplate {
  name: string;
  prefix: string;
  method: CommissionPaymentMethod;
  contact: string;
  domain: string;
  phone: string;
  address: string;
  /** Commission percentage per type sold, and the insurer's own name for some. */
  sells: Partial<Record<TypeKey, { rate: string; customName?: string }>>;
}

const INSURERS: InsurerTemplate[] = [
  {
    name: 'Northwind Mutual',
    prefix: 'NWM',
    method: 'full_policy',
    contact: 'Grace Holloway',
    domain: 'northwind.example.com',
    phone: '(312) 555-0140',
    address: '200 W Madison St, Chicago, IL 60606',
    sells: {
      motor: { rate: '12.50', customName: 'Northwind DriveSafe' },
      home: { rate: '15.00' },
      travel: { rate: '20.00' },
    },
  },
  {
    name: 'Bluecrest Assurance',
    prefix: 'BCA',
    method: 'pro_rata',
    contact: 'Marcus Bell',
    domain: 'bluecrest.example.com',
    phone: '(617) 555-0112',
    address: '1 Federal St, Boston, MA 02110',
    sells: {
      motor: { rate: '10.00' },
      home: { rate: '17.50', customName: 'Bluecrest HomeGuard' },
      life: { rate: '22.00' },
      health: { rate: '8.50' },
    },
  },
  {
    name: 'Summit Life & Health',
    prefix: 'SLH',
    method: 'pro_rata',
    contact: 'Priya Raman',
    domain: 'summitlife.example.org',
    phone: '(303) 555-0175',
    address: '1700 Lincoln St, Denver, CO 80203',
    sells: {
      life: { rate: '25.00', customName: 'Summit Term Plus' },
      health: { rate: '11.00' },
      travel: { rate: '18.00' },
    },
  },
  {
    name: 'Harborview General',
    prefix: 'HVG',
    method: 'full_policy',
    contact: 'Tom Okafor',
    domain: 'harborview.example.net',
    phone: '(206) 555-0133',
    address: '1201 3rd Ave, Seattle, WA 98101',
    sells: {
      motor: { rate: '11.00' },
      home: { rate: '14.00' },
      business: { rate: '15.00' },
      travel: { rate: '22.50' },
    },
  },
  {
    name: 'Atlas Commercial',
    prefix: 'ATC',
    method: 'pro_rata',
    contact: 'Elena Vasquez',
    domain: 'atlas-commercial.example.com',
    phone: '(214) 555-0158',
    address: '2200 Ross Ave, Dallas, TX 75201',
    sells: {
      business: { rate: '17.50', customName: 'Atlas Business Shield' },
      motor: { rate: '9.50' },
      home: { rate: '12.00' },
    },
  },
];

export const FIRST_NAMES =
  'Olivia Liam Emma Noah Ava Mateo Sophia Lucas Isabella Ethan Mia James Amelia Benjamin Harper Elijah Evelyn Daniel Abigail Henry Chloe Samuel Grace David Nora Joseph Zoe Owen Layla Wyatt Aaliyah Jin Fatima Rohan Mei Kwame Ingrid Diego Hana Tomasz'.split(
    ' ',
  );
export const LAST_NAMES =
  "Anderson Nguyen Garcia Patel Kowalski Okafor Johansson Martinez Chen Williams Brown Rossi O'Connor Kim Haddad Schmidt Moreau Silva Cohen Murphy Tanaka Lopez Fischer Walker Novak Abebe Hughes Reyes Larsen Sato Baker Dubois Ivanova Mensah Clarke Ortiz Bianchi Wright Yilmaz".split(
    ' ',
  );
export const BUSINESSES =
  'Maple Street Bakery, Riverside Dental Clinic, Cobalt Logistics LLC, Greenfield Landscaping, Brightside Café, Summit Auto Repair, Oakridge Veterinary, Lighthouse Books, Northgate Plumbing, Pinecone Daycare, Ironwood Carpentry, Bluebird Florist'.split(
    ', ',
  );
const CITIES = [
  { city: 'Portland', state: 'OR', zip: '972', area: '503' },
  { city: 'Sacramento', state: 'CA', zip: '958', area: '916' },
  { city: 'Boise', state: 'ID', zip: '837', area: '208' },
  { city: 'Tacoma', state: 'WA', zip: '984', area: '253' },
  { city: 'Spokane', state: 'WA', zip: '992', area: '509' },
  { city: 'Eugene', state: 'OR', zip: '974', area: '541' },
  { city: 'Reno', state: 'NV', zip: '895', area: '775' },
  { city: 'Salem', state: 'OR', zip: '973', area: '503' },
  { city: 'Bend', state: 'OR', zip: '977', area: '541' },
  { city: 'Vancouver', state: 'WA', zip: '986', area: '360' },
];
const STREETS =
  'Maple Street, Oak Avenue, Cedar Lane, Willow Drive, Harbor Road, Elm Court, Pine Street, Lakeview Terrace, Hillcrest Way, Birch Boulevard, Sunset Avenue, Mill Road'.split(
    ', ',
  );
export const EMAIL_DOMAINS = ['example.com', 'example.org', 'example.net', 'mail.example.com'];
const TAGS = ['vip', 'referral', 'newsletter', 'prefers-evenings', 'long-standing', 'family'];
const CARS =
  'Toyota Corolla, Honda Civic, Ford Focus, Volkswagen Golf, Tesla Model 3, Mazda CX-5, Subaru Outback, Hyundai Tucson, Kia Sportage, BMW 3 Series, Toyota RAV4, Ford F-150'.split(
    ', ',
  );
const CANCELLATION_REASONS = [
  'Moved to another insurer',
  'Customer sold the insured item',
  'Customer relocated abroad',
  'Non-payment of premium',
  'Cover duplicated through employer',
  'Customer request: no longer needed',
];
const CONTACT_CHANNELS: ContactChannel[] = ['email', 'email', 'email', 'phone', 'sms', 'whatsapp', 'mail'];

/** mulberry32: a small, fast generator; good enough for sample data, and seedable. */
export class Random {
  private state: number;
  constructor(seed: string) {
    // FNV-1a of the seed text.
    let hash = 2166136261;
    for (let i = 0; i < seed.length; i++) hash = Math.imul(hash ^ seed.charCodeAt(i), 16777619);
    this.state = hash >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = Math.imul(this.state ^ (this.state >>> 15), 1 | this.state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** An integer from min to max, both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(probability: number): boolean {
    return this.next() < probability;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }
}

const DAY_MS = 86_400_000;
const daysFrom = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);
const minDate = (a: string, b: string) => (a < b ? a : b);
/** The calendar day of a moment on this server's clock, like the daily reset. */
const localDay = (moment: Date) =>
  `${moment.getFullYear()}-${String(moment.getMonth() + 1).padStart(2, '0')}-${String(moment.getDate()).padStart(2, '0')}`;

interface Person {
  id: string;
  business: boolean;
  firstName: string;
  lastName: string;
  businessName: string;
  addressLine: string;
  city: string;
}

interface Term {
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

/**
 * Replaces the agency's book with the sample one, relative to `today`. Runs in the caller's tenant
 * transaction, so a reset is all or nothing and visitors never see half an agency.
 */
export async function seedDemoAgency(tx: Transaction, tenantId: string, today: Date): Promise<void> {
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

  // Customers: mostly people, one in nine a business.
  const usedNames = new Set<string>();
  const people: Person[] = Array.from({ length: CUSTOMER_COUNT }, (_, index) => {
    let firstName: string;
    let lastName: string;
    do {
      firstName = random.pick(FIRST_NAMES);
      lastName = random.pick(LAST_NAMES);
    } while (usedNames.has(`${firstName} ${lastName}`));
    usedNames.add(`${firstName} ${lastName}`);
    const business = index % 9 === 4;
    return {
      id: uuidv7(),
      business,
      firstName,
      lastName,
      businessName: business ? (BUSINESSES[Math.floor(index / 9)] ?? `${lastName} & Co`) : '',
      addressLine: `${random.int(2, 4800)} ${random.pick(STREETS)}`,
      city: '',
    };
  });
  const customerRows = people.map((person, index) => {
    const place = random.pick(CITIES);
    person.city = place.city;
    const local = person.business
      ? `office.${person.businessName.toLowerCase().replace(/[^a-z]+/g, '')}`
      : `${person.firstName}.${person.lastName}`.toLowerCase().replace(/[^a-z.]+/g, '');
    const tags = new Set<string>();
    if (person.business) tags.add('commercial');
    for (let n = random.int(0, 2); n > 0; n--) tags.add(random.pick(TAGS));
    return {
      id: person.id,
      tenantId,
      customerType: person.business ? ('business' as const) : ('individual' as const),
      firstName: person.firstName,
      lastName: person.lastName,
      businessName: person.businessName,
      email: random.chance(0.93) ? `${local}@${random.pick(EMAIL_DOMAINS)}` : '',
      // 555-0100 to 555-0199 are reserved for fiction; one each, so none looks like a duplicate.
      phone: `(${place.area}) 555-01${String(index).padStart(2, '0')}`,
      dateOfBirth: person.business ? null : addDays(day, -random.int(22 * 365, 78 * 365)),
      addressLine: person.addressLine,
      city: place.city,
      postalCode: `${place.zip}${String(random.int(1, 99)).padStart(2, '0')}`,
      country: 'United States',
      preferredContact: random.pick(CONTACT_CHANNELS),
      notes: '',
      tags: [...tags],
      status: 'active' as 'active' | 'inactive',
      createdAt: today,
      updatedAt: today,
    };
  });

  // Policies, as chains of yearly terms: each renewal starts the day after the term it renews.
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

  // Instalments and the payments on them.
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
    // Long-finished terms were nearly all settled; current ones carry the agency's open debts.
    const settledRate = daysFrom(term.end, day) > 90 ? 0.97 : 0.92;
    for (const row of schedule) {
      const due = toCents(row.amount_due);
      let paid = 0n;
      let paidDate: string | null = null;
      const afterCancellation = term.cancelledAt !== null && row.due_date > term.cancelledAt;
      if (row.due_date < day && !afterCancellation) {
        const roll = random.next();
        if (roll < settledRate) paid = due;
        else if (roll < settledRate + 0.04) paid = (due * BigInt(random.int(25, 75))) / 100n;
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
  await seedDemoLeads(tx, { tenantId, today, day, typeIds: Object.values(typeIds) });
  await seedDemoAlerts(tx, { tenantId });
  await seedDemoMeetings(tx, { tenantId, day, random: new Random(`coverdesk-demo-meetings-${day}`) });
  await seedDemoNotifications(tx, { tenantId, day, now: today });
}
