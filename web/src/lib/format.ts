/** Dates in the reader's locale, e.g. "22 Nov 2026". */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(new Date(iso));
}

/** Money as the API sends it ("79.99"), in the agency's currency; the string is never re-rounded. */
export function formatMoney(amount: string, currency = 'USD'): string {
  return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(Number(amount));
}
