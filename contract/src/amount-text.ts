// Amounts as people type them and spreadsheets show them. Every money and percentage field of the
// contract reads its value through here, and so does the import, so a form, the API and a
// spreadsheet cell accept the same "1,200", "1 200" and "€1.234,50".

/** Currency symbols, a currency code before or after the figure, and the spaces and apostrophes that group digits. */
const DECORATION =
  /^[A-Z]{3}(?=[\d\s\u00a0\u202f-])|(?<=[\d\s\u00a0\u202f])[A-Z]{3}$|\p{Sc}|[\s\u00a0\u202f'’]/gu;

/** Digits in groups of three after a first group of one to three: "1,234,567". */
const grouped = (digits: string, separator: string) =>
  new RegExp(`^[1-9]\\d{0,2}(\\${separator}\\d{3})+$`).test(digits);

/**
 * "€1,234.50", "1.234,50", "1 234.50", "1'234.50", "1,200" -> "1234.50", "1234.50", …, "1200".
 * The last separator is the decimal point unless exactly three digits follow it and it only groups
 * thousands ("1,200", "1.250.000"); the digits before a decimal point may be grouped by the other
 * separator. What cannot be read this way is returned as it came, so the field's own rule refuses
 * it with its usual message.
 */
export function readAmount(text: string): string {
  const kept = text.trim().replace(DECORATION, '');
  const match = /^(-?)(\d[\d.,]*)$/.exec(kept);
  if (!match) return text;
  const [, sign = '', figure = ''] = match;
  const separators = figure.replace(/\d/g, '');
  if (separators === '') return `${sign}${figure}`;
  const last = separators.at(-1) ?? '';
  const tail = figure.slice(figure.lastIndexOf(last) + 1);
  const onlyGroups =
    separators === last.repeat(separators.length) && tail.length === 3 && grouped(figure, last);
  if (onlyGroups) return `${sign}${figure.replaceAll(last, '')}`;
  const whole = figure.slice(0, figure.lastIndexOf(last));
  const groupSeparator = last === '.' ? ',' : '.';
  if (/[.,]/.test(whole) && (whole.includes(last) || !grouped(whole, groupSeparator))) return text;
  if (tail === '') return text;
  return `${sign}${whole.replaceAll(groupSeparator, '')}.${tail}`;
}

/**
 * The two readings of a figure one locale writes for a thousand and another for one: "1.000" and
 * "1,250" are 1000 and 1.00, 1250 and 1.25 (a sign, brackets or a currency around it aside).
 * Undefined for a figure with one reading: "12,345" has three decimals, so it is only 12345.
 */
export function readingsOfAmbiguous(text: string): [string, string] | undefined {
  const figure = text
    .trim()
    .replace(DECORATION, '')
    .replace(/[^\d.,]/g, '');
  const match = /^(\d{1,3})[.,](\d{2})0$/.exec(figure);
  if (!match) return undefined;
  const [, whole = '', cents = ''] = match;
  return [`${whole}${cents}0`, `${whole}.${cents}`];
}

/** "12.5%", "12,5" -> "12.5". */
export const readPercentage = (text: string): string => readAmount(text.replace(/%\s*$/, ''));
