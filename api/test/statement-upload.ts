import type { CommissionStatementDetail } from '@coverdesk/contract';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { type Caller, ok } from './book-parties.js';
import { multipartForm } from './multipart-form.js';
import { bearer } from './test-app.js';

/** A commission statement's CSV uploaded as the broker's browser sends it. */
export function uploadStatement(
  app: FastifyInstance,
  access: string,
  fields: Record<string, string>,
  file: Buffer,
  name = 'statement.csv',
) {
  const body = multipartForm(fields, { field: 'file', name, type: 'text/csv', content: file });
  return app.inject({
    method: 'POST',
    url: '/api/commission-statements/',
    payload: body.payload,
    headers: { ...body.headers, ...bearer(access) },
  });
}

/** The statement once its job has read and matched it (the upload answers while it is processing). */
export async function readThrough(
  as: Caller,
  accepted: { statusCode: number; body: string; json(): unknown },
) {
  expect(accepted.statusCode, accepted.body).toBe(202);
  const { id } = accepted.json() as CommissionStatementDetail;
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
    const statement = await ok<CommissionStatementDetail>(as.get(`/api/commission-statements/${id}/`));
    if (statement.status !== 'processing') return statement;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`statement ${id} still processing after 30 s`);
}
