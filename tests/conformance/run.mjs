// Runs the real Claude Code on every conformance case and checks (or re-records) its capture.
//
//   node tests/conformance/run.mjs            live run; fails when a capture is stale
//   node tests/conformance/run.mjs --record   rewrites every capture.json (review the diff)
//   node tests/conformance/run.mjs --case NAME [--case NAME …]   only those cases
//
// Each case is a folder of fixtures/conformance/: `case.json` (what to lay out and script),
// `tree/` (the files, relative to the case's root; `tree/etc/claude-code/` is the managed
// policy folder and goes to the real `/etc/claude-code/` for the run) and `capture.json`
// (what the program loaded, recorded by this script). The case is laid out at
// `/tmp/memdiag-conformance/<case>/`, a fixed path so that captures are byte-stable and the
// replay in `tests/tests/conformance.rs` can use the same absolute paths.
//
// The program is `$MEMDIAG_CLAUDE`, default the native binary of the pinned release in
// `.tools/` (scripts/tools.sh installs it; the pin is in scripts/npm/package.json). It talks to the stand-in in standin.mjs on 127.0.0.1 and nothing
// else: the environment below switches off telemetry and every other request. A path that
// ends in `.js` (an early release's `cli.js`) is run with this Node; other releases are
// recorded by releases.mjs, which calls `captureCase` with its own program.

import fs from 'node:fs';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startStandIn } from './standin.mjs';
import { buildCapture } from './capture.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
export const CASES_DIR = path.join(repo, 'fixtures/conformance');
export const LAYOUT_ROOT = '/tmp/memdiag-conformance';
const MANAGED_DIR = '/etc/claude-code';
const CLAUDE = process.env.MEMDIAG_CLAUDE || path.join(repo,
  `.tools/node_modules/@anthropic-ai/claude-code-linux-${process.arch === 'arm64' ? 'arm64' : 'x64'}/claude`);
const PROMPT = 'hi';
const RUN_TIMEOUT_MS = 90_000;

function readCase(name) {
  const dir = path.join(CASES_DIR, name);
  const spec = JSON.parse(fs.readFileSync(path.join(dir, 'case.json'), 'utf8'));
  return {
    name,
    dir,
    about: spec.about,
    home: spec.home ?? 'home/u',
    cwd: spec.cwd ?? 'home/u/proj',
    git: spec.git ?? [],
    worktrees: spec.worktrees ?? [],
    symlinks: spec.symlinks ?? [],
    project: spec.claude_json ?? {},
    claudeJsonTop: spec.claude_json_top ?? {},
    args: spec.args ?? [],
    env: spec.env ?? {},
    script: [
      ...(spec.reads ?? []).map((p) => ({ tool: 'Read', path: p })),
      ...(spec.agents ?? []).map((a) => ({ tool: 'Agent', agent: a })),
    ],
  };
}

