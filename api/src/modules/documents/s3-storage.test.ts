import { createHash } from 'node:crypto';
import type { Document } from '@coverdesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok } from '../../../test/book-parties.js';
import { SAMPLES, uploadDocument } from '../../../test/document-files.js';
import { startS3Server } from '../../../test/s3-server.js';
import { createTestApp, signedInAgency, type TestApp } from '../../../test/test-app.js';
import { S3Store } from './storage.js';

let s3: Awaited<ReturnType<typeof startS3Server>>;
let t: TestApp;
beforeAll(async () => {
  s3 = await startS3Server();
  t = await createTestApp({ files: { kind: 's3', ...s3.config } });
});
afterAll(async () => {
  await t.close();
  await s3.close();
});

const sha256 = (content: Buffer) => createHash('sha256').update(content).digest('hex');

describe('documents kept in an S3 bucket', () => {
  it('stores the bytes under the agency and hash, gives them back, and deletes them with the document', async () => {
    const agency = await signedInAgency(t.app);
    const customer = await ok<{ id: string }>(
      agency.as.post('/api/customers/', { first_name: 'Dana', last_name: 'Levi' }),
      201,
    );
    const photo = {
      name: 'dent.jpeg',
      content: Buffer.concat([SAMPLES.jpeg.content, Buffer.alloc(3 * 1024 * 1024, 7)]),
    };
    const document = await ok<Document>(
      uploadDocument(t.app, agency.access, { customer_id: customer.id, category: 'claim_photo' }, photo),
      201,
    );
    expect(document.sha256).toBe(sha256(photo.content));
    expect(await s3.keys()).toContain(`${agency.user.tenant_id}/${document.sha256}`);

    const download = await agency.as.get(`/api/documents/${document.id}/download/`);
    expect(download.statusCode).toBe(200);
    expect(sha256(download.rawPayload)).toBe(document.sha256);
    expect(download.headers['content-disposition']).toMatch(/^inline; filename="dent.jpeg"/);

    expect((await agency.as.delete(`/api/documents/${document.id}/`)).statusCode).toBe(204);
    await t.app.documentFileReleases.settled();
    expect(await s3.keys()).not.toContain(`${agency.user.tenant_id}/${document.sha256}`);
  });

  it('deletes the object an upload stored when its document is not saved', async () => {
    const agency = await signedInAgency(t.app);
    const refused = await uploadDocument(
      t.app,
      agency.access,
      { customer_id: '01900000-0000-7000-8000-000000000001' },
      SAMPLES.pdf,
    );
    expect(refused.statusCode).toBe(404);
    expect(await s3.keys()).not.toContain(`${agency.user.tenant_id}/${sha256(SAMPLES.pdf.content)}`);
  });

  it('answers a missing object as absent, and deleting one as done', async () => {
    const store = new S3Store(s3.config);
    const key = `01900000-0000-7000-8000-000000000000/${'0'.repeat(64)}`;
    expect(await store.has(key)).toBe(false);
    expect(await store.read(key)).toBeUndefined();
    await store.delete(key);
    store.close();
  });
});
