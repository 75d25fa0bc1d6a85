import { eq, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.js';
import { withTenant } from '../../db/tenant.js';
import { HttpError } from '../../http/errors.js';
import { findDemoUser } from '../accounts/queries.js';
import { createAgency } from '../accounts/service.js';
import { users } from '../accounts/tables.js';
import { subscriptions } from '../billing/tables.js';
import type { FileStore } from '../documents/storage.js';
import { seedDemoAgency } from './agency.js';

const DEMO_EMAIL = 'demo@coverdesk.demo';

/**
 * Makes sure the sample agency behind "Try the demo" exists, with its book of business and its
 * documents' bytes in `files`. Its user has no password (only the demo login reaches it) and its
 * subscription never lapses.
 */
export async function ensureDemoAgency(db: Database, files: FileStore, now = new Date()): Promise<void> {
  await createDemoAgency(db, files, now);
  await ensureDemoMembers(db);
}

async function createDemoAgency(db: Database, files: FileStore, now: Date): Promise<void> {
  if (await findDemoUser(db)) return;
  const created = await createAgency(db, {
    email: DEMO_EMAIL,
    password: null,
    firstName: 'Dana',
    lastName: 'Demo',
    companyName: 'Harbor Lane Insurance (demo)',
    isAdmin: false,
    isDemo: true,
  }).catch((error: unknown) => {
    // Another instance starting at the same moment created it first.
    if (error instanceof HttpError) return undefined;
    throw error;
  });
  if (!created) return;
  const { tenantId } = created;
  await withTenant(db, tenantId, async (tx) => {
    await tx
      .update(subscriptions)
      .set({ status: 'active', currentPeriodEnd: null })
      .where(eq(subscriptions.tenantId, tenantId));
    await seedDemoAgency(tx, tenantId, now, files);
  });
}

/** The demo's other members, to try the agency as: an agent with a book of their own, and a viewer. */
const DEMO_MEMBERS = [
  { email: 'agent@coverdesk.demo', firstName: 'Avi', lastName: 'Mizrahi', role: 'agent' },
  { email: 'viewer@coverdesk.demo', firstName: 'Vered', lastName: 'Shalom', role: 'viewer' },
] as const;

/** Adds the demo's agent and viewer where they are missing (a demo made before teams had none). */
async function ensureDemoMembers(db: Database): Promise<void> {
  const owner = await findDemoUser(db);
  if (!owner) return;
  await db
    .insert(users)
    .values(
      DEMO_MEMBERS.map((member) => ({
        ...member,
        tenantId: owner.tenantId,
        passwordHash: null,
        isDemoUser: true,
      })),
    )
    .onConflictDoNothing();
  const agent = await findDemoUser(db, 'agent');
  if (agent) await withTenant(db, owner.tenantId, (tx) => shareDemoBook(tx, owner.id, agent.id));
}

/**
 * Every third customer of the demo is the agent's, with what hangs off them; the rest the owner's,
 * so "Mine" shows each of them a book.
 */
async function shareDemoBook(tx: Transaction, ownerId: string, agentId: string): Promise<void> {
  await tx.execute(sql`update customers c
    set assigned_to = case when ranked.n % 3 = 2 then ${agentId}::uuid else ${ownerId}::uuid end
    from (select id, row_number() over (order by created_at, id) as n from customers) ranked
    where ranked.id = c.id`);
  await tx.execute(
    sql`update policies p set assigned_to = c.assigned_to from customers c where c.id = p.customer_id`,
  );
  await tx.execute(
    sql`update claims cl set assigned_to = p.assigned_to from policies p where p.id = cl.policy_id`,
  );
}

/**
 * Rebuilds the demo agency's book as of `now`, in one tenant transaction: visitors see yesterday's
 * agency or today's, never half of one. The documents it replaces, visitors' uploads among them,
 * are queued for release by their delete trigger; the app's release runner deletes the bytes no
 * new document has. False when there is no demo agency to rebuild.
 */
export async function resetDemoAgency(db: Database, files: FileStore, now = new Date()): Promise<boolean> {
  const demo = await findDemoUser(db);
  if (!demo) return false;
  const agent = await findDemoUser(db, 'agent');
  await withTenant(db, demo.tenantId, async (tx) => {
    await seedDemoAgency(tx, demo.tenantId, now, files);
    if (agent) await shareDemoBook(tx, demo.id, agent.id);
  });
  return true;
}
