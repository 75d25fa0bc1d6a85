import { timeZoneField } from '@coverdesk/contract';

/**
 * The browser's time zone, for a new agency's own, when the API knows it; otherwise nothing, and the
 * agency starts on UTC (the broker can change it in Profile settings).
 */
export function browserTimeZone(): string | undefined {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return timeZoneField.safeParse(zone).success ? zone : undefined;
}

/** Every time zone an agency may choose, UTC first. */
export const timeZoneChoices = (): string[] => ['UTC', ...Intl.supportedValuesOf('timeZone')];
