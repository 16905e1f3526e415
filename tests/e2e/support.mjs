// What the end-to-end tests (tests/e2e/*.test.mjs) and the page benchmark (bench.mjs) share:
// where things are, a static server for dist/, Chromium with the flags every run needs, pages
// that record foreign requests and errors, waiting for a settled run, a pure-JS zip writer and
// the native scan command.
//
// Not a test file: `node --test tests/e2e/` (Node 20) runs only files whose name is `test`,
// starts with `test-` or ends in `.test`, `-test` or `_test` (or any file under a folder named
// `test`), so neither this file nor bench.mjs is run as a test. Keep it that way when naming
// new helpers.

import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

/** tests/e2e/ */
export const here = path.dirname(fileURLToPath(import.meta.url));
/** The repository root. */
export const root = path.resolve(here, '..', '..');
/** playwright-core's browser type for Chromium (the package comes from .tools/). */
export const { chromium } = require(
  process.env.MEMDIAG_PLAYWRIGHT ?? path.join(root, '.tools', 'node_modules', 'playwright-core'),
);
/** The built page. */
export const dist = process.env.MEMDIAG_DIST ?? path.join(root, 'dist');
/** Where screenshots and other outputs go (gitignored). */
export const artifacts = process.env.MEMDIAG_E2E_ARTIFACTS ?? path.join(here, 'artifacts');
/** Debian's Chromium; never a downloaded browser. */
export const chromiumPath = process.env.MEMDIAG_CHROMIUM ?? '/usr/bin/chromium';
/** The flags every Chromium run gets: headless, no sandbox (root), no background traffic. */
export const chromiumArgs = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  // Extra flags for an experiment by hand (bench.mjs), e.g. `--js-flags=--no-wasm-dynamic-tiering`.
  ...(process.env.MEMDIAG_CHROMIUM_FLAGS ?? '').split(' ').filter(Boolean),
];

/** The `_headers` reader the local servers share (scripts/headers.cjs). */
export const { readHeaders, headersFor } = require(path.join(root, 'scripts', 'headers.cjs'));

/**
 * Serves `dir` on a free port of 127.0.0.1, with the headers its `_headers` file lists for
 * each path (as Netlify and Cloudflare Pages do), so that the tests run under the page's real
 * header policy: the CSP that reaches the worker, and no framing.
 */
export function serve(dir) {
  const types = {
    '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
    '.wasm': 'application/wasm', '.css': 'text/css; charset=utf-8', '.json': 'application/json',
    '.svg': 'image/svg+xml', '.webmanifest': 'application/manifest+json',
  };
  const base = path.resolve(dir);
  const rules = readHeaders(base);
  const srv = http.createServer((req, res) => {
    let rel;
    try { rel = decodeURIComponent(new URL(req.url, 'http://x').pathname); } catch { rel = '/'; }
    let file = path.join(base, rel);
    if (file !== base && !file.startsWith(base + path.sep)) { res.writeHead(403).end(); return; }
    try { if (fs.statSync(file).isDirectory()) file = path.join(file, 'index.html'); } catch {}
    const headers = headersFor(rules, rel);
    fs.readFile(file, (err, body) => {
      if (err) { res.writeHead(404, headers).end('not found'); return; }
      res.writeHead(200, { ...headers, 'content-type': types[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
      res.end(body);
    });
  });
  return new Promise((resolve) => srv.listen(0, '127.0.0.1', () => resolve(srv)));
}

/**
 * The page's base URL (ending in `/`): MEMDIAG_BASE_URL when something else serves the page,
 * otherwise dist/ served here. `server` is the server started here, if any, to close after.
 */
export async function serveDist() {
  if (process.env.MEMDIAG_BASE_URL) {
    return { baseUrl: process.env.MEMDIAG_BASE_URL.replace(/\/?$/, '/'), server: undefined };
  }
  const server = await serve(dist);
  return { baseUrl: `http://127.0.0.1:${server.address().port}/`, server };
}

/**
 * Chromium with an explicit profile folder (a persistent context is how Playwright takes
 * one): pass a fresh folder, and remove it afterwards.
 */
export function launchWithProfile(profileDir, options = {}) {
  return chromium.launchPersistentContext(profileDir, {
    executablePath: chromiumPath, headless: true, acceptDownloads: true, args: chromiumArgs, ...options,
  });
}

/** Chromium without a profile of its own, for pages in fresh contexts (`browser.newContext`). */
export function launchBrowser(options = {}) {
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs, ...options });
}

/** Watches a page for requests outside the origin of `baseUrl` and for errors. */
export function watch(page, baseUrl) {
  const origin = new URL(baseUrl).origin;
  const foreign = [];
  const errors = [];
  page.on('request', (req) => {
    const url = req.url();
    if (!(url.startsWith(origin + '/') || url.startsWith(`blob:${origin}/`) || url.startsWith('data:'))) foreign.push(url);
  });
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  return { foreign, errors };
}

/**
 * A new page of `context` at `url` (of the page served at `baseUrl`), watched, once the app
 * has mounted: `{ page, foreign, errors }`.
 */
export async function openWatchedPage(context, baseUrl, url, { colorScheme = 'light', viewport = { width: 1440, height: 900 } } = {}) {
  const page = await context.newPage();
  await page.setViewportSize(viewport);
  await page.emulateMedia({ colorScheme });
  const watched = watch(page, baseUrl);
  await page.goto(url);
  await page.waitForSelector('[data-testid=app]');
  return { page, ...watched };
}

/** The number of the page's latest run (`data-run` of the app). */
export async function currentRun(page) {
  return Number(await page.getAttribute('[data-testid=app]', 'data-run'));
}

/** Waits until a run newer than `after` has finished (with a report or with an error). */
export async function settled(page, after = -1) {
  await page.waitForFunction(
    (prev) => {
      const app = document.querySelector('[data-testid=app]');
      return app && Number(app.dataset.run) > prev && app.dataset.busy === 'false';
    },
    after,
    { timeout: 60_000 },
  );
}

/** Waits until a run newer than `after` has finished with a report. */
export async function ready(page, after = -1) {
  await page.waitForFunction(
    (prev) => {
      const app = document.querySelector('[data-testid=app]');
      return app && Number(app.dataset.run) > prev && app.dataset.ready === 'true';
    },
    after,
    { timeout: 60_000 },
  );
}

/** Saves a screenshot of the viewport as artifacts/<name>.png. */
export async function shot(page, name) {
  await page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: false });
}

