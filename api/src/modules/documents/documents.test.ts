import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type Document, MAX_DOCUMENT_BYTES } from '@coverdesk/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok } from '../../../test/book-parties.js';
import { documentForm, type FilePart, SAMPLES, uploadDocument } from '../../../test/document-files.js';
import { addPolicyParties, insertPolicy } from '../../../test/insert-policy.js';
import { addTeamMember as addMember } from '../../../test/team-book.js';
import {
  bearer,
  createTestApp,
  databaseCalendar,
  PASSWORD,
  signedInAgency,
  type TestApp,
} from '../../../test/test-app.js';
import { withTenant } from '../../db/tenant.js';
import { auditLog } from '../audit/tables.js';
import { plans, subscriptions } from '../billing/tables.js';
import { tenants } from '../tenants/tables.js';
import { keepDocument, storeFile } from './keep.js';

let t: TestApp;
let day: (days: number) => string;
beforeAll(async () => {
  t = await createTestApp();
  ({ day } = await databaseCalendar(t));
});
afterAll(() => t.close());

const filesDir = () => {
  if (t.config.files.kind !== 'disk') throw new Error('these tests keep files on disk');
  return t.config.files.dir;
};
const stored = (tenantId: string, sha256: string) => existsSync(path.join(filesDir(), tenantId, sha256));
const incoming = () => {
  const dir = path.join(filesDir(), '.incoming');
  return existsSync(dir) ? readdirSync(dir) : [];
};
const sha256 = (content: Buffer) => createHash('sha256').update(content).digest('hex');

/** An agency with a customer, a policy of theirs and a claim on it, and a lead. */
async function setUp() {
  const agency = await signedInAgency(t.app);
  const parties = await addPolicyParties(agency.as);
  const policy = await insertPolicy(t, agency.user.tenant_id, parties, {
    start_date: day(-30),
    end_date: day(334),
  });
  const claim = await ok<{ id: string }>(
    agency.as.post('/api/claims/', {
      policy_id: policy.id,
      incident_date: day(-3),
      claim_type: 'accident',
      amount_claimed: '4200.00',
    }),
    201,
  );
  const lead = await ok<{ id: string }>(
    agency.as.post('/api/leads/', { first_name: 'Maya', last_name: 'Golan' }),
    201,
  );
  const upload = (fields: Record<string, string>, file: FilePart = SAMPLES.pdf) =>
    uploadDocument(t.app, agency.access, fields, file);
  const uploaded = async (fields: Record<string, string>, file: FilePart = SAMPLES.pdf) =>
    ok<Document>(upload(fields, file), 201);
  const list = (query: string) =>
    ok<{ count: number; next: string | null; results: Document[] }>(
      agency.as.get(`/api/documents/?${query}`),
    );
  return {
    ...agency,
    tenantId: agency.user.tenant_id,
    customerId: parties.customerId,
    policyId: policy.id,
    claimId: claim.id,
    leadId: lead.id,
    upload,
    uploaded,
    list,
  };
}

