import { expect } from 'vitest';
import type { signedInAgency } from './test-app.js';

/** An agency's API, signed in (`signedInAgency(...).as`). */
export type Caller = Awaited<ReturnType<typeof signedInAgency>>['as'];

/** The body of an answer that must have `status`, which the failure message shows otherwise. */
export async function ok<Body>(
  response: Promise<{ statusCode: number; body: string }>,
  status = 200,
): Promise<Body> {
  const answer = await response;
  expect(answer.statusCode, answer.body).toBe(status);
  return JSON.parse(answer.body) as Body;
}

/**
 * The parties of the worked examples that figures are checked on: two types, Harel (pays on the
 * full policy: Motor 10 %, Home 15 %) and Clal (pro rata: 12.5 % on both), and three customers.
 */
export async function addBookParties(as: Caller) {
  const motor = await ok<{ id: string }>(
    as.post('/api/policy-types/', { name: 'Motor', category: 'auto' }),
    201,
  );
  const home = await ok<{ id: string }>(
    as.post('/api/policy-types/', { name: 'Home', category: 'home' }),
    201,
  );
  const insurer = (name: string, commission_payment_method: string, motorRate: string, homeRate: string) =>
    ok<{ id: string }>(
      as.post('/api/companies/', {
        name,
        commission_payment_method,
        policy_types: [
          { policy_type_id: motor.id, commission_percentage: motorRate },
          { policy_type_id: home.id, commission_percentage: homeRate },
        ],
      }),
      201,
    );
  const harel = await insurer('Harel', 'full_policy', '10', '15');
  const clal = await insurer('Clal', 'pro_rata', '12.5', '12.5');
  const customer = async (first_name: string, last_name: string) =>
    (await ok<{ id: string }>(as.post('/api/customers/', { first_name, last_name }), 201)).id;
  const dana = await customer('Dana', 'Levi');
  const yossi = await customer('Yossi', 'Cohen');
  const rina = await customer('Rina', 'Azulay');
  return { motor, home, harel, clal, customer, dana, yossi, rina };
}