/** Runs the native command (`memdiag`, core/src/bin/memdiag/) on a snapshot and returns its JSON report. */
export function scan(args) {
  // MEMDIAG_BIN names a built `memdiag` to run instead of `cargo run` (which waits for the
  // build directory's lock while another build holds it).
  const [command, prefix] = process.env.MEMDIAG_BIN
    ? [process.env.MEMDIAG_BIN, []]
    : ['cargo', ['run', '-q', '--release', '-p', 'memdiag-core', '--features', 'cli', '--bin', 'memdiag', '--']];
  const out = execFileSync(
    command,
    [...prefix, '--format', 'json', ...args],
    {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'inherit'],
      // A dropped folder tells the page no listing order, so its rules come by name (with a
      // rule-order-unknown finding); the command is told to forget read_dir's order alike.
      env: { ...process.env, MEMDIAG_LISTING_BY_NAME: '1' },
    },
  );
  return JSON.parse(out);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** The CRC-32 of `bytes`, as zip stores it. */
export function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * Writes a zip (stored, no compression) of `dir`, every entry under `prefix/`; returns how
 * many files it holds. Past 65,535 entries it writes the zip64 end records; it refuses 4 GB and
 * more (no zip64 offsets). `keep(rel)`, when given, says which files go in.
 */
export function zipFolder(dir, prefix, target, keep = () => true) {
  const files = [];
  const walk = (abs, rel) => {
    for (const entry of fs.readdirSync(abs, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const a = path.join(abs, entry.name);
      const r = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(a, r);
      else if (entry.isFile() && keep(r)) files.push([`${prefix}/${r}`, fs.readFileSync(a)]);
    }
  };
  walk(dir, '');
  const chunks = [];
  const central = [];
  let offset = 0;
  for (const [name, data] of files) {
    const nameBytes = Buffer.from(name, 'utf8');
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(0, 8); // stored
    local.writeUInt16LE(0, 10);
    local.writeUInt16LE(0x21, 12); // 1980-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    local.writeUInt16LE(0, 28);
    chunks.push(local, nameBytes, data);
    const head = Buffer.alloc(46);
    head.writeUInt32LE(0x02014b50, 0);
    head.writeUInt16LE(20, 4);
    head.writeUInt16LE(20, 6);
    head.writeUInt16LE(0x0800, 8);
    head.writeUInt16LE(0, 10);
    head.writeUInt16LE(0, 12);
    head.writeUInt16LE(0x21, 14);
    head.writeUInt32LE(crc, 16);
    head.writeUInt32LE(data.length, 20);
    head.writeUInt32LE(data.length, 24);
    head.writeUInt16LE(nameBytes.length, 28);
    head.writeUInt32LE(offset, 42);
    central.push(head, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const centralBytes = Buffer.concat(central);
  // Past 65,535 entries the end record's counts do not fit: a zip64 end record and its
  // locator carry them, and the end record says so with 0xFFFF (the offsets still fit in
  // 32 bits here: the writer refuses archives of 4 GB and more).
  if (offset + centralBytes.length >= 0xFFFFFFFF) throw new Error(`${target}: 4 GB or more is past this writer`);
  const zip64 = files.length > 0xFFFE;
  const tail = [];
  if (zip64) {
    const record = Buffer.alloc(56);
    record.writeUInt32LE(0x06064b50, 0);
    record.writeBigUInt64LE(44n, 4); // the size of the rest of the record
    record.writeUInt16LE(45, 12);
    record.writeUInt16LE(45, 14);
    record.writeBigUInt64LE(BigInt(files.length), 24);
    record.writeBigUInt64LE(BigInt(files.length), 32);
    record.writeBigUInt64LE(BigInt(centralBytes.length), 40);
    record.writeBigUInt64LE(BigInt(offset), 48);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(0x07064b50, 0);
    locator.writeBigUInt64LE(BigInt(offset + centralBytes.length), 8);
    locator.writeUInt32LE(1, 16);
    tail.push(record, locator);
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(zip64 ? 0xFFFF : files.length, 8);
  end.writeUInt16LE(zip64 ? 0xFFFF : files.length, 10);
  end.writeUInt32LE(centralBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  tail.push(end);
  fs.writeFileSync(target, Buffer.concat([...chunks, centralBytes, ...tail]));
  return files.length;
}
