import type { RouteOptions } from 'fastify';
import type { z } from 'zod';

/**
 * The operations anyone may call without signing in. Every other route under /api/ must answer a
 * signed-out caller 401: a route added later is probed as authenticated unless it is named here.
 */
export const PUBLIC_OPERATIONS = [
  'GET /api/health/',
  'GET /api/openapi.json',
  'GET /api/billing/plans/',
  // Paddle signs its notifications; the signature, not a user, is the credential.
  'POST /api/billing/webhooks/paddle/',
  'POST /api/accounts/register/',
  'POST /api/token/',
  'POST /api/token/refresh/',
  'POST /api/token/revoke/',
  // The token from the password step is the credential of the second.
  'POST /api/token/mfa/',
  'POST /api/accounts/login/demo/',
  'POST /api/accounts/password-reset/',
  'POST /api/accounts/password-reset/confirm/',
  'POST /api/contact/',
  // Whether sign-ups and the demo are open, for the public pages.
  'GET /api/platform/settings/',
  // The secret in the address is the credential (a calendar app cannot sign in).
  'GET /api/calendar/feed/:secret',
  // The invitation's token is the credential of the person invited.
  'POST /api/team/invitations/preview/',
  'POST /api/team/invitations/accept/',
] as const;

/** Swagger UI's pages and assets: public, and without input of their own to probe. */
export const PUBLIC_PREFIXES = ['/api/docs'] as const;

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type Method = (typeof METHODS)[number];

/** What a path parameter names; each probed agency has one of each. */
export type IdKind =
  | 'tenant'
  /** The agency owner's own account. */
  | 'user'
  | 'customer'
  | 'company'
  | 'policyType'
  | 'policy'
  | 'installment'
  | 'claim'
  | 'lead'
  | 'meeting'
  | 'import'
  | 'paymentMethod'
  | 'notification'
  | 'notificationSetting'
  | 'notificationHistory'
  | 'ticket'
  /** A file attached to the agency's ticket. */
  | 'attachment'
  /** A sign-in of the agency's owner other than the probe's own. */
  | 'session'
  /** An open invitation to join the agency. */
  | 'invitation'
  /** A document on the agency's customer. */
  | 'document'
  /** An insurer's commission statement in review. */
  | 'statement'
  /** A line of it: its row number in the statement's file. */
  | 'statementLine';

/** `:id` names a row of the collection whose segment comes before it. */
const COLLECTION_KINDS: Record<string, IdKind> = {
  tenants: 'tenant',
  users: 'user',
  'super-admins': 'user',
  customers: 'customer',
  companies: 'company',
  'policy-types': 'policyType',
  policies: 'policy',
  installments: 'installment',
  claims: 'claim',
  leads: 'lead',
  meetings: 'meeting',
  imports: 'import',
  'payment-methods': 'paymentMethod',
  dashboard: 'notification',
  settings: 'notificationSetting',
  history: 'notificationHistory',
  tickets: 'ticket',
  sessions: 'session',
  // A member of the agency: its owner's own account.
  members: 'user',
  invitations: 'invitation',
  documents: 'document',
  'commission-statements': 'statement',
};

/** Path parameters other than `:id` that name a row. */
const NAMED_PARAMS: Record<string, IdKind> = {
  attachmentId: 'attachment',
  user_id: 'user',
  line_number: 'statementLine',
};

/** Path parameters that name no row: each is filled with a harmless value, like a wildcard. */
const FREE_PARAMS = ['secret', 'metric', 'slot', 'name'];

export interface PathParam {
  name: string;
  /** Undefined for a wildcard (`*`), which names no row. */
  kind?: IdKind;
}

export interface Operation {
  key: string;
  method: Method;
  path: string;
  params: PathParam[];
  body?: z.ZodType;
  query?: z.ZodType;
  paramsSchema?: z.ZodType;
  isPublic: boolean;
  /** Only platform admins may call it. */
  isAdmin: boolean;
  /** Behind the plan gate: it documents 402 for an agency without an active subscription. */
  isGated: boolean;
  /** It takes multipart/form-data (a file form), as its schema's `consumes` says. */
  takesForm: boolean;
}

function pathParams(path: string): PathParam[] {
  const segments = path.split('/');
  return segments.flatMap((segment, index) => {
    if (segment === '*') return [{ name: '*' }];
    if (!segment.startsWith(':')) return [];
    const name = segment.slice(1);
    if (FREE_PARAMS.includes(name)) return [{ name }];
    const kind = name === 'id' ? COLLECTION_KINDS[segments[index - 1] ?? ''] : NAMED_PARAMS[name];
    if (!kind) {
      throw new Error(
        `The probe does not know what kind of id ${segment} in ${path} names; add its collection to COLLECTION_KINDS in api/test/probe/route-table.ts.`,
      );
    }
    return [{ name, kind }];
  });
}

/** Every API operation the app declared, one per method and path (HEAD is GET's own handler). */
export function apiOperations(routes: RouteOptions[]): Operation[] {
  const operations = routes.flatMap((route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    return methods.flatMap((method): Operation[] => {
      const upper = method.toUpperCase();
      if (!route.url.startsWith('/api/') || !METHODS.includes(upper as Method)) return [];
      const key = `${upper} ${route.url}`;
      const schema = (route.schema ?? {}) as {
        body?: z.ZodType;
        querystring?: z.ZodType;
        params?: z.ZodType;
        response?: Record<string, unknown>;
        consumes?: string[];
      };
      const isPublic =
        (PUBLIC_OPERATIONS as readonly string[]).includes(key) ||
        PUBLIC_PREFIXES.some((prefix) => route.url === prefix || route.url.startsWith(`${prefix}/`));
      return [
        {
          key,
          method: upper as Method,
          path: route.url,
          params: pathParams(route.url),
          body: schema.body,
          query: schema.querystring,
          paramsSchema: schema.params,
          isPublic,
          isAdmin: route.url.startsWith('/api/admin/'),
          isGated: schema.response?.['402'] !== undefined,
          takesForm: schema.consumes?.includes('multipart/form-data') ?? false,
        },
      ];
    });
  });
  const stale = PUBLIC_OPERATIONS.filter((key) => !operations.some((operation) => operation.key === key));
  if (stale.length > 0)
    throw new Error(`PUBLIC_OPERATIONS names routes that no longer exist: ${stale.join(', ')}`);
  return operations;
}
