import { FIGURES } from '@coverdesk/contract';
import { expect, seedAgency, signInWithTokens, test } from './fixtures.js';

/**
 * Issue 31: "Commission this year" read one number on the dashboard and another on the current
 * portfolio. The dashboard, the current portfolio and the commission report for the year now give the
 * same figure, and the label says what it counts on hover.
 */
test('the dashboard, the current portfolio and the commission report give the same commission this year', async ({
  page,
  broker,
  request,
}, testInfo) => {
  test.slow();
  await seedAgency(request, broker);
  const headers = { authorization: `Bearer ${broker.access}` };
  const year = new Date().toISOString().slice(0, 4);
  const report = await request.get(
    `/api/policies/commission_batch/?include=summary&start_date=${year}-01-01&end_date=${year}-12-31`,
    { headers },
  );
  const { summary } = (await report.json()) as { summary: { total_expected_commission: string } };
  const expected = `$${Number(summary.total_expected_commission).toLocaleString('en-US', { minimumFractionDigits: 2 })}`;

  await signInWithTokens(page, broker);
  await page.goto('/');
  const keyFigures = page.getByRole('region', { name: 'Key figures' });
  // The app's first load, on a busy machine, may take longer than a step.
  await expect(keyFigures).toBeVisible({ timeout: 30_000 });
  const yearCard = keyFigures.getByRole('link').filter({ hasText: 'Commission this year' });
  await expect(yearCard).toContainText(expected);
  await yearCard.getByText('Commission this year').hover();
  await expect(page.getByRole('tooltip')).toHaveText(FIGURES.this_year.definition);
  await page.screenshot({ path: testInfo.outputPath('dashboard-hover.png'), fullPage: true });

  await page.goto('/current-portfolio');
  const portfolioCard = page.getByRole('group', { name: `Commission expected ${year}` });
  await expect(portfolioCard).toContainText(expected);
  await portfolioCard.getByText(`Commission expected ${year}`).hover();
  await expect(page.getByRole('tooltip')).toHaveText(FIGURES.this_year.definition);
  await page.screenshot({ path: testInfo.outputPath('portfolio-hover.png'), fullPage: true });

  await page.goto(`/commission-report?period=this_year`);
  await expect(page.getByText(expected).first()).toBeVisible();
});
