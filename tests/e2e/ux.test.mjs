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

/** Opens the legend dialog from the header, reads its entries, and closes it with Escape. */
async function legend(page) {
  const button = page.locator('[data-testid=legend-open]');
  assert.equal(await button.count(), 1, 'the legend is in the header');
  await button.click();
  await page.waitForSelector('[data-testid=legend-dialog]');
  const entries = await page.$$eval('[data-testid=legend-load]', (l) => l.map((e) => ({
    load: e.dataset.load, icon: e.querySelector('.icon').textContent, text: e.querySelector('dd').textContent,
  })));
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('[data-testid=legend-dialog]').count(), 0, 'Escape closes the legend');
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
  await page.click('[data-testid=legend-open]');
  await shot(page, 'ux-01-demo-legend');
  await page.click('[data-testid=legend-close]');

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
  assert.match(await page.textContent('[data-testid=card-files]'), /Files sent in every session/);
  await page.locator('[data-testid=later]').scrollIntoViewIfNeeded();
  await shot(page, 'ux-03-figures');

  // A finding opens its file, and focus lands on its heading.
  const finding = page.locator('[data-testid=diagnostic] button.diag-open').first();
  const target = await finding.getAttribute('data-path');
  await finding.click();
  await page.waitForSelector(`[data-testid=file-view][data-path="${target}"]`);
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'file-title');

  // Each source is listed and can be removed; removing the last empties the page.
  assert.deepEqual(await page.$$eval('[data-testid=source]', (s) => s.map((e) => e.dataset.role)), ['config']);
  await page.click('[data-testid=remove-source]');
  await page.waitForSelector('[data-testid=empty-state]');
  assert.equal(await page.locator('[data-testid=source]').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

/** The wrong-input banner: what it found and expected, whether it offers to take the folder. */
async function banner(page) {
  const box = page.locator('[data-testid=input-banner]');
  await box.waitFor();
  assert.ok(await box.isVisible(), 'the banner shows');
  assert.equal(await box.getAttribute('role'), 'alert');
  // At the top of the main view: above the fields, the report and the tree.
  const top = (sel) => page.locator(sel).first().evaluate((e) => e.getBoundingClientRect().top);
  assert.ok(await top('[data-testid=input-banner]') < await top('[data-testid=status]'), 'the banner is above the status line');
  return {
    found: await page.textContent('[data-testid=input-banner-found]'),
    expected: await page.textContent('[data-testid=input-banner-expected]'),
    canTake: (await box.getAttribute('data-can-take')) === 'true',
  };
}

test('wrong input says what was found and what was expected, and keeps the report shown', async () => {
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
  let said = await banner(page);
  assert.match(said.found, /“empty” holds no files/);
  assert.match(said.expected, /a ~\/\.claude folder .* a project folder/);
  assert.equal(said.canTake, false, 'nothing to take');
  assert.equal(await page.locator('[data-testid=tree-row]').count(), rows, 'the demo report stays');
  assert.ok(await page.locator('[data-testid=workspace]').isVisible());
  await shot(page, 'ux-04-empty-zip');
  await page.click('[data-testid=banner-dismiss]');
  assert.equal(await page.locator('[data-testid=input-banner]').count(), 0, 'dismissed');

  // A file that is no zip at all.
  const junk = path.join(scratch, 'junk.zip');
  fs.writeFileSync(junk, 'this is not a zip archive');
  run = await currentRun(page);
  await page.setInputFiles('[data-testid=zip-input]', junk);
  await settled(page, run);
  said = await banner(page);
  assert.match(said.found, /junk/);
  assert.equal(await page.locator('[data-testid=tree-row]').count(), rows, 'the demo report stays');
  await page.click('[data-testid=banner-dismiss]');
  assert.equal(await page.locator('[data-testid=input-banner]').count(), 0);
  assert.equal(await page.locator('[data-testid=tree-row]').count(), rows);

  // A folder that is neither a ~/.claude nor a project (a folder of photos): not taken
  // silently; the report stays until the person chooses.
  const photos = path.join(scratch, 'Photos');
  fs.mkdirSync(path.join(photos, 'trip'), { recursive: true });
  fs.writeFileSync(path.join(photos, 'IMG_0001.jpg'), 'not really a photo');
  fs.writeFileSync(path.join(photos, 'trip', 'IMG_0100.heic'), 'nor this');
  fs.writeFileSync(path.join(photos, 'notes.txt'), 'beach');
  run = await currentRun(page);
  await page.setInputFiles('[data-testid=folder-input]', photos);
  await settled(page, run);
  said = await banner(page);
  assert.match(said.found, /“Photos” holds 3 files but nothing of a ~\/\.claude or a project/);
  assert.equal(said.canTake, true);
  assert.equal(await page.locator('[data-testid=tree-row]').count(), rows, 'the demo report stays');
  assert.equal(await page.locator('[data-testid=source]').count(), 1, 'the folder is not among the sources');
  await shot(page, 'ux-04b-unrelated-folder');
  // Keep what is shown: the folder goes.
  await page.click('[data-testid=banner-dismiss]');
  assert.equal(await page.locator('[data-testid=input-banner]').count(), 0);
  assert.equal(await page.locator('[data-testid=tree-row]').count(), rows);
  // Again, and this time take it as the project.
  run = await currentRun(page);
  await page.setInputFiles('[data-testid=folder-input]', photos);
  await settled(page, run);
  await banner(page);
  run = await currentRun(page);
  await page.click('[data-testid=banner-take]');
  await settled(page, run);
  assert.equal(await page.locator('[data-testid=input-banner]').count(), 0);
  const roles = await page.$$eval('[data-testid=source]', (s) => s.map((e) => e.textContent));
  assert.ok(roles.some((r) => r.includes('Photos')), `the folder is a source now: ${roles}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a zip with a damaged entry marks its row, and no finding is built on it', async () => {
  const project = path.join(scratch, 'damaged', 'shop');
  fs.mkdirSync(path.join(project, 'src', 'api'), { recursive: true });
  fs.writeFileSync(path.join(project, 'CLAUDE.md'), '# Shop\n\nUse pnpm.\n');
  const hurt = 'DAMAGED-ENTRY see @docs/missing.md and [x](nowhere.md)\n'.repeat(4);
  fs.writeFileSync(path.join(project, 'src', 'api', 'CLAUDE.md'), hurt);
  fs.writeFileSync(path.join(project, 'package.json'), '{}\n');
  const zip = path.join(scratch, 'damaged.zip');
  zipFolder(project, 'shop', zip);
  // Flip one byte of the entry's data: its CRC no longer matches.
  const bytes = fs.readFileSync(zip);
  const at = bytes.indexOf(Buffer.from('DAMAGED-ENTRY'));
  assert.ok(at > 0);
  bytes[at] = 'X'.charCodeAt(0);
  fs.writeFileSync(zip, bytes);

  const { page, errors } = await openPage('?empty');
  await page.waitForSelector('[data-testid=empty-state]');
  const run = await currentRun(page);
  await page.setInputFiles('[data-testid=zip-input]', zip);
  await settled(page, run);
  await page.waitForSelector('[data-testid=workspace]');
  // This project has no memory folder: the status line does not say one was found.
  assert.match(await page.textContent('[data-testid=summary]'), /no auto memory folder for this project/);
  const damaged = '[data-testid=tree-row][data-path$="/src/api/CLAUDE.md"]';
  await page.waitForSelector(damaged);
  const mark = page.locator(`${damaged} [data-testid=unreadable]`);
  assert.equal(await mark.count(), 1, 'the damaged row is marked');
  assert.match(await mark.getAttribute('title'), /could not be read/);
  // The sound file beside it reads as usual.
  assert.equal(await page.locator('[data-testid=tree-row][data-path$="/shop/CLAUDE.md"] [data-testid=unreadable]').count(), 0);
  // The one finding on the damaged file says it could not be read: nothing from its text
  // (its import and its link were never seen).
  assert.equal(await page.getAttribute('[data-testid=diagnostics]', 'data-grouping'), 'file');
  const groups = await page.$$eval('[data-testid=finding-group]', (g) => g.map((e) => ({
    key: e.dataset.key,
    codes: [...e.querySelectorAll('[data-testid=diagnostic], [data-testid=finding-fold]')].map((d) => d.dataset.code),
    text: e.textContent,
  })));
  const hurtGroup = groups.find((g) => g.key === 'src/api/CLAUDE.md' || g.key.endsWith('/src/api/CLAUDE.md'));
  assert.ok(hurtGroup, JSON.stringify(groups));
  assert.deepEqual([...new Set(hurtGroup.codes)], ['file-unreadable'], hurtGroup.text);
  assert.ok(!groups.some((g) => /missing\.md|nowhere\.md/.test(g.text)), 'nothing built on its text');
  await page.click(damaged);
  // Its file view says it could not be read, not that it was too large.
  assert.match(await page.textContent('[data-testid=file-status]'), /could not be read/);
  await shot(page, 'ux-04c-damaged-entry');
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
  // Sorted as the verdict ranks them within each group: most harmful first (data-harm, the
  // core's Harm: 0 cuts, 1 drops, 2 wastes, 3 warns), then most serious; no severity said twice.
  const rank = { error: 0, warning: 1, info: 2 };
  const ranks = await page.$$eval('[data-testid=finding-group]', (groups) => groups.map((g) =>
    [...g.querySelectorAll('[data-testid=diagnostic]')].map((d) => [Number(d.dataset.harm), d.dataset.severity])));
  for (const group of ranks) {
    const key = ([harm, severity]) => harm * 10 + rank[severity];
    assert.deepEqual(group, [...group].sort((a, b) => key(a) - key(b)), 'most harmful, then most serious, first');
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
  await page.waitForSelector('[data-testid=view-reads][aria-selected=true]');
  assert.ok(await page.locator('[data-testid=reads-view]').isVisible(), 'the reads view shows');
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

test('the Reads view: what a read of a project file attaches, figure for figure with memdiag --read', async () => {
  const shop = path.join(demoTree, 'home', 'alice', 'work', 'shop');
  const { page, errors } = await openPage('?empty');
  await page.waitForSelector('[data-testid=empty-state]');
  let run = await currentRun(page);
  await page.setInputFiles('[data-testid=folder-input]', claudeDir);
  await settled(page, run);
  // With a ~/.claude alone there is no project: the view says why.
  await page.click('[data-testid=view-reads]');
  assert.equal(await page.getAttribute('[data-testid=reads-none]', 'data-why'), 'no-project');
  await shot(page, 'ux-11-reads-no-project');

  run = await currentRun(page);
  await page.setInputFiles('[data-testid=folder-input]', shop);
  await settled(page, run);
  assert.equal(await page.inputValue('[data-testid=input-project]'), PROJECT);
  await page.click('[data-testid=view-reads]');
  await page.waitForSelector('[data-testid=reads-files]');
  // Every file of the dropped project is offered, and the filter narrows them.
  const listed = await page.$$eval('[data-testid=read-file]', (b) => b.map((e) => e.dataset.path));
  const onDisk = [];
  const walk = (abs, rel) => {
    for (const e of fs.readdirSync(abs, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(path.join(abs, e.name), r);
      else onDisk.push(`${PROJECT}/${r}`);
    }
  };
  walk(shop, '');
  assert.deepEqual(listed, [...onDisk].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  await page.fill('[data-testid=reads-filter]', 'checkout');
  assert.deepEqual(await page.$$eval('[data-testid=read-file]', (b) => b.map((e) => e.dataset.path)),
    [`${PROJECT}/src/web/routes/checkout.tsx`]);

  const asks = ['src/web/routes/checkout.tsx', 'packages/ui/src/button.tsx', 'src/api/payments/adapter.ts', '/home/alice/elsewhere/notes.md'];
  // One scan per read: the page asks about one read at a time, the first of a session (in one
  // run of several --read, a rule already attached by an earlier read is not sent again).
  const expected = asks.map((a) => scan(['--home', HOME, '--project', PROJECT, '--mount', `${HOME}/.claude=${claudeDir}`,
    '--mount', `${PROJECT}=${shop}`, '--read', a]).reads[0]);
  const answer = async () => {
    const a = page.locator('[data-testid=read-answer]');
    return {
      path: await a.getAttribute('data-path'),
      files: Number(await a.getAttribute('data-files')),
      skills: Number(await a.getAttribute('data-skills')),
      user: Number(await a.getAttribute('data-user') ?? 0),
      claude: Number(await a.getAttribute('data-claude-code') ?? 0),
      tokens: Number(await a.getAttribute('data-tokens') ?? 0),
      attached: await page.$$eval('[data-testid=read-attached]', (l) => l.map((e) => [e.dataset.path, Number(e.dataset.utf16)])),
      skillLines: await page.$$eval('[data-testid=read-skill]', (l) => l.map((e) => e.textContent)),
      text: await a.textContent(),
    };
  };
  for (const [i, ask] of asks.entries()) {
    const want = expected[i];
    run = await currentRun(page);
    if (i === 0) {
      // A click in the list.
      await page.click(`[data-testid=read-file][data-path="${PROJECT}/${ask}"]`);
    } else {
      // A typed path, relative to the project or absolute.
      await page.fill('[data-testid=reads-path]', ask);
      await page.press('[data-testid=reads-path]', 'Enter');
    }
    await settled(page, run);
    await page.waitForSelector(`[data-testid=read-answer][data-path="${want.path}"]`);
    const got = await answer();
    if (want.note) {
      assert.equal(await page.textContent('[data-testid=read-note]'), want.note);
      continue;
    }
    assert.equal(got.files, want.files.length, `${ask}: files`);
    assert.deepEqual(got.attached, want.files.map((f) => [f.path, f.loaded.utf16]), `${ask}: what attaches`);
    assert.deepEqual(got.skillLines, want.skills, `${ask}: skills`);
    assert.equal(got.user, want.cost.user, `${ask}: the user's text`);
    assert.equal(got.claude, want.cost.claude_code, `${ask}: Claude Code's own`);
    const total = want.cost.user + want.cost.claude_code;
    assert.equal(got.tokens, Math.floor((total + 2) / 4), `${ask}: tokens`);
    assert.match(got.text, new RegExp(`${total.toLocaleString('en-US')} characters`));
    assert.match(got.text, /of a 200k window, .* of 1M/);
    assert.match(got.text, /never in every session/);
    if (i === 1) {
      assert.ok(want.skills.length > 0, 'packages/ui announces its storybook skill');
      await shot(page, 'ux-12-reads-answer');
    }
  }
  // An attached file opens in the tree.
  run = await currentRun(page);
  await page.fill('[data-testid=reads-path]', asks[2]);
  await page.press('[data-testid=reads-path]', 'Enter');
  await settled(page, run);
  const first = expected[2].files[0].path;
  await page.click(`[data-testid=read-attached][data-path="${first}"] button`);
  assert.equal(await page.getAttribute(`[data-testid=tree-row][data-path="${first}"]`, 'aria-selected'), 'true');
  assert.deepEqual(errors, []);
  await page.close();
});

/** Presses Tab until the element with this test id has focus; fails after `max` presses. */
async function tabTo(page, testid, max = 200) {
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => document.activeElement?.dataset.testid) === testid) return;
  }
  assert.fail(`Tab never reached ${testid}`);
}

