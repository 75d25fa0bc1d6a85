import { z } from 'zod';

export const healthResponse = z.object({
  /** `stopping`: the instance is draining before it exits; a load balancer sends elsewhere. */
  status: z.enum(['ok', 'degraded', 'stopping']),
  database: z.enum(['ok', 'unavailable']),
  migrations: z.object({ applied: z.number().int(), expected: z.number().int() }),
});

export type Health = z.infer<typeof healthResponse>;
