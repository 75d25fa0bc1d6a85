import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs, bearer, createTestApp, registerAgency, type TestApp } from '../../test/test-app.js';
import { subscriptions } from '../modules/billing/tables.js';
import { APP_ROLE, BOOK_ROLE, withTenant } from './tenant.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('tenant isolation in the database', () => {
  it('shows a tenant-scoped transaction only its own agency, even when the query forgets to filter', async () => {
    const a = await registerAgency(t.app);
    const b = await registerAgency(t.app);
    const seenByA = await withTenant(t.database.db, a.user.tenant_id, (tx) =>
      tx.select().from(subscriptions),
    );
    expect(seenByA.map((row) => row.tenantId)).toEqual([a.user.tenant_id]);
    const seenByB = await withTenant(t.database.db, b.user.tenant_id, (tx) =>
      tx.select().from(subscriptions),
    );
    expect(seenByB.map((row) => row.tenantId)).toEqual([b.user.tenant_id]);
  });

  it('shows the app role no tenant rows at all without the tenant setting', async () => {
    await registerAgency(t.app);
    const rows = await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('role', ${APP_ROLE}, true)`);
      return tx.select().from(subscriptions);
    });
    expect(rows).toEqual([]);
  });

  it('runs the app role without the power to bypass row-level security, on tables that force it', async () => {
    const role = await t.database.pool.query(
      'select rolbypassrls, rolsuper from pg_roles where rolname = $1',
      [APP_ROLE],
    );
    expect(role.rows).toEqual([{ rolbypassrls: false, rolsuper: false }]);
    // Every table that holds a tenant_id forces row-level security and has the isolation policy,
    // except users and team invitations: platform tables read before any tenant is known (sign-in,
    // an invitation's link); and the queue of documents' bytes to release, which the release
    // runner works across agencies (documents/releases.ts), written only by a trigger.
    const tables = await t.database.pool.query(`
      select c.relname as table, c.relrowsecurity as enabled, c.relforcerowsecurity as forced,
             exists (select 1 from pg_policy p where p.polrelid = c.oid and p.polname = 'tenant_isolation') as policy
      from pg_class c join pg_attribute a on a.attrelid = c.oid
      where a.attname = 'tenant_id' and c.relkind = 'r' and c.relnamespace = 'public'::regnamespace
        and c.relname not in ('users', 'team_invitations', 'document_file_releases')
      order by 1`);
    expect(tables.rows.map((row) => row.table)).toEqual(
      expect.arrayContaining([
        'companies',
        'company_policy_types',
        'customers',
        'policy_types',
        'subscriptions',
      ]),
    );
    for (const row of tables.rows)
      expect(row).toEqual({ table: row.table, enabled: true, forced: true, policy: true });
  });

  it("refuses to write or change another tenant's rows from a tenant-scoped transaction", async () => {
    const a = await registerAgency(t.app);
    const b = await registerAgency(t.app);
    const writeIntoB = withTenant(t.database.db, a.user.tenant_id, async (tx) => {
      const [own] = await tx.select().from(subscriptions);
      if (!own) throw new Error('agency A has no subscription');
      await tx.insert(subscriptions).values({ ...own, id: undefined, tenantId: b.user.tenant_id });
    });
    await expect(writeIntoB).rejects.toThrow();

    const changed = await withTenant(t.database.db, a.user.tenant_id, (tx) =>
      tx
        .update(subscriptions)
        .set({ status: 'cancelled' })
        .where(eq(subscriptions.tenantId, b.user.tenant_id))
        .returning(),
    );
    expect(changed).toEqual([]);
    const bStatus = await t.app.inject({
      method: 'GET',
      url: '/api/billing/subscriptions/status/',
      headers: bearer(b.access),
    });
    expect(bStatus.json().status).toBe('trial');
  });

  it("plans the whole book's statements without the own-book policies, which only the book role carries", async () => {
    const a = await registerAgency(t.app);
    // Planned with the own-book test in it, the planner guessed it kept one row in two hundred and
    // chose nested loops for an agency's whole book: its dashboard took seconds.
    const plan = await withTenant(t.database.db, a.user.tenant_id, (tx) =>
      tx.execute<{ 'QUERY PLAN': string }>(
        sql`explain select count(*) from installments join policies on policies.id = installments.policy_id`,
      ),
    );
    const planText = plan.rows.map((row) => row['QUERY PLAN']).join('\n');
    expect(planText).toContain('tenant_id');
    expect(planText).not.toMatch(/app_book_member|customers/);

    const book = await t.database.pool.query(
      'select rolbypassrls, rolsuper, pg_has_role($1, $2, $3) as tenant_rights from pg_roles where rolname = $1',
      [BOOK_ROLE, APP_ROLE, 'USAGE'],
    );
    expect(book.rows).toEqual([{ rolbypassrls: false, rolsuper: false, tenant_rights: true }]);
  });

  it('shows the book role nothing of the book without a member whose book it is', async () => {
    const a = await registerAgency(t.app);
    await apiAs(t.app, a.access).post('/api/customers/', { first_name: 'Dana', last_name: 'Levi' });
    const seen = (role: string) =>
      withTenant(t.database.db, a.user.tenant_id, async (tx) => {
        await tx.execute(sql`select set_config('role', ${role}, true)`);
        const { rows } = await tx.execute<{ count: number }>(
          sql`select count(*)::int as count from customers`,
        );
        return rows[0]?.count;
      });
    expect(await seen(APP_ROLE)).toBe(1);
    expect(await seen(BOOK_ROLE)).toBe(0);
  });

  it('keeps platform tables out of reach inside a tenant transaction', async () => {
    const a = await registerAgency(t.app);
    const readUsers = withTenant(t.database.db, a.user.tenant_id, (tx) =>
      tx.execute(sql`select * from users`),
    );
    await expect(readUsers).rejects.toThrow();
  });
});

describe('tenant isolation through the API', () => {
  it("never returns another agency's subscription or profile", async () => {
    const a = await registerAgency(t.app, { company_name: 'Agency A' });
    const b = await registerAgency(t.app, { company_name: 'Agency B' });
    const aSub = (
      await t.app.inject({
        method: 'GET',
        url: '/api/billing/subscriptions/current/',
        headers: bearer(a.access),
      })
    ).json();
    const bSub = (
      await t.app.inject({
        method: 'GET',
        url: '/api/billing/subscriptions/current/',
        headers: bearer(b.access),
      })
    ).json();
    expect(aSub.id).not.toBe(bSub.id);
    const bProfile = (
      await t.app.inject({ method: 'GET', url: '/api/user/profile/', headers: bearer(b.access) })
    ).json();
    expect(bProfile).toMatchObject({ company_name: 'Agency B', tenant_id: b.user.tenant_id });
  });
});
