// The verdict first (issue 33), in headless Chromium through playwright-core, on the issue's
// setup: a ~/.claude whose MEMORY.md has 230 index lines (most of them links to topic files
// that do not exist, two topic files nobody links) and a rule that never loads, with its
// project folder, as folders and as a zip. The verdict is the first thing below the header,
// its first line is the cut with the right lines, the cut MEMORY.md is open in the file view,
// and every link of the verdict lands the file view in the window with focus on its heading,
// on a desktop and on a phone; after one visit the page works with the network off.
// Screenshots go to tests/e2e/artifacts/ (verdict-*.png).
//
// Run by scripts/test.sh; by hand (after `trunk build --release`):
//   node --test tests/e2e/verdict.test.mjs

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  artifacts, dist, root, serveDist, launchWithProfile, launchBrowser, openWatchedPage, currentRun, settled, ready, shot, zipFolder,
} from './support.mjs';

let server;
let baseUrl;
let context;
let scratch;
let claude;
let project;

/** Lines of the index, topic files that exist (n1.md … n8.md) and the orphans. */
const INDEX_LINES = 230;
const TOPICS = 8;

/** Writes the setup under `base`: `base/.claude` and `base/app` (/home/erin/app). */
function writeSetup(base) {
  const claudeDir = path.join(base, '.claude');
  const memory = path.join(claudeDir, 'projects', '-home-erin-app', 'memory');
  const projectDir = path.join(base, 'app');
  fs.mkdirSync(memory, { recursive: true });
  fs.mkdirSync(path.join(claudeDir, 'rules'), { recursive: true });
  fs.mkdirSync(projectDir, { recursive: true });
  fs.writeFileSync(path.join(claudeDir, 'CLAUDE.md'), '# Erin\n\n- Answer briefly.\n');
  fs.writeFileSync(path.join(claudeDir, 'rules', 'python.md'), '---\npaths: ["**/*.py"]\n---\nUse type hints.\n');
  fs.writeFileSync(path.join(projectDir, 'CLAUDE.md'), '# App\n\nRun `make test` before a commit.\n');
  fs.writeFileSync(path.join(projectDir, 'main.go'), 'package main\n');
  const index = Array.from({ length: INDEX_LINES }, (_, i) => `- [Note ${i + 1}](n${i + 1}.md) what was learned, entry ${i + 1}`);
  fs.writeFileSync(path.join(memory, 'MEMORY.md'), `${index.join('\n')}\n`);
  for (let i = 1; i <= TOPICS; i++) {
    fs.writeFileSync(path.join(memory, `n${i}.md`), `---\nname: note ${i}\ndescription: note ${i}\ntype: project\n---\nNote ${i}\n`);
  }
  for (const name of ['old-a.md', 'old-b.md']) {
    fs.writeFileSync(path.join(memory, name), `---\nname: ${name}\ntype: project\n---\nNobody links this.\n`);
  }
  return { claudeDir, projectDir };
}

before(async () => {
  fs.mkdirSync(artifacts, { recursive: true });
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'memdiag-verdict-'));
  ({ claudeDir: claude, projectDir: project } = writeSetup(path.join(scratch, 'erin')));
  ({ baseUrl, server } = await serveDist());
  context = await launchWithProfile(path.join(scratch, 'profile'));
});