describe('uploading and reading documents', () => {
  it('keeps a file on a policy, shows it on the customer too, and gives the same bytes back', async () => {
    const agency = await setUp();
    const document = await agency.uploaded({ policy_id: agency.policyId, category: 'policy_document' });
    expect(document).toMatchObject({
      file_name: 'schedule.pdf',
      content_type: 'application/pdf',
      size: SAMPLES.pdf.content.length,
      sha256: sha256(SAMPLES.pdf.content),
      category: 'policy_document',
      customer_id: agency.customerId,
      policy_id: agency.policyId,
      claim_id: null,
      lead_id: null,
      uploaded_by: agency.user.id,
      uploaded_by_name: 'Noa Peretz',
    });
    expect((await agency.list(`policy_id=${agency.policyId}`)).results.map((each) => each.id)).toEqual([
      document.id,
    ]);
    expect((await agency.list(`customer_id=${agency.customerId}`)).count).toBe(1);

    const download = await agency.as.get(`/api/documents/${document.id}/download/`);
    expect(download.statusCode).toBe(200);
    expect(sha256(download.rawPayload)).toBe(document.sha256);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-disposition']).toMatch(/^inline; filename="schedule.pdf"/);
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    expect(stored(agency.tenantId, document.sha256)).toBe(true);
    expect(incoming()).toEqual([]);
  });

  it('lists newest first, in pages, a customer with the documents of their policies, claims and lead', async () => {
    const agency = await setUp();
    await withTenant(t.database.db, agency.tenantId, (tx) =>
      tx.execute(sql`update leads set customer_id = ${agency.customerId} where id = ${agency.leadId}`),
    );
    const names = ['one.txt', 'two.txt', 'three.txt', 'four.txt'];
    const owners: Record<string, string>[] = [
      { customer_id: agency.customerId },
      { policy_id: agency.policyId },
      { claim_id: agency.claimId },
      { lead_id: agency.leadId },
    ];
    for (const [index, name] of names.entries()) {
      await agency.uploaded(owners[index] ?? {}, { name, content: Buffer.from(`Note ${index}\n`) });
    }
    const page = await agency.list(`customer_id=${agency.customerId}&page_size=3`);
    expect(page.count).toBe(4);
    expect(page.results.map((each) => each.file_name)).toEqual(['four.txt', 'three.txt', 'two.txt']);
    expect(page.next).toContain('page=2');
    expect((await agency.list(`claim_id=${agency.claimId}`)).results.map((each) => each.file_name)).toEqual([
      'three.txt',
    ]);
    expect((await agency.list(`lead_id=${agency.leadId}`)).count).toBe(1);
    expect(
      (await agency.as.get(`/api/documents/?customer_id=${agency.customerId}&lead_id=${agency.leadId}`))
        .statusCode,
    ).toBe(400);
    expect((await agency.as.get('/api/documents/')).statusCode).toBe(400);
  });

  it('sends other types as attachments, and renames and recategorises keeping the extension', async () => {
    const agency = await setUp();
    const note = await agency.uploaded({ customer_id: agency.customerId }, SAMPLES.txt);
    const download = await agency.as.get(`/api/documents/${note.id}/download/`);
    expect(download.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename="notes.txt"/);
    expect(download.rawPayload.equals(SAMPLES.txt.content)).toBe(true);

    const renamed = await ok<Document>(
      agency.as.patch(`/api/documents/${note.id}/`, {
        file_name: 'call with Harel.html',
        category: 'correspondence',
      }),
    );
    expect(renamed).toMatchObject({ file_name: 'call with Harel.txt', category: 'correspondence' });
    expect((await agency.as.patch(`/api/documents/${note.id}/`, { file_name: ' ' })).json()).toEqual({
      file_name: ['Give the document a name.'],
    });
    expect((await agency.as.patch(`/api/documents/${note.id}/`, { category: 'photo' })).statusCode).toBe(400);
  });

  it('asks for one record, a known category and a file', async () => {
    const agency = await setUp();
    expect((await agency.upload({}, SAMPLES.pdf)).json()).toEqual({
      customer_id: ['Attach the document to one customer, policy, claim or lead.'],
    });
    expect((await agency.upload({ customer_id: agency.customerId, category: 'receipt' })).statusCode).toBe(
      400,
    );
    const form = documentForm({ customer_id: agency.customerId });
    const noFile = await t.app.inject({
      method: 'POST',
      url: '/api/documents/',
      payload: form.payload,
      headers: { ...form.headers, ...bearer(agency.access) },
    });
    expect(noFile.json()).toEqual({ file: ['Choose a file to upload.'] });
    expect(
      (
        await agency.upload(
          { customer_id: agency.customerId },
          { name: 'empty.pdf', content: Buffer.alloc(0) },
        )
      ).json(),
    ).toEqual({
      file: ['This file is empty.'],
    });
    expect(incoming()).toEqual([]);
  });
});

