import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './constants.js';
import { boundedText } from './fields.js';

/** `?page=&page_size=` on every list. */
export const pageQuery = z.object({
  page: z.coerce.number().int().min(1, 'Pages start at 1.').default(1),
  page_size: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_SIZE, `At most ${MAX_PAGE_SIZE} rows per page.`)
    .default(DEFAULT_PAGE_SIZE),
  search: boundedText(100).optional(),
});
export type PageQuery = z.infer<typeof pageQuery>;

/** One page of a list: `{count, next, previous, results}`; next and previous are links or null. */
export const paged = <Item extends z.ZodType>(item: Item) =>
  z.object({
    count: z.number().int(),
    next: z.string().nullable(),
    previous: z.string().nullable(),
    results: z.array(item),
  });

export interface Paged<Item> {
  count: number;
  next: string | null;
  previous: string | null;
  results: Item[];
}

/** `?ordering=name` or `?ordering=-name` (descending), limited to the given fields. */
export function ordering<const Field extends string>(
  fields: readonly Field[],
  fallback: NoInfer<Field> | `-${NoInfer<Field>}`,
) {
  type Ordering = Field | `-${Field}`;
  const values = [...fields, ...fields.map((field) => `-${field}` as const)] as [Ordering, ...Ordering[]];
  return z.enum(values).default(fallback as never);
}
