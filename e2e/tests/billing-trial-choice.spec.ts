import { expect, expectAccessible, signInWithTokens, test } from './fixtures.js';

// Choosing a plan during the trial keeps the trial's remaining days unless the broker starts it now,
// and the dialog says which before they confirm.

test('a plan chosen during the trial starts when the trial ends, and can be withdrawn', async ({
  page,
  broker,
}, testInfo) => {
  // The accessibility check and a first load of Billing take a while on a busy machine.
  test.slow();
  await signInWithTokens(page, broker);
  await page.goto('/billing');
  await page.getByRole('button', { name: 'Choose Starter' }).click();
  const subscribe = page.getByRole('dialog', { name: 'Subscribe to Starter' });
  const keep = subscribe.getByRole('radio', {
    name: /^When the trial ends, on [A-Z][a-z]{2} \d{1,2}, \d{4}$/,
  });
  await expect(keep).toBeChecked();
  await expect(
    subscribe.getByText(
      /^Your trial's 14 remaining days are kept: Starter starts on [A-Z][a-z]{2} \d{1,2}, \d{4}, when the first payment is taken\.$/,
    ),
  ).toBeVisible();
  // Starting now says what the broker gives up.
  await subscribe.getByRole('radio', { name: 'Start now' }).check();
  await expect(
    subscribe.getByText(
      "Starter starts now and the first payment is taken today; your trial's 14 remaining days end.",
    ),
  ).toBeVisible();
  await keep.check();
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath(`trial-choice-${testInfo.project.name}.png`) });
  await subscribe.getByRole('button', { name: 'Subscribe' }).click();
  await expect(subscribe).toHaveCount(0);
  await expect(
    page.getByText(/^Your trial's 14 remaining days are kept: Starter, billed monthly, starts on/),
  ).toBeVisible();

  // The trial runs on; the plan chosen waits for its end, and can be taken back.
  const chosen = page.getByRole('alert').filter({ hasText: 'Plan chosen' });
  await expect(
    chosen.getByText(
      /^Starter, billed monthly, starts on [A-Z][a-z]{2} \d{1,2}, \d{4}, when your trial ends\.$/,
    ),
  ).toBeVisible();
  await expect(page.getByText(/^Starts on [A-Z][a-z]{2} \d{1,2}, \d{4}$/)).toBeVisible();
  await expect(page.getByRole('progressbar', { name: '14 of 14 trial days left' })).toBeVisible();
  await chosen.getByRole('button', { name: "Don't start Starter" }).click();
  await expect(page.getByText(/^Starter no longer starts when your trial ends/)).toBeVisible();
  await expect(chosen).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Choose Starter' })).toBeVisible();
});
