// End-to-end test of the built page (dist/) under the headers its host sends (issue 30), in
// headless Chromium. The test server applies dist/_headers to every file, as Netlify and
// Cloudflare Pages do (support.mjs `serve`), so every e2e test runs under them; this one
// checks what only the headers can do:
// - the worker is under the page's policy: its script comes with the CSP header, and a
//   fetch from inside it to another origin never leaves (a second server that answers any
//   origin sees no request);
// - another origin cannot frame the page (`frame-ancestors 'none'`); and where a host sends
//   no header, the framed page opens no folder in place and says to open it in its own tab;
// - a crafted share link of 19,950 size-only rules in one folder (under the 20,000-file cap)
//   settles in under a second of the main thread's long tasks: the tree draws a batch of
//   rows and a button for the rest, and a file of the folded part can still be selected.
//
// Run by scripts/test.sh; by hand (after `trunk build --release`):
//   node --test tests/e2e/headers.test.mjs

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import {
  dist, serve, serveDist, launchWithProfile, openWatchedPage, ready, shot,
} from './support.mjs';

let server;
let baseUrl;
let context;
let scratch;
/** Another origin: answers every request (CORS open to all) and records it. */
let other;
let otherUrl;
const otherRequests = [];
/** The page served without its headers, as a host that sends none would. */
let bare;
let bareUrl;

before(async () => {
  assert.ok(fs.existsSync(path.join(dist, '_headers')), `no _headers in ${dist}: run trunk build --release first`);
  ({ baseUrl, server } = await serveDist());
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'memdiag-headers-'));
  // The page without _headers: a copy of dist/ without the file.
  const bareDir = path.join(scratch, 'bare');
  fs.cpSync(dist, bareDir, { recursive: true });
  fs.rmSync(path.join(bareDir, '_headers'));
  bare = await serve(bareDir);
  bareUrl = `http://127.0.0.1:${bare.address().port}/`;
  other = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    otherRequests.push(req.url);
    if (url.pathname === '/frame.html') {
      // A page of another origin that frames the one named in `?src=`.
      const src = url.searchParams.get('src');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!DOCTYPE html><title>framing</title><iframe id="f" src="${src}" width="1000" height="700"></iframe>`);
      return;
    }
    res.writeHead(200, { 'access-control-allow-origin': '*', 'content-type': 'text/plain' });
    res.end('reached');
  });
  await new Promise((resolve) => other.listen(0, '127.0.0.1', resolve));
  otherUrl = `http://127.0.0.1:${other.address().port}/`;
  context = await launchWithProfile(path.join(scratch, 'profile'));
});

