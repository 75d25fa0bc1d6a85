import { CONTACT_CHANNELS, CUSTOMER_STATUSES, CUSTOMER_TYPES } from '@coverdesk/contract';
import { sql } from 'drizzle-orm';
import { date, index, pgTable, text, unique, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from '../../db/columns.js';
import { emailKey, nameKey, phoneDigits, trigramIndex } from '../../db/search-columns.js';
import { tenantId } from '../../db/tenant-columns.js';

/** What lists show and sort by: the business name, or first and last name. */
const DISPLAY_NAME = sql`case when customer_type = 'business' and business_name <> '' then business_name else first_name || ' ' || last_name end`;

/** The agency's customers, people and businesses. Tenant-owned. */
export const customers = pgTable(
  'customers',
  {
    id: id(),
    tenantId: tenantId(),
    customerType: text('customer_type', { enum: CUSTOMER_TYPES }).notNull().default('individual'),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    businessName: text('business_name').notNull().default(''),
    /** What lists show and sort by: the business name, or first and last name. */
    displayName: text('display_name').notNull().generatedAlwaysAs(DISPLAY_NAME),
    email: text('email').notNull().default(''),
    phone: text('phone').notNull().default(''),
    dateOfBirth: date('date_of_birth', { mode: 'string' }),
    nationalId: text('national_id').notNull().default(''),
    addressLine: text('address_line').notNull().default(''),
    city: text('city').notNull().default(''),
    postalCode: text('postal_code').notNull().default(''),
    country: text('country').notNull().default(''),
    preferredContact: text('preferred_contact', { enum: CONTACT_CHANNELS }).notNull().default('email'),
    notes: text('notes').notNull().default(''),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    status: text('status', { enum: CUSTOMER_STATUSES }).notNull().default('active'),
    /** The member who looks after the customer (`users`, of the same agency); the creator by default. */
    assignedTo: uuid('assigned_to'),
    // A generated column cannot read another, so the name is written out again.
    nameKey: nameKey(DISPLAY_NAME),
    emailKey: emailKey(),
    phoneDigits: phoneDigits(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('customers_tenant_id_id_key').on(t.tenantId, t.id),
    index('customers_tenant_name_idx').on(t.tenantId, sql`lower(${t.displayName})`, t.id),
    index('customers_tenant_created_idx').on(t.tenantId, t.createdAt),
    index('customers_tenant_email_idx').on(t.tenantId, t.email),
    index('customers_tenant_assigned_idx').on(t.tenantId, t.assignedTo),
    trigramIndex('customers_name_key_idx', t.tenantId, t.nameKey),
    trigramIndex('customers_email_key_idx', t.tenantId, t.emailKey),
    trigramIndex('customers_phone_digits_idx', t.tenantId, t.phoneDigits),
  ],
);
