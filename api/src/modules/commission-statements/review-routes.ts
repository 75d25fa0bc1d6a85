import {
  commissionStatementDetail,
  statementLine,
  statementLineResolve,
  statementTotalUpdate,
} from '@coverdesk/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import { bearerAuth } from '../../http/authenticate.js';
import { withModule } from '../billing/access.js';
import { readLine, readStatement, requireLine, requireStatement } from './queries.js';
import { correctTotal, setResolution } from './review.js';
import { audit, errors, idParams, lineParams, MODULE, refuseAccepted, tags } from './routes.js';

/** A statement in review: its typed total corrected, its unmatched lines resolved or unresolved. */
export const statementReviewRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.patch(
      '/commission-statements/:id/',
      {
        config: { action: 'insurers' },
        schema: {
          tags,
          summary: 'Correct the typed total of a statement in review',
          description:
            '`total_amount` as typed on upload (one that reads two ways, such as `1.000`, answers 400 with both readings). The total must equal the sum of all the lines, written-off and not-ours ones included, for the statement to be accepted. Audited with the total before and after. An accepted statement answers 409: reopen it first.',
          security: bearerAuth,
          params: idParams,
          body: statementTotalUpdate,
          response: { 200: commissionStatementDetail, ...errors },
        },
      },
      async (request) =>
        withModule(ctx, request, MODULE, async (tx) => {
          const statement = await requireStatement(tx, request.params.id, { lock: true });
          refuseAccepted(statement, 'its total');
          const after = request.body.total_amount;
          const before = await correctTotal(tx, statement.id, after);
          await audit(tx, request, 'statement_total_corrected', statement.id, {
            changes: { total_amount: { before, after } },
          });
          return readStatement(tx, statement.id);
        }),
    );

    app.put(
      '/commission-statements/:id/lines/:line_number/resolution/',
      {
        config: { action: 'insurers' },
        schema: {
          tags,
          summary: 'Mark an unmatched line as not ours, or write it off',
          description:
            "`resolution`: `not_ours` (another agency's line, `reason` optional) or `written_off` (`reason` required, 400 without). Either lets the statement be accepted with the line unmatched: its amount stays in the lines' sum, which the typed total must equal, and records no receipt. A matched line, or an accepted statement, answers 409. Undone with DELETE while in review; matching the line to a policy undoes it too.",
          security: bearerAuth,
          params: lineParams,
          body: statementLineResolve,
          response: { 200: statementLine, ...errors },
        },
      },
      async (request) => {
        const { id, line_number } = request.params;
        const { resolution, reason = '' } = request.body;
        return withModule(ctx, request, MODULE, async (tx) => {
          const statement = await requireStatement(tx, id, { lock: true });
          refuseAccepted(statement);
          const line = await requireLine(tx, id, line_number);
          await setResolution(tx, id, line, { resolution, reason });
          await audit(tx, request, 'statement_line_resolved', id, {
            changes: { [`line ${line_number}`]: { before: line.resolution, after: resolution } },
            reason: reason || null,
          });
          return readLine(tx, statement, line_number);
        });
      },
    );

    app.delete(
      '/commission-statements/:id/lines/:line_number/resolution/',
      {
        config: { action: 'insurers' },
        schema: {
          tags,
          summary: 'Take back a line’s not-ours or written-off mark',
          description:
            'The line is unmatched and unresolved again, and blocks acceptance until resolved. An accepted statement answers 409: reopen it first.',
          security: bearerAuth,
          params: lineParams,
          response: { 200: statementLine, ...errors },
        },
      },
      async (request) => {
        const { id, line_number } = request.params;
        return withModule(ctx, request, MODULE, async (tx) => {
          const statement = await requireStatement(tx, id, { lock: true });
          refuseAccepted(statement);
          const line = await requireLine(tx, id, line_number);
          if (line.resolution) {
            await setResolution(tx, id, line, null);
            await audit(tx, request, 'statement_line_unresolved', id, {
              changes: { [`line ${line_number}`]: { before: line.resolution, after: null } },
            });
          }
          return readLine(tx, statement, line_number);
        });
      },
    );
  };
