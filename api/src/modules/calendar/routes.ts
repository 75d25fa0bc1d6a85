import {
  addDays,
  CALENDAR_DAY_DETAIL_LIMIT,
  calendarEventList,
  calendarEventsQuery,
  calendarFeed,
  calendarKindsFor,
  detailResponse,
  fieldErrorsResponse,
  leadAssigneeList,
  MAX_CALENDAR_RANGE_DAYS,
  type MeetingValues,
  meeting,
  meetingBody,
  meetingList,
  meetingListQuery,
  uuid,
} from '@coverdesk/contract';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Transaction } from '../../db/client.js';
import { agencyToday } from '../../db/tenant.js';
import { bearerAuth } from '../../http/authenticate.js';
import { HttpError, notFound } from '../../http/errors.js';
import { sendWrittenJson } from '../../http/written-json.js';
import { twoStepDeadline } from '../accounts/queries.js';
import { users } from '../accounts/tables.js';
import { hashToken, randomToken } from '../accounts/tokens.js';
import { authorizeModule, PlanRefusal, withModule, withModuleFor } from '../billing/access.js';
import { listAssignees } from '../leads/queries.js';
import { isDemoAgency } from '../tenants/queries.js';
import { tenants } from '../tenants/tables.js';
import { turnOffCalendarFeed } from './feeds.js';
import { calendarFeedText } from './ics.js';
import {
  calendarEventsJson,
  createMeeting,
  deleteMeeting,
  findMeeting,
  findMeetingParties,
  listCalendarEvents,
  listMeetings,
  meetingDetails,
  updateMeeting,
} from './queries.js';
import { calendarFeeds } from './tables.js';

const idParams = z.object({ id: uuid });
const tags = ['calendar'];
const errors = { 400: fieldErrorsResponse, 402: detailResponse, 403: detailResponse, 404: detailResponse };
const NOT_FOUND = 'Meeting not found.';
const MODULE = 'module_calendar';
/** What a subscribed calendar app is sent: the last three months and the year ahead. */
const FEED_DAYS_BACK = 90;
const FEED_DAYS_AHEAD = 365;

async function requireMeeting(tx: Transaction, tenantId: string, id: string) {
  const found = await findMeeting(tx, tenantId, id);
  if (!found) throw notFound(NOT_FOUND);
  return found;
}

/** The customer and the lead must be the agency's own; another agency's would be stored and shown nowhere. */
async function checkParties(tx: Transaction, tenantId: string, values: MeetingValues) {
  const { customerFound, leadFound } = await findMeetingParties(tx, tenantId, values);
  const messages: Record<string, string[]> = {};
  if (!customerFound) messages.customer_id = ['No customer with this id.'];
  if (!leadFound) messages.lead_id = ['No lead with this id.'];
  if (Object.keys(messages).length > 0) throw new HttpError(400, messages);
}

/** The feed is text, not one of the JSON shapes the route's schemas describe. */
const sendCalendar = (reply: FastifyReply, text: string) =>
  reply.type('text/calendar; charset=utf-8').send(text);

const feedState = (row: { createdAt: Date } | undefined, url: string | null = null) => ({
  active: row !== undefined,
  created_at: row?.createdAt.toISOString() ?? null,
  url,
});

