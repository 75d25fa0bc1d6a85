import { z } from 'zod';
import type { pageQuery } from './pagination.js';

/** The files a list exports to: CSV for any program, XLSX for Excel with money and dates typed. */
export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const exportFormat = z
  .enum(EXPORT_FORMATS, { error: 'Choose csv or xlsx.' })
  .default('csv')
  .describe('`csv` (the default) or `xlsx`.');

/**
 * A list's export: the list's own search, filters and sort, without paging (the file holds every
 * matching row), and the file's format.
 */
export function exportQueryOf<Shape extends typeof pageQuery.shape>(
  list: z.ZodObject<Shape>,
): z.ZodObject<Omit<Shape, 'page' | 'page_size'> & { format: typeof exportFormat }> {
  // zod cannot check the omitted keys against a shape it only knows as generic; the signature says it.
  return list.omit({ page: true, page_size: true } as never).extend({ format: exportFormat }) as never;
}
