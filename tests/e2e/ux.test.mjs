// The page to a newcomer (issue 12), in headless Chromium through playwright-core: the demo
// says it is sample data, the load-type legend is one click away in every view, a ~/.claude
// alone lists its projects in the main view, the figures say what loads in every session and
// what only sometimes (each against the scan command), wrong input keeps the report shown,
// the findings group, sort, filter and fold, the tree's details, and keyboard-only runs
// through the picker and the tabs. Screenshots go to tests/e2e/artifacts/ (ux-*.png).
//
// Run by scripts/test.sh; by hand (after `trunk build --release`):
//   node --test tests/e2e/ux.test.mjs

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  root, artifacts, serveDist, launchWithProfile, openWatchedPage, currentRun, settled, ready, shot,
  scan, zipFolder,
} from './support.mjs';

const demoTree = path.join(root, 'fixtures', 'demo', 'tree');
const claudeDir = path.join(demoTree, 'home', 'alice', '.claude');
const HOME = '/home/alice';
const PROJECT = '/home/alice/work/shop';

let server;
let baseUrl;
let context;
let scratch;

before(async () => {
  fs.mkdirSync(artifacts, { recursive: true });
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'memdiag-ux-'));
  ({ baseUrl, server } = await serveDist());
  context = await launchWithProfile(path.join(scratch, 'profile'));
});

