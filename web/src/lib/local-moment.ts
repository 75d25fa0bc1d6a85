// A date-and-time input has no time zone: it reads and writes the broker's own clock.

/** An ISO moment as a date-and-time input shows it ("2030-03-04T09:30"), on the broker's clock. */
export function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const moment = new Date(iso);
  const local = new Date(moment.getTime() - moment.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/** A date-and-time input's value as the moment the API stores, or null when empty or unreadable. */
export function fromLocalInput(value: string): string | null {
  if (!value) return null;
  const moment = new Date(value);
  return Number.isNaN(moment.getTime()) ? value : moment.toISOString();
}
