// Plain values with no schema attached, so the web app's first bundle can use them without zod.

export const BILLING_CYCLES = ['monthly', 'yearly'] as const;
export type BillingCycle = (typeof BILLING_CYCLES)[number];

export const SUBSCRIPTION_STATUSES = [
  'trial',
  'active',
  'past_due',
  'paused',
  'cancelled',
  'expired',
] as const;

/** Who takes the money: Paddle Billing when configured, otherwise changes apply at once, recorded as manual. */
export const BILLING_PROVIDERS = ['manual', 'paddle'] as const;
export type BillingProvider = (typeof BILLING_PROVIDERS)[number];

/** When a plan change takes effect: at the end of the paid period, or now with the difference prorated. */
export const PLAN_CHANGE_TYPES = ['at_period_end', 'immediate'] as const;

/** When a plan chosen during the trial starts: when the trial ends (its days kept), or now. */
export const PLAN_START_TYPES = ['at_trial_end', 'immediate'] as const;

/** What happened to a subscription, as the billing history lists it. */
export const BILLING_EVENT_TYPES = [
  'trial_started',
  'upgraded',
  'plan_changed',
  'plan_change_scheduled',
  'plan_change_withdrawn',
  'cancelled',
  'cancellation_scheduled',
  'reactivated',
  'paused',
  'renewed',
  'trial_expired',
  'period_ended',
  'past_due',
  'payment_completed',
  'payment_failed',
  'provider_updated',
  'changed_by_admin',
] as const;
export type BillingEventType = (typeof BILLING_EVENT_TYPES)[number];

/** Card brands a payment method may carry. */
export const CARD_BRANDS = ['visa', 'mastercard', 'amex', 'discover', 'other'] as const;

/** The non-admin trial banner appears when this many days or fewer remain. */
export const TRIAL_BANNER_THRESHOLD_DAYS = 3;

/** Every new agency starts a trial of this plan. */
export const PLAN_TRIAL_NAME = 'Professional';

/** Rows per page of a list unless the request asks otherwise, and the most it may ask for. */
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export const POLICY_CATEGORIES = ['auto', 'home', 'life', 'health', 'business', 'travel', 'other'] as const;
export type PolicyCategory = (typeof POLICY_CATEGORIES)[number];
export const POLICY_CATEGORY_LABELS: Record<PolicyCategory, string> = {
  auto: 'Auto',
  home: 'Home',
  life: 'Life',
  health: 'Health',
  business: 'Business',
  travel: 'Travel',
  other: 'Other',
};

/** How an insurer pays its commission on a policy. */
export const COMMISSION_PAYMENT_METHODS = ['full_policy', 'pro_rata'] as const;
export type CommissionPaymentMethod = (typeof COMMISSION_PAYMENT_METHODS)[number];
export const COMMISSION_PAYMENT_METHOD_LABELS: Record<CommissionPaymentMethod, string> = {
  full_policy: 'Full Policy',
  pro_rata: 'Pro Rata',
};

export const COMMISSION_TYPES = ['percentage'] as const;

export const CUSTOMER_TYPES = ['individual', 'business'] as const;
export type CustomerType = (typeof CUSTOMER_TYPES)[number];
export const CUSTOMER_TYPE_LABELS: Record<CustomerType, string> = {
  individual: 'Individual',
  business: 'Business',
};

export const CUSTOMER_STATUSES = ['active', 'inactive'] as const;
export type CustomerStatus = (typeof CUSTOMER_STATUSES)[number];
export const CUSTOMER_STATUS_LABELS: Record<CustomerStatus, string> = {
  active: 'Active',
  inactive: 'Inactive',
};

export const CONTACT_CHANNELS = ['email', 'phone', 'sms', 'whatsapp', 'mail'] as const;
export type ContactChannel = (typeof CONTACT_CHANNELS)[number];
export const CONTACT_CHANNEL_LABELS: Record<ContactChannel, string> = {
  email: 'Email',
  phone: 'Phone call',
  sms: 'SMS',
  whatsapp: 'WhatsApp',
  mail: 'Post',
};

/** The resources a plan limits, as `GET /billing/usage/summary/` reports them. */
export const USAGE_METRICS = ['policies', 'customers', 'leads', 'users', 'storage_mb'] as const;
export type UsageMetric = (typeof USAGE_METRICS)[number];
export const USAGE_METRIC_LABELS: Record<UsageMetric, string> = {
  policies: 'Policies',
  customers: 'Customers',
  leads: 'Leads',
  users: 'Users',
  storage_mb: 'Document storage (MB)',
};
/** How an amount of each resource reads in a sentence: "1,000 policies", "1,000 MB of documents". */
export const USAGE_METRIC_UNITS: Record<UsageMetric, string> = {
  policies: 'policies',
  customers: 'customers',
  leads: 'leads',
  users: 'users',
  storage_mb: 'MB of documents',
};

