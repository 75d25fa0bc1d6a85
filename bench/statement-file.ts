// An insurer's month on the large agency: a 10,000-line commission statement uploaded, matched and
// answered, while a load balancer's health check keeps asking the same server. Part `statements` of
// `npm run policies -w bench` (policies.ts), on its 100,000-policy agency.

import type { CommissionStatementDetail } from '@coverdesk/contract';
import type pg from 'pg';

const LINES = 10_000;
/** Of the lines: most name their policy (written the insurer's way), some only the insured, some nothing known. */
const FUZZY = 500;
const UNKNOWN = 500;
const HEALTH_EVERY_MS = 100;

interface Policy {
  policy_number: string;
  customer_name: string;
  total_premium: string;
  /** What the insurer owes on it by the statement's date, as the app works it out. */
  owed: string;
}

/**
 * The statement's lines as an insurer writes them: "p 1234" for "P-1234", names surname first; each
 * pays what the insurer owes on the policy, so that a line matched to its policy is `matched`.
 */
function statementCsv(policies: Policy[]): { csv: string; total: string } {
  let cents = 0;
  const rows = policies.slice(0, LINES).map((policy, index) => {
    const commission = Math.round(Number(policy.owed) * 100);
    cents += commission;
    const [first = '', ...rest] = policy.customer_name.split(' ');
    const insured = `${rest.join(' ').toUpperCase()} ${first.toUpperCase()}`;
    const amount = (commission / 100).toFixed(2);
    if (index < FUZZY) return `,${insured},${policy.total_premium},${amount}`;
    if (index < FUZZY + UNKNOWN) return `ZZ-${index},${insured},${policy.total_premium},${amount}`;
    return `${policy.policy_number.toLowerCase().replace('-', ' ')},${insured},${policy.total_premium},${amount}`;
  });
  return {
    csv: `Policy No.,Insured Name,Gross Premium,Commission\r\n${rows.join('\r\n')}\r\n`,
    total: (cents / 100).toFixed(2),
  };
}

/** Asks for health every 100 ms until stopped; answers the slowest answer's time. */
function watchHealth(url: string) {
  const times: number[] = [];
  let running = true;
  const done = (async () => {
    while (running) {
      const started = performance.now();
      await fetch(`${url}/api/health/`).then((response) => response.arrayBuffer());
      times.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, HEALTH_EVERY_MS));
    }
  })();
  return async () => {
    running = false;
    await done;
    const sorted = [...times].sort((a, b) => a - b);
    return {
      checks: sorted.length,
      slowest: sorted.at(-1) ?? 0,
      p99: sorted[Math.floor(sorted.length * 0.99)] ?? 0,
    };
  };
}

/** Uploads the statement and reads it back, timing both, with the health checks' slowest answer. */
export async function timeStatement(client: pg.Client, url: string, token: string, tenantId: string) {
  const company = await client.query<{ id: string }>(
    `select id from companies where tenant_id = $1 and name = 'Clal'`,
    [tenantId],
  );
  const companyId = company.rows[0]?.id ?? '';
  const statementDate = new Date().toISOString().slice(0, 10);
  // Clal pays pro rata: the commission on the net premium of the instalments due by the statement's
  // date (policies/commission.ts, through the same database functions). A file that paid 12.5% of
  // each whole gross premium came back with every line over-paid, none matched.
  const policies = await client.query<Policy>(
    `select * from (
       select p.policy_number, c.display_name as customer_name, p.total_premium::text,
         policy_received_commission(co.commission_payment_method,
           policy_earned_commission(p.net_premium, p.commission_percentage, p.total_premium, e.earned),
           (select coalesce(sum(i.amount_due), 0) from installments i where i.policy_id = p.id
              and i.due_date <= $4::date and i.status <> 'cancelled'),
           e.earned)::text as owed, p.id
       from policies p join customers c on c.id = p.customer_id join companies co on co.id = p.company_id
       cross join lateral (select policy_earned_premium(p.total_premium, p.start_date, p.end_date,
         p.cancelled_at, p.cancellation_refund) as earned) e
       where p.tenant_id = $1 and p.company_id = $2) owing
     where owed::numeric > 0 order by id limit $3`,
    [tenantId, companyId, LINES, statementDate],
  );
  const { csv, total } = statementCsv(policies.rows);
  const form = new FormData();
  form.set('company_id', companyId);
  form.set('statement_date', statementDate);
  form.set('total_amount', total);
  form.set('file', new Blob([csv], { type: 'text/csv' }), 'clal-statement.csv');

  const stopWatching = watchHealth(url);
  const started = performance.now();
  const response = await fetch(`${url}/api/commission-statements/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const answered = performance.now() - started;
  if (response.status !== 202)
    throw new Error(`upload answered ${response.status}: ${await response.text()}`);
  const { id } = (await response.json()) as CommissionStatementDetail;
  // A job reads and matches the lines: its progress is polled as the review screen does.
  const readBack = () =>
    fetch(`${url}/api/commission-statements/${id}/`, { headers: { authorization: `Bearer ${token}` } }).then(
      (answer) => answer.json() as Promise<CommissionStatementDetail>,
    );
  let statement = await readBack();
  while (statement.status === 'processing') {
    await new Promise((resolve) => setTimeout(resolve, 250));
    statement = await readBack();
  }
  const uploaded = performance.now() - started;
  if (statement.status !== 'review')
    throw new Error(`the statement ${statement.status}: ${statement.reading?.detail}`);
  const readStarted = performance.now();
  await readBack();
  const read = performance.now() - readStarted;
  const health = await stopWatching();
  // The broker confirms the matches found by name and accepts: a receipt per line.
  const post = async (path: string) => {
    const answer = await fetch(`${url}/api/commission-statements/${id}/${path}/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}: ${await answer.text()}`);
    await answer.arrayBuffer();
  };
  await post('confirm-matches');
  const acceptStarted = performance.now();
  await post('accept');
  const accepted = performance.now() - acceptStarted;
  // What the insurer, reconciled now, owes by age: its policies and their instalments due, read once.
  const agedStarted = performance.now();
  const aged = await fetch(`${url}/api/commission-report/insurers-owed/`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (aged.status !== 200) throw new Error(`the aged list answered ${aged.status}: ${await aged.text()}`);
  await aged.arrayBuffer();
  const agedList = performance.now() - agedStarted;
  return {
    lines: statement.line_count,
    counts: statement.counts,
    answered,
    uploaded,
    read,
    health,
    accepted,
    agedList,
  };
}
