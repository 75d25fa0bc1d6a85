import type { Page } from '@playwright/test';
import { creator, expect, expectAccessible, moveClaim, signInWithTokens, test } from './fixtures.js';

/** A calendar day `days` from today (UTC, the test agencies' time zone). */
const dayFrom = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** The board's column for a status, and the card of a lead in it. */
const column = (page: Page, status: string) => page.getByRole('region', { name: status, exact: true });
const card = (page: Page, status: string, name: string) =>
  column(page, status).locator('[data-lead]').filter({ hasText: name });

test('a broker adds a lead, moves it to won on the board, links it to the customer already on the books, writes the policy and walks a claim on it to paid @phone', async ({
  page,
  broker,
  request,
}, testInfo) => {
  test.slow();
  const phone = testInfo.project.name === 'mobile';
  const post = creator(request, broker);
  const type = await post('/api/policy-types/', { name: 'Home & Contents', category: 'home' });
  await post('/api/companies/', {
    name: 'Harel Insurance',
    policy_types: [{ policy_type_id: type, commission_percentage: '12.5' }],
  });
  // Someone already on the books with the same email: the new lead says so.
  const golan = await post('/api/customers/', {
    first_name: 'M.',
    last_name: 'Golan',
    email: 'maya.golan@example.com',
  });
  await signInWithTokens(page, broker);

  await page.goto('/leads');
  await expect(page.getByRole('heading', { name: 'No leads yet' })).toBeVisible();
  await page.getByRole('link', { name: 'New lead' }).click();
  await expect(page).toHaveURL(/\/leads\/create$/);
  await page.getByRole('textbox', { name: 'First name' }).fill('Maya');
  await page.getByRole('textbox', { name: 'Last name' }).fill('Golan');
  await page.getByRole('textbox', { name: 'Email' }).fill('maya.golan@example.com');
  await page.getByRole('textbox', { name: 'Phone' }).fill('054-222-3333');
  await expect(page.getByRole('status').getByText(/A customer with this email already exists/)).toBeVisible();
  await page.getByRole('combobox', { name: 'Interested in' }).click();
  await page.getByRole('option', { name: 'Home & Contents' }).click();
  await page.getByRole('textbox', { name: 'Estimated premium' }).fill('1250');
  await page.getByRole('button', { name: 'Add lead' }).click();

  await expect(page.getByRole('heading', { level: 2, name: 'Maya Golan' })).toBeVisible();
  await expect(page.getByText('Maya Golan added.')).toBeVisible();
  await expect(page.getByText('$1,250.00')).toBeVisible();
  await expect(page.getByText('Added as New')).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('lead-detail.png'), fullPage: true });

  // The list, then the board, which the address remembers.
  await page.goto('/leads');
  await expect(page.getByText('Maya Golan')).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('leads-table.png'), fullPage: true });
  await page.getByRole('radiogroup', { name: 'Show leads as' }).getByText('Board', { exact: true }).click();
  await expect(page).toHaveURL(/view=board/);
  await expect(card(page, 'New', 'Maya Golan')).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('leads-board.png'), fullPage: true });

  if (phone) {
    // No dragging on a phone: the card's menu moves it.
    await card(page, 'New', 'Maya Golan')
      .getByRole('button', { name: 'Move Maya Golan to another status' })
      .click();
    await page.getByRole('menuitem', { name: 'Won' }).click();
  } else {
    await card(page, 'New', 'Maya Golan').dragTo(column(page, 'Quoted'));
    await expect(card(page, 'Quoted', 'Maya Golan')).toBeVisible();
    await card(page, 'Quoted', 'Maya Golan').dragTo(column(page, 'Won'));
  }
  await expect(page.getByText('Maya Golan moved to Won.')).toBeVisible();
  await expect(card(page, 'Won', 'Maya Golan')).toBeVisible();
  await expect(card(page, 'New', 'Maya Golan')).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('leads-board-won.png'), fullPage: true });

  // The board and the detail page agree, and the timeline shows who moved it.
  await page.reload();
  await expect(card(page, 'Won', 'Maya Golan')).toBeVisible();
  await card(page, 'Won', 'Maya Golan').getByRole('link', { name: 'Maya Golan' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Maya Golan' })).toBeVisible();
  await expect(page.getByText(phone ? 'New → Won' : 'Quoted → Won')).toBeVisible();
  await expect(page.getByText(/· Noa Peretz$/).first()).toBeVisible();

  await page.getByRole('button', { name: 'Convert to customer' }).click();
  const dialog = page.getByRole('dialog', { name: 'Convert Maya Golan into a customer?' });
  await expect(dialog.getByRole('checkbox', { name: 'Record their first policy next' })).toBeChecked();
  // The customer with her email is offered first, so she is not entered twice.
  await expect(dialog.getByRole('radio', { name: 'Link to M. Golan' })).toBeChecked();
  await expect(dialog.getByRole('radio', { name: 'Create a new customer' })).not.toBeChecked();
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('lead-convert-dialog.png') });
  await dialog.getByRole('button', { name: 'Link and convert' }).click();

  // The new-policy form opens for her, with the cover and premium the lead was after.
  await expect(page).toHaveURL(
    new RegExp(`/policies/create\\?customer_id=${golan}&policy_type_id=${type}&total_premium=1250\\.00$`),
  );
  await expect(page.getByText('Maya Golan is linked to the customer M. Golan.')).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Customer' })).toHaveValue('M. Golan');
  await expect(page.getByRole('textbox', { name: 'Total premium' })).toHaveValue('1250.00');
  await expect(
    page.getByText('Interested in Home & Contents: choose an insurer that sells it.'),
  ).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('lead-converted-policy-form.png'), fullPage: true });

  // Her first policy, written from there, started a month ago: the insurer sells the type she wanted.
  await page.getByRole('combobox', { name: 'Insurer' }).click();
  await page.getByRole('option', { name: 'Harel Insurance' }).click();
  await expect(page.getByRole('combobox', { name: 'Policy type' })).toHaveValue('Home & Contents');
  await page.getByRole('textbox', { name: 'Policy number' }).fill('HC-7001');
  await page.getByLabel('Starts').fill(dayFrom(-30));
  await page.getByRole('button', { name: 'Add policy' }).click();
  await expect(page.getByRole('heading', { name: 'Policy HC-7001' })).toBeVisible();

  // A burst pipe a few days ago: the claim is reported from the policy and walked to paid.
  const claims = page.locator('.mantine-Card-root', { has: page.getByRole('heading', { name: 'Claims' }) });
  await claims.getByRole('link', { name: 'New claim' }).click();
  await expect(page).toHaveURL(/\/claims\/create\?policy_id=/);
  await page
    .getByRole('textbox', { name: 'Type' })
    .or(page.getByRole('combobox', { name: 'Type' }))
    .first()
    .click();
  await page.getByRole('option', { name: 'Water damage' }).click();
  await page.getByLabel('Incident date').fill(dayFrom(-3));
  await page.getByRole('textbox', { name: 'Amount claimed' }).fill('2800');
  await page.getByRole('button', { name: 'Report claim' }).click();
  await expect(page.getByRole('heading', { name: /^Claim CLM-\d{4}-0001$/ })).toBeVisible();
  await moveClaim(page, 'Start review');
  await moveClaim(page, 'Approve', { 'Amount approved': '2500' });
  await moveClaim(page, 'Record payment', { 'Amount paid by the insurer': '2500' });
  await expect(page.getByText('Paid', { exact: true }).first()).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('lead-to-paid-claim.png'), fullPage: true });

  // The customer's page names the lead it came from, and lists the claim.
  await page.goto(`/customers/${golan}`);
  await expect(page.getByRole('heading', { level: 2, name: 'M. Golan' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Maya Golan' })).toHaveAttribute(
    'href',
    /\/leads\/[0-9a-f-]+$/,
  );
  await expect(page.getByRole('link', { name: /^CLM-\d{4}-0001$/ })).toBeVisible();

  // Still one customer for her: linking made no second one.
  await page.goto('/customers');
  await expect(page.getByRole('link', { name: 'M. Golan' })).toBeVisible();
  await expect(page.getByRole('link', { name: /Golan/ })).toHaveCount(1);
});

