import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  type ZodFastifySchemaValidationError,
} from 'fastify-type-provider-zod';
import type { z } from 'zod';

/** An error whose status and JSON body are meant for the client as they are. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.detail === 'string' ? body.detail : `HTTP ${statusCode}`);
  }
}

export const notFound = (detail = 'Not found.') => new HttpError(404, { detail });
export const unauthorized = (detail: string) =>
  new HttpError(401, { detail }, { 'www-authenticate': 'Bearer realm="api"' });
export const fieldError = (field: string, message: string) => new HttpError(400, { [field]: [message] });
export const conflict = (body: { detail: string } & Record<string, unknown>) => new HttpError(409, body);

/** Messages for a request that is not a field-by-field problem. */
const ROOT_FIELD = 'non_field_errors';

function toFieldErrors(issues: { field: string; message: string | undefined }[]): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const { field, message } of issues) {
    const name = field || ROOT_FIELD;
    const text = name === ROOT_FIELD ? 'The request must be a JSON object.' : (message ?? 'Invalid value.');
    errors[name] = [...(errors[name] ?? []), text];
  }
  return errors;
}

const fromValidation = (issues: ZodFastifySchemaValidationError[]) =>
  toFieldErrors(
    issues.map((issue) => ({
      field: issue.instancePath.replace(/^\//, '').replaceAll('/', '.'),
      message: issue.message,
    })),
  );

/**
 * Checks a value against a schema inside a handler, for bodies whose schema depends on what they
 * hold; failures answer 400 with the same field messages as route validation.
 */
export function parseWith<Schema extends z.ZodType>(schema: Schema, value: unknown): z.output<Schema> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HttpError(400, toFieldErrors([{ field: '', message: undefined }]));
  }
  throw new HttpError(
    400,
    toFieldErrors(
      result.error.issues.map((issue) => ({ field: issue.path.join('.'), message: issue.message })),
    ),
  );
}

/**
 * Every error leaves as JSON in one of the documented shapes; anything unexpected is logged with its
 * stack and answered with a plain 500, never the stack itself.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    // Error bodies are built here in their documented shapes; the route's response schemas
    // describe them for OpenAPI but must not re-serialize them.
    reply.serializer(JSON.stringify).type('application/json; charset=utf-8');
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).headers(error.headers).send(error.body);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply.code(400).send(fromValidation(error.validation));
    }
    // A client that hung up mid-upload (or was cut for its pace) hears nothing back: nothing failed here.
    if (request.raw.destroyed && !request.raw.complete) {
      request.log.info({ reason: error.message }, 'the client went away before its request was whole');
      return reply.code(400).send({ detail: 'The request ended before its body was whole.' });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (malformed JSON, body too large, wrong content type) say what
      // went wrong without revealing anything internal.
      return reply.code(status).send({ detail: error.message });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ detail: 'Something went wrong on our side. Please try again.' });
  });
}

/**
 * Fastify's router refuses a path it cannot decode (400) or a path parameter past its length limit
 * (414) before any route or error handler runs, with a body of its own naming its internal error
 * code; these answers take the documented shape too.
 */
export function answerFrameworkError(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  const status = error.statusCode ?? 400;
  const detail = status === 414 ? 'This address is too long.' : 'This address cannot be read.';
  reply.code(status).type('application/json; charset=utf-8').send({ detail });
}
