// Times "Try the demo" in a real browser: the click, the dashboard's address, its heading and its
// first figures, with every API answer on the way. Against a running build:
//   PORT=20300 DATA_DIR=$(mktemp -d) node api/dist/main.js &
//   node bench/demo-landing.mjs http://localhost:20300 5 [directory for screenshots of the first try]
import { chromium } from 'playwright';

const base = process.argv[2] ?? 'http://localhost:20300';
const tries = Number(process.argv[3] ?? 3);
const shotDir = process.argv[4];
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
for (let i = 0; i < tries; i += 1) {
  for (const [name, viewport] of [
    ['desktop', { width: 1440, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ]) {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const timings = [];
    page.on('response', (r) => {
      if (r.url().includes('/api/')) timings.push([Date.now(), r.status(), r.url().replace(base, '')]);
    });
    await page.goto(`${base}/login`);
    const button = page.getByRole('button', { name: 'Try the demo' });
    await button.waitFor();
    const t0 = Date.now();
    await button.click();
    if (shotDir && i === 0) {
      await page.waitForTimeout(150);
      await page.screenshot({ path: `${shotDir}/demo-150ms-${name}.png` });
    }
    await page.waitForURL('**/dashboard');
    const tUrl = Date.now() - t0;
    if (shotDir && i === 0) await page.screenshot({ path: `${shotDir}/demo-at-dashboard-url-${name}.png` });
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    const tHeading = Date.now() - t0;
    await page
      .getByText(/Active policies|Premium/i)
      .first()
      .waitFor();
    const tFigures = Date.now() - t0;
    if (shotDir && i === 0) await page.screenshot({ path: `${shotDir}/demo-landed-${name}.png` });
    console.log(
      JSON.stringify({ try: i, name, dashboardUrlMs: tUrl, headingMs: tHeading, figuresMs: tFigures }),
      timings.map(([t, s, u]) => `${t - t0}ms ${s} ${u}`).join('\n  '),
    );
    await context.close();
  }
}
await browser.close();
