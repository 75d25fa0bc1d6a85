import { z } from 'zod';

/**
 * Any error that is not about one field: `{ "detail": "..." }`, with a `code` where a client acts on
 * it (`mfa_required`: the admin portal sends the admin to set two-step sign-in up).
 */
export const detailResponse = z.object({ detail: z.string(), code: z.string().optional() });

/** Errors the spec phrases as `{ "error": "..." }` (demo login, password change). */
export const errorResponse = z.object({ error: z.string() });

/** Field validation errors: `{ "email": ["Enter a valid email address."] }`. */
export const fieldErrorsResponse = z.record(z.string(), z.array(z.string()));

export type FieldErrors = z.infer<typeof fieldErrorsResponse>;
