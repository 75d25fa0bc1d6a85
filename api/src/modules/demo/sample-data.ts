// The sample agency's catalogue and the names, places and things its records are made from.
import type {
  CommissionPaymentMethod,
  ContactChannel,
  PaymentFrequency,
  PolicyCategory,
} from '@coverdesk/contract';

export type TypeKey = 'motor' | 'home' | 'life' | 'health' | 'business' | 'travel';

export interface TypeTemplate {
  name: string;
  category: PolicyCategory;
  description: string;
  /** Yearly premium range in whole currency units. */
  premium: [number, number];
  frequencies: PaymentFrequency[];
}

export const TYPES: Record<TypeKey, TypeTemplate> = {
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

export interface InsurerTemplate {
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

export const INSURERS: InsurerTemplate[] = [
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
export const CITIES = [
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
export const STREETS =
  'Maple Street, Oak Avenue, Cedar Lane, Willow Drive, Harbor Road, Elm Court, Pine Street, Lakeview Terrace, Hillcrest Way, Birch Boulevard, Sunset Avenue, Mill Road'.split(
    ', ',
  );
export const EMAIL_DOMAINS = ['example.com', 'example.org', 'example.net', 'mail.example.com'];
export const TAGS = ['vip', 'referral', 'newsletter', 'prefers-evenings', 'long-standing', 'family'];
export const CARS =
  'Toyota Corolla, Honda Civic, Ford Focus, Volkswagen Golf, Tesla Model 3, Mazda CX-5, Subaru Outback, Hyundai Tucson, Kia Sportage, BMW 3 Series, Toyota RAV4, Ford F-150'.split(
    ', ',
  );
export const CANCELLATION_REASONS = [
  'Moved to another insurer',
  'Customer sold the insured item',
  'Customer relocated abroad',
  'Non-payment of premium',
  'Cover duplicated through employer',
  'Customer request: no longer needed',
];
export const CONTACT_CHANNELS: ContactChannel[] = [
  'email',
  'email',
  'email',
  'phone',
  'sms',
  'whatsapp',
  'mail',
];
