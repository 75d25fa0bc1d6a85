import { randomBytes } from 'node:crypto';
import { customType, timestamp, uuid } from 'drizzle-orm/pg-core';
import { v7 as uuidv7 } from 'uuid';

/** UUIDv7 primary key: time-ordered, not guessable. */
export const id = () =>
  uuid('id')
    .primaryKey()
    .$defaultFn(() => uuidv7());

export const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A file's bytes, kept in the database so every instance and every backup has them. */
export const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

export const createdAt = () => timestamptz('created_at').notNull().defaultNow();

export const updatedAt = () => timestamptz('updated_at').notNull().defaultNow();

/**
 * Many UUIDv7 keys at once, their random parts drawn in one call rather than one call each: an
 * import writes hundreds of thousands of instalments.
 */
export function uuidv7Batch(count: number): string[] {
  const random = randomBytes(16 * count);
  return Array.from({ length: count }, (_, index) =>
    uuidv7({ random: random.subarray(index * 16, index * 16 + 16) }),
  );
}

/** Ids drawn as they are needed, their random parts `perDraw` at a time: one import row needs one or two. */
export function uuidv7Source(perDraw = 1_000): () => string {
  let drawn: string[] = [];
  let next = 0;
  return () => {
    if (next === drawn.length) {
      drawn = uuidv7Batch(perDraw);
      next = 0;
    }
    return drawn[next++] as string;
  };
}
