// sqlmorph's HTML report: everything is drawn here from the data sqlmorph embeds in the page
// (<script id="sqlmorph-data" type="application/json">), without network or libraries.
'use strict';
const DATA = JSON.parse(document.getElementById('sqlmorph-data').textContent);
const METRICS = ['EX', 'EXP', 'EXR', 'F1'];

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') e.className = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null) e.setAttribute(k, v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c instanceof Node ? c : String(c));
  return e;
}
function svgEl(tag, attrs, ...children) {
  const e = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c instanceof Node ? c : String(c));
  return e;
}
const fmt = (x, d = 3) => (x === null || x === undefined ? '–' : Number(x).toFixed(d));
const systems = DATA.systems;
const variants = DATA.variants;
const headlineMetric = (v) => (DATA.has_f1[v] ? 'F1' : 'EX');
function summaryOf(s, v) { return DATA.summary.find((g) => g.s === s && g.v === v); }
function select(id, options, onchange, value) {
  const e = el('select', { id, onchange });
  for (const [val, label] of options) e.append(el('option', { value: val }, label));
  if (value !== undefined) e.value = value;
  return e;
}

// ---- Overview: systems × technique variants, ranked.
function renderOverview() {
  const sec = document.getElementById('overview');
  sec.innerHTML = '';
  const first = 0;
  const order = systems.map((_, i) => i).sort((a, b) => {
    const ga = summaryOf(a, first), gb = summaryOf(b, first);
    return (gb ? gb[headlineMetric(first)] ?? -1 : -1) - (ga ? ga[headlineMetric(first)] ?? -1 : -1);
  });
  sec.append(el('p', { class: 'muted' },
    `${systems.length} system(s), ${variants.length} technique variant(s), ${DATA.examples.length} example records; ` +
    'each cell: the headline metric (F1 where the technique has it, else EX) and its 95% bootstrap interval. Ranked by the first column.'));
  const head = el('tr', {}, el('th', {}, '#'), el('th', {}, 'system'), variants.map((v, i) => el('th', {}, `${v} (${headlineMetric(i)})`)));
  const rows = order.map((s, rank) => el('tr', { class: 'overview-row' }, el('td', { class: 'num' }, rank + 1), el('td', {}, systems[s]),
    variants.map((_, v) => {
      const g = summaryOf(s, v);
      if (!g) return el('td', {}, '–');
      const m = headlineMetric(v);
      const ci = g.interval && g.interval[m];
      return el('td', { class: 'num' }, fmt(g[m]), ci ? el('span', { class: 'ci' }, ` [${fmt(ci[0])}, ${fmt(ci[1])}]`) : '');
    })));
  sec.append(el('table', { id: 'overview-table' }, el('thead', {}, head), el('tbody', {}, rows)));
}

