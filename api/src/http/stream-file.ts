import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import type { ModuleName } from '@coverdesk/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import type { Transaction } from '../db/client.js';
import { withModule } from '../modules/billing/access.js';

/** Resolves once the client has taken what was written: true, or false when it went away. */
async function room(out: PassThrough): Promise<boolean> {
  if (out.destroyed) return false;
  if (!out.writableNeedDrain) return true;
  await Promise.race([once(out, 'drain'), once(out, 'close')]);
  return !out.destroyed;
}

/**
 * Streams a file made in the tenant transaction, chunk by chunk as `chunks` yields them. Between
 * chunks it waits for the client to take what was written, so a slow client slows the reading
 * instead of filling the server's memory, and a client that went away stops it. Once the first
 * bytes are out, a failure can only cut the file short: it is logged and the connection closed,
 * so the download fails rather than ending as a complete-looking file.
 */
export async function streamFile(
  ctx: Pick<AppContext, 'db'>,
  request: FastifyRequest,
  reply: FastifyReply,
  module: ModuleName,
  /** The name may be read in the transaction, as a file named after the agency's day is. */
  file: { type: string; name: string | ((tx: Transaction) => Promise<string>) },
  chunks: (tx: Transaction, tenantId: string) => AsyncIterable<string | Buffer>,
) {
  const out = new PassThrough();
  let sending = false;
  try {
    await withModule(ctx, request, module, async (tx, { tenantId }) => {
      const name = typeof file.name === 'string' ? file.name : await file.name(tx);
      for await (const chunk of chunks(tx, tenantId)) {
        if (!sending) {
          sending = true;
          reply.type(file.type).header('content-disposition', `attachment; filename="${name}"`).send(out);
        }
        if (!(await room(out))) return;
        out.write(chunk);
      }
      out.end();
    });
  } catch (error) {
    if (!sending) throw error;
    request.log.error({ err: error }, 'an export failed part way');
    out.destroy(error as Error);
  }
  return reply;
}
