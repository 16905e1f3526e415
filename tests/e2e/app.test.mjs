// End-to-end test of the built page (dist/) in headless Chromium, driven by playwright-core.
//
// It serves dist/ on 127.0.0.1, uploads the demo fixture's ~/.claude and project folders
// through the folder input and a zip of the ~/.claude through the zip input, and checks the
// rendered groups, the MEMORY.md cut (with Claude Code's warning word for word), the footprint
// figures and what every session costs against what the native scan command reports for the
// same files. A drop while a run waits for its reads ends that run's worker, after the
// progress line showed the files listed and the files to go, and settles with the new
// drop's report. It also loads the demo, checks its Health view (the five reasons, the
// memory figures, a finding that opens its file at its line) and the version select against
// the scan, saves screenshots of the main views to tests/e2e/artifacts/, and fails if the
// page requests anything outside its origin.
//
// Run by scripts/test.sh; by hand (after `trunk build --release`):
//   node --test tests/e2e/app.test.mjs

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  root, dist, artifacts, serveDist, launchWithProfile, openWatchedPage, currentRun, settled, shot,
  scan, zipFolder,
} from './support.mjs';

const demoTree = path.join(root, 'fixtures', 'demo', 'tree');
const demoFixture = JSON.parse(fs.readFileSync(path.join(root, 'fixtures', 'demo', 'fixture.json'), 'utf8'));
const claudeDir = path.join(demoTree, 'home', 'alice', '.claude');
const projectDir = path.join(demoTree, 'home', 'alice', 'work', 'shop');
const HOME = '/home/alice';
const PROJECT = '/home/alice/work/shop';

let server;
let baseUrl;
let context;
let scratch;

// ---- helpers -------------------------------------------------------------------------------

/** A fresh page that records every request outside its origin and every page error. */
function openPage(query = '', options = {}) {
  return openWatchedPage(context, baseUrl, baseUrl + query, options);
}

/** The page's rendered groups: name and header count, in order. */
async function renderedGroups(page) {
  return page.$$eval('[role=treeitem][aria-level="1"]', (items) =>
    items.map((e) => ({ name: e.dataset.group, count: Number(e.dataset.count) })));
}

function groupsOf(report) {
  return report.groups.map((g) => ({ name: g.name, count: g.top_level_files }));
}

async function cards(page) {
  const value = async (id) => Number(await page.getAttribute(`[data-testid=card-${id}]`, 'data-value'));
  return {
    files: await value('files'), chars: await value('chars'), bytes: await value('bytes'),
    always_loaded: await value('always'), tokens_estimate: await value('tokens'),
  };
}

function cardsOf(report) {
  const f = report.footprint;
  // The token card estimates the whole session: the user's text and Claude Code's own.
  // The Chars card counts the user's text of the whole session (the files as sent, the skills'
  // and sub-agents' listing lines): the session cost's user part.
  return { files: f.files, chars: report.session.cost.total.user, bytes: f.bytes, always_loaded: f.always_loaded, tokens_estimate: report.session.cost.tokens_estimate };
}

/** The cost line: what every session carries, the user's text apart from Claude Code's own. */
async function sessionCost(page) {
  const line = page.locator('[data-testid=session-cost]');
  const value = async (name) => Number(await line.getAttribute(`data-${name}`));
  return {
    user: await value('user'), claude_code: await value('claude-code'),
    total: await value('total'), tokens: await value('tokens'),
  };
}

function sessionCostOf(report) {
  const c = report.session.cost;
  assert.ok(c.total.claude_code > 0, 'Claude Code adds text of its own to every session');
  return { user: c.total.user, claude_code: c.total.claude_code, total: c.total.user + c.total.claude_code, tokens: c.tokens_estimate };
}

async function segments(page) {
  return page.$$eval('[data-testid=segment]', (s) => s.map((e) => ({ group: e.dataset.group, value: Number(e.dataset.value) })));
}

function segmentsOf(report, unit) {
  const order = ['Managed Policy', 'User', 'Project', 'Rules', 'Auto Memory', 'Skills', 'Agent Memory'];
  return order
    .map((group) => ({ group, value: report.footprint.groups[group]?.[unit] ?? 0 }))
    .filter((s) => s.value > 0);
}

