import { describeRequest, type ProbeResponse, REQUEST_BUDGET_MS } from './client.js';

/** What an error body must never carry: traces, source paths, SQL and database wording. */
const INTERNAL_DETAIL: [string, RegExp][] = [
  ['a stack frame', /\n\s*at\s|\bat\s+\S+\s+\(|\bat\s+(?:async\s+)?[\w.$<>]+\s+\(/],
  ['a source path', /node_modules|\.[cm]?[jt]s:\d+|(?:^|[\s"'(])\/(?:work|src|app|home|usr|tmp|var|srv)\//],
  ['an error class', /\b(?:Type|Range|Reference|Syntax)Error\b/],
  ['SQL', /\b(?:select|insert\s+into|delete\s+from)\b[\s\S]{0,200}\b(?:from|where|values)\b/i],
  [
    'database wording',
    /syntax error at or near|violates (?:unique|foreign key|check|not-null) constraint|invalid input syntax|relation "|column "|transaction is aborted|failed query|pglite|drizzle|sqlstate|postgres|ECONNREFUSED/i,
  ],
];

/** Strings a request carried, which an answer may rightly echo ("There is no plan named ..."). */
function carriedStrings(response: ProbeResponse): string[] {
  const strings: string[] = [];
  const collect = (value: unknown): void => {
    if (typeof value === 'string') strings.push(value);
    else if (Array.isArray(value)) value.forEach(collect);
    else if (value && typeof value === 'object') Object.entries(value).forEach(collect);
  };
  const { request } = response;
  collect(request.rawBody !== undefined ? request.rawBody : request.body);
  const [path = '', query = ''] = request.url.split('?', 2);
  for (const segment of path.split('/')) {
    try {
      collect(decodeURIComponent(segment));
    } catch {
      collect(segment); // a deliberately broken escape
    }
  }
  for (const [name, value] of new URLSearchParams(query)) collect([name, value]);
  return strings.filter((text) => text.length >= 3);
}

/** The body with every echo of the request removed, as it would read when written by the server alone. */
function withoutEchoes(response: ProbeResponse): string {
  let body = response.body;
  for (const text of carriedStrings(response)) {
    body = body.split(JSON.stringify(text).slice(1, -1)).join('').split(text).join('');
  }
  return body;
}

const isStringList = (value: unknown) =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

/** The documented error shapes: `{detail}` (with extra facts on some 409s), `{error}`, or field errors. */
function hasErrorShape(body: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return false;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return false;
  const record = parsed as Record<string, unknown>;
  if ('detail' in record) return typeof record.detail === 'string';
  if ('error' in record) return typeof record.error === 'string' && Object.keys(record).length === 1;
  return Object.keys(record).length > 0 && Object.values(record).every(isStringList);
}

export interface HygieneRules {
  /** Values the caller must never see: another agency's marker and ids. */
  secrets: readonly string[];
  /** Whether the answer must come within REQUEST_BUDGET_MS. */
  timed: boolean;
}

/** Everything wrong with one answer, each problem naming the request; empty when it is sound. */
export function problemsIn(response: ProbeResponse, rules: HygieneRules): string[] {
  const problems: string[] = [];
  const what = describeRequest(response.request);
  if (response.status >= 500) problems.push(`${response.status} for ${what}`);
  if (rules.timed && response.ms > REQUEST_BUDGET_MS) {
    problems.push(`answered in ${Math.round(response.ms)} ms, over ${REQUEST_BUDGET_MS} ms: ${what}`);
  }
  const ownText = withoutEchoes(response);
  if (response.status >= 400) {
    if (!hasErrorShape(response.body)) {
      problems.push(`${response.status} with an undocumented body ${response.body.slice(0, 200)}: ${what}`);
    }
    for (const [name, pattern] of INTERNAL_DETAIL) {
      const found = ownText.match(pattern);
      if (found) problems.push(`${response.status} body shows ${name} ("${found[0]}"): ${what}`);
    }
  }
  const lowered = ownText.toLowerCase();
  for (const secret of rules.secrets) {
    if (lowered.includes(secret.toLowerCase())) {
      problems.push(`${response.status} body shows another agency's ${secret}: ${what}`);
    }
  }
  return problems;
}