// ---- Charts (SVG).
function barChart(title, items, opts = {}) {
  // items: [{label, value, low, high, color}]
  const rowH = 16, left = opts.left || 220, width = 460;
  const h = items.length * rowH + 24;
  const svg = svgEl('svg', { width: left + width + 80, height: h, role: 'img' });
  svg.append(svgEl('line', { x1: left, x2: left, y1: 0, y2: h - 18, stroke: '#9aa5b4' }));
  for (const t of [0, 0.25, 0.5, 0.75, 1]) {
    svg.append(svgEl('text', { x: left + t * width - 8, y: h - 4 }, t.toFixed(2)));
    svg.append(svgEl('line', { x1: left + t * width, x2: left + t * width, y1: 0, y2: h - 18, stroke: '#e3e7ee' }));
  }
  items.forEach((it, i) => {
    const y = i * rowH + 2;
    svg.append(svgEl('text', { x: left - 6, y: y + 11, 'text-anchor': 'end' }, it.label));
    const v = Math.max(0, Math.min(1.25, it.value ?? 0));
    svg.append(svgEl('rect', { x: left, y, width: v * width, height: rowH - 4, fill: it.color || '#4c78a8' }));
    if (it.low !== undefined && it.high !== undefined)
      svg.append(svgEl('line', { x1: left + it.low * width, x2: left + it.high * width, y1: y + 6, y2: y + 6, stroke: '#1d2430', 'stroke-width': 1.5 }));
    svg.append(svgEl('text', { x: left + v * width + 4, y: y + 11 }, fmt(it.value)));
  });
  return el('div', { class: 'card chart' }, el('h3', {}, title), svg);
}
const PALETTE = ['#4c78a8', '#f58518', '#54a24b', '#e45756', '#72b7b2', '#b279a2', '#ff9da6', '#9d755d', '#bab0ac', '#eeca3b'];
function renderCharts() {
  const sec = document.getElementById('charts');
  sec.innerHTML = '';
  const v = Number(document.getElementById('chart-variant')?.value || 0);
  const controls = el('div', { class: 'controls' }, el('label', {}, 'technique '),
    select('chart-variant', variants.map((name, i) => [i, name]), renderCharts, v));
  sec.append(controls);
  const m = headlineMetric(v);
  const ranked = systems.map((name, s) => ({ s, g: summaryOf(s, v) })).filter((x) => x.g).sort((a, b) => (b.g[m] ?? 0) - (a.g[m] ?? 0));
  sec.append(barChart(`${variants[v]}: ${m} per system (95% interval)`, ranked.map(({ s, g }) => ({
    label: systems[s], value: g[m], low: g.interval?.[m]?.[0], high: g.interval?.[m]?.[1] }))));
  // By difficulty: one bar per (system, difficulty), the first 12 systems of the ranking.
  const diffs = [...new Set(DATA.by_difficulty.filter((g) => g.v === v).map((g) => g.difficulty))];
  const top = ranked.slice(0, 12);
  const byDiff = [];
  for (const { s } of top) for (const [k, d] of diffs.entries()) {
    const g = DATA.by_difficulty.find((x) => x.s === s && x.v === v && x.difficulty === d);
    if (g) byDiff.push({ label: `${systems[s]} · ${d}`, value: g[m], color: PALETTE[k % PALETTE.length] });
  }
  if (byDiff.length) sec.append(barChart(`${m} by difficulty`, byDiff, { left: 300 }));
  const dbs = DATA.by_database.filter((g) => g.v === v && g.s === (top[0]?.s ?? 0) && g[m] !== null);
  if (dbs.length) sec.append(barChart(`${m} by database (${systems[top[0]?.s ?? 0]})`, dbs.map((g) => ({ label: g.db_id, value: g[m] }))));
  const feats = DATA.by_feature.filter((g) => g.v === v && g.s === (top[0]?.s ?? 0) && g[m] !== null);
  if (feats.length) sec.append(barChart(`${m} by SQL feature of the gold query (${systems[top[0]?.s ?? 0]})`,
    feats.map((g) => ({ label: `${g.feature} ${g.present ? 'present' : 'absent'} (${g.count})`, value: g[m], color: g.present ? '#f58518' : '#4c78a8' })), { left: 260 }));
  // Status breakdown: stacked shares per system.
  const statusNames = [...new Set(DATA.summary.flatMap((g) => Object.keys(g.statuses || {})))].sort();
  const sb = svgEl('svg', { width: 760, height: ranked.length * 16 + 40 });
  ranked.forEach(({ s, g }, i) => {
    let x = 220;
    sb.append(svgEl('text', { x: 214, y: i * 16 + 13, 'text-anchor': 'end' }, systems[s]));
    statusNames.forEach((name, k) => {
      const w = ((g.statuses?.[name] || 0) / g.count) * 460;
      if (w > 0) sb.append(svgEl('rect', { x, y: i * 16 + 2, width: w, height: 12, fill: PALETTE[k % PALETTE.length] }, svgEl('title', {}, `${name}: ${g.statuses[name]}`)));
      x += w;
    });
  });
  statusNames.forEach((name, k) => {
    const y = ranked.length * 16 + 26;
    sb.append(svgEl('rect', { x: 220 + k * 110, y: y - 10, width: 10, height: 10, fill: PALETTE[k % PALETTE.length] }));
    sb.append(svgEl('text', { x: 234 + k * 110, y }, name));
  });
  sec.append(el('div', { class: 'card chart' }, el('h3', {}, `statuses of ${variants[v]}`), sb));
  // EX vs F1: one point per system and variant with F1.
  const pts = DATA.summary.filter((g) => g.F1 !== null && g.EX !== null);
  if (pts.length) {
    const sc = svgEl('svg', { width: 420, height: 420 });
    sc.append(svgEl('rect', { x: 40, y: 10, width: 360, height: 360, fill: 'none', stroke: '#9aa5b4' }));
    sc.append(svgEl('text', { x: 200, y: 400 }, 'EX'), svgEl('text', { x: 4, y: 190 }, 'F1'));
    for (const g of pts) sc.append(svgEl('circle', { cx: 40 + g.EX * 360, cy: 370 - g.F1 * 360, r: 3, fill: PALETTE[g.v % PALETTE.length] },
      svgEl('title', {}, `${systems[g.s]} · ${variants[g.v]}: EX ${fmt(g.EX)}, F1 ${fmt(g.F1)}`)));
    sec.append(el('div', { class: 'card chart' }, el('h3', {}, 'EX against F1 (one point per system and technique variant)'), sc));
  }
  if (DATA.judges.length) {
    const t = el('table', {}, el('tr', {}, ['system', 'judge', 'labelled', 'mean label', 'agreement with EX', 'judge 1 / EX 1', 'judge 1 / EX 0', 'judge 0 / EX 1', 'judge 0 / EX 0'].map((h) => el('th', {}, h))));
    for (const j of DATA.judges) {
      const a = j.agreement_with_ex || {};
      const c = a.counts || {};
      t.append(el('tr', {}, el('td', {}, j.system ?? ''), el('td', {}, j.judge), el('td', { class: 'num' }, j.labelled), el('td', { class: 'num' }, fmt(j.mean_label)),
        el('td', { class: 'num' }, fmt(a.agreement)), ['judge1_ex1', 'judge1_ex0', 'judge0_ex1', 'judge0_ex0'].map((k) => el('td', { class: 'num' }, c[k] ?? '–'))));
    }
    sec.append(el('div', { class: 'card' }, el('h3', {}, 'judge agreement with execution accuracy'), t));
  }
}