/** Selects the truncated MEMORY.md of the auto memory and reads its cut. */
async function memoryCut(page, memoryPath) {
  await page.click(`[data-testid=tree-row][data-path="${memoryPath}"]`);
  await page.waitForSelector(`[data-testid=file-view][data-path="${memoryPath}"]`);
  return {
    cut: Number(await page.getAttribute('[data-testid=cut-line]', 'data-line-cut')),
    first: Number(await page.getAttribute('[data-testid=truncation]', 'data-first-dropped-line')),
    loadedLines: Number(await page.getAttribute('[data-testid=truncation]', 'data-loaded-lines')),
    firstDroppedRowIsDropped: await page.$eval(
      '[data-testid=cut-line] + .line',
      (e) => e.classList.contains('dropped') && e.dataset.line,
    ),
    warning: await page.textContent('[data-testid=truncation] [data-testid=cut-warning]'),
  };
}

function truncatedMemory(report) {
  const row = report.files.find((r) => r.group === 'Auto Memory' && r.truncation?.first_dropped_line);
  assert.ok(row, 'the fixture has a truncated MEMORY.md');
  return row;
}

/** Compares the page's report (downloaded as JSON) with the scan's, row by row. */
async function downloadedReport(page) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=download]')]);
  const file = path.join(scratch, `report-${Date.now()}.json`);
  await download.saveAs(file);
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/**
 * A copy of a fixture tree as the page's demo sees it: each `dot-git` folder (git cannot store
 * a `.git` folder) named `.git` again, as web/build.rs does.
 */
function withGitFolders(tree, name) {
  const copy = path.join(scratch, name);
  fs.cpSync(tree, copy, { recursive: true });
  const rename = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const here = path.join(dir, entry.name);
      if (entry.name === 'dot-git') fs.renameSync(here, path.join(dir, '.git'));
      else rename(here);
    }
  };
  rename(copy);
  return copy;
}

/** Today as the page tells the core: the local date. */
function localToday() {
  const d = new Date();
  const pad = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The Health view's reasons as the page shows them. */
async function renderedReasons(page) {
  return page.$$eval('[data-testid=reason]', (items) => items.map((e) => ({
    id: e.dataset.reason,
    ok: e.dataset.ok === 'true',
    findings: [...e.querySelectorAll('[data-testid=health-finding]')].map((f) => f.dataset.code),
  })));
}

function reasonsOf(report) {
  return report.health.reasons.map((r) => ({
    id: r.id,
    ok: r.ok,
    findings: report.diagnostics.filter((d) => r.codes.includes(d.code)).map((d) => d.code),
  }));
}

/**
 * Makes the page hold back its answers to the worker's reads (the `File`s it hands over, or
 * their bytes) while `window.__hold` is true, so that a run stays busy for as long as a test
 * needs; `window.__release()` sends them.
 */
async function holdWorkerAnswers(page) {
  await page.evaluate(() => {
    // The kinds' places in web/src/wire/messages.rs (a test there keeps them in step).
    const FILES = 3; // ToWorker::Files
    const CONTENTS = 1; // ToWorker::Contents
    const post = Worker.prototype.postMessage;
    window.__held = [];
    window.__hold = false;
    Worker.prototype.postMessage = function held(message, ...rest) {
      if (window.__hold && (message?.type === FILES || message?.type === CONTENTS)) {
        window.__held.push(() => post.call(this, message, ...rest));
        return undefined;
      }
      return post.call(this, message, ...rest);
    };
    window.__release = () => {
      window.__hold = false;
      for (const send of window.__held.splice(0)) send();
    };
  });
}

/** The scan command's report of the test's `~/.claude` and project folders. */
function scanOfBoth() {
  return scan([
    '--home', HOME, '--project', PROJECT,
    '--mount', `${HOME}/.claude=${claudeDir}`,
    '--mount', `${PROJECT}=${projectDir}`,
  ]);
}

function rows(report) {
  return report.files.map((r) => `${r.group} | ${r.load} | ${r.status} | ${r.path} | ${r.parent_index ?? '-'} | ${r.counted}`);
}

// ---- the tests -----------------------------------------------------------------------------

before(async () => {
  assert.ok(fs.existsSync(path.join(dist, 'index.html')), `no built page in ${dist}: run trunk build --release first`);
  fs.mkdirSync(artifacts, { recursive: true });
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'memdiag-e2e-'));
  // dist/ served here, unless MEMDIAG_BASE_URL names a page served elsewhere.
  ({ baseUrl, server } = await serveDist());
  // A persistent context is how Playwright takes an explicit profile folder: a fresh one in
  // the scratch directory, removed afterwards.
  context = await launchWithProfile(path.join(scratch, 'profile'));
});

