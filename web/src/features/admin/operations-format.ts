const megabytes = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });
const milliseconds = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });
const whole = new Intl.NumberFormat();
const percent = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 });
const moment = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** Memory in megabytes, "182.4 MB". */
export const formatBytes = (bytes: number) => `${megabytes.format(bytes / 1024 / 1024)} MB`;

/** A duration in milliseconds, "12.3 ms"; a second and more in seconds. */
export const formatMs = (ms: number) =>
  ms >= 1000 ? `${milliseconds.format(ms / 1000)} s` : `${milliseconds.format(ms)} ms`;

export const formatCount = (count: number) => whole.format(count);

/** A share from 0 to 1, "87.5%"; a dash when there is none yet. */
export const formatRate = (rate: number | null) => (rate === null ? '—' : percent.format(rate));

/** A moment with its time to the second, "25 Nov 2026, 14:03:09". */
export const formatMoment = (iso: string) => moment.format(new Date(iso));

/** How long the server has run, "3 d 4 h", "2 h 5 min", "40 s". */
export function formatUptime(seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (days > 0) return `${days} d ${hours} h`;
  if (hours > 0) return `${hours} h ${minutes} min`;
  if (minutes > 0) return `${minutes} min`;
  return `${Math.floor(seconds)} s`;
}
