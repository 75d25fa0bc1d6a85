import type { APIRequestContext, Page } from '@playwright/test';
import {
  type Broker,
  expect,
  expectAccessible,
  seedMotorPolicy,
  signInWithTokens,
  test,
} from './fixtures.js';

/** Dana Levi's motor policy with Harel, in force since a month ago. */
const seedPolicy = (request: APIRequestContext, broker: Broker) => seedMotorPolicy(request, broker, 30);

/**
 * Drops files on the drop zone as a desktop's file manager would: a drop event carrying them. The
 * schedule is a real one-page PDF, padded to a few megabytes so its upload shows its progress.
 */
async function dropFiles(page: Page) {
  await page.getByTestId('document-drop-zone').evaluate((zone) => {
    const pdf = [
      '%PDF-1.4',
      '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
      '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj',
      '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >> endobj',
      '4 0 obj << /Length 60 >> stream',
      'BT /F1 24 Tf 72 760 Td (Policy schedule P-1042) Tj ET',
      'endstream endobj',
      '5 0 obj << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> endobj',
      'trailer << /Root 1 0 R >>',
      '%%EOF',
      '',
    ].join('\n');
    const padding = `%${' '.repeat(78)}\n`.repeat(40_000);
    const png = Uint8Array.from(
      atob(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      ),
      (char) => char.charCodeAt(0),
    );
    const files = [
      new File([pdf, padding], 'Policy schedule.pdf', { type: 'application/pdf' }),
      new File([png], 'Driving licence.png', { type: 'image/png' }),
      new File(['Called Harel: the renewal quote comes on Monday.\n'], 'Call notes.txt', {
        type: 'text/plain',
      }),
    ];
    const transfer = new DataTransfer();
    for (const file of files) transfer.items.add(file);
    zone.dispatchEvent(
      new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true }),
    );
    zone.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
  });
}

test('a broker drops three files onto a policy, previews the schedule, downloads and deletes @phone', async ({
  page,
  broker,
  request,
}, testInfo) => {
  test.slow();
  const policyId = await seedPolicy(request, broker);
  await signInWithTokens(page, broker);
  await page.goto(`/policies/${policyId}`);
  const panel = page.locator('.mantine-Card-root', { has: page.getByRole('heading', { name: 'Documents' }) });
  await expect(panel.getByText('No documents on this policy yet.')).toBeVisible();
  await expect(panel.getByLabel('Category for new files')).toHaveValue('By file type');

  await dropFiles(page);
  // A bar for each file while they go up, then the three in the list, newest first.
  await expect(panel.getByTestId('document-upload')).toHaveCount(3);
  await expect(panel.getByRole('progressbar', { name: 'Uploading Policy schedule.pdf' })).toBeVisible();
  await expect(panel.getByTestId('document-row')).toHaveCount(3);
  await expect(panel.getByText('Uploaded').first()).toBeVisible();
  await expectAccessible(page);
  await panel.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('documents-panel.png'), fullPage: true });

  // The schedule opens in the page, fetched with the broker's token.
  await panel.getByRole('button', { name: 'Policy schedule.pdf', exact: true }).click();
  const preview = page.getByRole('dialog', { name: 'Policy schedule.pdf' });
  await expect(preview.getByTestId('document-preview')).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('documents-preview.png') });
  await preview.getByRole('button', { name: 'Close' }).click();

  // Downloaded with its name.
  await panel.getByRole('button', { name: 'Actions for Call notes.txt' }).click();
  const download = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: 'Download' }).click();
  expect((await download).suggestedFilename()).toBe('Call notes.txt');

  // Deleted after asking, by name.
  await panel.getByRole('button', { name: 'Actions for Driving licence.png' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete document' });
  await expect(confirm.getByText('Delete Driving licence.png?')).toBeVisible();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(panel.getByTestId('document-row')).toHaveCount(2);
  await expect(panel.getByRole('button', { name: 'Driving licence.png', exact: true })).toHaveCount(0);

  // The customer's page shows the policy's documents too.
  await page.getByRole('link', { name: 'Dana Levi' }).first().click();
  const onCustomer = page.locator('.mantine-Card-root', {
    has: page.getByRole('heading', { name: 'Documents' }),
  });
  await expect(onCustomer.getByTestId('document-row')).toHaveCount(2);
});

test('a file that is not what its name says is refused with the reason', async ({
  page,
  broker,
  request,
}) => {
  const policyId = await seedPolicy(request, broker);
  await signInWithTokens(page, broker);
  await page.goto(`/policies/${policyId}`);
  const panel = page.locator('.mantine-Card-root', { has: page.getByRole('heading', { name: 'Documents' }) });
  await panel.locator('input[type="file"]').setInputFiles({
    name: 'invoice.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('MZ this is a program, not a PDF'),
  });
  await expect(panel.getByRole('alert')).toContainText(
    'This file is not a PDF file, whatever its name says.',
  );
  await expect(panel.getByText('No documents on this policy yet.')).toBeVisible();
});