after(async () => {
  await context?.close();
  server?.close();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

test('uploaded folders and a zip give what the scan command gives', async () => {
  const expected = scanOfBoth();
  const { page, foreign, errors } = await openPage('?empty');
  await page.waitForSelector('[data-testid=empty-state]');
  await shot(page, '01-empty');

  // The ~/.claude folder through the folder input: home is inferred from its memory folders.
  let run = await currentRun(page);
  await page.setInputFiles('[data-testid=folder-input]', claudeDir);
  await settled(page, run);
  assert.equal(await page.inputValue('[data-testid=input-home]'), HOME);
  assert.equal(await page.inputValue('[data-testid=input-os]'), 'linux');

  // The project folder: its path is inferred from the memory folder that ends with its name.
  run = await currentRun(page);
  await page.setInputFiles('[data-testid=folder-input]', projectDir);
  await settled(page, run);
  assert.equal(await page.inputValue('[data-testid=input-project]'), PROJECT);
  assert.deepEqual(errors, []);

  assert.deepEqual(await renderedGroups(page), groupsOf(expected));
  assert.deepEqual(await cards(page), cardsOf(expected));
  assert.deepEqual(await sessionCost(page), sessionCostOf(expected));
  assert.deepEqual(await segments(page), segmentsOf(expected, 'chars'));
  await page.click('[data-testid=unit-bytes]');
  assert.deepEqual(await segments(page), segmentsOf(expected, 'bytes'));
  await page.click('[data-testid=unit-chars]');
  const memory = truncatedMemory(expected);
  const cut = await memoryCut(page, memory.path);
  assert.equal(cut.cut, memory.truncation.first_dropped_line);
  assert.equal(cut.first, memory.truncation.first_dropped_line);
  assert.equal(cut.loadedLines, memory.truncation.loaded_lines);
  assert.equal(cut.firstDroppedRowIsDropped, String(memory.truncation.first_dropped_line));
  assert.ok(memory.truncation.warning, 'a cut index has a warning');
  assert.equal(cut.warning, memory.truncation.warning);
  assert.deepEqual(rows(await downloadedReport(page)), rows(expected));
  await shot(page, '02-folders-memory-cut');

  // Refresh: folders from the input cannot be read again, and the page says so.
  await page.click('[data-testid=tree]');
  run = await currentRun(page);
  await page.keyboard.press('r');
  await settled(page, run);
  assert.match(await page.textContent('[data-testid=notice]'), /cannot read it again/);
  await shot(page, '03-refresh-notice');

  // The ~/.claude as a zip replaces the folder and gives the same report.
  const zip = path.join(scratch, 'claude.zip');
  zipFolder(claudeDir, '.claude', zip);
  run = await currentRun(page);
  await page.setInputFiles('[data-testid=zip-input]', zip);
  await settled(page, run);
  const sources = await page.$$eval('[data-testid=sources] li', (l) => l.map((e) => `${e.dataset.role}:${e.textContent}`));
  assert.equal(sources.length, 2);
  assert.ok(sources.some((s) => s.startsWith('config:') && s.includes('.claude')), sources.join(', '));
  assert.deepEqual(await renderedGroups(page), groupsOf(expected));
  assert.deepEqual(await cards(page), cardsOf(expected));
  assert.equal((await memoryCut(page, memory.path)).cut, memory.truncation.first_dropped_line);
  assert.deepEqual(rows(await downloadedReport(page)), rows(expected));

  // A broken zip gives a clear message and the report stays.
  const broken = path.join(scratch, 'broken.zip');
  fs.writeFileSync(broken, 'this is not a zip archive');
  run = await currentRun(page);
  await page.setInputFiles('[data-testid=zip-input]', broken);
  await settled(page, run);
  await page.waitForSelector('[data-testid=input-banner]');
  assert.match(await page.textContent('[data-testid=input-banner-found]'), /broken\.zip/);
  assert.deepEqual(await renderedGroups(page), groupsOf(expected));
  await shot(page, '04-broken-zip');

  // A project whose CLAUDE.md is not valid UTF-8 still shows, with the bad bytes marked.
  const odd = path.join(scratch, 'odd-project');
  fs.mkdirSync(odd, { recursive: true });
  fs.writeFileSync(path.join(odd, 'CLAUDE.md'), Buffer.concat([Buffer.from('# Odd\n\nbytes: '), Buffer.from([0xff, 0xfe, 0x80]), Buffer.from('\n')]));
  run = await currentRun(page);
  await page.setInputFiles('[data-testid=folder-input]', odd);
  await settled(page, run);
  assert.equal(await page.inputValue('[data-testid=input-project]'), `${HOME}/odd-project`);
  await page.click(`[data-testid=tree-row][data-path="${HOME}/odd-project/CLAUDE.md"]`);
  await page.waitForSelector('[data-testid=lossy]');
  assert.match(await page.textContent('[data-testid=raw]'), /bytes: \uFFFD/);
  await shot(page, '06-invalid-utf8');
  run = await currentRun(page);
  await page.setInputFiles('[data-testid=folder-input]', projectDir);
  await settled(page, run);

  // The project picker lists the memory folders; picking one analyses that project.
  await page.click('[data-testid=tree]');
  await page.keyboard.press('Shift+P');
  await page.waitForSelector('[data-testid=project-picker]');
  const choices = await page.$$eval('[data-testid=project-choice]', (c) => c.map((e) => e.dataset.path));
  assert.ok(choices.includes(PROJECT), choices.join(', '));
  await shot(page, '05-project-picker');
  const other = choices.find((c) => c !== PROJECT);
  if (other) {
    run = await currentRun(page);
    await page.click(`[data-testid=project-choice][data-path="${other}"]`);
    await settled(page, run);
    assert.equal(await page.inputValue('[data-testid=input-project]'), other);
  }

  assert.deepEqual(errors, []);
  assert.deepEqual(foreign, [], 'requests outside the page origin');
  await page.close();
});

test('Download JSON during a run saves the report shown and leaves the run going', async () => {
  const expected = scanOfBoth();
  const { page, errors } = await openPage('?empty');
  await page.waitForSelector('[data-testid=empty-state]');
  await holdWorkerAnswers(page);
  let run = await currentRun(page);
  await page.setInputFiles('[data-testid=folder-input]', claudeDir);
  await settled(page, run);
  const shown = rows(await downloadedReport(page));

  // The project drop's run waits for its reads; the report's JSON (the worker writes it when
  // asked) comes meanwhile, and it is the report shown, not the one on its way.
  await page.evaluate(() => { window.__hold = true; });
  run = await currentRun(page);
  await page.setInputFiles('[data-testid=folder-input]', projectDir);
  await page.waitForFunction(() => window.__held.length > 0);
  assert.deepEqual(rows(await downloadedReport(page)), shown);
  assert.equal(await page.getAttribute('[data-testid=app]', 'data-busy'), 'true');

  // Asking did not cancel the run: it ends with the project's report.
  await page.evaluate(() => window.__release());
  await settled(page, run);
  assert.equal(await page.locator('[data-testid=error]').count(), 0);
  assert.equal(await page.inputValue('[data-testid=input-project]'), PROJECT);
  assert.deepEqual(rows(await downloadedReport(page)), rows(expected));
  assert.deepEqual(errors, []);
  await page.close();
});

test('a drop while a run is busy cancels it: its progress shows, and the report is the new drop\'s', async () => {
  const expected = scanOfBoth();
  const { page, errors } = await openPage('?empty');
  await page.waitForSelector('[data-testid=empty-state]');
  await holdWorkerAnswers(page);

  // The ~/.claude drop's run can never end: the `File`s its worker asks for are held back.
  await page.evaluate(() => { window.__hold = true; });
  await page.setInputFiles('[data-testid=folder-input]', claudeDir);
  await page.waitForFunction(() => window.__held.length > 0);
  const stuck = await currentRun(page);
  assert.equal(page.workers().length, 1, 'the analysis runs in one worker');
  const firstWorker = page.workers()[0];
  const firstWorkerEnded = new Promise((resolve) => firstWorker.once('close', resolve));
  const progress = page.locator('[data-testid=progress]');
  const listed = fs.readdirSync(claudeDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
  assert.equal(await page.getAttribute('[data-testid=app]', 'data-busy'), 'true');
  assert.ok(Number(await progress.getAttribute('data-entries')) >= listed,
    `the progress counts the ${listed} files listed: ${await progress.textContent()}`);
  // The run waits for the files it asked for, and the progress line says how many.
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=progress]')?.dataset.filesToGo) > 0);
  assert.match(await progress.textContent(), /^Working… [\d,]+ files listed · 0 read \(0 B\) · [\d,]+ to go$/);
  await shot(page, '01c-busy-progress');

  // The project dropped meanwhile: the stuck run ends with its worker, and a fresh worker
  // analyses both folders without waiting for the first run's answers.
  await page.evaluate(() => { window.__hold = false; });
  await page.setInputFiles('[data-testid=folder-input]', projectDir);
  await settled(page, stuck);
  await Promise.race([
    firstWorkerEnded,
    new Promise((_, reject) => setTimeout(() => reject(new Error('the cancelled run\'s worker is still running')), 15_000)),
  ]);
  assert.equal(page.workers().length, 1, 'one worker runs, the cancelled one is gone');
  assert.notEqual(page.workers()[0], firstWorker);
  assert.equal(await page.locator('[data-testid=error]').count(), 0, 'a cancelled run shows no error');
  assert.equal(await page.inputValue('[data-testid=input-project]'), PROJECT);
  assert.deepEqual(rows(await downloadedReport(page)), rows(expected));

  // The first run's answers, sent late, go to a worker that is gone and change nothing.
  const shown = await currentRun(page);
  await page.evaluate(() => window.__release());
  await page.waitForTimeout(200);
  assert.equal(await currentRun(page), shown);
  assert.equal(await page.getAttribute('[data-testid=app]', 'data-busy'), 'false');
  assert.deepEqual(rows(await downloadedReport(page)), rows(expected));
  assert.deepEqual(errors, []);
  await page.close();
});

test('a folder input\'s files are listed after busy shows, and sized and read in the worker, not on the page\'s thread', async () => {
  const expected = scanOfBoth();
  const { page, errors } = await openPage('?empty');
  await page.waitForSelector('[data-testid=empty-state]');
  // Every size and every read asked of a Blob on the page's own thread. The page hands the
  // worker the `File`s it asks for; Chromium looks a file's size up synchronously on the
  // thread that asks, and the page's thread is the one that draws.
  await page.evaluate(() => {
    window.__onPage = { sizes: 0, reads: 0 };
    const size = Object.getOwnPropertyDescriptor(Blob.prototype, 'size');
    Object.defineProperty(Blob.prototype, 'size', {
      ...size,
      get() { window.__onPage.sizes += 1; return size.get.call(this); },
    });
    for (const method of ['arrayBuffer', 'text', 'stream', 'slice']) {
      const original = Blob.prototype[method];
      Blob.prototype[method] = function counted(...args) {
        window.__onPage.reads += 1;
        return original.apply(this, args);
      };
    }
  });
  // How many chosen files the page has listed (it asks each for its relative path) when it
  // first shows it is busy, and in the frame that shows it: at 300,000 files, copying them
  // out of the input's list in the change handler held that frame back for 200 ms.
  await page.evaluate(() => {
    const listed = { count: 0, atBusy: null, atBusyFrame: null };
    window.__listed = listed;
    const path = Object.getOwnPropertyDescriptor(File.prototype, 'webkitRelativePath');
    Object.defineProperty(File.prototype, 'webkitRelativePath', {
      ...path,
      get() { listed.count += 1; return path.get.call(this); },
    });
    const app = document.querySelector('[data-testid=app]');
    new MutationObserver(() => {
      if (listed.atBusy === null && app.dataset.busy === 'true') {
        listed.atBusy = listed.count;
        requestAnimationFrame(() => { listed.atBusyFrame = listed.count; });
      }
    }).observe(app, { attributes: true, attributeFilter: ['data-busy'] });
  });
  let run = await currentRun(page);
  await page.setInputFiles('[data-testid=folder-input]', claudeDir);
  await settled(page, run);
  const listed = await page.evaluate(() => window.__listed);
  assert.ok(listed.count >= 28, `the folder's files were listed (${listed.count})`);
  assert.deepEqual([listed.atBusy, listed.atBusyFrame], [0, 0], 'busy shows, and is drawn, before the page lists the files');
  assert.equal(
    await page.$eval('[data-testid=folder-input]', (input) => input.files.length), 0,
    'the folder input is emptied once listed, so that choosing the same folder again fires change',
  );
  run = await currentRun(page);
  await page.setInputFiles('[data-testid=folder-input]', projectDir);
  await settled(page, run);
  assert.equal(await page.locator('[data-testid=error]').count(), 0);
  assert.deepEqual(rows(await downloadedReport(page)), rows(expected));
  assert.deepEqual(await page.evaluate(() => window.__onPage), { sizes: 0, reads: 0 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the demo opens on a first visit and matches the scan of its fixture', async () => {
  // The page's demo has its `.git` folders back; so must the scan it is compared with.
  const demoCopy = withGitFolders(demoTree, 'demo-tree');
  const mounts = demoFixture.mounts.flatMap((m) => ['--mount', `${m}=${path.join(demoCopy, m.slice(1))}`]);
  const demoArgs = ['--home', demoFixture.home, '--project', demoFixture.project, '--os', demoFixture.os, '--today', localToday(), ...mounts];
  const expected = scan(demoArgs);
  const { page, foreign, errors } = await openPage('?demo');
  await settled(page);
  assert.deepEqual(await renderedGroups(page), groupsOf(expected));
  assert.deepEqual(await cards(page), cardsOf(expected));
  assert.deepEqual(await sessionCost(page), sessionCostOf(expected));
  assert.deepEqual(await segments(page), segmentsOf(expected, 'chars'));
  const memory = truncatedMemory(expected);
  // The page opens on the truncated MEMORY.md.
  assert.equal(await page.getAttribute('[data-testid=file-view]', 'data-path'), memory.path);
  await shot(page, '10-demo');
  const demoCut = await memoryCut(page, memory.path);
  assert.equal(demoCut.cut, memory.truncation.first_dropped_line);
  assert.equal(demoCut.warning, memory.truncation.warning);
  await page.locator('[data-testid=cut-line]').scrollIntoViewIfNeeded();
  await shot(page, '11-demo-memory-cut');

  // Keyboard: the tree moves its selection with the arrows.
  await page.focus('[data-testid=tree]');
  const before = await page.getAttribute('[data-testid=tree]', 'aria-activedescendant');
  await page.keyboard.press('ArrowUp');
  assert.notEqual(await page.getAttribute('[data-testid=tree]', 'aria-activedescendant'), before);

  // The user CLAUDE.md in the Markdown preview.
  await page.click(`[data-testid=tree-row][data-path="${demoFixture.home}/.claude/CLAUDE.md"]`);
  await page.click('[data-testid=tab-preview]');
  await page.waitForSelector('[data-testid=markdown-preview]');
  assert.equal(await page.$$eval('[data-testid=markdown-preview] script, [data-testid=markdown-preview] img', (e) => e.length), 0);
  await shot(page, '12-demo-preview');

  // Diagnostics open their file.
  const diagnostic = page.locator('[data-testid=diagnostic] button').first();
  if (await diagnostic.count()) {
    await diagnostic.click();
    await page.waitForSelector('[data-testid=file-view][data-path]');
  }
  await page.locator('[data-testid=diagnostics]').scrollIntoViewIfNeeded();
  await shot(page, '13-demo-findings');

  // The filter narrows the tree.
  await page.fill('[data-testid=tree-filter]', 'rules');
  const filtered = await page.$$eval('[data-testid=tree-row]', (r) => r.map((e) => e.dataset.path));
  assert.ok(filtered.length > 0 && filtered.every((p) => p.includes('rules') || p.includes('/')), filtered.join(', '));
  await page.fill('[data-testid=tree-filter]', '');

  // The Health view: the five reasons with the scan's verdicts and findings, the memory
  // figures, and the growth chart with its 80 % and 100 % lines.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.click('[data-testid=view-health]');
  await page.waitForSelector('[data-testid=health-view]');
  assert.deepEqual(await renderedReasons(page), reasonsOf(expected));
  assert.equal(expected.health.reasons.length, 5);
  const figures = await page.$$eval('[data-testid=memory-health]', (cards) => cards.map((c) => ({
    folder: c.dataset.folder,
    lines: Number(c.querySelector('[data-figure=index-lines] strong').textContent.replace(/,/g, '')),
  })));
  assert.deepEqual(figures, expected.health.memories.map((m) => ({ folder: m.folder, lines: m.index_lines })));
  assert.equal(await page.getAttribute('[data-testid=limit-80]', 'data-lines'), '160');
  assert.equal(await page.getAttribute('[data-testid=limit-100]', 'data-lines'), '200');
  const dropped = expected.diagnostics.find((d) => d.code === 'memory-index-truncated').data;
  assert.equal(await page.locator('[data-testid=dropped-entry]').count(), dropped.entries.length);
  assert.equal(
    await page.locator('[data-testid=dropped-entry][data-correction=true]').count(),
    dropped.entries.filter((e) => e.correction).length,
  );
  await shot(page, '16-demo-health');
  await page.locator('[data-testid=dropped-entries]').scrollIntoViewIfNeeded();
  await shot(page, '16b-demo-health-dropped');
  await page.locator('[data-testid=memory-health]').first().scrollIntoViewIfNeeded();
  await shot(page, '16c-demo-health-memory');

  // Long index lines: over 200 characters now; the page's figure is the scan's.
  const longLines = await page.$$eval('[data-testid=memory-health] [data-figure=long-lines] td', (t) => t.map((e) => Number(e.textContent.split(/\D/)[0])));
  assert.deepEqual(longLines, expected.health.memories.map((m) => m.long_lines));
  assert.match(await page.textContent('[data-testid=memory-health] [data-figure=long-lines] th'), /over 200 characters/);
  // Each sub-agent receives what the scan says, the main MEMORY.md among it.
  const receives = await page.$$eval('[data-testid=agent-receives]', (c) => c.map((e) => Number(e.dataset.files)));
  assert.deepEqual(receives, expected.health.agents.map((a) => a.receives.length));

  // A dropped index line opens its file in the file view, scrolled to it and the line marked.
  const truncated = expected.diagnostics.find((d) => d.code === 'memory-index-truncated');
  const lastDropped = truncated.data.entries.at(-1).line;
  await page.locator(`[data-testid=dropped-entry][data-line="${lastDropped}"] .line-link`).click();
  await page.waitForSelector(`[data-testid=file-view][data-path="${truncated.path}"]`);
  assert.equal(await page.getAttribute('.line.focus', 'data-line', { timeout: 5000 }), String(lastDropped));
  await page.click('[data-testid=view-health]');
  await page.click('[data-testid=health-finding][data-code=memory-index-truncated]');
  await page.waitForSelector(`[data-testid=file-view][data-path="${truncated.path}"]`);
  assert.equal(await page.getAttribute('.line.focus', 'data-line'), String(truncated.line));
  const inView = await page.$eval('.line.focus', (line) => {
    const box = line.getBoundingClientRect();
    const pane = line.closest('[data-testid=file-view]').getBoundingClientRect();
    return box.top >= pane.top && box.bottom <= pane.bottom;
  });
  assert.ok(inView, 'the focused line is scrolled into the file view');
  await shot(page, '18-demo-finding-opened');

  // The version field takes a typed release and re-runs with its rules once committed
  // (typing alone runs nothing): before 2.1.84 a `paths` list was joined into one pattern.
  // The page and the scan command agree on the findings and on what differs from the pinned
  // release (the report's comparison).
  const older = scan([...demoArgs, '--claude-version', '2.1.83']);
  let run = await currentRun(page);
  await page.fill('[data-testid=input-version]', '2.1.8');
  assert.equal(await currentRun(page), run, 'typing runs nothing');
  await page.fill('[data-testid=input-version]', '2.1.83');
  await page.press('[data-testid=input-version]', 'Enter');
  await settled(page, run);
  assert.match(await page.textContent('[data-testid=simulated-version]'), /2\.1\.83/);
  const codesShown = await page.$$eval('[data-testid=diagnostic]', (d) => d.map((e) => e.dataset.code).sort());
  assert.deepEqual(codesShown, older.diagnostics.map((d) => d.code).sort());
  assert.ok(codesShown.includes('rule-paths-joined'), codesShown.join(', '));
  const panel = page.locator('[data-testid=release-panel]');
  assert.equal(Number(await panel.getAttribute('data-rows')), older.comparison.rows.length);
  assert.equal(Number(await panel.getAttribute('data-appeared')), older.comparison.findings_appeared.length);
  assert.equal(Number(await panel.getAttribute('data-vanished')), older.comparison.findings_vanished.length);
  assert.equal(Number(await panel.getAttribute('data-figures')), older.comparison.figures.length);
  await panel.locator('summary').click();
  const figuresShown = await page.$$eval('[data-testid=release-figure]', (f) => f.map((e) => `${e.dataset.name}:${e.dataset.base}->${e.dataset.other}`));
  assert.deepEqual(figuresShown, older.comparison.figures.map((f) => `${f.name}:${f.base}->${f.other}`));
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, '22-demo-version-2.1.83');
  await page.click('[data-testid=view-health]');
  // A release older than the first one measured is refused beside the field.
  run = await currentRun(page);
  await page.fill('[data-testid=input-version]', '2.1.40');
  await page.press('[data-testid=input-version]', 'Enter');
  await page.waitForSelector('[data-testid=version-error]');
  assert.match(await page.textContent('[data-testid=version-error]'), /2\.1\.40 cannot be simulated/);
  assert.equal(await currentRun(page), run, 'a refused release runs nothing');
  await page.fill('[data-testid=input-version]', '');
  await page.press('[data-testid=input-version]', 'Enter');
  await settled(page, run);
  assert.equal(await page.locator('[data-testid=simulated-version]').count(), 0);
  assert.equal(await page.locator('[data-testid=release-panel]').count(), 0);

  assert.deepEqual(errors, []);
  assert.deepEqual(foreign, [], 'requests outside the page origin');
  await page.close();

  // The same page in the dark theme and on a small laptop screen.
  const dark = await openPage('', { colorScheme: 'dark', viewport: { width: 1280, height: 800 } });
  await settled(dark.page);
  await shot(dark.page, '14-demo-dark-1280');
  await dark.page.keyboard.press('h');
  await dark.page.waitForSelector('[data-testid=health-view]');
  await shot(dark.page, '17-demo-health-dark');
  await dark.page.locator('[data-testid=memory-health]').first().scrollIntoViewIfNeeded();
  await shot(dark.page, '17b-demo-health-dark-memory');
  assert.deepEqual(dark.foreign, []);
  assert.deepEqual(dark.errors, []);
  await dark.page.close();
  const narrow = await openPage('', { viewport: { width: 900, height: 1000 } });
  await settled(narrow.page);
  await shot(narrow.page, '15-demo-900');
  await narrow.page.click('[data-testid=view-health]');
  await narrow.page.locator('[data-testid=health-view]').scrollIntoViewIfNeeded();
  await shot(narrow.page, '19-demo-health-900');
  await narrow.page.locator('[data-testid=memory-health]').first().scrollIntoViewIfNeeded();
  await shot(narrow.page, '19b-demo-health-900-memory');
  assert.deepEqual(narrow.errors, []);
  await narrow.page.close();
});

test('a growing memory shows when its index reaches 80 % and 100 % of its lines', async () => {
  // 150 index lines and twelve topic files saved over the last 48 days: the core projects
  // both dates, and the page must show the same ones.
  const base = path.join(scratch, 'growing');
  const claude = path.join(base, '.claude');
  const memory = path.join(claude, 'projects', '-home-erin-app', 'memory');
  const project = path.join(base, 'app');
  fs.mkdirSync(memory, { recursive: true });
  fs.mkdirSync(project, { recursive: true });
  fs.writeFileSync(path.join(project, 'CLAUDE.md'), '# App\n');
  const daysAgo = (n) => {
    const d = new Date();
    d.setDate(d.getDate() - n);
    const pad = (v) => String(v).padStart(2, '0');
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  };
  for (let i = 0; i < 12; i++) {
    fs.writeFileSync(path.join(memory, `t${i}.md`), `---\ntype: project\nmodified: ${daysAgo(i * 4)}T10:00:00Z\n---\nNote ${i}\n`);
  }
  const index = Array.from({ length: 150 }, (_, i) => `- [Note ${i}](t${i % 12}.md) what was learned, entry ${i}`).join('\n');
  fs.writeFileSync(path.join(memory, 'MEMORY.md'), `${index}\n`);
  const expected = scan([
    '--home', '/home/erin', '--project', '/home/erin/app', '--today', localToday(),
    '--mount', `/home/erin/.claude=${claude}`, '--mount', `/home/erin/app=${project}`,
  ]);
  const growth = expected.health.memories[0].growth;
  assert.ok(growth.reaches_80_percent && growth.reaches_limit, JSON.stringify(growth));

  for (const colorScheme of ['light', 'dark']) {
    const { page, foreign, errors } = await openPage('?empty', { colorScheme });
    let run = await currentRun(page);
    await page.setInputFiles('[data-testid=folder-input]', claude);
    await settled(page, run);
    run = await currentRun(page);
    await page.setInputFiles('[data-testid=folder-input]', project);
    await settled(page, run);
    assert.equal(await page.inputValue('[data-testid=input-project]'), '/home/erin/app');
    await page.keyboard.press('h');
    const card = page.locator('[data-testid=memory-health]').first();
    const text = await card.locator('[data-testid=growth-text]').textContent();
    assert.ok(text.includes(growth.reaches_80_percent) && text.includes(growth.reaches_limit), text);
    assert.deepEqual(
      await card.locator('g.crossing').evaluateAll((g) => g.map((e) => e.dataset.lines)),
      ['160', '200'],
    );
    assert.equal(await page.getAttribute('[data-reason=truncated]', 'data-ok'), 'true');
    await card.scrollIntoViewIfNeeded();
    await shot(page, colorScheme === 'light' ? '20-growth-projection' : '21-growth-projection-dark');
    assert.deepEqual(errors, []);
    assert.deepEqual(foreign, []);
    await page.close();
  }
});
