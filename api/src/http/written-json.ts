import type { FastifyReply } from 'fastify';

/**
 * Sends JSON the database already wrote, as written. The route's response schema still documents
 * the body but must not parse and serialize it again: for a large answer that was most of the
 * request's own time.
 */
export function sendWrittenJson(reply: FastifyReply, body: string) {
  return reply
    .serializer((written: string) => written)
    .type('application/json; charset=utf-8')
    .send(body);
}
