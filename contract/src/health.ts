import { z } from 'zod';

export const healthResponse = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.enum(['ok', 'unavailable']),
  migrations: z.object({ applied: z.number().int(), expected: z.number().int() }),
});

export type Health = z.infer<typeof healthResponse>;
