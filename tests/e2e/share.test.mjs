// End-to-end test of Share in the built page (dist/), in headless Chromium through
// playwright-core.
//
// It loads the demo, opens the Share dialog, takes its link and its zip, and opens each in a
// fresh page of a separate browser (nothing shared with the sender's profile): the shared
// view must show the same footprint figures and session cost, the same rows in every group and the same
// findings, read-only with no drop zone, and none of the demo's private words (the user name
// and words from its CLAUDE.md and MEMORY.md bodies) anywhere in its DOM. Screenshots of the
// dialog and the read-only view, light and dark, wide and 900 px, go to tests/e2e/artifacts/.
// Then the canary fixture, dropped as folders, is shared with each of the 16 combinations of
// the dialog's options: its link's payload and its zip hold a marker exactly when the options
// keep it.
//
// Run by scripts/test.sh; by hand (after `trunk build --release`):
//   node --test tests/e2e/share.test.mjs

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import zlib from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import {
  dist, artifacts, serveDist, launchWithProfile, launchBrowser, watch, openWatchedPage,
  currentRun, ready, shot,
} from './support.mjs';

// Words only the demo's own text holds: the user name, and words from the bodies of its
// CLAUDE.md files and its MEMORY.md. None may reach a shared page made with the defaults.
const CANARIES = ['alice', 'British', 'Fastify', 'monorepo', 'Postgres', 'Stripe'];

let server;
let baseUrl;
let sender;
let fresh;
let scratch;

// ---- helpers -------------------------------------------------------------------------------

/** A page of the sender's browser. */
function senderPage(url, options = {}) {
  return openWatchedPage(sender, baseUrl, url, options);
}

/** A page in a new context of a second browser: no storage, no history, nothing shared. */
async function freshPage(url, { colorScheme = 'light', viewport = { width: 1440, height: 900 } } = {}) {
  const context = await fresh.newContext({ viewport, colorScheme, acceptDownloads: true });
  const page = await context.newPage();
  const watched = watch(page, baseUrl);
  await page.goto(url);
  await page.waitForSelector('[data-testid=app]');
  return { page, context, ...watched };
}

/** Everything a reader compares: figures, rows per group, findings, health verdicts. */
async function figures(page) {
  // Every group open, so that every row shows.
  // A header click only selects a group; its chevron opens it. Bounded, so that a page that
  // will not open a group fails here instead of hanging the test.
  const closed = page.locator('[role=treeitem][aria-level="1"][aria-expanded=false]');
  for (let tries = 0; tries < 50 && (await closed.count()); tries += 1) {
    await closed.first().locator('[data-testid=group-chevron]').click();
  }
  assert.equal(await closed.count(), 0, 'every group opens');
  const card = async (id) => Number(await page.getAttribute(`[data-testid=card-${id}]`, 'data-value'));
  const segments = async () => page.$$eval('[data-testid=segment]', (s) => s.map((e) => `${e.dataset.group}=${e.dataset.value}`));
  const chars = await segments();
  await page.click('[data-testid=unit-bytes]');
  const bytes = await segments();
  await page.click('[data-testid=unit-chars]');
  return {
    cards: {
      files: await card('files'), chars: await card('chars'), bytes: await card('bytes'),
      always: await card('always'), tokens: await card('tokens'),
    },
    chars,
    bytes,
    cost: await page.$eval('[data-testid=session-cost]', (e) => ({
      user: e.dataset.user, claudeCode: e.dataset.claudeCode, tokens: e.dataset.tokens,
    })),
    groups: await page.$$eval('[role=tree] > li', (items) => {
      const out = [];
      for (const e of items) {
        if (e.getAttribute('aria-level') === '1') out.push({ group: e.dataset.group, count: Number(e.dataset.count), rows: 0 });
        else if (e.dataset.testid === 'tree-row') out[out.length - 1].rows += 1;
      }
      return out;
    }),
    loads: await page.$$eval('[data-testid=tree-row]', (r) => r.map((e) => `${e.dataset.load}/${e.dataset.status}`)),
    findings: (await page.$$eval('[data-testid=diagnostic]', (d) => d.map((e) => e.dataset.code))).sort(),
    cut: await page.$$eval('[data-testid=tree-row] .badge.warn', (b) => b.map((e) => e.textContent)),
  };
}

async function reasons(page) {
  await page.click('[data-testid=view-health]');
  await page.waitForSelector('[data-testid=health-view]');
  const out = await page.$$eval('[data-testid=reason]', (r) => r.map((e) => `${e.dataset.reason}=${e.dataset.ok}`));
  await page.click('[data-testid=view-file]');
  return out;
}