function git(cwd, ...args) {
  const r = spawnSync('git', ['-c', 'user.name=memdiag', '-c', 'user.email=memdiag@invalid',
    '-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false', ...args], { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} in ${cwd}: ${r.stderr}`);
  return r.stdout;
}

/**
 * Lays the case out under its root and returns what the replay must know beyond `tree/`:
 * the `~/.claude.json` written, the `.git` folders and files made, all by absolute path.
 */
function layOut(c) {
  const root = path.join(LAYOUT_ROOT, c.name);
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(root, { recursive: true });
  const tree = path.join(c.dir, 'tree');
  let managed = false;
  if (fs.existsSync(tree)) {
    for (const top of fs.readdirSync(tree)) {
      if (top === 'etc') {
        const src = path.join(tree, 'etc/claude-code');
        if (fs.existsSync(MANAGED_DIR)) {
          throw new Error(`${MANAGED_DIR} exists already; the case needs it to itself`);
        }
        fs.cpSync(src, MANAGED_DIR, { recursive: true });
        managed = true;
        continue;
      }
      fs.cpSync(path.join(tree, top), path.join(root, top), { recursive: true });
    }
  }
  const home = path.join(root, c.home);
  const cwd = path.join(root, c.cwd);
  fs.mkdirSync(cwd, { recursive: true });
  fs.mkdirSync(path.join(home, '.claude'), { recursive: true });
  const extras = { git_dirs: [], git_files: {}, claude_json: null };
  for (const repoDir of c.git) {
    const abs = path.join(root, repoDir);
    fs.mkdirSync(abs, { recursive: true });
    git(abs, 'init', '-q');
    extras.git_dirs.push(abs);
  }
  for (const wt of c.worktrees) {
    const repoAbs = path.join(root, wt.repo);
    git(repoAbs, 'commit', '-q', '--allow-empty', '-m', 'init');
    const wtAbs = path.join(root, wt.path);
    git(repoAbs, 'worktree', 'add', '-q', '-b', wt.branch ?? path.basename(wtAbs), wtAbs);
    extras.git_files[path.join(wtAbs, '.git')] = fs.readFileSync(path.join(wtAbs, '.git'), 'utf8');
  }
  // Symbolic links: `path` (relative to the root) pointing at `target` as written.
  if (c.symlinks.length) extras.symlinks = {};
  for (const link of c.symlinks) {
    const at = path.join(root, link.path);
    fs.mkdirSync(path.dirname(at), { recursive: true });
    fs.symlinkSync(link.target, at);
    extras.symlinks[at] = link.target;
  }
  const claudeJson = {
    ...c.claudeJsonTop,
    hasCompletedOnboarding: true,
    projects: { [cwd]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, ...c.project } },
  };
  const text = `${JSON.stringify(claudeJson, null, 2)}\n`;
  fs.writeFileSync(path.join(home, '.claude.json'), text);
  extras.claude_json = text;
  return { root, home, cwd, managed, extras };
}

/** How to start `program`: a `cli.js` runs under this Node, anything else is executed. */
export function programCommand(program) {
  return program.endsWith('.js') ? [process.execPath, [program]] : [program, []];
}

async function runProgram(c, where, program, releaseEnv = {}) {
  const script = c.script.map((s) => (s.tool === 'Read'
    ? { tool: 'Read', input: { file_path: path.join(where.root, s.path) } }
    : { tool: 'Agent', input: { subagent_type: s.agent, description: `ask ${s.agent}`, prompt: 'go' } }));
  const standIn = await startStandIn({ script });
  const env = {
    PATH: process.env.PATH,
    HOME: where.home,
    TMPDIR: path.join(where.root, 'tmp'),
    ANTHROPIC_API_KEY: 'sk-dummy',
    ANTHROPIC_BASE_URL: `http://127.0.0.1:${standIn.port}`,
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    TERM: 'dumb',
    ...releaseEnv,
    ...c.env,
  };
  fs.mkdirSync(env.TMPDIR, { recursive: true });
  try {
    const [command, leading] = programCommand(program);
    const child = spawn(command, [...leading, ...c.args.map((a) => a.replaceAll('$ROOT', where.root)), '-p', PROMPT], { cwd: where.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
    const code = await new Promise((resolve) => child.on('close', resolve));
    clearTimeout(timer);
    // For finding out how a release shapes its requests: every body, as received.
    if (process.env.MEMDIAG_DUMP_REQUESTS) {
      fs.writeFileSync(process.env.MEMDIAG_DUMP_REQUESTS, JSON.stringify(standIn.requests, null, 1));
    }
    if (code !== 0) throw new Error(`claude exited ${code}: ${stderr.slice(0, 2000)}${stdout.slice(0, 500)}`);
    return standIn.requests;
  } finally {
    await standIn.close();
  }
}

/** The release number `program` prints for `--version`. */
export function programRelease(program = CLAUDE) {
  const [command, leading] = programCommand(program);
  const r = spawnSync(command, [...leading, '--version'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${program} --version failed: ${r.stderr || r.error}`);
  return r.stdout.trim().split(/\s+/)[0];
}

/**
 * Runs one case live and returns its capture. `program` defaults to `$MEMDIAG_CLAUDE`;
 * `builtIns` names the skills the release lists in every session (capture.mjs's list is
 * the pinned release's); `onRecords(records, script, dirOrder)` sees the requests before
 * they become a capture, with the skills folders' listing order ([`skillsFolderOrder`]); `env` adds to the environment the program runs in (a release's own switches,
 * set by releases.mjs), under the case's own.
 */
export async function captureCase(name, release = programRelease(), { program = CLAUDE, builtIns, onRecords, env = {} } = {}) {
  const c = readCase(name);
  const release_ = await lock(name, fs.existsSync(path.join(c.dir, 'tree/etc')));
  let where;
  try {
    where = layOut(c);
  } catch (e) {
    release_();
    throw e;
  }
  try {
    // Read right before the run, in this process, on the file system the program reads.
    const dirOrder = skillsFolderOrder(where.root);
    const records = await runProgram(c, where, program, env);
    const script = c.script.map((s) => ({ ...s, path: s.path && path.join(where.root, s.path) }));
    // releases.mjs keeps what the program sent, to rebuild captures without re-running it.
    onRecords?.(records, script, dirOrder);
    const capture = buildCapture({ release, records, builtIns, script });
    return { root: where.root, home: where.home, cwd: where.cwd, ...where.extras, ...capture };
  } finally {
    if (where.managed) fs.rmSync(MANAGED_DIR, { recursive: true, force: true });
    if (!process.env.MEMDIAG_KEEP_LAYOUT) fs.rmSync(where.root, { recursive: true, force: true });
    release_();
  }
}

/**
 * The skills folders' listing order ([`skillsFolderOrder`]) of a fresh layout of case `name`,
 * without running the program: for `releases.mjs keep-pin`, which turns the pin's captures
 * into release captures when the pin moves.
 */
export async function layoutOrder(name) {
  const c = readCase(name);
  const release_ = await lock(name, fs.existsSync(path.join(c.dir, 'tree/etc')));
  let where;
  try {
    where = layOut(c);
    return skillsFolderOrder(where.root);
  } finally {
    if (where?.managed) fs.rmSync(MANAGED_DIR, { recursive: true, force: true });
    if (where) fs.rmSync(where.root, { recursive: true, force: true });
    release_();
  }
}

/**
 * Every folder named `skills` below `root` that holds two entries or more, with its entries
 * in the order the file system lists them, by absolute path: releases 2.1.113 to 2.1.153 list
 * each folder's skills in that order, unsorted, so the replay needs it as an input. Read with
 * `fs.opendirSync`, which hands over the entries as the kernel gives them; `fs.readdirSync`
 * would not do: libuv's scandir sorts them by name.
 */
export function skillsFolderOrder(root) {
  const out = {};
  const visit = (dir) => {
    const names = [];
    const handle = fs.opendirSync(dir);
    try {
      for (let entry = handle.readSync(); entry; entry = handle.readSync()) {
        names.push(entry.name);
        if (entry.isDirectory()) visit(path.join(dir, entry.name));
      }
    } finally {
      handle.closeSync();
    }
    if (path.basename(dir) === 'skills' && names.length > 1) out[dir] = names;
  };
  visit(root);
  return out;
}

const LOCKS = path.join(LAYOUT_ROOT, '.locks');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Removes the locks of processes that are gone. */
function clearStale() {
  for (const n of fs.existsSync(LOCKS) ? fs.readdirSync(LOCKS) : []) {
    const pid = Number(n.split('.').pop());
    if (!alive(pid)) fs.rmSync(path.join(LOCKS, n), { recursive: true, force: true });
  }
}

/**
 * Several runs at once (releases.mjs runs two cases at a time; another run may be going):
 * a case's folder is its own, but a case that writes the real /etc/claude-code must run
 * alone, since every other case would see that policy. Returns the release function.
 */
async function lock(name, managed) {
  fs.mkdirSync(LOCKS, { recursive: true });
  const mine = path.join(LOCKS, `${managed ? 'managed' : `case-${name}`}.${process.pid}`);
  const managedHeld = () => fs.readdirSync(LOCKS).some((n) => n.startsWith('managed.') && path.join(LOCKS, n) !== mine);
  for (;;) {
    clearStale();
    const taken = fs.readdirSync(LOCKS).some((n) => n.startsWith(managed ? 'managed.' : `case-${name}.`));
    if (taken || managedHeld()) {
      await sleep(300);
      continue;
    }
    fs.mkdirSync(mine);
    if (managed) {
      // Wait for every other case to finish; newcomers see this lock and wait.
      if (fs.readdirSync(LOCKS).filter((n) => n.startsWith('managed.')).length > 1) {
        fs.rmSync(mine, { recursive: true, force: true });
        await sleep(300 + Math.random() * 500);
        continue;
      }
      while (fs.readdirSync(LOCKS).some((n) => !n.startsWith('managed.'))) {
        clearStale();
        await sleep(200);
      }
    } else if (managedHeld() || fs.readdirSync(LOCKS).filter((n) => n.startsWith(`case-${name}.`)).length > 1) {
      fs.rmSync(mine, { recursive: true, force: true });
      await sleep(300 + Math.random() * 500);
      continue;
    }
    return () => fs.rmSync(mine, { recursive: true, force: true });
  }
}

export function caseNames() {
  return fs.readdirSync(CASES_DIR)
    .filter((n) => fs.existsSync(path.join(CASES_DIR, n, 'case.json')))
    .sort();
}

function firstDifference(a, b, at = '') {
  if (typeof a !== typeof b || Array.isArray(a) !== Array.isArray(b) || (a === null) !== (b === null)) {
    return `${at || '/'}: recorded ${JSON.stringify(a)?.slice(0, 300)}, live ${JSON.stringify(b)?.slice(0, 300)}`;
  }
  if (a && typeof a === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) {
      const d = firstDifference(a[k], b[k], `${at}/${k}`);
      if (d) return d;
    }
    return null;
  }
  return a === b ? null : `${at}: recorded ${JSON.stringify(a)?.slice(0, 300)}, live ${JSON.stringify(b)?.slice(0, 300)}`;
}

async function main() {
  const args = process.argv.slice(2);
  const record = args.includes('--record');
  const only = args.flatMap((a, i) => (a === '--case' ? [args[i + 1]] : []));
  const names = only.length ? only : caseNames();
  const release = programRelease();
  let stale = 0;
  let failed = 0;
  const start = Date.now();
  for (const name of names) {
    const file = path.join(CASES_DIR, name, 'capture.json');
    let capture;
    try {
      capture = await captureCase(name, release);
    } catch (e) {
      failed += 1;
      console.log(`FAIL  ${name}: ${e.message}`);
      continue;
    }
    const text = `${JSON.stringify(capture, null, 2)}\n`;
    if (record) {
      fs.writeFileSync(file, text);
      console.log(`rec   ${name}`);
      continue;
    }
    const recorded = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : null;
    const diff = recorded ? firstDifference(recorded, capture) : 'no capture.json yet';
    if (diff) {
      stale += 1;
      console.log(`STALE ${name}: ${diff}`);
    } else {
      console.log(`ok    ${name}`);
    }
  }
  const secs = ((Date.now() - start) / 1000).toFixed(0);
  console.log(`\nconformance: ${names.length} cases against Claude Code ${release} in ${secs}s: ` +
    `${names.length - stale - failed} ${record ? 'recorded' : 'match their capture'}, ${stale} stale, ${failed} failed`);
  if (stale) console.log('re-record with `node tests/conformance/run.mjs --record`, review the diff, then fix the core');
  process.exitCode = stale || failed ? 1 : 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
