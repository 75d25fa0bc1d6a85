import { z } from 'zod';

/** Any error that is not about one field: `{ "detail": "..." }`. */
export const detailResponse = z.object({ detail: z.string() });

/** Errors the spec phrases as `{ "error": "..." }` (demo login, password change). */
export const errorResponse = z.object({ error: z.string() });

/** Field validation errors: `{ "email": ["Enter a valid email address."] }`. */
export const fieldErrorsResponse = z.record(z.string(), z.array(z.string()));

export type FieldErrors = z.infer<typeof fieldErrorsResponse>;
