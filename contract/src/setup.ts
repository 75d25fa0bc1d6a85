import { z } from 'zod';

/** What the setup guide checks: the agency has policy types and insurers. */
export const setupStatus = z.object({
  hasPolicyTypes: z.boolean(),
  hasCompanies: z.boolean(),
  isComplete: z.boolean(),
});
export type SetupStatus = z.infer<typeof setupStatus>;
