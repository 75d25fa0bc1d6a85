import { createHash } from 'node:crypto';
import pg from 'pg';

/**
 * A PostgreSQL connection that prepares each parameterised statement the first time it runs one and
 * reuses it after that, under a name derived from the statement's text. Planning the policy list
 * with its joins and row-level security took several times longer than running it; a prepared
 * statement is parsed once per connection and its plan can be cached by the server.
 *
 * Query builders produce one text per query shape, with every value a parameter, so the statements a
 * connection keeps are bounded by the code. Only for PostgreSQL: PGlite serves every pool connection
 * from one session, where a replaced connection would prepare a name the session already holds.
 */
export class PreparingClient extends pg.Client {}

const names = new Map<string, string>();

function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `s_${createHash('sha256').update(text).digest('base64url').slice(0, 24)}`;
    names.set(text, name);
  }
  return name;
}

const isParameterised = (config: unknown): config is pg.QueryConfig =>
  typeof config === 'object' &&
  config !== null &&
  typeof (config as pg.QueryConfig).text === 'string' &&
  (config as pg.QueryConfig).name === undefined;

const query = pg.Client.prototype.query;
PreparingClient.prototype.query = function (this: pg.Client, config: unknown, ...rest: unknown[]) {
  const named = isParameterised(config) ? { ...config, name: statementName(config.text) } : config;
  return (query as (...args: unknown[]) => unknown).call(this, named, ...rest);
} as pg.Client['query'];
