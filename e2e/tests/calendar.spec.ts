import type { Locator, Page } from '@playwright/test';
import { expect, expectAccessible, seedAgency, settled, signInWithTokens, test } from './fixtures.js';

/** A calendar day `days` from today (UTC: the test agencies' and the browser's time zone). */
const dayFrom = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** A weekday a week or so ahead, and the next, so both fall in the same week view. */
function nextWeekDays(): [string, string] {
  let offset = 7;
  // Monday to Thursday: the day after is in the same week (weeks start on Sunday).
  while (![1, 2, 3, 4].includes(new Date(`${dayFrom(offset)}T00:00:00Z`).getUTCDay())) offset++;
  return [dayFrom(offset), dayFrom(offset + 1)];
}

const center = async (locator: Locator) => {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not on screen');
  return { x: box.x + box.width / 2, y: box.y + box.height / 2, box };
};

/** The point of a week view's time grid at a day and time, where a click or a drop lands. */
async function slotPoint(page: Page, day: string, time: string) {
  const column = await center(page.locator(`.fc-timegrid-col[data-date="${day}"]`));
  const row = await center(page.locator(`.fc-timegrid-slot-lane[data-time="${time}"]`));
  return { x: column.x, y: row.box.y + 4 };
}

test('a broker adds a meeting by clicking a slot, drags it to another day and time, finds it in the agenda and deletes it', async ({
  page,
  broker,
  request,
}, testInfo) => {
  test.skip(
    testInfo.project.name === 'mobile',
    'clicking and dragging slots is for a pointer; the phone has its own test',
  );
  test.slow();
  await seedAgency(request, broker);
  await signInWithTokens(page, broker);
  const [day, nextDay] = nextWeekDays();

  await page.goto(`/calendar?view=week&date=${day}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Calendar' })).toBeVisible();
  await expect(page.locator(`.fc-timegrid-col[data-date="${day}"]`)).toBeVisible();
  // The week's events loaded: a note that the week is empty would otherwise move the grid under the click.
  await settled(page);

  // A click on 10:00 opens the form with that half hour.
  const slot = await slotPoint(page, day, '10:00:00');
  await page.mouse.click(slot.x, slot.y);
  const dialog = page.getByRole('dialog', { name: 'New meeting' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Starts')).toHaveValue(`${day}T10:00`);
  await expect(dialog.getByLabel('Ends')).toHaveValue(`${day}T10:30`);
  await dialog.getByLabel('Title').fill('Renewal review with Dana');
  await dialog.getByLabel('Location').fill('Our office');
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Add meeting' }).click();
  await expect(page.getByText('Renewal review with Dana added.')).toBeVisible();
  const event = page.locator('.fc-event').filter({ hasText: 'Renewal review with Dana' });
  await expect(event).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('calendar-week.png'), fullPage: true });

  // Dragged to 14:00 the next day.
  const from = await center(event);
  const to = await slotPoint(page, nextDay, '14:00:00');
  await page.mouse.move(from.x, from.box.y + 6);
  await page.mouse.down();
  await page.mouse.move(from.x + 10, from.box.y + 16, { steps: 5 });
  await page.mouse.move(to.x, to.y + 2, { steps: 20 });
  await page.mouse.up();
  await expect(page.getByText('Renewal review with Dana moved.')).toBeVisible();
  await expect(page.locator(`.fc-timegrid-col[data-date="${nextDay}"] .fc-event`)).toContainText(
    'Renewal review with Dana',
  );

  // The agenda lists it on its new day; opened, it shows the new times.
  await page.getByRole('radiogroup', { name: 'View' }).getByText('Agenda', { exact: true }).click();
  await expect(page).toHaveURL(/view=agenda/);
  const row = page.locator('.fc-list-event').filter({ hasText: 'Renewal review with Dana' });
  await expect(row).toContainText('14:00');
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('calendar-agenda.png'), fullPage: true });
  await row.getByText('Renewal review with Dana').click();
  const opened = page.getByRole('dialog', { name: 'Meeting' });
  await expect(opened.getByLabel('Starts')).toHaveValue(`${nextDay}T14:00`);
  await expect(opened.getByLabel('Location')).toHaveValue('Our office');

  // Deleting asks first, naming the meeting.
  await opened.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete meeting' });
  await expect(confirm).toContainText('Delete “Renewal review with Dana”');
  await confirm.getByRole('button', { name: 'Delete meeting' }).click();
  await expect(page.getByText('Renewal review with Dana deleted.')).toBeVisible();
  await expect(row).toHaveCount(0);
});

test('on a phone the agenda comes first; a meeting added there is found in it and deleted @phone', async ({
  page,
  broker,
  request,
}, testInfo) => {
  test.skip(testInfo.project.name !== 'mobile', 'the phone layout');
  test.slow();
  // A policy ending on the last day of the year, away from the week looked at.
  await seedAgency(request, broker);
  await signInWithTokens(page, broker);
  const day = dayFrom(2);
  await page.goto(`/calendar?date=${day}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Calendar' })).toBeVisible();
  await expect(page).toHaveURL(/view=agenda/);
  await expect(page.getByText('Nothing on these dates')).toBeVisible();

  await page.getByRole('button', { name: 'New meeting' }).click();
  const dialog = page.getByRole('dialog', { name: 'New meeting' });
  await dialog.getByLabel('Title').fill('Quote walkthrough');
  await dialog.getByLabel('Starts').fill(`${day}T09:30`);
  await dialog.getByLabel('Ends').fill(`${day}T10:15`);
  await dialog.getByRole('button', { name: 'Add meeting' }).click();
  await expect(page.getByText('Quote walkthrough added.')).toBeVisible();
  const row = page.locator('.fc-list-event').filter({ hasText: 'Quote walkthrough' });
  await expect(row).toContainText('09:30');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, 'the page scrolls sideways').toBeLessThanOrEqual(0);
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('calendar-agenda-phone.png'), fullPage: true });

  await row.getByText('Quote walkthrough').click();
  await page.getByRole('dialog', { name: 'Meeting' }).getByRole('button', { name: 'Delete' }).click();
  await page
    .getByRole('dialog', { name: 'Delete meeting' })
    .getByRole('button', { name: 'Delete meeting' })
    .click();
  await expect(page.getByText('Quote walkthrough deleted.')).toBeVisible();
  await expect(row).toHaveCount(0);
});
