import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useCallback, useState } from 'react';
import { allPolicies, wholeCommissionReport } from '../api.js';
import { companyChecks, summaryChecks } from '../checks.js';
import { CheckList, RunFailed, RunProgress, Verdicts } from '../components/check-list.js';
import { useRun } from '../use-run.js';

/**
 * The commission report's summary and per-insurer totals recomputed from every row of the report
 * and from the policy pages, to the cent. Blank dates check the whole book.
 */
export function Component() {
  const [startDate, setStartDate] = useState('');
  const [endDate, setEndDate] = useState('');

  const work = useCallback(
    async (report: (progress: string) => void, signal: AbortSignal) => {
      const period = { start_date: startDate || undefined, end_date: endDate || undefined };
      const { first, rows } = await wholeCommissionReport(
        period,
        (done, total) => report(`Report rows: ${done} of ${total}`),
        signal,
      );
      // The same terms from the policy list: overlapping the period means starting by its end and
      // ending on or after its start; a cancelled one counts with what it earned, as in the report.
      const policies = await allPolicies(
        { start_date_to: endDate || undefined, end_date_from: startDate || undefined },
        (done, total) => report(`Policies: ${done} of ${total}`),
        signal,
      );
      return {
        fromRows: summaryChecks(first.summary, rows),
        fromPolicies: summaryChecks(first.summary, policies),
        companiesFromRows: companyChecks(first.company_summary, rows),
        companiesFromPolicies: companyChecks(first.company_summary, policies),
      };
    },
    [startDate, endDate],
  );
  const run = useRun(work);
  const result = run.result;

  return (
    <Stack maw={1100}>
      <Text c="dimmed" fz="sm">
        Fetches every page of the commission report and of the policy list for the period, adds the figures up
        in whole cents, and compares them with the report's own totals.
      </Text>
      <Group align="end" wrap="wrap">
        <TextInput
          type="date"
          label="Period from"
          description="Blank: from the first policy"
          value={startDate}
          onChange={(event) => setStartDate(event.currentTarget.value)}
        />
        <TextInput
          type="date"
          label="Period to"
          description="Blank: to the last policy"
          value={endDate}
          onChange={(event) => setEndDate(event.currentTarget.value)}
        />
        <Button onClick={run.start} loading={run.running}>
          Run checks
        </Button>
      </Group>
      {run.running && <RunProgress progress={run.progress} />}
      {run.error !== undefined && <RunFailed error={run.error} onRetry={run.start} />}
      {result && (
        <Stack gap="lg">
          <Verdicts
            checks={[
              ...result.fromRows,
              ...result.fromPolicies,
              ...result.companiesFromRows.flatMap((company) => company.checks),
              ...result.companiesFromPolicies.flatMap((company) => company.checks),
            ]}
          />
          <CheckList
            title="Summary from the report's rows"
            expectedLabel="Server"
            actualLabel="Sum of rows"
            checks={result.fromRows}
          />
          <CheckList
            title="Summary from the policy pages"
            expectedLabel="Server"
            actualLabel="Sum of policies"
            checks={result.fromPolicies}
          />
          {result.companiesFromRows.map((company) => (
            <CheckList
              key={`rows-${company.id}`}
              title={`${company.company}: from the report's rows`}
              expectedLabel="Server"
              actualLabel="Sum of rows"
              checks={company.checks}
            />
          ))}
          {result.companiesFromPolicies.map((company) => (
            <CheckList
              key={`policies-${company.id}`}
              title={`${company.company}: from the policy pages`}
              expectedLabel="Server"
              actualLabel="Sum of policies"
              checks={company.checks}
            />
          ))}
        </Stack>
      )}
    </Stack>
  );
}