after(async () => {
  await context?.close();
  server?.close();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

/** Adds the ~/.claude (a folder, or a zip of it) and then the project folder. */
async function addSetup(page, { zip } = {}) {
  let run = await currentRun(page);
  if (zip) {
    await page.setInputFiles('[data-testid=zip-input]', zip);
  } else {
    await page.setInputFiles('[data-testid=folder-input]', claude);
  }
  await settled(page, run);
  run = await currentRun(page);
  await page.setInputFiles('[data-testid=folder-input]', project);
  await ready(page, run);
  assert.equal(await page.inputValue('[data-testid=input-project]'), '/home/erin/app');
}

/** The test id of the first element with a height below the header. */
function firstBelowHeader(page) {
  return page.evaluate(() => {
    const header = document.querySelector('header.topbar');
    let at = header?.nextElementSibling;
    while (at && at.getBoundingClientRect().height === 0) at = at.nextElementSibling;
    return at?.dataset.testid ?? at?.className;
  });
}

/**
 * Whether a link landed: focus is on the file view's heading, and what it opened shows in
 * the window (the line it asked for, marked `focus`, else the heading).
 */
function landed(page) {
  return page.evaluate(() => {
    const view = document.querySelector('[data-testid=file-view]');
    const title = view?.querySelector('[data-testid=file-title]');
    if (!title) return { ok: false, why: 'no heading' };
    const target = view.querySelector('.line.focus') ?? title;
    const box = target.getBoundingClientRect();
    const inView = box.top >= 0 && box.bottom <= window.innerHeight;
    const focused = document.activeElement === title;
    return { ok: inView && focused, inView, focused, line: target.dataset.line, top: box.top, height: window.innerHeight };
  });
}

/** Checks the verdict and clicks each of its links, as at this viewport. */
async function checkVerdict(page, name) {
  assert.equal(await firstBelowHeader(page), 'verdict', 'the verdict is the first thing below the header');
  const lines = page.locator('[data-testid=verdict-line]');
  const first = lines.first();
  assert.equal(await first.getAttribute('data-code'), 'memory-index-truncated');
  assert.match(await first.textContent(), /MEMORY\.md loses 30 of its 230 lines \(from line 201\)/);
  // The cut index is what the file view opens on.
  const view = page.locator('[data-testid=file-view]');
  assert.match(await view.getAttribute('data-path'), /\/memory\/MEMORY\.md$/);
  const codes = await lines.evaluateAll((l) => l.map((e) => e.dataset.code));
  assert.ok(codes.includes('unresolved-reference'), codes.join(', '));
  assert.ok(codes.includes('memory-topic-orphan'), codes.join(', '));
  await shot(page, `verdict-${name}`);

  const links = page.locator('[data-testid=verdict-link]');
  const count = await links.count();
  assert.ok(count >= 3, `${count} links`);
  for (let i = 0; i < count; i++) {
    await page.evaluate(() => window.scrollTo(0, 0));
    const link = links.nth(i);
    const target = await link.getAttribute('data-path');
    await link.click();
    await page.waitForSelector(`[data-testid=file-view][data-path="${target}"]`);
    await page.waitForFunction(() => document.activeElement?.dataset.testid === 'file-title');
    const where = await landed(page);
    assert.ok(where.ok, `link ${i} (${target}) lands: ${JSON.stringify(where)}`);
    if (i === 0) await shot(page, `verdict-${name}-landed`);
  }

  // "Largest parts" and the tree land the same way.
  await page.evaluate(() => window.scrollTo(0, 0));
  const part = page.locator('[data-testid=contributor] button').first();
  await part.click();
  await page.waitForFunction(() => document.activeElement?.dataset.testid === 'file-title');
  assert.ok((await landed(page)).ok, 'a largest part lands');
}

for (const [name, viewport] of [['desktop', { width: 1280, height: 800 }], ['phone', { width: 390, height: 844 }]]) {
  test(`the verdict opens the page and each of its links lands (${name}, folders)`, async () => {
    for (const colorScheme of ['light', 'dark']) {
      const { page, foreign, errors } = await openWatchedPage(context, baseUrl, `${baseUrl}?empty`, { viewport, colorScheme });
      await addSetup(page);
      await checkVerdict(page, `${name}-${colorScheme}`);
      assert.deepEqual(errors, []);
      assert.deepEqual(foreign, []);
      await page.close();
    }
  });
}

test('the same verdict from a zip of the ~/.claude', async () => {
  const zip = path.join(scratch, 'claude.zip');
  zipFolder(claude, '.claude', zip);
  const { page, foreign, errors } = await openWatchedPage(context, baseUrl, `${baseUrl}?empty`, { viewport: { width: 1280, height: 800 } });
  await addSetup(page, { zip });
  await checkVerdict(page, 'zip');
  assert.deepEqual(errors, []);
  assert.deepEqual(foreign, []);
  await page.close();
});

test('"Largest parts" is numbered from 1 when the project folder was added first', async () => {
  const { page, errors } = await openWatchedPage(context, baseUrl, `${baseUrl}?empty`, { viewport: { width: 1280, height: 800 } });
  let run = await currentRun(page);
  await page.setInputFiles('[data-testid=folder-input]', project);
  await settled(page, run);
  run = await currentRun(page);
  await page.setInputFiles('[data-testid=folder-input]', claude);
  await ready(page, run);
  const list = page.locator('[data-testid=contributors] ol');
  assert.equal(await list.evaluate((ol) => ol.start), 1);
  // The first item is the list's first: nothing hidden before it takes number 1.
  assert.equal(await list.evaluate((ol) => ol.firstElementChild?.dataset.testid), 'contributor');
  await list.scrollIntoViewIfNeeded();
  await shot(page, 'verdict-project-first');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the newcomer\'s stumbles of issue 33 stay fixed', async () => {
  const viewport = { width: 1280, height: 800 };
  const { page, errors } = await openWatchedPage(context, baseUrl, `${baseUrl}?empty`, { viewport });
  // 1. A project set without its folder: the page says the folder is not added.
  let run = await currentRun(page);
  await page.setInputFiles('[data-testid=folder-input]', claude);
  await settled(page, run);
  run = await currentRun(page);
  await page.fill('[data-testid=input-project]', '/home/erin/app');
  await page.press('[data-testid=input-project]', 'Enter');
  await ready(page, run);
  assert.match(await page.textContent('[data-testid=project-missing]'), /project folder is not added.*left out/s);
  await shot(page, 'verdict-fix1-project-missing');

  run = await currentRun(page);
  await page.setInputFiles('[data-testid=folder-input]', project);
  await ready(page, run);
  assert.equal(await page.locator('[data-testid=project-missing]').count(), 0);

  // 4. One word for the unit, and cards that say what they count.
  assert.match(await page.textContent('[data-testid=card-chars]'), /Characters of your text/);
  assert.match(await page.textContent('[data-testid=card-always]'), /always or at startup/);
  assert.match(await page.textContent('[data-testid=contributors]'), /\d characters/);
  assert.doesNotMatch(await page.textContent('[data-testid=contributors]'), /\bunits\b/);
  // 6. Download JSON says what it holds.
  assert.match(await page.textContent('[data-testid=download]'), /your names & text/);

  // 5. A release the core cannot simulate stays typed, marked, and the report's release is named.
  await page.fill('[data-testid=input-version]', '2.1.20');
  await page.press('[data-testid=input-version]', 'Enter');
  await page.waitForSelector('[data-testid=version-error]');
  assert.equal(await page.inputValue('[data-testid=input-version]'), '2.1.20');
  assert.equal(await page.getAttribute('[data-testid=input-version]', 'aria-invalid'), 'true');
  assert.match(await page.textContent('[data-testid=version-error]'), /still simulates 2\.1\.\d+, the pinned release/);
  await page.fill('[data-testid=input-version]', '');
  await page.press('[data-testid=input-version]', 'Enter');

  // 10. The Reads view fills the path field with the file picked.
  await page.click('[data-testid=view-reads]');
  const file = page.locator('[data-testid=read-file]').first();
  const picked = await file.getAttribute('data-path');
  run = await currentRun(page);
  await file.click();
  await ready(page, run);
  assert.equal(await page.inputValue('[data-testid=reads-path]'), picked);
  await page.click('[data-testid=view-file]');

  // 10. The Share dialog fits an 800-pixel-high window.
  await page.click('[data-testid=share]');
  await page.waitForSelector('[data-testid=share-dialog][data-ready=true]');
  const box = await page.locator('[data-testid=share-dialog]').boundingBox();
  assert.ok(box.y >= 0 && box.y + box.height <= viewport.height, JSON.stringify(box));
  // Nothing of it, its Close button included, is below its own fold.
  const fold = await page.locator('[data-testid=share-dialog]').evaluate((d) => [d.scrollHeight, d.clientHeight]);
  assert.ok(fold[0] <= fold[1] + 1, `the dialog scrolls: ${fold}`);
  await shot(page, 'verdict-fix10-share');
  // 6. The second choice: the sanitized report, which holds no name of the person's.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.click('[data-testid=share-download-report]'),
  ]);
  assert.equal(download.suggestedFilename(), 'memdiag-report-sanitized.json');
  const sanitized = fs.readFileSync(await download.path(), 'utf8');
  assert.equal(JSON.parse(sanitized).schema.startsWith('memdiag-report/'), true);
  assert.doesNotMatch(sanitized, /erin|Answer briefly/);
  await page.keyboard.press('Escape');

  // 9. "Try the demo" over your own report asks first; Cancel keeps the report.
  page.once('dialog', (dialog) => dialog.dismiss());
  await page.click('[data-testid=try-demo]');
  assert.equal(await page.locator('[data-testid=demo-banner]').count(), 0);
  assert.match(await page.getAttribute('[data-testid=file-view]', 'data-path') ?? '', /erin/);
  run = await currentRun(page);
  page.once('dialog', (dialog) => dialog.accept());
  await page.click('[data-testid=try-demo]');
  await ready(page, run);
  // 4. The demo's figures are sample text.
  assert.match(await page.textContent('[data-testid=card-chars]'), /sample text/);
  assert.deepEqual(errors, []);
  await page.close();
});

// 2. A project copied under another name (shop-copy, cloned from shop; its memory folder is
// from before, under the old name and an old disk's path): the first reason of the Health
// view says which folder Claude Code uses and why, and offers the folders that may be its
// memory, most likely first, with why each may be.
test('a project under another name is offered the memory folders that may be its own', async () => {
  const base = path.join(scratch, 'moved');
  const claudeDir = path.join(base, '.claude');
  // Cloned from `shop`: its memory is under the old name. (A folder ending with shop-copy
  // itself would be taken by the page's guess of where the project lives; the core's test
  // `a_project_under_another_name_is_offered_its_old_memory_folders` covers that kind.)
  const old = path.join(claudeDir, 'projects', '-Users-erin-src-shop', 'memory');
  const projectDir = path.join(base, 'shop-copy');
  for (const dir of [old, path.join(projectDir, '.git')]) fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(claudeDir, 'CLAUDE.md'), '# Erin\n');
  fs.writeFileSync(path.join(old, 'MEMORY.md'), '- [Deploy](deploy.md) how we deploy\n');
  fs.writeFileSync(path.join(old, 'deploy.md'), '---\nname: deploy\ntype: project\n---\nmake deploy\n');
  fs.writeFileSync(path.join(projectDir, 'CLAUDE.md'), '# Shop\n');
  fs.writeFileSync(path.join(projectDir, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  fs.writeFileSync(path.join(projectDir, '.git', 'config'), '[core]\n\tbare = false\n[remote "origin"]\n\turl = git@github.com:erin/shop.git\n');

  for (const [name, viewport] of [['desktop', { width: 1280, height: 800 }], ['phone', { width: 390, height: 844 }]]) {
    const { page, errors } = await openWatchedPage(context, baseUrl, `${baseUrl}?empty`, { viewport });
    let run = await currentRun(page);
    await page.setInputFiles('[data-testid=folder-input]', claudeDir);
    await settled(page, run);
    run = await currentRun(page);
    await page.setInputFiles('[data-testid=folder-input]', projectDir);
    await ready(page, run);
    const project = await page.inputValue('[data-testid=input-project]');
    assert.match(project, /\/shop-copy$/);
    assert.match(await page.textContent('[data-testid=summary]'), /no auto memory folder for this project/);
    await page.click('[data-testid=view-health]');
    const reason = page.locator('[data-testid=reason][data-reason=different-folder]');
    assert.equal(await reason.getAttribute('data-ok'), 'false');
    const summary = await reason.locator('[data-testid=reason-summary]').textContent();
    assert.match(summary, /Claude Code uses \S+\/projects\/-[^ ]*shop-copy\/memory \(the project's path, encoded\), which is not in this snapshot/);
    assert.match(summary, /One folder of projects\/ may hold this project's memory from before a move, a rename or a copy under another name/);
    assert.ok(summary.includes("-Users-erin-src-shop: ends with shop, the repository of this project's git remote (git@github.com:erin/shop.git), 2 files"), summary);
    assert.match(await reason.locator('[data-testid=reason-note]').textContent(), /rename that folder of projects\//);
    await reason.scrollIntoViewIfNeeded();
    await shot(page, `verdict-fix2-memory-candidates-${name}`);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

// Issue 31 on the page: plugins as a group with their source, hooks and MCP servers listed
// with where they are set and when they run, "not counted" said plainly; a folder added as
// an extra directory (--add-dir) loads its skills; the Commands swatch has a colour.
test('plugins, hooks and MCP servers are listed, and a folder loads as an extra directory', async () => {
  const base = path.join(scratch, 'plugins');
  const from = path.join(root, 'fixtures', 'conformance', 'plugins-installed-enabled-listed', 'tree', 'home', 'u');
  fs.cpSync(from, path.join(base, 'u'), { recursive: true });
  const claudeDir = path.join(base, 'u', '.claude');
  for (const file of ['installed_plugins.json', 'known_marketplaces.json']) {
    const at = path.join(claudeDir, 'plugins', file);
    fs.writeFileSync(at, fs.readFileSync(at, 'utf8').replaceAll('/tmp/memdiag-conformance/plugins-installed-enabled-listed', ''));
  }
  const settings = JSON.parse(fs.readFileSync(path.join(claudeDir, 'settings.json'), 'utf8'));
  settings.hooks = { SessionStart: [{ hooks: [{ type: 'command', command: 'node ~/hooks/greet.js' }] }] };
  fs.writeFileSync(path.join(claudeDir, 'settings.json'), JSON.stringify(settings, null, 2));
  const projectDir = path.join(base, 'u', 'proj');
  fs.writeFileSync(path.join(projectDir, '.mcp.json'), JSON.stringify({ mcpServers: { db: { command: 'dbserver', args: ['--port', '1'] } } }));
  // The extra directory is a folder the page holds (here inside the project: a second
  // project folder dropped replaces the first); its skill is listed in every session once
  // the field names it, as `claude --add-dir` lists it.
  const lib = path.join(projectDir, 'tools');
  fs.mkdirSync(path.join(lib, '.claude', 'skills', 'libskill'), { recursive: true });
  fs.writeFileSync(path.join(lib, '.claude', 'skills', 'libskill', 'SKILL.md'), '---\nname: libskill\ndescription: a skill of the extra directory\n---\nBody.\n');

  for (const [name, viewport] of [['desktop', { width: 1280, height: 800 }], ['phone', { width: 390, height: 844 }]]) {
    const { page, errors } = await openWatchedPage(context, baseUrl, `${baseUrl}?empty`, { viewport });
    const setFields = async () => {
      for (const [field, value] of [['home', '/home/u'], ['project', '/home/u/proj']]) {
        if (await page.inputValue(`[data-testid=input-${field}]`) !== value) {
          const run = await currentRun(page);
          await page.fill(`[data-testid=input-${field}]`, value);
          await page.press(`[data-testid=input-${field}]`, 'Enter');
          await ready(page, run);
        }
      }
    };
    for (const folder of [claudeDir, projectDir]) {
      const run = await currentRun(page);
      await page.setInputFiles('[data-testid=folder-input]', folder);
      await settled(page, run);
    }
    await setFields();
    const configured = page.locator('[data-testid=configured]');
    const items = await configured.locator('[data-testid=configured-item]').allTextContents();
    const has = (re) => assert.ok(items.some((i) => re.test(i)), `${re} in ${items.join(' | ')}`);
    has(/^plugin alpha: from mkt, read in \/home\/u\/\.claude\/plugins\/cache\/mkt\/alpha\/1\.0\.0$/);
    has(/^plugin beta \(not enabled\): from mkt/);
    has(/^SessionStart hook runs node: at startup, its output in the first request; set in \/home\/u\/\.claude\/settings\.json \(user\)$/);
    has(/^MCP server db runs dbserver: .*; set in \/home\/u\/proj\/\.mcp\.json \(project\)$/);
    assert.match(await page.textContent('[data-testid=later]'), /hooks and MCP servers \(not counted\).*every figure on this page leaves it out/s);
    // The Commands swatch is coloured.
    const swatch = await page.locator('.swatch.g-commands').first().evaluate((e) => getComputedStyle(e).backgroundColor);
    assert.notEqual(swatch, 'rgba(0, 0, 0, 0)');
    // The extra directory: its skill joins the listing every session carries.
    const before = Number(await page.getAttribute('[data-testid=card-chars]', 'data-value'));
    const run = await currentRun(page);
    await page.fill('[data-testid=input-add-dirs]', '/home/u/proj/tools');
    await page.press('[data-testid=input-add-dirs]', 'Enter');
    await ready(page, run);
    const after = Number(await page.getAttribute('[data-testid=card-chars]', 'data-value'));
    assert.equal(after - before, 40, `${before} → ${after}`);
    await page.locator('[data-testid=later]').scrollIntoViewIfNeeded();
    await shot(page, `verdict-issue31-configured-${name}`);
    await page.locator('[data-testid=footprint]').scrollIntoViewIfNeeded();
    await shot(page, `verdict-issue31-footprint-${name}`);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('on a phone nothing scrolls inside the page, the status line wraps, and touch hides the keys', async () => {
  const browser = await launchBrowser();
  try {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const { page, errors } = await openWatchedPage(phone, baseUrl, `${baseUrl}?empty`, { viewport: { width: 390, height: 844 } });
    await addSetup(page);
    // No box of a fixed height: each is as tall as what it holds, so none scrolls inside.
    const boxes = await page.evaluate(() => ['.tree-column', '.tree', '.file-view'].map((sel) => {
      const e = document.querySelector(sel);
      return `${sel} ${getComputedStyle(e).maxHeight} ${e.scrollHeight <= e.clientHeight + 1}`;
    }));
    assert.deepEqual(boxes, ['.tree-column none true', '.tree none true', '.file-view none true']);
    assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector('.statusbar')).whiteSpace), 'normal');
    assert.equal(await page.locator('.keys-hint').first().isVisible(), false);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

test('after one visit the page works with the network off', async () => {
  const { page, errors } = await openWatchedPage(context, baseUrl, `${baseUrl}?demo`, { viewport: { width: 1280, height: 800 } });
  await ready(page);
  // The service worker has kept the page's files once it is active.
  await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return registration.active?.state;
  });
  const kept = await page.evaluate(async () => (await (await caches.open('memdiag-page')).keys()).map((r) => new URL(r.url).pathname));
  assert.ok(kept.some((p) => p.endsWith('/memdiag-engine_bg.wasm')), kept.join(', '));
  assert.ok(kept.some((p) => p.includes('/snippets/')), kept.join(', '));
  assert.deepEqual(errors, []);
  await page.close();

  // Offline twice over: the browser's network is cut, and the server is gone.
  await context.setOffline(true);
  if (server) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    server = undefined;
  }
  try {
    const offline = await openWatchedPage(context, baseUrl, `${baseUrl}?demo`, { viewport: { width: 1280, height: 800 } });
    await ready(offline.page);
    assert.equal(await offline.page.locator('[data-testid=verdict]').count(), 1);
    // A folder opened offline is analysed as well: nothing needs the network.
    await addSetup(offline.page);
    assert.match(await offline.page.locator('[data-testid=verdict-line]').first().textContent(), /loses 30 of its 230 lines/);
    await shot(offline.page, 'verdict-offline');
    assert.deepEqual(offline.errors, []);
    await offline.page.close();
  } finally {
    await context.setOffline(false);
  }
});

test('the web app manifest names the app and points at its own files', () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(dist, 'manifest.webmanifest'), 'utf8'));
  assert.equal(manifest.start_url, './');
  assert.equal(manifest.display, 'standalone');
  for (const icon of manifest.icons) assert.ok(fs.existsSync(path.join(dist, icon.src)), icon.src);
});
