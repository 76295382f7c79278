// Drives sqlmorph's HTML report in Debian's headless chromium (puppeteer-core): the page renders
// every view without a console error, and what the explorer's filters show equals what is computed
// here from the run's own files.
//
//   node report_test.mjs REPORT.html RUN_DIR
import fs from 'node:fs';
import path from 'node:path';
import puppeteer from 'puppeteer-core';

const [report, runDir] = process.argv.slice(2);
const failures = [];
const check = (ok, what) => { if (!ok) failures.push(what); console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`); };
const jsonl = (file) => fs.readFileSync(path.join(runDir, file), 'utf8').split('\n').filter((l) => l).map((l) => JSON.parse(l));
const records = jsonl('results.jsonl');
const examples = jsonl('examples.jsonl');
const systems = [...new Set(examples.map((e) => e.system ?? ''))];
const variantLabel = (r) => r.penalize_extra_pred_cols === null ? r.technique : `${r.technique} (${r.penalize_extra_pred_cols ? 'penalize' : 'no penalize'})`;

const browser = await puppeteer.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--allow-file-access-from-files'] });
try {
  const page = await browser.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('requestfailed', (r) => errors.push(`request failed: ${r.url()}`));
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.setViewport({ width: 1400, height: 1000 });
  const started = Date.now();
  await page.goto('file://' + path.resolve(report), { waitUntil: 'load' });
  console.log(`opened in ${Date.now() - started} ms`);
  check(requests.every((u) => u.startsWith('file://')), 'no request leaves the file (no network)');

  // Overview: one row per system.
  check((await page.$$eval('#overview-table tbody tr', (r) => r.length)) === systems.length, `overview lists the ${systems.length} system(s)`);
  for (const tab of ['charts', 'explorer', 'compare']) await page.click(`nav button[data-tab=${tab}]`);
  await page.click('nav button[data-tab=charts]');
  check((await page.$$eval('#charts svg', (s) => s.length)) >= 3, 'charts: at least three SVG charts');

  // Explorer: the count of each filter equals the records'.
  await page.click('nav button[data-tab=explorer]');
  const count = async () => Number((await page.$eval('#explorer-count', (e) => e.textContent)).split(' ')[0]);
  check(await count() === examples.length, `explorer: all ${examples.length} examples`);
  const variantIndex = async (label) => page.$$eval('#f-variant option', (os, l) => os.find((o) => o.textContent === l)?.value, label);
  const exLabel = variantLabel(records.find((r) => r.technique === 'execution_accuracy'));
  await page.select('#f-variant', await variantIndex(exLabel));
  const statuses = [...new Set(records.filter((r) => variantLabel(r) === exLabel).map((r) => r.status))];
  for (const status of statuses) {
    await page.select('#f-status', status);
    const expected = records.filter((r) => variantLabel(r) === exLabel && r.status === status).length;
    check(await count() === expected, `explorer: status ${status} of ${exLabel} shows ${expected}`);
  }
  await page.select('#f-status', '');
  // EX 0 but F1 >= 0.5 under a technique with F1.
  const f1Record = records.find((r) => r.F1 !== null && r.technique !== 'execution_accuracy');
  if (f1Record) {
    const label = variantLabel(f1Record);
    await page.select('#f-variant', await variantIndex(label));
    await page.select('#f-ex0-f1', '0.5');
    const expected = records.filter((r) => variantLabel(r) === label && r.EX === 0 && r.F1 !== null && r.F1 >= 0.5).length;
    check(await count() === expected, `explorer: EX 0 but F1 >= 0.5 under ${label} shows ${expected}`);
    await page.select('#f-ex0-f1', '');
  }
  // A gold feature.
  await page.select('#f-variant', await variantIndex(exLabel));
  const joinIndex = 0;
  await page.select('#f-feature', `${joinIndex}:1`);
  check(await count() === examples.filter((e) => e.features.gold.joins > 0).length, 'explorer: gold has join');
  await page.select('#f-feature', '');
  // Systems disagree on EX.
  if (systems.length > 1) {
    const key = (r) => (r.system && r.id.startsWith(r.system + ':') ? r.id.slice(r.system.length + 1) : r.id);
    const values = new Map();
    for (const r of records) if (variantLabel(r) === exLabel && r.EX !== null) {
      if (!values.has(key(r))) values.set(key(r), new Set());
      values.get(key(r)).add(r.EX >= 1 ? 1 : 0);
    }
    const disagree = new Set([...values].filter(([, s]) => s.size > 1).map(([k]) => k));
    await page.click('#f-disagree');
    const expected = examples.filter((e) => disagree.has(key(e))).length;
    check(await count() === expected, `explorer: systems disagree shows ${expected}`);
    await page.click('#f-disagree');
  }
  // An example's detail: its SQL and both result tables.
  const first = examples.find((e) => e.gold_result && e.gold_result.status === 'ok') || examples[0];
  await page.select('#f-system', String(systems.indexOf(first.system ?? '')));
  await page.click(`tr.example[data-id="${first.id}"]`);
  check((await page.$eval('#detail-gold', (e) => e.textContent)) === first.gold, `detail of ${first.id}: the gold SQL`);
  check((await page.$$eval('#example-detail table', (t) => t.length)) >= 2, `detail of ${first.id}: result and score tables`);

  if (systems.length > 1) {
    await page.click('nav button[data-tab=compare]');
    check((await page.$$eval('#disagreements tr', (r) => r.length)) >= 1, 'system vs system: the disagreement table');
  }
  check(errors.length === 0, `no console error (${errors.join(' | ')})`);
} finally {
  await browser.close();
}
if (failures.length) { console.error(`${failures.length} check(s) failed`); process.exit(1); }