after(async () => {
  await context?.close();
  server?.close();
  bare?.close();
  other?.close();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

/** The response headers of `url` (a GET from Node, outside any browser policy). */
function headersOf(url) {
  return new Promise((resolve, reject) => {
    http.get(url, (res) => { res.resume(); resolve(res.headers); }).on('error', reject);
  });
}

test('every file, the worker included, comes with the policy, and the worker cannot reach another origin', async () => {
  for (const file of ['', 'index.html', 'worker.js', 'memdiag-engine.js', 'memdiag-engine_bg.wasm', 'loader.js']) {
    const headers = await headersOf(`${baseUrl}${file}`);
    const policy = headers['content-security-policy'] ?? '';
    assert.match(policy, /default-src 'none'/, `${file || '/'}: ${policy}`);
    assert.match(policy, /connect-src 'self'/, `${file || '/'}`);
    assert.match(policy, /frame-ancestors 'none'/, `${file || '/'}`);
    assert.equal(headers['x-frame-options'], 'DENY', `${file || '/'}`);
  }
  // The other origin answers a request that no policy governs.
  const control = await new Promise((resolve, reject) => {
    http.get(`${otherUrl}control`, (res) => {
      let body = '';
      res.on('data', (c) => { body += c; });
      res.on('end', () => resolve(body));
    }).on('error', reject);
  });
  assert.equal(control, 'reached');
  otherRequests.length = 0;

  const { page, foreign } = await openWatchedPage(context, baseUrl, `${baseUrl}?demo`);
  await ready(page);
  assert.equal(page.workers().length, 1, 'the analysis runs in one worker');
  const worker = page.workers()[0];
  // From inside the worker: a fetch of the other origin, and the violation, if reported.
  const seen = await worker.evaluate(async (target) => {
    const violations = [];
    self.addEventListener('securitypolicyviolation', (e) => violations.push(e.effectiveDirective || e.violatedDirective));
    let result;
    try {
      const res = await fetch(target, { cache: 'no-store' });
      result = `fetched: ${await res.text()}`;
    } catch (error) {
      result = `refused: ${error && error.message}`;
    }
    await new Promise((r) => setTimeout(r, 100));
    return { result, violations };
  }, `${otherUrl}from-worker`);
  assert.match(seen.result, /^refused/, JSON.stringify(seen));
  assert.deepEqual(otherRequests, [], 'the other origin saw no request from the worker');
  if (seen.violations.length) assert.ok(seen.violations.every((d) => d.startsWith('connect-src')), JSON.stringify(seen));
  // The page itself is refused the same way (its <meta> policy and the header agree).
  const fromPage = await page.evaluate(async (target) => {
    try { await fetch(target); return 'fetched'; } catch { return 'refused'; }
  }, `${otherUrl}from-page`);
  assert.equal(fromPage, 'refused');
  assert.deepEqual(otherRequests, []);
  // Only the test's own attempts went elsewhere; the watcher counts the worker's too.
  assert.deepEqual(foreign.filter((u) => !u.startsWith(otherUrl)), []);
  await page.close();
});

/** The page of the other origin that frames `src`, and the frame once it loaded. */
async function framing(src) {
  const page = await context.newPage();
  const console = [];
  page.on('console', (m) => console.push(m.text()));
  await page.goto(`${otherUrl}frame.html?src=${encodeURIComponent(src)}`);
  const handle = await page.waitForSelector('#f');
  const frame = await handle.contentFrame();
  return { page, frame, console };
}

test('another origin cannot frame the page', async () => {
  const { page, frame, console } = await framing(`${baseUrl}?demo`);
  // Give a page that could start the time it needs, then check that none did.
  await page.waitForTimeout(3000);
  const mounted = frame ? await frame.$('[data-testid=app]').catch(() => null) : null;
  assert.equal(mounted, null, 'the page did not start inside the frame');
  await shot(page, 'headers-01-framed-refused');
  // Chromium says why in the framing page's console.
  assert.ok(console.some((m) => /frame-ancestors|X-Frame-Options/.test(m)), JSON.stringify(console));
  await page.close();
});

test('framed where the host sends no headers, the page opens no folder in place', async () => {
  const { page, frame } = await framing(`${bareUrl}?demo`);
  assert.ok(frame, 'the frame is there');
  await frame.waitForSelector('[data-testid=app][data-ready=true]', { timeout: 60_000 });
  const title = await frame.getAttribute('[data-testid=choose-folder]', 'title');
  assert.match(title, /open this page in its own tab to open folders in place/);
  // The same page in its own tab offers the folder in place (Chromium has the picker).
  const own = await context.newPage();
  await own.goto(`${bareUrl}?demo`);
  await own.waitForSelector('[data-testid=app][data-ready=true]', { timeout: 60_000 });
  assert.doesNotMatch(await own.getAttribute('[data-testid=choose-folder]', 'title'), /own tab/);
  await shot(page, 'headers-02-framed-without-headers');
  await own.close();
  await page.close();
});

/**
 * A share link (format 1: `1.` and the base64url of the raw-deflated JSON payload, see
 * core/src/share.rs) of a project with `count` size-only files in one rules folder.
 */
function manyRulesLink(count) {
  const home = '/home/ahaaa';
  const project = `${home}/work/shop`;
  const files = [{ path: `${project}/CLAUDE.md`, text: '# Shop\n' }];
  for (let i = 0; i < count; i++) {
    files.push({ path: `${project}/.claude/rules/r${String(i).padStart(5, '0')}.md`, size: 100 });
  }
  const payload = {
    format: 1, made: '2026-12-01T12:00:00Z', home, project, config_dir: null, os: 'linux',
    version: null, today: null, mounts: [`${home}/.claude`, project], dirs: [], files, findings: [],
  };
  const deflated = zlib.deflateRawSync(Buffer.from(JSON.stringify(payload)), { level: 9 });
  return `1.${deflated.toString('base64url')}`;
}

test('a shared link of 19,950 rules in one folder settles in under a second of the main thread', async () => {
  const count = 19_950;
  const link = manyRulesLink(count);
  const page = await context.newPage();
  await page.setViewportSize({ width: 1440, height: 900 });
  // Long tasks (50 ms and more) of the main thread, from the start of the document.
  await page.addInitScript(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${baseUrl}#s=${link}`);
  await ready(page);
  // Let whatever the report's arrival set off finish, and the observer report it.
  await page.waitForTimeout(500);
  const { tasks, readyAt } = await page.evaluate(() => ({
    tasks: window.__longTasks, readyAt: performance.now(),
  }));
  const total = tasks.reduce((sum, t) => sum + t.duration, 0);
  const longest = tasks.reduce((max, t) => Math.max(max, t.duration), 0);
  console.log(`19,950 rules: ${tasks.length} long tasks, ${Math.round(total)} ms in all, the longest ${Math.round(longest)} ms (${Math.round(readyAt)} ms after navigation)`);
  await shot(page, 'headers-03-many-rules');
  assert.ok(total < 1000, `long tasks took ${Math.round(total)} ms of the main thread`);

  // The header counts every rule; the tree draws a batch and says how many are folded.
  assert.equal(await page.getAttribute('[data-testid=group-rules]', 'data-count'), String(count));
  const rows = () => page.locator('[data-testid=tree-row][data-path*="/.claude/rules/"]').count();
  const drawn = await rows();
  assert.ok(drawn > 0 && drawn <= 201, `${drawn} rule rows drawn`);
  const more = page.locator('button[data-testid=tree-more][data-group=Rules]');
  assert.equal(await more.getAttribute('data-folded'), String(count - drawn));
  // The button works from the keyboard.
  await more.focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=tree-row][data-path*="/.claude/rules/"]').length > n, drawn);
  assert.ok(await rows() <= 2 * drawn + 1);
  // A file deep in the folded part is reachable: the filter finds it, and selected, it shows.
  const last = `r${String(count - 1).padStart(5, '0')}.md`;
  await page.fill('[data-testid=tree-filter]', last);
  const row = page.locator(`[data-testid=tree-row][data-path$="/${last}"]`);
  await row.click();
  await page.fill('[data-testid=tree-filter]', '');
  await page.waitForSelector(`[data-testid=tree-row][data-path$="/${last}"][aria-selected=true]`);
  assert.deepEqual(errors, []);
  await page.close();
});
