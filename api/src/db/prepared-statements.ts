import { createHash } from 'node:crypto';
import pg from 'pg';
import { namedCache } from './bounded-cache.js';

/**
 * How many statements one connection keeps prepared. Query builders produce one text per query
 * shape, but a shape includes a list's filters and page size, which requests choose; past this a
 * connection runs new texts unprepared, so no request pattern can grow the server's memory.
 */
export const MAX_PREPARED_PER_CONNECTION = 200;

/**
 * A PostgreSQL connection that prepares each parameterised statement the first time it runs one and
 * reuses it after that, under a name derived from the statement's text. Planning the policy list
 * with its joins and row-level security took several times longer than running it; a prepared
 * statement is parsed once per connection and its plan can be cached by the server.
 *
 * Only for PostgreSQL: PGlite serves every pool connection from one session, where a replaced
 * connection would prepare a name the session already holds.
 */
export class PreparingClient extends pg.Client {
  readonly prepared = new Set<string>();
}

const isParameterised = (config: unknown): config is pg.QueryConfig =>
  typeof config === 'object' &&
  config !== null &&
  typeof (config as pg.QueryConfig).text === 'string' &&
  (config as pg.QueryConfig).name === undefined;

const names = namedCache<string, string>(
  'statement-names',
  'The name each SQL statement is prepared under on a PostgreSQL connection, a hash of its text.',
  1000,
);
const statementName = (text: string) =>
  names.get(text, () => `s_${createHash('sha256').update(text).digest('base64url').slice(0, 24)}`);

const query = pg.Client.prototype.query;
PreparingClient.prototype.query = function (this: PreparingClient, config: unknown, ...rest: unknown[]) {
  let named = config;
  if (isParameterised(config)) {
    const name = statementName(config.text);
    if (this.prepared.has(name) || this.prepared.size < MAX_PREPARED_PER_CONNECTION) {
      this.prepared.add(name);
      named = { ...config, name };
    }
  }
  return (query as (...args: unknown[]) => unknown).call(this, named, ...rest);
} as pg.Client['query'];
