// Screenshots of each view of a report (make report-screenshots): node screenshots.mjs REPORT.html OUT_DIR
import path from 'node:path';
import puppeteer from 'puppeteer-core';

const [report, out] = process.argv.slice(2);
const browser = await puppeteer.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1400, height: 900 });
  await page.goto('file://' + path.resolve(report), { waitUntil: 'load' });
  await page.screenshot({ path: path.join(out, 'report-overview.png') });
  await page.click('nav button[data-tab=charts]');
  await page.screenshot({ path: path.join(out, 'report-charts.png') });
  await page.click('nav button[data-tab=explorer]');
  const variant = await page.$$eval('#f-variant option', (os) => os.find((o) => o.textContent.startsWith('exact_column_and_partial_cell'))?.value);
  if (variant !== undefined) await page.select('#f-variant', variant);
  const target = await page.$('tr.example[data-id="dail-sql-gpt4:493"]');
  if (target) await target.click(); else await page.click('tr.example');
  await page.screenshot({ path: path.join(out, 'report-explorer.png') });
  await page.click('nav button[data-tab=compare]');
  await page.screenshot({ path: path.join(out, 'report-compare.png') });
} finally {
  await browser.close();
}
console.log(`screenshots in ${out}`);