// ---- Explorer.
const EXAMPLES = DATA.examples;
function scoreOf(ex, v) { return ex.r.find((r) => r[0] === v); }
function disagreeing(v) {
  // Questions whose EX differs between systems (by the id after "system:").
  const byQuestion = new Map();
  for (const ex of EXAMPLES) {
    const r = scoreOf(ex, v);
    if (!r || r[2] === null) continue;
    const q = ex.q_key;
    if (!byQuestion.has(q)) byQuestion.set(q, new Set());
    byQuestion.get(q).add(r[2] >= 1 ? 1 : 0);
  }
  return new Set([...byQuestion].filter(([, s]) => s.size > 1).map(([q]) => q));
}
function filtered() {
  const get = (id) => document.getElementById(id).value;
  const s = get('f-system'), v = Number(get('f-variant')), st = get('f-status'), d = get('f-difficulty'), db = get('f-database'), f = get('f-feature');
  const f1 = get('f-ex0-f1'), dis = document.getElementById('f-disagree').checked;
  const disagree = dis ? disagreeing(v) : null;
  return EXAMPLES.filter((ex) => {
    const r = scoreOf(ex, v);
    if (s !== '' && ex.s !== Number(s)) return false;
    if (st !== '' && (!r || r[1] !== st)) return false;
    if (d !== '' && ex.d !== d) return false;
    if (db !== '' && ex.db !== db) return false;
    if (f !== '') { const [k, present] = f.split(':'); if (((ex.fm >> Number(k)) & 1) !== Number(present)) return false; }
    if (f1 !== '' && !(r && r[2] === 0 && r[5] !== null && r[5] >= Number(f1))) return false;
    if (disagree && !disagree.has(ex.q_key)) return false;
    return true;
  });
}
function renderExplorer() {
  const sec = document.getElementById('explorer');
  sec.innerHTML = '';
  const uniq = (xs) => [...new Set(xs)].filter((x) => x !== null && x !== undefined && x !== '').sort();
  const statusNames = uniq(EXAMPLES.flatMap((ex) => ex.r.map((r) => r[1])));
  const controls = el('div', { class: 'controls' },
    el('label', {}, 'system'), select('f-system', [['', 'all'], ...systems.map((n, i) => [i, n])], updateList),
    el('label', {}, 'technique'), select('f-variant', variants.map((n, i) => [i, n]), updateList),
    el('label', {}, 'status'), select('f-status', [['', 'all'], ...statusNames.map((n) => [n, n])], updateList),
    el('label', {}, 'difficulty'), select('f-difficulty', [['', 'all'], ...uniq(EXAMPLES.map((e) => e.d)).map((n) => [n, n])], updateList),
    el('label', {}, 'database'), select('f-database', [['', 'all'], ...uniq(EXAMPLES.map((e) => e.db)).map((n) => [n, n])], updateList),
    el('label', {}, 'gold has'), select('f-feature', [['', 'any'], ...DATA.feature_names.flatMap((n, k) => [[`${k}:1`, n], [`${k}:0`, `no ${n}`]])], updateList),
    el('label', {}, 'EX 0 but F1 ≥'), select('f-ex0-f1', [['', '–'], ['0.5', '0.5'], ['0.8', '0.8'], ['0.9', '0.9']], updateList),
    el('label', {}, el('input', { type: 'checkbox', id: 'f-disagree', onchange: updateList }), ' systems disagree (EX)'));
  sec.append(controls, el('div', { id: 'explorer-count', class: 'muted' }), el('div', { class: 'side' }, el('div', { id: 'explorer-list' }), el('div', { id: 'explorer-detail' })));
  updateList();
}
function updateList() {
  const v = Number(document.getElementById('f-variant').value);
  const matches = filtered();
  document.getElementById('explorer-count').textContent = `${matches.length} example${matches.length === 1 ? '' : 's'}` + (matches.length > 200 ? ' (the first 200 shown)' : '');
  const t = el('table', { id: 'explorer-table' }, el('tr', {}, ['id', 'database', 'difficulty', 'status', 'EX', 'F1'].map((h) => el('th', {}, h))));
  for (const ex of matches.slice(0, 200)) {
    const r = scoreOf(ex, v) || [v, '–', null, null, null, null];
    t.append(el('tr', { class: 'example', 'data-id': ex.id, onclick: () => showExample(ex) }, el('td', {}, ex.id), el('td', {}, ex.db ?? ''), el('td', {}, ex.d ?? ''),
      el('td', { class: r[1] === 'ok' ? 'status-ok' : 'status-bad' }, r[1]), el('td', { class: 'num' }, fmt(r[2], 2)), el('td', { class: 'num' }, fmt(r[5], 3))));
  }
  const list = document.getElementById('explorer-list');
  list.innerHTML = '';
  list.append(t);
}
function resultTable(side, unmatched) {
  if (!side) return el('p', { class: 'muted' }, 'not executed');
  if (side.status !== 'ok') return el('p', { class: 'status-bad' }, `${side.status}${side.error ? ': ' + side.error : ''}`);
  const t = el('table', {}, el('tr', {}, side.columns.map((c) => el('th', {}, c))));
  side.rows.forEach((row, i) => t.append(el('tr', { class: unmatched[i] ? 'unmatched' : '' }, row.map((c) => el('td', {}, c === null ? 'NULL' : typeof c === 'object' ? '<blob>' : String(c))))));
  return el('div', {}, el('p', { class: 'muted' }, `${side.row_count} row(s)${side.truncated ? ', truncated' : ''}${side.rows.length < side.row_count ? `, the first ${side.rows.length} kept` : ''}`), t);
}
function unmatchedRows(gold, pred) {
  // Rows without an equal row on the other side, over the columns paired by name.
  if (!gold || !pred || gold.status !== 'ok' || pred.status !== 'ok') return [[], []];
  const pairs = [];
  const used = new Set();
  gold.columns.forEach((c, g) => { const p = pred.columns.findIndex((x, k) => !used.has(k) && x.toLowerCase() === c.toLowerCase()); if (p >= 0) { used.add(p); pairs.push([g, p]); } });
  const key = (row, side) => JSON.stringify(pairs.map(([g, p]) => row[side ? g : p]));
  const mark = (rows, side, others) => { const left = new Map(); for (const k of others) left.set(k, (left.get(k) || 0) + 1);
    return rows.map((row) => { const k = key(row, side); if (left.get(k)) { left.set(k, left.get(k) - 1); return false; } return true; }); };
  return [mark(gold.rows, true, pred.rows.map((r) => key(r, false))), mark(pred.rows, false, gold.rows.map((r) => key(r, true)))];
}
function showExample(ex) {
  const box = document.getElementById('explorer-detail');
  box.innerHTML = '';
  const [gu, pu] = unmatchedRows(ex.gr, ex.pr);
  const scores = el('table', {}, el('tr', {}, ['technique', 'status', ...METRICS, 'error'].map((h) => el('th', {}, h))));
  for (const r of ex.r) scores.append(el('tr', {}, el('td', {}, variants[r[0]]), el('td', {}, r[1]), [2, 3, 4, 5].map((k) => el('td', { class: 'num' }, fmt(r[k]))), el('td', {}, r[6] ?? '')));
  const judges = (ex.j || []).map((j) => el('p', {}, el('b', {}, j[0]), `: label ${j[1] ?? '–'}, confidence ${fmt(j[2], 0)}`, j[3]?.length ? `, votes ${j[3].join(' ')}` : '',
    (j[4] || []).map((text) => el('div', { class: 'muted' }, text))));
  box.append(el('div', { class: 'card', id: 'example-detail' },
    el('h3', {}, ex.id), el('p', { class: 'muted' }, `${systems[ex.s]} · ${ex.db ?? ''} · ${ex.d ?? ''}`),
    ex.question ? el('p', {}, el('b', {}, 'question: '), ex.question) : null,
    ex.evidence ? el('p', {}, el('b', {}, 'evidence: '), ex.evidence) : null,
    el('b', {}, 'gold'), el('pre', { class: 'sql', id: 'detail-gold' }, ex.g),
    el('b', {}, 'prediction'), el('pre', { class: 'sql', id: 'detail-pred' }, ex.p ?? '(no prediction)'),
    el('div', { class: 'side' }, el('div', {}, el('b', {}, 'gold result'), resultTable(ex.gr, gu)), el('div', {}, el('b', {}, 'predicted result'), resultTable(ex.pr, pu))),
    el('p', { class: 'muted' }, 'highlighted: a kept row with no equal row on the other side, over the columns paired by name'),
    scores, judges));
}