describe('types by content', () => {
  it('keeps every allowed type whose bytes are what its name says', async () => {
    const agency = await setUp();
    for (const sample of Object.values(SAMPLES)) {
      const document = await agency.uploaded({ customer_id: agency.customerId }, sample);
      // The extension as the type's own: `IMG_0042.HEIC` is kept as `IMG_0042.heic`.
      expect(document.file_name).toBe(sample.name.replace(/\.\w+$/, (extension) => extension.toLowerCase()));
    }
    expect(
      (await agency.list(`customer_id=${agency.customerId}&page_size=50`)).results
        .map((each) => each.content_type)
        .sort(),
    ).toEqual([
      'application/pdf',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'image/heic',
      'image/jpeg',
      'image/png',
      'image/webp',
      'message/rfc822',
      'text/csv',
      'text/plain',
    ]);
  });

  it('refuses a program renamed .pdf, and other bytes that are not what the name says, with 415', async () => {
    const agency = await setUp();
    const program = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), randomBytes(200)]);
    const cases: FilePart[] = [
      { name: 'schedule.pdf', content: program },
      { name: 'notes.txt', content: program },
      { name: 'photo.png', content: SAMPLES.jpeg.content },
      { name: 'proposal.docx', content: SAMPLES.xlsx.content },
      { name: 'fleet.xlsx', content: Buffer.concat([Buffer.from('PK\x03\x04'), randomBytes(100)]) },
      { name: 'reply.eml', content: Buffer.from('Just some words, no headers.\n') },
      { name: 'broken.csv', content: Buffer.from([0x61, 0x2c, 0xff, 0xfe, 0x0a]) },
    ];
    for (const file of cases) {
      const answer = await agency.upload({ customer_id: agency.customerId }, file);
      expect(answer.statusCode, file.name).toBe(415);
      expect(answer.json().detail).toMatch(
        /^This file is not a [A-Z]+ file, whatever its name says\. Coverdesk keeps PDF/,
      );
    }
    const script = await agency.upload(
      { customer_id: agency.customerId },
      { name: 'setup.exe', content: program },
    );
    expect(script.statusCode).toBe(415);
    expect(script.json().detail).toMatch(/^Coverdesk cannot keep this type of file\./);
    expect((await agency.list(`customer_id=${agency.customerId}`)).count).toBe(0);
    expect(incoming()).toEqual([]);
  });

  it('refuses a file over 25 MB with 413 before reading it, and one cut off while read', async () => {
    const agency = await setUp();
    const tooBig = {
      name: 'scan.pdf',
      content: Buffer.concat([Buffer.from('%PDF-'), Buffer.alloc(MAX_DOCUMENT_BYTES - 4)]),
    };
    const answer = await agency.upload({ customer_id: agency.customerId }, tooBig);
    expect(answer.statusCode).toBe(413);
    expect(answer.json()).toEqual({ detail: 'A document can be at most 25 MB.' });

    // Declared small (a client lying about its length, or sending in chunks): cut off at the limit.
    const form = documentForm({ customer_id: agency.customerId }, tooBig);
    const chunked = await t.app.inject({
      method: 'POST',
      url: '/api/documents/',
      payload: form.payload,
      headers: { ...form.headers, ...bearer(agency.access), 'transfer-encoding': 'chunked' },
    });
    expect(chunked.statusCode).toBe(413);
    expect((await agency.list(`customer_id=${agency.customerId}`)).count).toBe(0);
    expect(incoming()).toEqual([]);
  });
});

describe('isolation', () => {
  it("answers 404 for another agency's documents and records, to read, attach, change and delete", async () => {
    const agency = await setUp();
    const stranger = await setUp();
    const theirs = await stranger.uploaded({ customer_id: stranger.customerId });
    for (const path of [`/api/documents/${theirs.id}/`, `/api/documents/${theirs.id}/download/`]) {
      expect((await agency.as.get(path)).statusCode, path).toBe(404);
    }
    expect((await agency.as.patch(`/api/documents/${theirs.id}/`, { category: 'id' })).statusCode).toBe(404);
    expect((await agency.as.delete(`/api/documents/${theirs.id}/`)).statusCode).toBe(404);
    for (const owner of ['customer_id', 'policy_id', 'claim_id', 'lead_id'] as const) {
      const id = {
        customer_id: stranger.customerId,
        policy_id: stranger.policyId,
        claim_id: stranger.claimId,
        lead_id: stranger.leadId,
      }[owner];
      expect((await agency.upload({ [owner]: id })).statusCode, owner).toBe(404);
      expect((await agency.as.get(`/api/documents/?${owner}=${id}`)).statusCode, owner).toBe(404);
    }
    expect((await stranger.list(`customer_id=${stranger.customerId}`)).count).toBe(1);
    // The same bytes kept by two agencies are two files, one each.
    const mine = await agency.uploaded({ customer_id: agency.customerId });
    expect(stored(agency.tenantId, mine.sha256) && stored(stranger.tenantId, theirs.sha256)).toBe(true);
  });
});