after(async () => {
  await context?.close();
  server?.close();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

function openPage(query = '', options = {}) {
  return openWatchedPage(context, baseUrl, baseUrl + query, options);
}

/** Opens the legend in the header and reads its entries. */
async function legend(page) {
  const details = page.locator('[data-testid=load-legend]');
  assert.equal(await details.count(), 1, 'the legend is in the header');
  if (!(await details.evaluate((d) => d.open))) await details.locator('summary').click();
  const entries = await page.$$eval('[data-testid=legend-load]', (l) => l.map((e) => ({
    load: e.dataset.load, icon: e.querySelector('.icon').textContent, text: e.querySelector('dd').textContent,
  })));
  await details.locator('summary').click();
  return entries;
}

const LOADS = ['Always', 'Startup', 'Conditional', 'On-demand', 'Tree', 'Import', 'Link'];

test('the demo says it is sample data, and the icon legend is reachable from every view', async () => {
  const { page, errors } = await openPage('?demo');
  await ready(page);
  const banner = await page.textContent('[data-testid=demo-banner]');
  assert.match(banner, /sample data/);
  assert.match(banner, /⌘⇧\./);
  assert.match(banner, /Ctrl\+H/);
  assert.match(banner, /zip -r claude\.zip \.claude/);
  assert.ok(await page.locator('[data-testid=demo-banner]').isVisible());

  // The tree's icons are the legend's.
  const entries = await legend(page);
  assert.deepEqual(entries.map((e) => e.load), LOADS);
  const icons = await page.$$eval('[data-testid=load-icon]', (i) => i.map((e) => [e.getAttribute('title'), e.textContent.trim()]));
  for (const [load, icon] of icons) {
    assert.equal(entries.find((e) => e.load === load)?.icon, icon, `${load}'s icon is in the legend`);
  }
  assert.match(entries[0].text, /every session/);
  for (const e of entries.slice(2)) assert.doesNotMatch(e.text, /every session/, `${e.load} is not said to load in every session`);
  await page.locator('[data-testid=load-legend] summary').click();
  await shot(page, 'ux-01-demo-legend');
  await page.locator('[data-testid=load-legend] summary').click();

  // The file view and the health view keep it.
  await page.click('[data-testid=tree-row] >> nth=0');
  assert.equal((await legend(page)).length, 7);
  await page.click('[data-testid=view-health]');
  assert.equal((await legend(page)).length, 7);
  assert.deepEqual(errors, []);
  await page.close();

  // So does the empty page.
  const empty = await openPage('?empty');
  await empty.page.waitForSelector('[data-testid=empty-state]');
  assert.equal((await legend(empty.page)).length, 7);
  assert.equal(await empty.page.locator('[data-testid=demo-banner]').count(), 0, 'no demo, no demo banner');
  await empty.page.close();
});

test('a ~/.claude alone lists its projects in the main view, and the figures say what loads when', async () => {
  const alone = scan(['--home', HOME, '--mount', `${HOME}/.claude=${claudeDir}`]);
  const { page, errors } = await openPage('?empty');
  await page.waitForSelector('[data-testid=empty-state]');
  let run = await currentRun(page);
  await page.setInputFiles('[data-testid=folder-input]', claudeDir);
  await settled(page, run);

  // The picker's list, in the main view, with each folder's file count.
  await page.waitForSelector('[data-testid=project-guidance]');
  const listed = await page.$$eval('[data-testid=guidance-project]', (b) => b.map((e) => ({
    path: e.dataset.path, detail: e.parentElement.textContent,
  })));
  assert.ok(alone.memory_folders.length > 0, 'the fixture has memory folders');
  assert.deepEqual(listed.map((l) => l.path), alone.memory_folders.map((f) => f.decoded_guess));
  for (const folder of alone.memory_folders) {
    const item = listed.find((l) => l.path === folder.decoded_guess);
    assert.match(item.detail, new RegExp(`${folder.files} memory file`), `${folder.name}'s count`);
  }
  assert.match(await page.textContent('[data-testid=project-guidance]'), /drop the project folder/);
  // A folder from the folder button cannot be read again: Refresh is off and says why.
  assert.equal(await page.isDisabled('[data-testid=refresh]'), true);
  assert.match(await page.getAttribute('[data-testid=refresh]', 'title'), /cannot read them again/);
  await shot(page, 'ux-02-claude-alone');

  // One click picks a project.
  run = await currentRun(page);
  await page.click(`[data-testid=guidance-project][data-path="${PROJECT}"]`);
  await settled(page, run);
  assert.equal(await page.inputValue('[data-testid=input-project]'), PROJECT);
  assert.equal(await page.locator('[data-testid=project-guidance]').count(), 0);

  // What loads in every session, and apart from it what loads only sometimes.
  const expected = scan(['--home', HOME, '--project', PROJECT, '--mount', `${HOME}/.claude=${claudeDir}`]);
  const later = expected.session.later;
  for (const [id, figure] of [['on-read', later.on_read], ['conditional', later.conditional_rules],
    ['on-demand', later.on_demand], ['agents', later.agent_memory]]) {
    const item = page.locator(`[data-testid=later-${id}]`);
    assert.equal(Number(await item.getAttribute('data-files')), figure.files, `${id} files`);
    assert.equal(Number(await item.getAttribute('data-utf16')), figure.utf16, `${id} units`);
  }
  assert.ok(later.on_demand.files > 0, 'the memory has topic files that load on demand');
  assert.match(await page.textContent('[data-testid=later]'), /not in every session/);
  assert.match(await page.textContent('[data-testid=later]'), /estimate/);
  assert.doesNotMatch(await page.textContent('[data-testid=later]'), /≈ </, 'one sign per figure');
  // Shares of the 200k and 1M windows, labelled estimates.
  const tokens = expected.session.cost.tokens_estimate;
  assert.equal(await page.getAttribute('[data-testid=session-window]', 'data-share'), (tokens / 2000).toFixed(2));
  assert.match(await page.textContent('[data-testid=session-cost]'), /estimate, (≈ [\d.]+|< 0\.1) % of a 200k window, (≈ [\d.]+|< 0\.1) % of 1M\)/);
  assert.match(await page.textContent('[data-testid=card-window]'), /of a 200k window/);
  // The Files card and the status line say what each counts, and agree.
  const status = page.locator('[data-testid=status-files]');
  assert.equal(Number(await status.getAttribute('data-listed')), expected.files.length);
  assert.equal(Number(await status.getAttribute('data-sent')), expected.footprint.files);
  assert.equal(Number(await page.getAttribute('[data-testid=card-files]', 'data-value')), expected.footprint.files);
  assert.match(await status.textContent(), new RegExp(`${expected.footprint.files} sent in every session`));
  assert.match(await page.textContent('[data-testid=card-files]'), /Files in every session/);
  await page.locator('[data-testid=later]').scrollIntoViewIfNeeded();
  await shot(page, 'ux-03-figures');

  // A finding opens its file, and focus lands there.
  const finding = page.locator('[data-testid=diagnostic] button.diag-open').first();
  const target = await finding.getAttribute('data-path');
  await finding.click();
  await page.waitForSelector(`[data-testid=file-view][data-path="${target}"]`);
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'file-view');

  // Each source is listed and can be removed; removing the last empties the page.
  assert.deepEqual(await page.$$eval('[data-testid=source]', (s) => s.map((e) => e.dataset.role)), ['config']);
  await page.click('[data-testid=remove-source]');
  await page.waitForSelector('[data-testid=empty-state]');
  assert.equal(await page.locator('[data-testid=source]').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('wrong input says what was found and keeps the report shown', async () => {
  const { page, errors } = await openPage('?demo');
  await ready(page);
  const rows = await page.locator('[data-testid=tree-row]').count();
  const empty = path.join(scratch, 'empty');
  fs.mkdirSync(empty, { recursive: true });
  const zip = path.join(scratch, 'empty.zip');
  zipFolder(empty, 'nothing', zip);
  let run = await currentRun(page);
  await page.setInputFiles('[data-testid=zip-input]', zip);
  await settled(page, run);
  const error = page.locator('[data-testid=error]');
  assert.ok(await error.isVisible(), 'the error shows');
  assert.match(await error.textContent(), /empty holds no files: expected a ~\/\.claude folder/);
  assert.equal(await page.locator('[data-testid=tree-row]').count(), rows, 'the demo report stays');
  assert.ok(await page.locator('[data-testid=workspace]').isVisible());
  await shot(page, 'ux-04-empty-zip');

  // A file that is no zip at all.
  const junk = path.join(scratch, 'junk.zip');
  fs.writeFileSync(junk, 'this is not a zip archive');
  run = await currentRun(page);
  await page.setInputFiles('[data-testid=zip-input]', junk);
  await settled(page, run);
  assert.match(await page.textContent('[data-testid=error]'), /junk/);
  assert.equal(await page.locator('[data-testid=tree-row]').count(), rows, 'the demo report stays');
  // Dismiss clears the message and leaves the report.
  await page.click('[data-testid=error] button');
  assert.equal(await page.locator('[data-testid=error]').count(), 0);
  assert.equal(await page.locator('[data-testid=tree-row]').count(), rows);
  assert.deepEqual(errors, []);
  await page.close();
});

/** A ~/.claude whose project memory has 30 index lines of 260 characters. */
function longLinesHome() {
  const home = path.join(scratch, 'long', '.claude');
  const memory = path.join(home, 'projects', '-home-alice-work-shop', 'memory');
  fs.mkdirSync(memory, { recursive: true });
  const lines = Array.from({ length: 30 }, (_, i) => `- [topic ${i}](topic-${i}.md) — ${'a long description '.repeat(13).slice(0, 230)} ${i}`);
  fs.writeFileSync(path.join(memory, 'MEMORY.md'), `${lines.join('\n')}\n`);
  fs.writeFileSync(path.join(memory, 'topic-0.md'), '# topic 0\n');
  fs.writeFileSync(path.join(home, 'CLAUDE.md'), 'Be brief.\n');
  return home;
}

test('findings group by file or kind, sort by severity, filter, and fold long runs', async () => {
  const home = longLinesHome();
  const expected = scan(['--home', HOME, '--project', PROJECT, '--mount', `${HOME}/.claude=${home}`]);
  const { page, errors } = await openPage('?empty');
  await page.waitForSelector('[data-testid=empty-state]');
  let run = await currentRun(page);
  await page.setInputFiles('[data-testid=folder-input]', home);
  await settled(page, run);
  run = await currentRun(page);
  await page.click(`[data-testid=guidance-project][data-path="${PROJECT}"]`);
  await settled(page, run);

  // Every finding is there, once.
  const codes = await page.$$eval('[data-testid=diagnostic]', (d) => d.map((e) => e.dataset.code).sort());
  assert.deepEqual(codes, expected.diagnostics.map((d) => d.code).sort());
  // A run of one kind longer than three folds into one line with its count.
  const byCode = {};
  for (const d of expected.diagnostics) byCode[`${d.path}|${d.code}`] = (byCode[`${d.path}|${d.code}`] ?? 0) + 1;
  const [longest, count] = Object.entries(byCode).sort((a, b) => b[1] - a[1])[0];
  assert.ok(count > 3, `the fixture makes a long run (${longest})`);
  const fold = page.locator(`[data-testid=finding-fold][data-code="${longest.split('|')[1]}"]`).first();
  assert.equal(Number(await fold.getAttribute('data-count')), count);
  assert.match(await fold.locator('summary').textContent(), new RegExp(`${count - 1} more of this kind \\(${count} in all\\)`));
  assert.equal(await fold.locator('details').evaluate((d) => d.open), false);
  // Sorted by severity within each group; no severity said twice.
  const severities = await page.$$eval('[data-testid=finding-group]', (groups) => groups.map((g) =>
    [...g.querySelectorAll('[data-testid=diagnostic]')].map((d) => d.dataset.severity)));
  const rank = { error: 0, warning: 1, info: 2 };
  for (const group of severities) {
    assert.deepEqual(group, [...group].sort((a, b) => rank[a] - rank[b]), 'most serious first');
  }
  const doubled = await page.$$eval('[data-testid=diagnostic]', (d) => d.filter((e) => {
    const sev = e.querySelector('.sev').textContent.trim().toLowerCase();
    return e.querySelector('.msg').textContent.trim().toLowerCase().startsWith(sev);
  }).length);
  assert.equal(doubled, 0, 'a message repeats its severity');
  await page.locator('[data-testid=diagnostics]').scrollIntoViewIfNeeded();
  await shot(page, 'ux-05-findings-by-file');

  // By kind: one group per code.
  await page.selectOption('[data-testid=findings-group]', 'kind');
  const keys = await page.$$eval('[data-testid=finding-group]', (g) => g.map((e) => e.dataset.key).sort());
  assert.deepEqual(keys, [...new Set(expected.diagnostics.map((d) => d.code))].sort());
  await shot(page, 'ux-06-findings-by-kind');

  // Filtered by severity.
  for (const [least, allowed] of [['warning', ['error', 'warning']], ['error', ['error']]]) {
    await page.selectOption('[data-testid=findings-severity]', least);
    const shown = await page.$$eval('[data-testid=diagnostic]', (d) => d.map((e) => e.dataset.severity));
    const wanted = expected.diagnostics.filter((d) => allowed.includes(d.severity)).length;
    assert.equal(shown.length, wanted, `${least}: ${shown}`);
    assert.ok(shown.every((s) => allowed.includes(s)));
    if (wanted === 0) assert.ok(await page.locator('[data-testid=findings-none]').isVisible());
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('the tree: a header click selects, the chevron folds, repeats are marked, an empty filter says so', async () => {
  const { page, errors } = await openPage('?demo');
  await ready(page);
  const project = page.locator('[data-testid=group-project]');
  await project.click({ position: { x: 80, y: 8 } });
  assert.equal(await project.getAttribute('aria-selected'), 'true');
  assert.equal(await project.getAttribute('aria-expanded'), 'true', 'a header click does not fold');
  await project.locator('[data-testid=group-chevron]').click();
  assert.equal(await project.getAttribute('aria-expanded'), 'false', 'the chevron folds');
  // The arrow keys skip the folded group's rows.
  await page.focus('[data-testid=tree]');
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.getAttribute('[data-testid=tree]', 'aria-activedescendant'), 'ti-g-rules',
    'ArrowDown from a folded header goes to the next header');
  await project.locator('[data-testid=group-chevron]').click();

  // A file listed twice is marked on its second row.
  const repeated = await page.$$eval('[data-testid=tree-row]', (rows) => {
    const seen = new Set();
    return rows.filter((r) => {
      const again = seen.has(r.dataset.path);
      seen.add(r.dataset.path);
      return again;
    }).map((r) => [r.dataset.path, !!r.querySelector('[data-testid=repeat]')]);
  });
  assert.ok(repeated.length > 0, 'the demo lists a file twice');
  for (const [p, marked] of repeated) assert.ok(marked, `${p} is marked as a repeat`);
  const firsts = await page.$$eval('[data-testid=tree-row]', (rows) => {
    const seen = new Set();
    return rows.filter((r) => { const first = !seen.has(r.dataset.path); seen.add(r.dataset.path); return first; })
      .filter((r) => r.querySelector('[data-testid=repeat]')).length;
  });
  assert.equal(firsts, 0, 'a first listing is no repeat');

  // A filter that matches nothing says so.
  await page.fill('[data-testid=tree-filter]', 'no-such-file-anywhere');
  assert.match(await page.textContent('[data-testid=filter-none]'), /No file matches/);
  await page.fill('[data-testid=tree-filter]', 'MEMORY');
  assert.equal(await page.locator('[data-testid=filter-none]').count(), 0);
  await page.fill('[data-testid=tree-filter]', '');

  // A file's notes fold into one line, so its text starts above the fold.
  const memory = await page.getAttribute('[data-testid=tree-row][data-path$="shop/memory/MEMORY.md"]', 'data-path');
  await page.click(`[data-testid=tree-row][data-path="${memory}"]`);
  await page.waitForSelector(`[data-testid=file-view][data-path="${memory}"]`);
  const notes = page.locator('[data-testid=file-notes]');
  assert.equal(await notes.evaluate((d) => d.open), false);
  assert.match(await notes.locator('summary').textContent(), /about this file/);
  const firstLine = await page.$eval('[data-testid=file-view] .line', (l) => l.getBoundingClientRect().top);
  const pane = await page.$eval('[data-testid=file-view]', (v) => v.getBoundingClientRect().bottom);
  assert.ok(firstLine < pane, 'the first line of text shows in the file view');
  await shot(page, 'ux-07-file-view-notes');
  assert.deepEqual(errors, []);
  await page.close();
});

test('keyboard only: the picker traps focus and closes with Escape, the tabs follow the arrows', async () => {
  const { page, errors } = await openPage('?demo');
  await ready(page);
  await page.focus('[data-testid=tree]');
  await page.keyboard.press('Shift+P');
  await page.waitForSelector('[data-testid=project-picker]');
  const inside = () => page.evaluate(() => !!document.activeElement?.closest('[data-testid=project-picker]'));
  assert.ok(await inside(), 'focus lands in the picker');
  const stops = await page.$$eval('[data-testid=project-picker] button', (b) => b.length);
  for (let i = 0; i < stops + 2; i += 1) {
    await page.keyboard.press('Tab');
    assert.ok(await inside(), `Tab ${i + 1} left the picker`);
  }
  for (let i = 0; i < stops + 2; i += 1) {
    await page.keyboard.press('Shift+Tab');
    assert.ok(await inside(), `Shift+Tab ${i + 1} left the picker`);
  }
  await shot(page, 'ux-08-picker-keyboard');
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('[data-testid=project-picker]').count(), 0, 'Escape closes the picker');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'tree', 'focus goes back to the tree');

  // The view tabs: one tab stop, the arrows switch and move focus.
  assert.equal(await page.getAttribute('[data-testid=view-file]', 'tabindex'), '0');
  assert.equal(await page.getAttribute('[data-testid=view-health]', 'tabindex'), '-1');
  await page.focus('[data-testid=view-file]');
  await page.keyboard.press('ArrowRight');
  await page.waitForSelector('[data-testid=view-health][aria-selected=true]');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'view-health');
  assert.ok(await page.locator('[data-testid=health-view]').isVisible(), 'the health view shows');
  await page.keyboard.press('ArrowLeft');
  await page.waitForSelector('[data-testid=view-file][aria-selected=true]');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'view-file');
  await page.keyboard.press('End');
  await page.waitForSelector('[data-testid=view-health][aria-selected=true]');
  await page.keyboard.press('Home');
  await page.waitForSelector('[data-testid=view-file][aria-selected=true]');

  // The file view's Raw and Preview tabs do the same.
  await page.click('[data-testid=tree-row] >> nth=0');
  await page.focus('[data-testid=tab-raw]');
  await page.keyboard.press('ArrowRight');
  await page.waitForSelector('[data-testid=tab-preview][aria-selected=true]');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'tab-preview');
  await page.keyboard.press('ArrowRight');
  await page.waitForSelector('[data-testid=tab-raw][aria-selected=true]');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the footprint is explorable: its legend selects a group, and the largest parts are listed', async () => {
  const { page, errors } = await openPage('?demo');
  await ready(page);
  // A legend entry selects its group in the tree; so does a segment.
  await page.click('[data-testid=legend-select][data-group="Rules"]');
  assert.equal(await page.getAttribute('[data-testid=group-rules]', 'aria-selected'), 'true');
  await page.click('[data-testid=segment][data-group="Auto Memory"]');
  assert.equal(await page.getAttribute('[data-testid=group-auto-memory]', 'aria-selected'), 'true');
  // The largest parts of every session, largest first, files with their share.
  const parts = await page.$$eval('[data-testid=contributor]', (p) => p.map((e) => ({
    kind: e.dataset.kind, units: Number(e.dataset.units), row: e.dataset.row, text: e.textContent,
  })));
  assert.ok(parts.length > 2 && parts.length <= 8);
  assert.deepEqual(parts.map((p) => p.units), [...parts.map((p) => p.units)].sort((a, b) => b - a));
  const total = Number(await page.getAttribute('[data-testid=session-cost]', 'data-total'));
  const claude = parts.find((p) => p.kind === 'claude-code');
  assert.equal(claude.units, Number(await page.getAttribute('[data-testid=session-cost]', 'data-claude-code')));
  assert.match(claude.text, new RegExp(`${(claude.units * 100 / total).toFixed(1)} %`));
  const file = parts.find((p) => p.kind === 'file');
  await page.click(`[data-testid=contributor][data-row="${file.row}"] button`);
  assert.equal(await page.getAttribute(`[data-testid=tree-row][data-index="${file.row}"]`, 'aria-selected'), 'true');
  await page.locator('[data-testid=contributors]').scrollIntoViewIfNeeded();
  await shot(page, 'ux-09-contributors');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the tree shows each file\'s size on disk or as sent', async () => {
  const { page, errors } = await openPage('?demo');
  await ready(page);
  const memory = '[data-testid=tree-row][data-path$="shop/memory/MEMORY.md"]';
  assert.match(await page.textContent(`${memory} .size`), /KB/);
  await page.click('[data-testid=size-mode]');
  assert.equal(await page.getAttribute('[data-testid=size-mode]', 'aria-pressed'), 'true');
  // Every row shows its loaded characters, or a dash when nothing of it is sent.
  const sizes = await page.$$eval('[data-testid=tree-row]', (rows) => rows.map((r) => [r.dataset.loadedChars, r.querySelector('.size').textContent]));
  for (const [chars, text] of sizes) {
    assert.equal(text, chars === undefined ? '–' : `${Number(chars).toLocaleString('en-US')} ch`);
  }
  const memoryChars = Number(await page.getAttribute(memory, 'data-loaded-chars'));
  const auto = Number(await page.getAttribute('[data-testid=segment][data-group="Auto Memory"]', 'data-value'));
  assert.equal(memoryChars, auto, 'the MEMORY.md row shows what the bar counts for it');
  await shot(page, 'ux-10-sizes-as-sent');
  await page.click('[data-testid=size-mode]');
  assert.match(await page.textContent(`${memory} .size`), /KB/);
  assert.deepEqual(errors, []);
  await page.close();
});
