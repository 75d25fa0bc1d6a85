/** True when PostgreSQL refused a row for breaking a unique constraint (drizzle wraps the driver error). */
export function isUniqueViolation(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    if ((current as { code?: unknown }).code === '23505') return true;
  }
  return false;
}