/** How a policy's premium is split: one payment, every six or three months, monthly, or a chosen count. */
export const PAYMENT_FREQUENCIES = ['single', 'semi_annual', 'quarterly', 'monthly', 'custom'] as const;
export type PaymentFrequency = (typeof PAYMENT_FREQUENCIES)[number];
export const PAYMENT_FREQUENCY_LABELS: Record<PaymentFrequency, string> = {
  single: 'Single payment',
  semi_annual: 'Semi-annual',
  quarterly: 'Quarterly',
  monthly: 'Monthly',
  custom: 'Custom number of instalments',
};
/** The most instalments a policy may be split into. */
export const MAX_INSTALLMENTS = 120;
/** The longest term a policy may run, in years: longer terms are typing mistakes, not cover. */
export const MAX_TERM_YEARS = 10;

export const POLICY_STATUSES = ['pending', 'active', 'expired', 'cancelled', 'renewed'] as const;
export type PolicyStatus = (typeof POLICY_STATUSES)[number];
export const POLICY_STATUS_LABELS: Record<PolicyStatus, string> = {
  active: 'Active',
  pending: 'Pending',
  expired: 'Expired',
  cancelled: 'Cancelled',
  renewed: 'Renewed',
};

/** `cancelled`: due after its policy's cancellation, kept for the record and never due. */
export const INSTALLMENT_STATUSES = ['pending', 'partially_paid', 'paid', 'cancelled'] as const;
export type InstallmentStatus = (typeof INSTALLMENT_STATUSES)[number];
/** An instalment as a broker reads it: one not paid in full is overdue once its due date has passed. */
export const INSTALLMENT_STATUS_LABELS: Record<InstallmentStatus | 'overdue', string> = {
  pending: 'Due',
  partially_paid: 'Partially paid',
  paid: 'Paid',
  overdue: 'Overdue',
  cancelled: 'Cancelled',
};

export const PAYMENT_METHODS = ['cash', 'bank_transfer', 'card', 'cheque', 'direct_debit', 'other'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  cash: 'Cash',
  bank_transfer: 'Bank transfer',
  card: 'Card',
  cheque: 'Cheque',
  direct_debit: 'Direct debit',
  other: 'Other',
};

/** Where a lead stands, in pipeline order; won and lost close it. */
export const LEAD_STATUSES = ['new', 'contacted', 'qualified', 'quoted', 'won', 'lost'] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];
export const LEAD_STATUS_LABELS: Record<LeadStatus, string> = {
  new: 'New',
  contacted: 'Contacted',
  qualified: 'Qualified',
  quoted: 'Quoted',
  won: 'Won',
  lost: 'Lost',
};
/** The statuses of a lead still being worked: its estimated premium is in the open pipeline. */
export const OPEN_LEAD_STATUSES = [
  'new',
  'contacted',
  'qualified',
  'quoted',
] as const satisfies readonly LeadStatus[];

/** How a lead reached the agency. */
export const LEAD_SOURCES = [
  'referral',
  'website',
  'walk_in',
  'phone',
  'social',
  'partner',
  'other',
] as const;
export type LeadSource = (typeof LEAD_SOURCES)[number];
export const LEAD_SOURCE_LABELS: Record<LeadSource, string> = {
  referral: 'Referral',
  website: 'Website',
  walk_in: 'Walk-in',
  phone: 'Phone',
  social: 'Social media',
  partner: 'Partner',
  other: 'Other',
};

/** What a lead's timeline records; a status change is written by the server alone. */
export const LEAD_ACTIVITY_TYPES = ['call', 'email', 'meeting', 'note', 'status_change'] as const;
export type LeadActivityType = (typeof LEAD_ACTIVITY_TYPES)[number];
/** What a broker logs by hand. */
export const LOGGED_LEAD_ACTIVITY_TYPES = [
  'call',
  'email',
  'meeting',
  'note',
] as const satisfies readonly LeadActivityType[];
export const LEAD_ACTIVITY_LABELS: Record<LeadActivityType, string> = {
  call: 'Call',
  email: 'Email',
  meeting: 'Meeting',
  note: 'Note',
  status_change: 'Status change',
};

/** Open leads by when their next follow-up falls, in the agency's time zone. */
export const LEAD_FOLLOW_UPS = ['overdue', 'today', 'this_week'] as const;
export type LeadFollowUp = (typeof LEAD_FOLLOW_UPS)[number];
export const LEAD_FOLLOW_UP_LABELS: Record<LeadFollowUp, string> = {
  overdue: 'Overdue',
  today: 'Due today',
  this_week: 'Due this week',
};
