import type { APIRequestContext, Page } from '@playwright/test';
import {
  type Broker,
  creator,
  expect,
  expectAccessible,
  moveClaim,
  seedMotorPolicy,
  signInWithTokens,
  test,
} from './fixtures.js';

/** A calendar day `days` from today (UTC, the test agencies' time zone). */
const dayFrom = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const year = () => dayFrom(0).slice(0, 4);

/** Dana Levi's motor policy with Harel, in force since two months ago. */
const seedPolicy = (request: APIRequestContext, broker: Broker) => seedMotorPolicy(request, broker, 60);

async function lookAt(page: Page, name: string, testInfo: { outputPath(name: string): string }) {
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
}

test('a broker reports a claim from a policy and walks it to paid', async ({
  page,
  broker,
  request,
}, testInfo) => {
  test.slow();
  const policyId = await seedPolicy(request, broker);
  await signInWithTokens(page, broker);
  await page.goto(`/policies/${policyId}`);
  const onPolicy = page.locator('.mantine-Card-root', { has: page.getByRole('heading', { name: 'Claims' }) });
  await expect(onPolicy.getByText('No claims on this policy.')).toBeVisible();
  await onPolicy.getByRole('link', { name: 'New claim' }).click();

  // The policy comes preset from its page.
  await expect(page).toHaveURL(/\/claims\/create\?policy_id=/);
  await expect(
    page
      .getByRole('textbox', { name: 'Policy' })
      .or(page.getByRole('combobox', { name: 'Policy' }))
      .first(),
  ).toHaveValue('P-1042 · Dana Levi');
  await page
    .getByRole('textbox', { name: 'Type' })
    .or(page.getByRole('combobox', { name: 'Type' }))
    .first()
    .click();
  await page.getByRole('option', { name: 'Accident' }).click();
  await page.getByLabel('Incident date').fill(dayFrom(-3));
  await page.getByRole('textbox', { name: 'Location' }).fill('Main St & 5th Ave');
  await page.getByRole('textbox', { name: 'Description' }).fill('Rear-ended at a light.');
  await page.getByRole('textbox', { name: 'Amount claimed' }).fill('4200');
  await page.getByRole('textbox', { name: 'Name' }).fill('Rina Azulay');
  await page.getByRole('textbox', { name: 'Email' }).fill('rina@harel.example');
  await lookAt(page, 'claim-form', testInfo);
  await page.getByRole('button', { name: 'Report claim' }).click();

  const number = `CLM-${year()}-0001`;
  await expect(page.getByRole('heading', { name: `Claim ${number}` })).toBeVisible();
  await expect(page.getByText('Claim reported')).toBeVisible();
  await lookAt(page, 'claim-detail-open', testInfo);

  await moveClaim(page, 'Start review', { Note: 'Sent to Harel with the photos.' });
  await expect(page.getByText('Sent to Harel with the photos.')).toBeVisible();
  await moveClaim(page, 'Approve', { 'Amount approved': '3900' });
  await expect(page.getByText('$3,900.00').first()).toBeVisible();

  // The insurer cannot pay more than it approved.
  await page.getByRole('button', { name: 'Record payment', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Amount paid by the insurer').fill('4000');
  await dialog.getByRole('button', { name: 'Record payment' }).click();
  await expect(dialog.getByText('The insurer cannot pay more than the approved amount.')).toBeVisible();
  await dialog.getByLabel('Amount paid by the insurer').fill('3900');
  await dialog.getByRole('button', { name: 'Record payment' }).click();
  await expect(dialog).toHaveCount(0);

  await expect(page.getByRole('button', { name: 'Close claim', exact: true })).toBeVisible();
  await page.getByRole('textbox', { name: 'Add a note' }).fill('Customer confirmed the money arrived.');
  await page.getByRole('button', { name: 'Add note' }).click();
  await expect(page.getByText('Customer confirmed the money arrived.')).toBeVisible();
  const timeline = page.getByRole('list').filter({ hasText: 'Claim reported' });
  await expect(timeline.getByRole('listitem')).toHaveCount(5);
  await lookAt(page, 'claim-detail-paid', testInfo);

  // Back on the policy, the claim is listed as paid.
  await page.getByRole('link', { name: 'P-1042' }).click();
  await expect(onPolicy.getByRole('link', { name: number })).toBeVisible();
  await expect(onPolicy.getByText('Paid', { exact: true })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('policy-with-claim.png'), fullPage: true });

  await page.goto('/claims');
  await expect(page.getByText(number).first()).toBeVisible();
  await expect(page.getByText('Dana Levi').first()).toBeVisible();
  await lookAt(page, 'claims-list', testInfo);
});

test('an incident outside the policy term is saved only once the broker confirms it', async ({
  page,
  broker,
  request,
}, testInfo) => {
  const policyId = await seedPolicy(request, broker);
  await signInWithTokens(page, broker);
  await page.goto(`/claims/create?policy_id=${policyId}`);
  await page
    .getByRole('textbox', { name: 'Type' })
    .or(page.getByRole('combobox', { name: 'Type' }))
    .first()
    .click();
  await page.getByRole('option', { name: 'Theft' }).click();
  await page.getByLabel('Incident date').fill(dayFrom(-70));
  await page.getByLabel('Reported on').fill(dayFrom(-1));
  await page.getByRole('textbox', { name: 'Amount claimed' }).fill('900');
  await expect(page.getByText(/you will be asked to confirm it/)).toBeVisible();
  await page.getByRole('button', { name: 'Report claim' }).click();

  const warning = page.getByRole('alert').filter({ hasText: "Incident outside the policy's term" });
  await expect(warning).toContainText("The incident date is outside the policy's term");
  await lookAt(page, 'claim-form-outside-term', testInfo);
  await warning.getByRole('button', { name: 'Save anyway' }).click();
  await expect(page.getByRole('heading', { name: /^Claim CLM-/ })).toBeVisible();
  await expect(page.getByText('Outside the term')).toBeVisible();
});

test('reopening a closed claim asks for the reason', async ({ page, broker, request }) => {
  const policyId = await seedPolicy(request, broker);
  const headers = { authorization: `Bearer ${broker.access}` };
  const claimId = await creator(request, broker)('/api/claims/', {
    policy_id: policyId,
    incident_date: dayFrom(-10),
    claim_type: 'water_damage',
    amount_claimed: '1500',
  });
  const closed = await request.post(`/api/claims/${claimId}/transition/`, {
    headers,
    data: { status: 'closed', note: 'Customer withdrew it.' },
  });
  expect(closed.status()).toBe(200);
  await signInWithTokens(page, broker);
  await page.goto(`/claims/${claimId}`);
  await page.getByRole('button', { name: 'Reopen' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Reopen' }).click();
  await expect(dialog.getByText('Give the reason for reopening this claim.')).toBeVisible();
  await dialog.getByLabel('Reason for reopening').fill('More damage found behind the cabinets.');
  await dialog.getByRole('button', { name: 'Reopen' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText('More damage found behind the cabinets.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Start review' })).toBeVisible();
});

test('the claims list before the first claim', async ({ page, broker }, testInfo) => {
  await signInWithTokens(page, broker);
  await page.goto('/claims');
  await expect(page.getByRole('heading', { level: 1, name: 'Claims' })).toBeVisible();
  await expect(page.getByText('No claims yet')).toBeVisible();
  await lookAt(page, 'claims-empty', testInfo);
});

/** A claim on the policy through the API, moved along `moves`; answers its id. */
async function seedClaim(
  request: APIRequestContext,
  broker: Broker,
  policyId: string,
  claim: Record<string, string>,
  moves: Record<string, string>[] = [],
) {
  const id = await creator(request, broker)('/api/claims/', {
    policy_id: policyId,
    incident_date: dayFrom(-5),
    claim_type: 'accident',
    ...claim,
  });
  for (const move of moves) {
    const moved = await request.post(`/api/claims/${id}/transition/`, {
      headers: { authorization: `Bearer ${broker.access}` },
      data: move,
    });
    expect(moved.status()).toBe(200);
  }
  return id;
}

test('the claims list opens on the figures of its claims, which follow its filters but not its status', async ({
  page,
  broker,
  request,
}, testInfo) => {
  const policyId = await seedPolicy(request, broker);
  await seedClaim(request, broker, policyId, { amount_claimed: '4200' }, [
    { status: 'in_review' },
    { status: 'approved', amount_approved: '3900' },
    { status: 'paid', amount_paid: '3500' },
  ]);
  await seedClaim(request, broker, policyId, { amount_claimed: '800', reported_date: dayFrom(-4) }, [
    { status: 'rejected' },
    { status: 'closed' },
  ]);
  await signInWithTokens(page, broker);
  await page.goto('/claims');
  const figure = (name: string) => page.getByRole('group', { name, exact: true });
  await expect(figure('Open claims')).toContainText('1');
  await expect(figure('Open claims')).toContainText('Not yet closed, of 2 claims');
  await expect(figure('Claimed')).toContainText('$5,000.00');
  await expect(figure('Approved')).toContainText('$3,900.00');
  await expect(figure('Paid by insurers')).toContainText('$3,500.00');
  await expect(figure('Average days to close')).toContainText('4');
  await expect(figure('Average days to close')).toContainText('over 1 claim');
  await lookAt(page, 'claims-list-figures', testInfo);

  // A status filter narrows the list, not the figures, and the caption says so.
  await page.goto('/claims?status=closed');
  await expect(page.getByText("For all the agency's claims, in every status.")).toBeVisible();
  await expect(figure('Claimed')).toContainText('$5,000.00');
  // A search narrows both.
  await page.goto('/claims?search=nobody');
  await expect(
    page.getByText('For the claims matching the search and filters, in every status.'),
  ).toBeVisible();
  await expect(figure('Open claims')).toContainText('No claims');
  await expect(figure('Claimed')).toContainText('$0.00');
});

test('a policy with claims cannot be deleted: its dialog says so and leads to them', async ({
  page,
  broker,
  request,
}, testInfo) => {
  const policyId = await seedPolicy(request, broker);
  await seedClaim(request, broker, policyId, { amount_claimed: '1200' });
  await seedClaim(request, broker, policyId, { amount_claimed: '300', claim_type: 'theft' });
  await signInWithTokens(page, broker);
  await page.goto(`/policies/${policyId}`);
  await page.getByRole('button', { name: 'Actions' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete policy P-1042 for Dana Levi?' });
  await expect(dialog).toContainText('This policy has 2 claims, so it cannot be deleted');
  await expect(dialog.getByRole('button', { name: 'Delete policy' })).toBeDisabled();
  await expect(dialog.getByRole('textbox', { name: /Your password/ })).toHaveCount(0);
  await lookAt(page, 'policy-delete-with-claims', testInfo);

  await dialog.getByRole('link', { name: 'Open the 2 claims' }).click();
  await expect(page).toHaveURL(new RegExp(`/claims\\?policy_id=${policyId}$`));
  await expect(page.getByRole('link', { name: /CLM-/ })).toHaveCount(2);
});

test("an edited amount is written to the claim's timeline, and the form refuses a date in the future", async ({
  page,
  broker,
  request,
}, testInfo) => {
  const policyId = await seedPolicy(request, broker);
  const claimId = await seedClaim(request, broker, policyId, { amount_claimed: '4200' }, [
    { status: 'in_review' },
    { status: 'approved', amount_approved: '3900' },
  ]);
  await signInWithTokens(page, broker);
  await page.goto(`/claims/${claimId}/edit`);
  await page.getByRole('textbox', { name: 'Amount approved' }).fill('4100');

  // Tomorrow is refused before anything is sent.
  let saved = 0;
  page.on('request', (sent) => {
    if (sent.method() === 'PUT' && sent.url().includes('/api/claims/')) saved += 1;
  });
  await page.getByLabel('Incident date').fill(dayFrom(1));
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('An incident date cannot be in the future.')).toBeVisible();
  expect(saved).toBe(0);

  await page.getByLabel('Incident date').fill(dayFrom(-5));
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('heading', { name: /^Claim CLM-/ })).toBeVisible();
  const timeline = page.getByRole('list').filter({ hasText: 'Claim reported' });
  await expect(timeline.getByRole('listitem').first()).toContainText(
    'Amount approved changed from $3,900.00 to $4,100.00',
  );
  await lookAt(page, 'claim-amount-edited', testInfo);
});
