// Spreadsheet cells as the API's bodies take them. A value that cannot be read is passed on as it is,
// so the contract's own rule refuses it with the same message a form shows. Amounts and percentages
// need nothing here: the contract's money and percentage fields read them (amount-text.ts).

/**
 * "2026-03-01", "2026/3/1", or day first as most of the world writes it: "1/3/2026", "01.03.2026".
 * Month-first dates (US) cannot be told from day-first ones and are read day first.
 */
export function dateCell(text: string): string {
  const pad = (value: string) => value.padStart(2, '0');
  const iso = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[T ].*)?$/.exec(text);
  if (iso) return `${iso[1]}-${pad(iso[2] ?? '')}-${pad(iso[3] ?? '')}`;
  const dayFirst = /^(\d{1,2})[./-](\d{1,2})[./-](\d{4})$/.exec(text);
  if (dayFirst) return `${dayFirst[3]}-${pad(dayFirst[2] ?? '')}-${pad(dayFirst[1] ?? '')}`;
  return text;
}

const choiceWord = (text: string) =>
  text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '_')
    .replace(/^_|_$/g, '');

/**
 * A choice as a file writes it: its value ("semi_annual"), the label the app's forms show for it
 * ("Semi-annual", "Single payment"), in any case, or one of `aliases` ("half_yearly"). Anything else
 * is passed on as written, for the contract to refuse with the form's message.
 */
export function choiceCell(
  text: string,
  labels: Record<string, string>,
  aliases: Record<string, string> = {},
): string {
  const word = choiceWord(text);
  if (Object.hasOwn(labels, word)) return word;
  for (const [value, label] of Object.entries(labels)) if (choiceWord(label) === word) return value;
  return aliases[word] ?? word;
}

export const FREQUENCY_ALIASES: Record<string, string> = {
  annual: 'single',
  annually: 'single',
  yearly: 'single',
  once: 'single',
  one_payment: 'single',
  full: 'single',
  semiannual: 'semi_annual',
  semi_annually: 'semi_annual',
  half_yearly: 'semi_annual',
  biannual: 'semi_annual',
  quarter: 'quarterly',
  month: 'monthly',
};

/** Tags in one cell, separated by commas, semicolons or bars. */
export const tagsCell = (text: string) =>
  text
    .split(/[,;|]/)
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');

/** "Maya Golan" -> first "Maya", last "Golan"; the last word is the last name. */
export function splitName(full: string): { first_name: string; last_name: string } {
  const words = full.trim().split(/\s+/);
  if (words.length < 2) return { first_name: words[0] ?? '', last_name: '' };
  return { first_name: words.slice(0, -1).join(' '), last_name: words.at(-1) ?? '' };
}
