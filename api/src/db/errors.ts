/** PostgreSQL's error for a write, found under drizzle's wrapping. */
function databaseError(error: unknown): { code?: unknown; constraint?: unknown } | undefined {
  for (let current = error; current instanceof Error; current = current.cause) {
    if ('code' in current) return current as { code?: unknown; constraint?: unknown };
  }
  return undefined;
}

/** A unique constraint refused the write; with `constraint`, only that one. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const found = databaseError(error);
  return found?.code === '23505' && (constraint === undefined || found.constraint === constraint);
}

/** A foreign key refused the write: the row is still referenced, or references nothing. */
export function isForeignKeyViolation(error: unknown): boolean {
  return databaseError(error)?.code === '23503';
}