/** All the text a page holds: visible text, markup and attributes, and every field's value. */
async function everything(page) {
  return page.evaluate(() => [
    document.body.innerText,
    document.documentElement.outerHTML,
    ...[...document.querySelectorAll('input, textarea, select')].map((e) => e.value),
    document.title,
    location.href,
  ].join('\n'));
}

function assertNoCanary(text, where) {
  for (const word of CANARIES) {
    assert.ok(!text.toLowerCase().includes(word.toLowerCase()), `"${word}" appears in ${where}`);
  }
}

/** Checks the read-only view: a banner, no way to add files, the same report. */
async function assertReadOnly(page, expected, where) {
  const banner = page.locator('[data-testid=shared-banner]');
  assert.equal(await banner.count(), 1, `${where}: the banner`);
  assert.match(await banner.textContent(), /sanitized snapshot, made \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
  for (const gone of [
    'empty-state', 'choose-folder', 'open-zip', 'try-demo', 'refresh', 'folder-input', 'zip-input', 'share', 'open-picker',
  ]) {
    assert.equal(await page.locator(`[data-testid=${gone}]`).count(), 0, `${where}: ${gone} in read-only mode`);
  }
  assert.equal(await page.locator('.drop-zone').count(), 0, `${where}: a drop zone`);
  assert.equal(await page.locator('[data-testid=start-fresh]').count(), 1);
  assert.notEqual(await page.getAttribute('[data-testid=input-home]', 'readonly'), null, `${where}: the home field is read-only`);
  assert.deepEqual(await figures(page), expected.figures, `${where}: the figures`);
  assert.deepEqual(await reasons(page), expected.reasons, `${where}: the health view`);
}

// ---- the tests -----------------------------------------------------------------------------

before(async () => {
  assert.ok(fs.existsSync(path.join(dist, 'index.html')), `no built page in ${dist}: run trunk build --release first`);
  fs.mkdirSync(artifacts, { recursive: true });
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'memdiag-share-e2e-'));
  ({ baseUrl, server } = await serveDist());
  sender = await launchWithProfile(path.join(scratch, 'sender'));
  await sender.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(baseUrl).origin });
  fresh = await launchBrowser();
});