// ---- Compare two systems.
function renderCompare() {
  const sec = document.getElementById('compare');
  sec.innerHTML = '';
  if (systems.length < 2) { sec.append(el('p', { class: 'muted' }, 'one system: nothing to compare')); return; }
  const a = Number(document.getElementById('c-a')?.value ?? 0), b = Number(document.getElementById('c-b')?.value ?? 1), v = Number(document.getElementById('c-variant')?.value ?? 0);
  sec.append(el('div', { class: 'controls' }, el('label', {}, 'system A'), select('c-a', systems.map((n, i) => [i, n]), renderCompare, a),
    el('label', {}, 'system B'), select('c-b', systems.map((n, i) => [i, n]), renderCompare, b),
    el('label', {}, 'technique'), select('c-variant', variants.map((n, i) => [i, n]), renderCompare, v)));
  const p = DATA.pairwise.find((x) => x.v === v && ((x.a === systems[a] && x.b === systems[b]) || (x.a === systems[b] && x.b === systems[a])));
  if (p) sec.append(el('div', { class: 'card', id: 'pairwise' }, el('h3', {}, `${p.a} vs ${p.b} (${p.metric}, ${p.compared} questions)`),
    el('p', {}, `wins ${p.wins}, losses ${p.losses}, ties ${p.ties}; McNemar on EX: ${p.mcnemar ? `${p.mcnemar.a_only} vs ${p.mcnemar.b_only}, p = ${fmt(p.mcnemar.p, 4)}` : '–'}; paired bootstrap on F1: p = ${fmt(p.paired_bootstrap_p, 4)}`)));
  const byKey = (s) => new Map(EXAMPLES.filter((e) => e.s === s).map((e) => [e.q_key, e]));
  const ea = byKey(a), eb = byKey(b);
  const rows = [];
  for (const [k, x] of ea) { const y = eb.get(k); if (!y) continue; const rx = scoreOf(x, v), ry = scoreOf(y, v);
    if (rx && ry && rx[2] !== null && ry[2] !== null && (rx[2] >= 1) !== (ry[2] >= 1)) rows.push([k, x, y, rx, ry]); }
  const t = el('table', { id: 'disagreements' }, el('tr', {}, ['question', systems[a] + ' EX', systems[b] + ' EX', 'gold'].map((h) => el('th', {}, h))));
  for (const [k, x, , rx, ry] of rows) t.append(el('tr', {}, el('td', {}, k), el('td', { class: 'num' }, fmt(rx[2], 0)), el('td', { class: 'num' }, fmt(ry[2], 0)), el('td', {}, x.g)));
  sec.append(el('div', { class: 'card' }, el('h3', {}, `${rows.length} question(s) where the EX of ${variants[v]} differs`), t));
}

const TABS = { overview: renderOverview, charts: renderCharts, explorer: renderExplorer, compare: renderCompare };
function show(name) {
  for (const s of document.querySelectorAll('main > section')) s.classList.toggle('active', s.id === name);
  for (const b of document.querySelectorAll('nav button')) b.classList.toggle('active', b.dataset.tab === name);
  if (!document.getElementById(name).dataset.drawn) { TABS[name](); document.getElementById(name).dataset.drawn = '1'; }
}
document.getElementById('title').textContent = `sqlmorph report · ${DATA.runs.join(', ')}`;
for (const b of document.querySelectorAll('nav button')) b.addEventListener('click', () => show(b.dataset.tab));
show('overview');
