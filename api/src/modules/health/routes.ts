import { healthResponse } from '@coverdesk/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type pg from 'pg';
import { appliedMigrationCount, expectedMigrationCount } from '../../db/migrate.js';

export const healthRoutes =
  (pool: pg.Pool): FastifyPluginAsyncZod =>
  async (app) => {
    const expected = expectedMigrationCount();
    app.get(
      '/health/',
      {
        schema: {
          tags: ['operations'],
          summary: 'Database reachable and migration level; 503 while the instance stops',
          response: { 200: healthResponse, 503: healthResponse },
        },
      },
      async (request, reply) => {
        try {
          const applied = await appliedMigrationCount(pool);
          const status = app.draining ? 'stopping' : applied === expected ? 'ok' : 'degraded';
          return reply
            .code(status === 'ok' ? 200 : 503)
            .send({ status, database: 'ok', migrations: { applied, expected } });
        } catch (err) {
          request.log.error({ err }, 'health check could not reach the database');
          return reply
            .code(503)
            .send({ status: 'degraded', database: 'unavailable', migrations: { applied: 0, expected } });
        }
      },
    );
  };