after(async () => {
  await sender?.close();
  await fresh?.close();
  server?.close();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

test('a shared link and file open read-only elsewhere, with the same report and no private word', async () => {
  // The sender: the demo, and the figures a reader must see again.
  const { page, foreign, errors } = await senderPage(`${baseUrl}?demo`);
  await ready(page);
  const expected = { figures: await figures(page), reasons: await reasons(page) };
  assert.ok(expected.figures.cards.files > 0 && expected.figures.cut.length > 0);
  // One group for each of the report's groups, Commands included.
  assert.equal(expected.figures.groups.length, 8);
  assert.ok(expected.figures.groups.reduce((n, g) => n + g.rows, 0) > 30, JSON.stringify(expected.figures.groups));
  assert.equal(expected.reasons.length, 5);
  await page.evaluate(() => window.scrollTo(0, 0));

  // The dialog opens with the safe defaults, focus inside it.
  await page.click('[data-testid=share]');
  await page.waitForSelector('[data-testid=share-dialog][data-ready=true]');
  assert.equal(await page.isChecked('[data-testid=share-keep-file-names]'), false);
  assert.equal(await page.isChecked('[data-testid=share-keep-user-name]'), false);
  assert.equal(await page.isChecked('[data-testid=share-keep-text]'), false);
  assert.equal(await page.isChecked('[data-testid=share-other-projects]'), false);
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'share-keep-file-names');
  // By default no name the person wrote is shared (the demo's projects are shop, seoul-app
  // and shop/packages/ui), and the other projects' memory folders stay out.
  const defaultLink = await page.inputValue('[data-testid=share-link]');
  const defaultPayload = zlib
    .inflateRawSync(Buffer.from(defaultLink.split('#s=1.')[1], 'base64url'))
    .toString('utf8');
  for (const name of ['shop', 'seoul', 'work', 'packages']) {
    assert.ok(!defaultPayload.toLowerCase().includes(name), `${name} in the default payload`);
  }
  assert.equal(await page.locator('[data-testid=share-visible-names]').count(), 0);
  // The round trip below compares every figure, so it shares the other projects too.
  await page.check('[data-testid=share-other-projects]');
  await page.waitForSelector('[data-testid=share-dialog][data-ready=true]');
  await page.waitForFunction(
    (before) => document.querySelector('[data-testid=share-link]')?.value !== before,
    defaultLink,
  );
  assert.equal(await page.locator('[data-testid=share-text-warning]').count(), 0);
  assert.equal(await page.locator('[data-testid=share-link-warning]').count(), 0);
  assert.equal(await page.locator('[data-testid=share-verified]').count(), 1);
  const listed = await page.locator('[data-testid=share-file]').count();
  assert.equal(Number(await page.getAttribute('[data-testid=share-count]', 'data-count')), listed);
  const sharedPaths = await page.$$eval('[data-testid=share-file]', (f) => f.map((e) => e.dataset.path));
  assert.ok(sharedPaths.every((p) => !/alice/i.test(p)), sharedPaths.join(', '));
  assert.ok(sharedPaths.every((p) => !p.endsWith('.jsonl') && !p.includes('.credentials')), sharedPaths.join(', '));
  const link = await page.inputValue('[data-testid=share-link]');
  assert.ok(link.startsWith(`${baseUrl}#s=1.`), link.slice(0, 80));
  assert.equal(Number(await page.getAttribute('[data-testid=share-link-length]', 'data-length')), link.length);
  assert.ok(link.length < 8 * 1024, `the demo's link is ${link.length} characters`);
  await shot(page, '30-share-dialog');

  // Copy puts the link on the clipboard.
  await page.click('[data-testid=share-copy]');
  await page.waitForSelector('[data-testid=share-copied]:has-text("Copied")');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link);

  // Keeping the text warns, and the same options give the same link again.
  await page.check('[data-testid=share-keep-text]');
  await page.waitForSelector('[data-testid=share-text-warning]');
  await page.waitForSelector('[data-testid=share-dialog][data-ready=true]');
  assert.notEqual(await page.inputValue('[data-testid=share-link]'), link);
  await shot(page, '31-share-dialog-keep-text');
  await page.uncheck('[data-testid=share-keep-text]');
  await page.waitForSelector('[data-testid=share-dialog][data-ready=true]');
  assert.equal(await page.inputValue('[data-testid=share-link]'), link);

  // The file.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=share-download]')]);
  assert.match(download.suggestedFilename(), /^memdiag-share-\d{4}-\d\d-\d\d\.zip$/);
  const zip = path.join(scratch, download.suggestedFilename());
  await download.saveAs(zip);
  assert.ok(fs.statSync(zip).size > 0);
  assertNoCanary(fs.readFileSync(zip).toString('latin1'), 'the zip');

  // Escape closes, and focus goes back to the Share button.
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('[data-testid=share-dialog]').count(), 0);
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'share');
  assert.deepEqual(errors, []);
  assert.deepEqual(foreign, [], 'requests outside the page origin');

  // The link, in a fresh page: the same report, read-only, and no private word.
  const byLink = await freshPage(link);
  await ready(byLink.page);
  await shot(byLink.page, '32-shared-link');
  await assertReadOnly(byLink.page, expected, 'the link');
  assertNoCanary(await everything(byLink.page), 'the page the link opened');
  await byLink.page.evaluate(() => window.scrollTo(0, 0));
  // The file view shows placeholders where the words were.
  const userClaude = byLink.page.locator('[data-testid=tree-row][data-path$="/.claude/CLAUDE.md"]').first();
  await userClaude.click();
  assert.match(await byLink.page.textContent('[data-testid=raw]'), /xxxxxxx xxxxxxxx/);
  await shot(byLink.page, '33-shared-file-view');
  await byLink.page.click('[data-testid=view-health]');
  await shot(byLink.page, '34-shared-health');
  assertNoCanary(await everything(byLink.page), 'the shared health view');
  assert.deepEqual(byLink.errors, []);
  assert.deepEqual(byLink.foreign, []);

  // Start fresh leaves read-only mode for the empty page, and forgets the link.
  await byLink.page.click('[data-testid=start-fresh]');
  await byLink.page.waitForSelector('[data-testid=empty-state] .drop-zone');
  assert.equal(await byLink.page.locator('[data-testid=shared-banner]').count(), 0);
  assert.equal(new URL(byLink.page.url()).hash, '');
  await byLink.context.close();

  // The file, opened through the zip input of a fresh page (which shows the demo first).
  const byFile = await freshPage(baseUrl);
  await ready(byFile.page);
  const run = await currentRun(byFile.page);
  await byFile.page.setInputFiles('[data-testid=zip-input]', zip);
  await ready(byFile.page, run);
  await shot(byFile.page, '35-shared-file');
  await assertReadOnly(byFile.page, expected, 'the file');
  assert.match(await byFile.page.textContent('[data-testid=shared-banner]'), /opened from the file memdiag-share-/);
  assertNoCanary(await everything(byFile.page), 'the page the file opened');
  assert.deepEqual(byFile.errors, []);
  assert.deepEqual(byFile.foreign, []);
  await byFile.context.close();

  // Dark, and 900 px wide: the dialog and the read-only view.
  for (const [name, options] of [
    ['dark', { colorScheme: 'dark', viewport: { width: 1280, height: 800 } }],
    ['900', { viewport: { width: 900, height: 1000 } }],
  ]) {
    const other = await senderPage(`${baseUrl}?demo`, options);
    await ready(other.page);
    await other.page.click('[data-testid=share]');
    await other.page.waitForSelector('[data-testid=share-dialog][data-ready=true]');
    await other.page.check('[data-testid=share-keep-text]');
    await other.page.waitForSelector('[data-testid=share-dialog][data-ready=true]');
    await shot(other.page, `36-share-dialog-${name}`);
    await other.page.uncheck('[data-testid=share-keep-text]');
    await other.page.waitForSelector('[data-testid=share-dialog][data-ready=true]');
    const otherLink = await other.page.inputValue('[data-testid=share-link]');
    assert.deepEqual(other.errors, []);
    await other.page.close();
    const view = await freshPage(otherLink, options);
    await ready(view.page);
    await shot(view.page, `37-shared-${name}`);
    assert.deepEqual(view.errors, []);
    await view.context.close();
  }
  await page.close();
});