/** The unified calendar: events read from the agency's records, meetings, and a feed for calendar apps. */
export const calendarRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/calendar/events/',
      {
        schema: {
          tags,
          summary: 'The calendar of a window of days',
          description: `Renewals (end dates of policies neither cancelled nor renewed), unpaid instalments (\`overdue\` once past due), follow-ups of open leads, claim incident and reported dates, and meetings, read from the records themselves. Days are the agency's, in its time zone; at most ${MAX_CALENDAR_RANGE_DAYS} days per request. Kinds whose module the plan lacks are left out. A day with more than ${CALENDAR_DAY_DETAIL_LIMIT} records of a kind shows one summary event for them (\`count\`), linking to the list of that day. A filter keeps only the events that carry it: \`company\` leaves out follow-ups and meetings, \`assignee\` keeps only follow-ups and meetings.`,
          security: bearerAuth,
          querystring: calendarEventsQuery,
          response: { 200: calendarEventList, ...errors },
        },
      },
      async (request, reply) => {
        const { kinds, ...window } = request.query;
        const results = await withModule(ctx, request, MODULE, (tx, { tenantId }, modules) =>
          calendarEventsJson(tx, tenantId, { ...window, kinds: calendarKindsFor(modules, kinds) }),
        );
        return sendWrittenJson(reply, `{"results":${results}}`);
      },
    );

    app.get(
      '/calendar/users/',
      {
        schema: {
          tags,
          summary: 'The users of the agency, for the assignee filter',
          security: bearerAuth,
          response: { 200: leadAssigneeList, ...errors },
        },
      },
      async (request) => ({ results: await withModule(ctx, request, MODULE, (tx) => listAssignees(tx)) }),
    );

    app.get(
      '/calendar/meetings/',
      {
        schema: {
          tags,
          summary: 'Meetings overlapping a window of days',
          security: bearerAuth,
          querystring: meetingListQuery,
          response: { 200: meetingList, ...errors },
        },
      },
      async (request) => ({
        results: await withModule(ctx, request, MODULE, (tx, { tenantId }) =>
          listMeetings(tx, tenantId, request.query),
        ),
      }),
    );

    app.post(
      '/calendar/meetings/',
      {
        schema: {
          tags,
          summary: 'Add a meeting',
          description:
            'The signed-in user becomes its owner. A customer and a lead, when named, must be the agency’s.',
          security: bearerAuth,
          body: meetingBody,
          response: { 201: meeting, ...errors },
        },
      },
      async (request, reply) => {
        const created = await withModule(ctx, request, MODULE, async (tx, { tenantId, userId }) => {
          await checkParties(tx, tenantId, request.body);
          const id = await createMeeting(tx, tenantId, userId, request.body);
          return requireMeeting(tx, tenantId, id);
        });
        return reply.code(201).send(created);
      },
    );

    app.get(
      '/calendar/meetings/:id/',
      {
        schema: {
          tags,
          summary: 'One meeting',
          security: bearerAuth,
          params: idParams,
          response: { 200: meeting, ...errors },
        },
      },
      async (request) =>
        withModule(ctx, request, MODULE, (tx, { tenantId }) =>
          requireMeeting(tx, tenantId, request.params.id),
        ),
    );

    app.put(
      '/calendar/meetings/:id/',
      {
        schema: {
          tags,
          summary: 'Replace a meeting (moved, resized or edited)',
          security: bearerAuth,
          params: idParams,
          body: meetingBody,
          response: { 200: meeting, ...errors },
        },
      },
      async (request) =>
        withModule(ctx, request, MODULE, async (tx, { tenantId }) => {
          await requireMeeting(tx, tenantId, request.params.id);
          await checkParties(tx, tenantId, request.body);
          await updateMeeting(tx, tenantId, request.params.id, request.body);
          return requireMeeting(tx, tenantId, request.params.id);
        }),
    );

    app.delete(
      '/calendar/meetings/:id/',
      {
        schema: {
          tags,
          summary: 'Delete a meeting',
          security: bearerAuth,
          params: idParams,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await withModule(ctx, request, MODULE, async (tx, { tenantId }) => {
          if (!(await deleteMeeting(tx, tenantId, request.params.id))) throw notFound(NOT_FOUND);
        });
        return reply.code(204).send(null);
      },
    );

    const feedOf = (userId: string) =>
      ctx.db
        .select({ createdAt: calendarFeeds.createdAt })
        .from(calendarFeeds)
        .where(eq(calendarFeeds.userId, userId));

    app.get(
      '/calendar/feed/',
      {
        schema: {
          tags,
          summary: "Whether the signed-in user's calendar feed is on",
          description:
            'The address itself was shown once, when it was made: only a hash of its secret is kept.',
          security: bearerAuth,
          response: { 200: calendarFeed, ...errors },
        },
      },
      async (request) => {
        const { userId } = await authorizeModule(ctx, request, MODULE);
        const [row] = await feedOf(userId);
        return feedState(row);
      },
    );

    app.post(
      '/calendar/feed/',
      {
        // A feed publishes the book without signing in: it takes what reading the book takes, and a
        // member their agency's two-step requirement shuts out makes none.
        config: { action: 'read' },
        schema: {
          tags,
          summary: 'Make a new calendar feed address',
          description: `Answers the address, once. An earlier address of the user stops working. The feed holds the agency's events from ${FEED_DAYS_BACK} days ago to ${FEED_DAYS_AHEAD} days ahead as iCalendar.`,
          security: bearerAuth,
          response: { 201: calendarFeed, ...errors },
        },
      },
      async (request, reply) => {
        const { userId, tenantId } = await authorizeModule(ctx, request, MODULE);
        if (await isDemoAgency(ctx.db, tenantId)) {
          throw new HttpError(403, {
            detail: 'The demo agency is open to anyone, so it has no private feed address.',
          });
        }
        const { token, tokenHash } = randomToken();
        const [row] = await ctx.db
          .insert(calendarFeeds)
          .values({ userId, secretHash: tokenHash })
          .onConflictDoUpdate({
            target: calendarFeeds.userId,
            set: { secretHash: tokenHash, createdAt: sql`now()` },
          })
          .returning({ createdAt: calendarFeeds.createdAt });
        return reply.code(201).send(feedState(row, `${ctx.config.appUrl}/api/calendar/feed/${token}.ics`));
      },
    );

    app.delete(
      '/calendar/feed/',
      {
        config: { action: 'own_account' },
        schema: {
          tags,
          summary: 'Turn the calendar feed off',
          description: 'Its address answers 404 from then on.',
          security: bearerAuth,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        const { userId } = await authorizeModule(ctx, request, MODULE);
        await turnOffCalendarFeed(ctx.db, userId);
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/calendar/feed/:secret',
      {
        schema: {
          tags,
          summary: 'A calendar feed (iCalendar), for calendar apps',
          description: `No sign-in: the secret in the address is the credential. \`text/calendar\` per RFC 5545 with the agency's events from ${FEED_DAYS_BACK} days ago to ${FEED_DAYS_AHEAD} days ahead; 404 for an address turned off or replaced, a disabled user's, one whose agency has no access to the calendar, and a member's whom their agency's two-step requirement shuts out (until they turn it on).`,
          params: z.object({ secret: z.string().max(200).describe('`<secret>.ics`') }),
          response: { 404: detailResponse },
        },
      },
      async (request, reply) => {
        const noFeed = () => notFound('No calendar feed at this address.');
        const secret = request.params.secret.replace(/\.ics$/, '');
        const [owner] = await ctx.db
          .select({
            userId: users.id,
            tenantId: users.tenantId,
            // An agent's feed holds what the agent sees: their own book, when the agency says so.
            role: users.role,
            agency: tenants.name,
            isDemo: tenants.isDemo,
            requireTwoStepSince: tenants.requireTwoStepSince,
            dateJoined: users.dateJoined,
            mfaEnabledAt: users.mfaEnabledAt,
          })
          .from(calendarFeeds)
          .innerJoin(users, eq(users.id, calendarFeeds.userId))
          .innerJoin(tenants, eq(tenants.id, users.tenantId))
          // Disabling turns the feed off too; this also covers a row left from before it did.
          .where(and(eq(calendarFeeds.secretHash, hashToken(secret)), isNull(users.disabledAt)));
        // The demo agency is open to anyone, so an address made there would be a public one.
        if (!owner || owner.isDemo || !request.params.secret.endsWith('.ics')) throw noFeed();
        // A member past their agency's two-step deadline without it reads nothing signed in, and
        // their feed is silent as well until they turn it on.
        const deadline = twoStepDeadline(owner);
        if (deadline && Date.now() > deadline.getTime()) throw noFeed();
        const events = await withModuleFor(ctx, owner, MODULE, async (tx, { tenantId }, modules) => {
          const today = await agencyToday(tx);
          const listed = await listCalendarEvents(tx, tenantId, {
            start: addDays(today, -FEED_DAYS_BACK),
            end: addDays(today, FEED_DAYS_AHEAD),
            kinds: calendarKindsFor(modules),
          });
          return { listed, meetings: await meetingDetails(tx, listed) };
        }).catch((error: unknown) => {
          // An agency whose access ended publishes nothing, and whoever holds the address learns
          // nothing of its billing: a calendar app has no one to show a 402 to.
          if (error instanceof PlanRefusal) throw noFeed();
          throw error;
        });
        return sendCalendar(
          reply,
          calendarFeedText(events.listed, {
            name: `${owner.agency} (Coverdesk)`,
            appUrl: ctx.config.appUrl,
            tenantId: owner.tenantId,
            now: new Date(),
            meetings: events.meetings,
          }),
        );
      },
    );
  };
