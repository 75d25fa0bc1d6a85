import type { CustomerAnalytics, Paged, PortfolioAnalytics, PortfolioHistory } from '@coverdesk/contract';
import { Button, Stack, Text } from '@mantine/core';
import { useCallback } from 'react';
import { api } from '../../../lib/api-client.js';
import { allPolicies } from '../api.js';
import { customerChecks, historyChecks, portfolioChecks } from '../checks.js';
import { CheckList, RunFailed, RunProgress, Verdicts } from '../components/check-list.js';
import { useRun } from '../use-run.js';

async function checkAnalytics(report: (progress: string) => void, signal: AbortSignal) {
  report('Current portfolio…');
  const portfolio = await api.get<PortfolioAnalytics>('/analytics/portfolio/', { signal });
  report('Customer analytics…');
  const customers = await api.get<CustomerAnalytics>('/analytics/customers/', { signal });
  report('Portfolio history…');
  const history = await api.get<PortfolioHistory>('/analytics/portfolio-history/', {
    query: { months: 12 },
    signal,
  });
  report('Customer list…');
  const customerList = await api.get<Paged<unknown>>('/customers/', { query: { page_size: 1 }, signal });
  report('Payments list…');
  const overdue = await api.get<Paged<unknown>>('/installments/', {
    query: { status: 'overdue', page_size: 1 },
    signal,
  });
  const policies = await allPolicies({}, (done, total) => report(`Policies: ${done} of ${total}`), signal);
  return {
    portfolio: portfolioChecks(portfolio, policies, overdue.count),
    customers: customerChecks(customers, customerList.count, policies, portfolio),
    history: historyChecks(history, portfolio, policies),
  };
}

/** The analytics totals against their own breakdowns, the policy list and the customer list. */
export function Component() {
  const run = useRun(useCallback(checkAnalytics, []));
  const result = run.result;
  return (
    <Stack maw={1100}>
      <Text c="dimmed" fz="sm">
        Asks the current portfolio, customer analytics and 12 months of portfolio history, walks every page of
        the policy list, and checks that the totals agree in whole cents.
      </Text>
      <div>
        <Button onClick={run.start} loading={run.running}>
          Run checks
        </Button>
      </div>
      {run.running && <RunProgress progress={run.progress} />}
      {run.error !== undefined && <RunFailed error={run.error} onRetry={run.start} />}
      {result && (
        <Stack gap="lg">
          <Verdicts checks={[...result.portfolio, ...result.customers, ...result.history]} />
          <CheckList
            title="Current portfolio"
            expectedLabel="Portfolio total"
            actualLabel="Recomputed"
            checks={result.portfolio}
          />
          <CheckList
            title="Customer analytics"
            expectedLabel="Analytics"
            actualLabel="Recomputed"
            checks={result.customers}
          />
          <CheckList
            title="Portfolio history"
            expectedLabel="History"
            actualLabel="Recomputed"
            checks={result.history}
          />
        </Stack>
      )}
    </Stack>
  );
}