// ---- the canary, under every combination of options -------------------------------------

// Markers of fixtures/canary/ by where they stand (as in tests/tests/sanitize.rs and
// core/tests/share_command.rs): text of listed files, names of files and folders, the user
// name, and what is never shared.
const CANARY_HOME = '/home/canary9d3a';
const MARKERS = { content: '4f1c', names: '7e2b', user: '9d3a', dropped: '5b6d' };
/** The size on disk of the other project's MEMORY.md in fixtures/canary/. */
const OTHER_MEMORY_BYTES = 36;

/** The JSON a link's payload holds, lower-cased. */
function linkPayload(link) {
  const data = link.split('#s=1.')[1];
  assert.ok(data, `a link with a payload: ${link.slice(0, 80)}`);
  return zlib.inflateRawSync(Buffer.from(data, 'base64url')).toString('utf8').toLowerCase();
}

/** Every entry name and entry text of a zip, lower-cased (stored or deflated entries). */
function zipHoldings(bytes) {
  let end = bytes.length - 22;
  while (end >= 0 && bytes.readUInt32LE(end) !== 0x06054b50) end -= 1;
  assert.ok(end >= 0, 'the zip has an end record');
  const count = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  const out = [];
  for (let i = 0; i < count; i += 1) {
    assert.equal(bytes.readUInt32LE(at), 0x02014b50, 'a central directory entry');
    const method = bytes.readUInt16LE(at + 10);
    const compressed = bytes.readUInt32LE(at + 20);
    const size = bytes.readUInt32LE(at + 24);
    const nameLength = bytes.readUInt16LE(at + 28);
    const extra = bytes.readUInt16LE(at + 30);
    const comment = bytes.readUInt16LE(at + 32);
    const local = bytes.readUInt32LE(at + 42);
    const name = bytes.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    const data = bytes.subarray(start, start + compressed);
    const text = method === 8 ? zlib.inflateRawSync(data) : data;
    assert.ok(method === 8 || text.length === size, `${name}: stored or deflated`);
    out.push(name, text.toString('utf8'));
    at += 46 + nameLength + extra + comment;
  }
  return out.join('\n').toLowerCase();
}