test('moving a lead to lost asks why, and the reason shows on the lead', async ({
  page,
  broker,
  request,
}, testInfo) => {
  await creator(request, broker)('/api/leads/', {
    business_name: 'Cobalt Logistics',
    first_name: 'Avi',
    last_name: 'Cohen',
  });
  await signInWithTokens(page, broker);
  await page.goto('/leads?view=board');
  await card(page, 'New', 'Cobalt Logistics')
    .getByRole('button', { name: 'Move Cobalt Logistics to another status' })
    .click();
  await page.getByRole('menuitem', { name: 'Lost' }).click();
  const dialog = page.getByRole('dialog', { name: 'Why was Cobalt Logistics lost?' });
  await dialog.getByRole('button', { name: 'Mark as lost' }).click();
  await expect(dialog.getByText('Say why the lead was lost.')).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('lead-lost-reason.png') });
  await dialog.getByRole('textbox', { name: 'Reason' }).fill('Went with their bank');
  await dialog.getByRole('button', { name: 'Mark as lost' }).click();
  await expect(card(page, 'Lost', 'Cobalt Logistics')).toBeVisible();
  await card(page, 'Lost', 'Cobalt Logistics').getByRole('link', { name: 'Cobalt Logistics' }).click();
  await expect(page.getByText('Went with their bank')).toBeVisible();
});
