import { FIGURES } from '@coverdesk/contract';
import { expect, seedAgency, signInWithTokens, test } from './fixtures.js';

/**
 * Issue 31: "Commission this year" read one number on the dashboard and another on the current
 * portfolio, and "Commission this month" the whole terms of everything in force. The dashboard, the
 * current portfolio and the commission report for the year now give the same figure, this month's is
 * the portfolio history's, and each label says what it counts on hover, on focus and on a tap.
 */
test('the dashboard, the current portfolio, the history and the commission report give the same commission @phone', async ({
  page,
  broker,
  request,
}, testInfo) => {
  test.slow();
  const phone = testInfo.project.name === 'mobile';
  await seedAgency(request, broker);
  const headers = { authorization: `Bearer ${broker.access}` };
  const year = new Date().toISOString().slice(0, 4);
  const dollars = (amount: string) =>
    `$${Number(amount).toLocaleString('en-US', { minimumFractionDigits: 2 })}`;
  const report = await request.get(
    `/api/policies/commission_batch/?include=summary&start_date=${year}-01-01&end_date=${year}-12-31`,
    { headers },
  );
  const { summary } = (await report.json()) as { summary: { total_expected_commission: string } };
  const expected = dollars(summary.total_expected_commission);
  const history = await request.get('/api/analytics/portfolio-history/?months=12', { headers });
  const thisMonth = ((await history.json()) as { results: { expected_commission: string }[] }).results.at(-1);
  const expectedThisMonth = dollars(thisMonth?.expected_commission ?? '0');

  await signInWithTokens(page, broker);
  await page.goto('/');
  const keyFigures = page.getByRole('region', { name: 'Key figures' });
  // The app's first load, on a busy machine, may take longer than a step.
  await expect(keyFigures).toBeVisible({ timeout: 30_000 });
  const yearCard = keyFigures.getByRole('link').filter({ hasText: 'Commission this year' });
  await expect(yearCard).toContainText(expected);
  const yearLabel = yearCard.getByText('Commission this year');
  if (phone) {
    // A tap on the label shows its definition and stays on the dashboard.
    await yearLabel.tap();
    await expect(page.getByRole('tooltip')).toHaveText(FIGURES.this_year.definition);
    await expect(page).toHaveURL(/\/dashboard$/);
  } else {
    await yearLabel.hover();
    await expect(page.getByRole('tooltip')).toHaveText(FIGURES.this_year.definition);
    await page.mouse.move(0, 0);
    await expect(page.getByRole('tooltip')).toHaveCount(0);
    // From the keyboard: the card, then its label, which opens the definition on focus.
    await yearCard.focus();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('tooltip')).toHaveText(FIGURES.this_year.definition);
  }
  await page.screenshot({ path: testInfo.outputPath('dashboard-definition.png'), fullPage: true });

  // This month's commission is the portfolio history's current month, which its card opens.
  const monthCard = keyFigures.getByRole('link').filter({ hasText: 'Commission this month' });
  await expect(monthCard).toContainText(expectedThisMonth);
  await monthCard.getByText(expectedThisMonth).first().click();
  await expect(page).toHaveURL(/\/portfolio-history$/);
  const historyCard = page.getByRole('group', { name: 'Commission this month' });
  await expect(historyCard).toContainText(expectedThisMonth);

  await page.goto('/current-portfolio');
  const portfolioCard = page.getByRole('group', { name: `Commission expected ${year}` });
  await expect(portfolioCard).toContainText(expected);
  const portfolioLabel = portfolioCard.getByText(`Commission expected ${year}`);
  await (phone ? portfolioLabel.tap() : portfolioLabel.hover());
  await expect(page.getByRole('tooltip')).toHaveText(FIGURES.this_year.definition);
  await page.screenshot({ path: testInfo.outputPath('portfolio-definition.png'), fullPage: true });

  await page.goto(`/commission-report?period=this_year`);
  await expect(page.getByText(expected).first()).toBeVisible();
});