test('the canary shared from the page keeps, under every combination of options, only what they promise', async () => {
  const tree = path.join(process.env.MEMDIAG_FIXTURES ?? path.join(path.dirname(dist), 'fixtures'), 'canary', 'tree');
  const claudeDir = path.join(tree, 'home', 'canary9d3a', '.claude');
  const projectDir = path.join(tree, 'home', 'canary9d3a', 'work', 'canary-7e2b-client');
  assert.ok(fs.existsSync(claudeDir) && fs.existsSync(projectDir), `the canary fixture in ${tree}`);
  const { page, errors, foreign } = await senderPage(`${baseUrl}?empty`);
  await page.waitForSelector('[data-testid=empty-state]');
  let run = await currentRun(page);
  await page.setInputFiles('[data-testid=folder-input]', claudeDir);
  await ready(page, run);
  assert.equal(await page.inputValue('[data-testid=input-home]'), CANARY_HOME);
  run = await currentRun(page);
  await page.setInputFiles('[data-testid=folder-input]', projectDir);
  await ready(page, run);
  assert.equal(await page.inputValue('[data-testid=input-project]'), `${CANARY_HOME}/work/canary-7e2b-client`);

  await page.click('[data-testid=share]');
  await page.waitForSelector('[data-testid=share-dialog][data-ready=true]');
  const boxes = ['share-keep-file-names', 'share-keep-user-name', 'share-keep-text', 'share-other-projects'];
  let previous = await page.inputValue('[data-testid=share-link]');
  // Gray code: each step flips one option, so each step makes a new copy.
  for (let step = 0; step < 16; step += 1) {
    const bits = step ^ (step >> 1);
    const [names, user, text, other] = boxes.map((_, i) => (bits & (1 << i)) !== 0);
    const what = JSON.stringify({ names, user, text, other });
    for (const [i, box] of boxes.entries()) {
      if ((await page.isChecked(`[data-testid=${box}]`)) !== ((bits & (1 << i)) !== 0)) {
        await page.click(`[data-testid=${box}]`);
      }
    }
    if (step > 0) {
      await page.waitForFunction(
        (before) => {
          const dialog = document.querySelector('[data-testid=share-dialog]');
          const link = document.querySelector('[data-testid=share-link]')?.value;
          return dialog?.dataset.ready === 'true' && link && link !== before;
        },
        previous,
        { timeout: 30_000 },
      );
    }
    const link = await page.inputValue('[data-testid=share-link]');
    previous = link;
    const payload = linkPayload(link);
    assert.equal(JSON.parse(payload).text_kept === true, text, `${what}: the payload says whether text is kept`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=share-download]')]);
    const zip = path.join(scratch, `canary-${bits}.zip`);
    await download.saveAs(zip);
    const zipped = zipHoldings(fs.readFileSync(zip));
    for (const [carrier, held] of [['link', payload], ['zip', zipped]]) {
      for (const [marker, kept] of [
        [MARKERS.dropped, false], [MARKERS.content, text], [MARKERS.names, names], [MARKERS.user, user],
      ]) {
        assert.equal(held.includes(marker), kept, `${what}: ${marker} in the ${carrier} exactly when kept`);
      }
      // Other projects' memory folders: left out unless asked for, and then named only
      // when names are kept.
      assert.equal(held.includes('other'), other && names, `${what}: the other project in the ${carrier}`);
    }
    if (other && names) {
      // A dropped folder's files are listed by name only and the analysis never sizes
      // another project's memory files: the page looks their sizes up only when it is asked
      // to share (web/src/page/worker_host.rs, `tree_unstatted`). The copy carries the size on
      // disk, not the 0 of a file never sized.
      const shared = JSON.parse(payload).files.filter((f) => f.path.includes('other-7e2b/memory/'));
      assert.deepEqual(
        shared.map((f) => [f.path.split('/').pop(), f.size]),
        [['memory.md', OTHER_MEMORY_BYTES]],
        `${what}: the other project's memory file and its size`,
      );
    }
    // Keeping names lists them; the dialog never shows a marker it does not share.
    assert.equal(await page.locator('[data-testid=share-visible-names]').count(), names ? 1 : 0, what);
  }
  await shot(page, '39-share-canary-all-kept');
  assert.deepEqual(errors, []);
  assert.deepEqual(foreign, []);
  await page.close();
});

test('a broken or newer link says why and shows the empty page, not the demo', async () => {
  for (const [fragment, says, name] of [
    ['#s=1.7VxLb-PIEf4rHRr', /damaged/, '38-broken-link'],
    ['#s=7.AAAA', /newer version/, null],
  ]) {
    const { page, context, errors, foreign } = await freshPage(`${baseUrl}${fragment}`);
    await page.waitForSelector('[data-testid=error]');
    assert.match(await page.textContent('[data-testid=error]'), says);
    assert.equal(await page.locator('[data-testid=empty-state] .drop-zone').count(), 1);
    assert.equal(await page.locator('[data-testid=tree]').count(), 0, 'no demo behind a link');
    assert.equal(await page.locator('[data-testid=shared-banner]').count(), 0);
    if (name) await shot(page, name);
    assert.deepEqual(errors, []);
    assert.deepEqual(foreign, []);
    await context.close();
  }
});