describe('an agency that shows agents only their own book', () => {
  it("hides the documents of another member's customers from an agent, as missing", async () => {
    const agency = await setUp();
    const agent = await addMember(t.app, agency, 'agent', 'Ari');
    const arisCustomer = await ok<{ id: string }>(
      agent.as.post('/api/customers/', { first_name: 'Ariel', last_name: 'Levi' }),
      201,
    );
    const his = await ok<Document>(
      uploadDocument(t.app, agent.access, { customer_id: arisCustomer.id }, SAMPLES.txt),
      201,
    );
    const owners = await agency.uploaded({ policy_id: agency.policyId });
    expect((await agency.as.patch('/api/team/settings/', { agents_see_own_book: true })).statusCode).toBe(
      200,
    );

    const listed = await ok<{ results: Document[] }>(
      agent.as.get(`/api/documents/?customer_id=${arisCustomer.id}`),
    );
    expect(listed.results.map((each) => each.id)).toEqual([his.id]);
    for (const url of [
      `/api/documents/${owners.id}/`,
      `/api/documents/${owners.id}/download/`,
      `/api/documents/?customer_id=${agency.customerId}`,
      `/api/documents/?policy_id=${agency.policyId}`,
    ]) {
      expect((await agent.as.get(url)).statusCode, url).toBe(404);
    }
    expect((await agent.as.delete(`/api/documents/${owners.id}/`)).statusCode).toBe(404);
    expect(
      (await uploadDocument(t.app, agent.access, { customer_id: agency.customerId }, SAMPLES.csv)).statusCode,
    ).toBe(404);
    // The owner still sees the whole book.
    expect((await agency.list(`customer_id=${agency.customerId}`)).count).toBe(1);
  });
});

describe('the plan', () => {
  it('counts megabytes of documents as usage and refuses an upload past the limit with 402', async () => {
    const agency = await setUp();
    const name = `tiny-${randomBytes(4).toString('hex')}`;
    const [plan] = await t.database.db
      .insert(plans)
      .values({
        name,
        displayName: 'Tiny',
        description: 'One megabyte of documents.',
        priceMonthly: '1.00',
        priceYearly: '10.00',
        trialDays: 14,
        features: {
          included: ['module_customers', 'module_policies', 'module_claims', 'module_leads'],
          excluded: [],
        },
        limits: { policies: 10, customers: 10, leads: 10, users: 10, storage_mb: 1 },
      })
      .returning();
    await withTenant(t.database.db, agency.tenantId, (tx) =>
      tx
        .update(subscriptions)
        .set({ planId: plan?.id ?? '' })
        .where(eq(subscriptions.tenantId, agency.tenantId)),
    );
    const half = (fill: number) => ({
      name: 'scan.pdf',
      content: Buffer.concat([Buffer.from('%PDF-'), Buffer.alloc(600 * 1024, fill)]),
    });
    await agency.uploaded({ customer_id: agency.customerId }, half(1));
    const summary = await ok<{ storage_mb: { current_value: number; limit_value: number } }>(
      agency.as.get('/api/billing/usage/summary/'),
    );
    expect(summary.storage_mb).toMatchObject({ current_value: 1, limit_value: 1 });
    const refused = await agency.upload({ customer_id: agency.customerId }, half(2));
    expect(refused.statusCode).toBe(402);
    expect(refused.json().detail).toBe(
      'Your Tiny plan allows up to 1 MB of documents; Starter allows 1,000 MB. The agency keeps 0.6 MB and this file is 0.6 MB. Upgrade your plan on the Billing page to add more.',
    );
    expect(stored(agency.tenantId, sha256(half(2).content))).toBe(false);
    expect(incoming()).toEqual([]);
  });
});

describe('storing before the transaction', () => {
  it('stores the bytes again when they were released between storing them and writing the row', async () => {
    const agency = await setUp();
    mkdirSync(path.join(filesDir(), '.incoming'), { recursive: true });
    const file = {
      path: path.join(filesDir(), '.incoming', 'drivers'),
      size: SAMPLES.csv.content.length,
      sha256: sha256(SAMPLES.csv.content),
    };
    writeFileSync(file.path, SAMPLES.csv.content);
    await storeFile(t.files, agency.tenantId, file);
    expect(stored(agency.tenantId, file.sha256)).toBe(true);
    // Another upload of the same bytes failed meanwhile, and released them.
    await t.app.documentFileReleases.releaseIfUnused(agency.tenantId, file.sha256);
    expect(stored(agency.tenantId, file.sha256)).toBe(false);
    const row = await withTenant(t.database.db, agency.tenantId, (tx) =>
      keepDocument(tx, t.files, agency.tenantId, file, {
        attachment: { customerId: agency.customerId, policyId: null, claimId: null, leadId: null },
        fileName: 'drivers.csv',
        contentType: 'text/csv',
        category: 'other',
        uploadedBy: { id: agency.user.id, name: 'Noa Peretz' },
      }),
    );
    rmSync(file.path);
    const download = await agency.as.get(`/api/documents/${row.id}/download/`);
    expect(download.rawPayload.equals(SAMPLES.csv.content)).toBe(true);
  });
});

