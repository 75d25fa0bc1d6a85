import { addDays } from '@coverdesk/contract';
import { v7 as uuidv7 } from 'uuid';
import type { Random } from '../../seeded-random.js';
import {
  BUSINESSES,
  CITIES,
  CONTACT_CHANNELS,
  EMAIL_DOMAINS,
  FIRST_NAMES,
  LAST_NAMES,
  STREETS,
  TAGS,
} from './sample-data.js';

export const CUSTOMER_COUNT = 100;
/** Customers without a policy yet: quotes in progress. */
export const PROSPECTS = 6;

export interface Person {
  id: string;
  business: boolean;
  firstName: string;
  lastName: string;
  businessName: string;
  addressLine: string;
  city: string;
}

/** The agency's customers: mostly people, one in nine a business. */
export function sampleCustomers(random: Random, tenantId: string, day: string, today: Date) {
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
  return { people, customerRows };
}