/** Where focus is: its test id, and whether it sits inside `within`. */
function focusIn(page, within) {
  return page.evaluate((sel) => ({
    id: document.activeElement?.dataset.testid ?? document.activeElement?.tagName,
    inside: !!document.activeElement?.closest(sel),
  }), within);
}

/** Tab and Shift+Tab `n` times each; focus must stay inside `within`. */
async function staysInside(page, within, n) {
  for (const key of ['Tab', 'Shift+Tab']) {
    for (let i = 0; i < n; i += 1) {
      await page.keyboard.press(key);
      const at = await focusIn(page, within);
      assert.ok(at.inside, `${key} ${i + 1} left ${within} for ${at.id}`);
    }
  }
}

test('keyboard only: no invisible tab stop; the Share dialog, the picker and the legend trap focus and close with Escape', async () => {
  const { page, errors } = await openPage('?demo');
  await ready(page);
  // Every stop Tab reaches, once round the page, has a visible box.
  const invisible = [];
  const seen = new Set();
  await page.evaluate(() => document.activeElement?.blur());
  for (let i = 0; i < 400; i += 1) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate(() => {
      const e = document.activeElement;
      if (!e || e === document.body) return null;
      const r = e.getBoundingClientRect();
      const style = getComputedStyle(e);
      return {
        key: e.dataset.testid ?? e.id ?? '',
        html: e.outerHTML.slice(0, 120),
        visible: r.width >= 2 && r.height >= 2 && style.visibility !== 'hidden' && Number(style.opacity) > 0
          && e.checkVisibility({ opacityProperty: true, visibilityProperty: true }),
        path: (() => { const p = []; for (let n = e; n; n = n.parentElement) p.push(n.tagName); return p.join('<'); })(),
        index: [...document.querySelectorAll('*')].indexOf(e),
      };
    });
    if (!stop) continue;
    if (seen.has(stop.index)) break;
    seen.add(stop.index);
    if (!stop.visible) invisible.push(stop.html);
  }
  assert.ok(seen.size > 20, `Tab went round ${seen.size} stops`);
  assert.deepEqual(invisible, [], 'tab stops with no visible box');

  // The Share dialog, by keyboard: Tab to its button, Enter, focus inside, trapped, Escape.
  await page.evaluate(() => document.activeElement?.blur());
  await tabTo(page, 'share');
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-testid=share-dialog][data-ready=true]');
  assert.ok((await focusIn(page, '[data-testid=share-dialog]')).inside, 'focus lands in the Share dialog');
  const shareStops = await page.$$eval('[data-testid=share-dialog] button:not([disabled]), [data-testid=share-dialog] input:not([disabled]), [data-testid=share-dialog] textarea', (l) => l.length);
  await staysInside(page, '[data-testid=share-dialog]', shareStops + 2);
  // Space toggles the option that has focus, as for any checkbox.
  await page.focus('[data-testid=share-dialog] input[type=checkbox]');
  const before = await page.$eval('[data-testid=share-dialog] input[type=checkbox]', (c) => c.checked);
  await page.keyboard.press('Space');
  assert.notEqual(await page.$eval('[data-testid=share-dialog] input[type=checkbox]', (c) => c.checked), before);
  await shot(page, 'ux-13-share-keyboard');
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('[data-testid=share-dialog]').count(), 0, 'Escape closes the Share dialog');
  assert.equal((await focusIn(page, 'body')).id, 'share', 'focus goes back to Share');

  // The legend: Tab to Icons, Enter, focus on Close, trapped, Escape gives focus back.
  await tabTo(page, 'legend-open');
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-testid=legend-dialog]');
  assert.equal((await focusIn(page, '[data-testid=legend-dialog]')).id, 'legend-close');
  await staysInside(page, '[data-testid=legend-dialog]', 3);
  // The page's own keys wait while it is open.
  await page.keyboard.press('h');
  assert.equal(await page.getAttribute('[data-testid=view-file]', 'aria-selected'), 'true');
  await shot(page, 'ux-14-legend-keyboard');
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('[data-testid=legend-dialog]').count(), 0, 'Escape closes the legend');
  assert.equal((await focusIn(page, 'body')).id, 'legend-open', 'focus goes back to Icons');
  // Enter on Close closes it too.
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-testid=legend-dialog]');
  await page.keyboard.press('Enter');
  assert.equal(await page.locator('[data-testid=legend-dialog]').count(), 0);

  // The picker: from its button in the fields, Enter, trapped, Escape.
  await tabTo(page, 'open-picker');
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-testid=project-picker]');
  const pickerStops = await page.$$eval('[data-testid=project-picker] button', (b) => b.length);
  await staysInside(page, '[data-testid=project-picker]', pickerStops + 2);
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('[data-testid=project-picker]').count(), 0);
  assert.equal((await focusIn(page, 'body')).id, 'open-picker');

  // A footprint legend button selects its group by keyboard (the segments are the mouse's).
  await tabTo(page, 'legend-select');
  const group = await page.evaluate(() => document.activeElement.dataset.group);
  await page.keyboard.press('Enter');
  assert.equal(await page.getAttribute(`[role=treeitem][aria-level='1'][data-group="${group}"]`, 'aria-selected'), 'true');
  assert.equal(await page.$$eval('[data-testid=segment]', (s) => s.filter((e) => e.tabIndex >= 0).length), 0, 'segments take no focus');
  assert.deepEqual(errors, []);
  await page.close();
});