describe('the demo agency', () => {
  it('keeps files of up to 2 MB, and 20 MB among all its visitors', async () => {
    const agency = await setUp();
    await t.database.db.update(tenants).set({ isDemo: true }).where(eq(tenants.id, agency.tenantId));
    const scan = (bytes: number) => ({
      name: 'scan.pdf',
      content: Buffer.concat([Buffer.from('%PDF-'), Buffer.alloc(bytes - 5)]),
    });
    const megabytes = 1024 * 1024;
    const tooLarge = await agency.upload({ customer_id: agency.customerId }, scan(2 * megabytes + 1));
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json()).toEqual({
      detail: 'The demo agency keeps documents of up to 2 MB; register to keep files of up to 25 MB.',
    });
    // The same file ten times is stored once but counts ten times, as the plan counts it.
    for (let i = 0; i < 10; i++)
      await agency.uploaded({ customer_id: agency.customerId }, scan(2 * megabytes));
    const full = await agency.upload({ policy_id: agency.policyId }, SAMPLES.txt);
    expect(full.statusCode).toBe(402);
    expect(full.json()).toEqual({
      detail:
        "The demo agency's visitors share 20 MB of documents, and they are used up until the demo is rebuilt tonight: register to keep your own.",
    });
    expect(stored(agency.tenantId, sha256(SAMPLES.txt.content))).toBe(false);
    expect(stored(agency.tenantId, sha256(scan(2 * megabytes + 1).content))).toBe(false);
    expect(incoming()).toEqual([]);
  });
});

describe('deletion', () => {
  it('deletes a document, audited, and its bytes once no other document has them', async () => {
    const agency = await setUp();
    const first = await agency.uploaded({ customer_id: agency.customerId });
    const second = await agency.uploaded({ policy_id: agency.policyId });
    expect(second.sha256).toBe(first.sha256);
    expect((await agency.as.delete(`/api/documents/${first.id}/`)).statusCode).toBe(204);
    await t.app.documentFileReleases.settled();
    expect(stored(agency.tenantId, first.sha256)).toBe(true);
    expect(
      (await agency.as.get(`/api/documents/${second.id}/download/`)).rawPayload.equals(SAMPLES.pdf.content),
    ).toBe(true);
    expect((await agency.as.delete(`/api/documents/${second.id}/`)).statusCode).toBe(204);
    await t.app.documentFileReleases.settled();
    expect(stored(agency.tenantId, first.sha256)).toBe(false);
    const logged = await withTenant(t.database.db, agency.tenantId, (tx) =>
      tx.select().from(auditLog).where(eq(auditLog.entityId, first.id)),
    );
    expect(logged.map((entry) => entry.action).sort()).toEqual(['create', 'delete']);
  });

  it("deletes the bytes of a claim's, a policy's and a customer's documents with them", async () => {
    const agency = await setUp();
    const onClaim = await agency.uploaded({ claim_id: agency.claimId }, SAMPLES.png);
    expect((await agency.as.delete(`/api/claims/${agency.claimId}/`)).statusCode).toBe(204);
    await t.app.documentFileReleases.settled();
    expect(stored(agency.tenantId, onClaim.sha256)).toBe(false);

    const onPolicy = await agency.uploaded({ policy_id: agency.policyId }, SAMPLES.jpeg);
    const secure = await agency.as.post(`/api/policies/${agency.policyId}/secure-delete/`, {
      password: PASSWORD,
    });
    expect(secure.statusCode, secure.body).toBe(204);
    await t.app.documentFileReleases.settled();
    expect(stored(agency.tenantId, onPolicy.sha256)).toBe(false);

    const onCustomer = await agency.uploaded({ customer_id: agency.customerId }, SAMPLES.webp);
    expect((await agency.as.delete(`/api/customers/${agency.customerId}/`)).statusCode).toBe(204);
    await t.app.documentFileReleases.settled();
    expect(stored(agency.tenantId, onCustomer.sha256)).toBe(false);
    expect((await agency.as.get(`/api/documents/${onCustomer.id}/`)).statusCode).toBe(404);
  });

  it("deletes all of an agency's files when the agency is deleted", async () => {
    const agency = await setUp();
    const kept = [
      await agency.uploaded({ customer_id: agency.customerId }, SAMPLES.txt),
      await agency.uploaded({ lead_id: agency.leadId }, SAMPLES.csv),
    ];
    await t.database.db.execute(sql`delete from tenants where id = ${agency.tenantId}`);
    await t.app.documentFileReleases.settled();
    for (const document of kept) expect(stored(agency.tenantId, document.sha256)).toBe(false);
  });
});
