// How long the report takes to open in Debian's headless chromium (bench/evidence_report_bench):
// from navigation to the load event (the page's scripts have parsed the data and drawn the
// overview), then until the overview table has its rows; printed as milliseconds, one line each.
//
//   node open_timing.mjs REPORT.html RUNS
import path from 'node:path';
import puppeteer from 'puppeteer-core';

const [report, runs = '3'] = process.argv.slice(2);
const browser = await puppeteer.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--allow-file-access-from-files'] });
try {
  for (let i = 0; i < Number(runs); ++i) {
    const page = await browser.newPage();
    await page.setViewport({ width: 1400, height: 1000 });
    const started = performance.now();
    await page.goto('file://' + path.resolve(report), { waitUntil: 'load', timeout: 120000 });
    const loaded = performance.now();
    await page.waitForSelector('#overview-table tbody tr', { timeout: 120000 });
    const shown = performance.now();
    console.log(`load ${(loaded - started).toFixed(0)} overview ${(shown - started).toFixed(0)}`);
    await page.close();
  }
} finally {
  await browser.close();
}
