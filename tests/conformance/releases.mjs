// Records the conformance cases on published Claude Code releases other than the pin.
// Run by hand (each release is a download of 90 to 400 MB); the replay in
// tests/tests/conformance.rs then checks the core against every release offline.
//
//   node tests/conformance/releases.mjs record VER [VER …] [--case NAME …] [--keep]
//       installs each release into $MEMDIAG_RELEASES (default /work/releases/<ver>, outside
//       the repository), runs the cases on it, keeps what it sent under raw/<ver>/ there and
//       writes fixtures/conformance/<case>/releases/<ver>.json; then removes the install
//       unless --keep (a few releases on disk at once at most).
//   node tests/conformance/releases.mjs rebuild [VER …]
//       rewrites those captures from the kept requests (after a change to capture.mjs).
//   node tests/conformance/releases.mjs diff A B [--case NAME …]
//       names the cases whose captures differ between two recorded releases, and where.
//   node tests/conformance/releases.mjs bisect A B [C …] [--case NAME …]
//       for each pair of neighbours given (all recorded), every case whose capture differs
//       between them: installs releases published in between, halving the interval, and
//       prints (FIRST …) the first release that sends what the newer one sends.
//   node tests/conformance/releases.mjs keep-pin [--case NAME …]
//       before the pin moves: writes each case's capture.json (recorded on the pin) as
//       releases/<its release>.json, in a release capture's form (its `dir_order` read from a
//       fresh layout of the case), so the old pin replays as a simulated release after
//       `run.mjs --record` has rewritten capture.json on the new one.
//   node tests/conformance/releases.mjs list
//       the published 2.x releases, as `npm view` gives them.
//   node tests/conformance/releases.mjs watch [--json] [--registry FILE]
//       the published releases newer than the newest recorded one (none: it says so), from
//       the registry's answer (`npm view … versions time dist-tags --json`, or FILE holding
//       one); `--json` prints `{ newest_recorded, unrecorded: [{ version, published, title,
//       body }] }` for the weekly job (.github/workflows/release-watch.yml). Its listing is
//       watch.mjs's `unrecorded`, tested by watch.test.mjs against a recorded answer.
//
// A release's capture holds only what the release sent (`startup`, `skills`, `agent_types`,
// `memory`, `reads`, `agents`, and `session_time` where hooks or MCP servers ran) beside its
// number, and `dir_order`: every `skills` folder of the
// layout with its entries in the order the file system listed them right before the run
// (the order 2.1.113 to 2.1.153 list skills in; run.mjs `skillsFolderOrder`); the layout
// (root, home, `~/.claude.json`, `.git` files) is the case's and lives in its capture.json. A case the release could not run is
// recorded as `{ "release": …, "error": … }`.
//
// Old releases send the same things in other shapes (the instruction block inside a
// "# claudeMd" context reminder, the memory section under "# auto memory", the skills
// listing as a user-turn reminder); capture.mjs reads every shape seen.

import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CASES_DIR, captureCase, caseNames, layoutOrder, programRelease } from './run.mjs';
import { buildCapture } from './capture.mjs';
import {
  PACKAGE, VIEW_FIELDS, compareVersions, describe, publishedReleases, recordedReleases, unrecorded,
} from './watch.mjs';

export { compareVersions };

const RELEASES = process.env.MEMDIAG_RELEASES || '/work/releases';

/** The registry's answer for the package (`npm view … --json`): versions, dates, tags. */
function registryAnswer(fields = VIEW_FIELDS) {
  const r = spawnSync('npm', ['view', PACKAGE, ...fields, '--json'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`npm view failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** The published 2.x releases in order, from npm. */
export function published() {
  return publishedReleases(registryAnswer(['versions']));
}

/** Installs `ver` (once) and returns the program to run: the native binary or cli.js. */
function install(ver) {
  const dir = path.join(RELEASES, ver);
  const program = findProgram(dir);
  if (program) return program;
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), '{ "private": true }\n');
  const r = spawnSync('npm', ['i', '--ignore-scripts', '--no-save', '--no-audit', '--no-fund',
    `${PACKAGE}@${ver}`], { cwd: dir, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`npm i ${ver}: ${r.stderr.slice(-1500)}`);
  const found = findProgram(dir);
  if (!found) throw new Error(`${ver} installed neither a native binary nor a cli.js`);
  return found;
}

function findProgram(dir) {
  const scoped = path.join(dir, 'node_modules/@anthropic-ai');
  const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
  const native = path.join(scoped, `claude-code-linux-${arch}/claude`);
  if (fs.existsSync(native)) return native;
  const cli = path.join(scoped, 'claude-code/cli.js');
  return fs.existsSync(cli) ? cli : null;
}

function uninstall(ver) {
  fs.rmSync(path.join(RELEASES, ver, 'node_modules'), { recursive: true, force: true });
}

/**
 * What is kept of a request: all but the tools' schemas (a release's own text), and but the
 * description of the tool that starts sub-agents (`Agent`, `Task` in older releases), where
 * older releases list the agent types.
 */
function slim(records) {
  const keepsDescription = (t) => t.name === 'Agent' || t.name === 'Task';
  return records.map(({ body, step }) => ({
    step,
    body: {
      ...body,
      tools: (body.tools || []).map((t) => (keepsDescription(t)
        ? { name: t.name, description: t.description }
        : { name: t.name })),
    },
  }));
}

/**
 * What a release needs in its environment to run the cases at all. 2.1.69 defers every tool
 * behind ToolSearch by default (its `tengu_defer_all_bn4` flag defaults on), so its first
 * request offers ToolSearch alone and the stand-in's scripted Read is never made;
 * `ENABLE_TOOL_SEARCH=false` is its switch back to sending the tools themselves (2.1.69's
 * code: "standard" mode). Nothing else of what a capture holds depends on it.
 */
const RELEASE_ENV = {
  '2.1.69': { ENABLE_TOOL_SEARCH: 'false' },
};

const rawFile = (ver, name) => path.join(RELEASES, 'raw', ver, `${name}.json`);
const captureFile = (name, ver) => path.join(CASES_DIR, name, 'releases', `${ver}.json`);

/**
 * The names the case's own files give skills and commands (every `skills/<name>/` folder and
 * `commands/<name>.md` file of its tree): any other name a listing holds is the release's own.
 */
function userSkillNames(name) {
  const names = new Set();
  const visit = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const at = path.join(dir, entry.name);
      if (!entry.isDirectory()) {
        if (path.basename(dir) === 'commands' && entry.name.endsWith('.md')) names.add(entry.name.slice(0, -3));
        continue;
      }
      if (path.basename(dir) === 'skills') names.add(entry.name);
      visit(at);
    }
  };
  const tree = path.join(CASES_DIR, name, 'tree');
  if (fs.existsSync(tree)) visit(tree);
  return names;
}

/** A set that holds every name but the case's own skills: the release's built-in ones. */
function builtInsOf(name) {
  const own = userSkillNames(name);
  return { has: (n) => !own.has(n) };
}

/**
 * A set that holds every agent name but the case's own: those the pinned release listed as
 * the user's (its capture's `agent_types`) and every `name:` of a `.md` file below an
 * `agents/` folder of the case's tree. Older releases' built-in agents are other ones.
 */
function builtInAgentsOf(name) {
  const own = new Set();
  const pinned = path.join(CASES_DIR, name, 'capture.json');
  if (fs.existsSync(pinned)) {
    const entries = JSON.parse(fs.readFileSync(pinned, 'utf8')).agent_types?.entries ?? [];
    for (const e of entries) own.add(e.slice(0, e.indexOf(': ')));
  }
  const visit = (dir, inAgents) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const at = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(at, inAgents || entry.name === 'agents');
      else if (inAgents && entry.name.endsWith('.md')) {
        const m = /^name:[ \t]*["']?([^"'\n]*?)["']?[ \t]*$/m.exec(fs.readFileSync(at, 'utf8'));
        if (m) own.add(m[1]);
      }
    }
  };
  const tree = path.join(CASES_DIR, name, 'tree');
  if (fs.existsSync(tree)) visit(tree, false);
  return { has: (n) => !own.has(n) };
}

function writeCapture(name, ver, capture) {
  const file = captureFile(name, ver);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(capture, null, 2)}\n`);
}

/** Rebuilds every capture of `ver` from the kept requests. */
function rebuild(ver, names = caseNames()) {
  for (const name of names) {
    const builtIns = builtInsOf(name);
    const file = rawFile(ver, name);
    if (!fs.existsSync(file)) continue;
    const raw = JSON.parse(fs.readFileSync(file, 'utf8'));
    let capture;
    if (!raw.records) {
      capture = { release: ver, error: raw.error };
    } else {
      try {
        const full = buildCapture({
          release: ver, records: raw.records, script: raw.script, builtIns, builtInAgents: builtInAgentsOf(name),
        });
        capture = { release: ver, startup: full.startup, skills: full.skills };
        // The listing of agent types, where the release sends one in the main session's
        // messages (captures recorded before it was read hold no key: not replayed).
        if (full.agent_types !== undefined) capture.agent_types = full.agent_types;
        Object.assign(capture, { memory: full.memory, reads: full.reads, agents: full.agents });
        // What hooks and MCP servers added, where the release ran any (as capture.json holds it).
        if (full.session_time !== undefined) capture.session_time = full.session_time;
        // The order the file system listed the skills folders in, for the releases that
        // list skills that way (kept from 2.1.113's re-recording on; older raw files lack it).
        if (raw.dir_order && Object.keys(raw.dir_order).length) capture.dir_order = raw.dir_order;
      } catch (e) {
        capture = { release: ver, error: e.message };
      }
    }
    writeCapture(name, ver, capture);
  }
}

/** True when the case lays out a managed policy in the real /etc/claude-code. */
const usesManaged = (name) => fs.existsSync(path.join(CASES_DIR, name, 'tree/etc'));

/**
 * Runs `names` on `ver`, two cases at a time (each case has its own folder); a case that
 * writes /etc/claude-code runs alone, since every other case would see that policy.
 */
async function record(ver, names, keep) {
  const start = Date.now();
  const program = install(ver);
  const printed = programRelease(program);
  if (printed !== ver) throw new Error(`${program} says it is ${printed}, not ${ver}`);
  fs.mkdirSync(path.join(RELEASES, 'raw', ver), { recursive: true });
  let failed = 0;
  const runOne = async (name) => {
    let kept = null;
    try {
      await captureCase(name, ver, {
        program,
        env: RELEASE_ENV[ver] ?? {},
        onRecords: (records, script, dirOrder) => {
          kept = { records: slim(records), script, dir_order: dirOrder };
        },
      });
    } catch (e) {
      // What the program sent is kept even when it does not make a capture yet.
      kept = { ...(kept ?? {}), error: e.message.slice(0, 600) };
      failed += 1;
    }
    fs.writeFileSync(rawFile(ver, name), JSON.stringify(kept));
  };
  const shared = names.filter((n) => !usesManaged(n));
  const queue = [...shared];
  const worker = async () => {
    while (queue.length) await runOne(queue.shift());
  };
  await Promise.all([worker(), worker()]);
  for (const name of names.filter(usesManaged)) await runOne(name);
  rebuild(ver, names);
  if (!keep) uninstall(ver);
  const secs = ((Date.now() - start) / 1000).toFixed(0);
  console.log(`recorded ${names.length} cases on ${ver} in ${secs}s, ${failed} failed`);
}

/**
 * A release capture of what the pin sent for `name`, from its capture.json: the same fields
 * `rebuild` keeps, classified as the pin's capture was (its built-in skills and agents), and
 * the skills folders' order of a fresh layout (the file system lists a folder's entries the
 * same way on every layout of one machine).
 */
async function keepPin(name) {
  const file = path.join(CASES_DIR, name, 'capture.json');
  if (!fs.existsSync(file)) return null;
  const pinned = JSON.parse(fs.readFileSync(file, 'utf8'));
  const capture = { release: pinned.release, startup: pinned.startup, skills: pinned.skills };
  if (pinned.agent_types !== undefined) capture.agent_types = pinned.agent_types;
  Object.assign(capture, { memory: pinned.memory, reads: pinned.reads, agents: pinned.agents });
  if (pinned.session_time !== undefined) capture.session_time = pinned.session_time;
  const order = await layoutOrder(name);
  if (Object.keys(order).length) capture.dir_order = order;
  writeCapture(name, pinned.release, capture);
  return pinned.release;
}

function loadCapture(name, ver) {
  const file = captureFile(name, ver);
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8'));
  if (fs.existsSync(path.join(CASES_DIR, name, 'capture.json'))) {
    const c = JSON.parse(fs.readFileSync(path.join(CASES_DIR, name, 'capture.json'), 'utf8'));
    if (c.release === ver) return c;
  }
  return null;
}

/**
 * What the user's files made a release send: the files and their text, the user's skills
 * and agents, the memory folder, reads and sub-agents; not the lengths of Claude Code's own
 * text. A sub-agent's `agent_types` (whether its request lists agent types) counts when true
 * only: captures recorded before it was read lack it, which says no more than false.
 */
function normal(c) {
  if (!c) return null;
  if (c.error) return { error: c.error };
  const out = {
    startup: c.startup?.files ?? [],
    skills: c.skills?.entries ?? [],
    memory: { enabled: c.memory.enabled, dir: c.memory.dir, index: c.memory.index },
    reads: c.reads,
    agents: c.agents?.map(({ agent_types: listed, ...rest }) => (listed ? { ...rest, agent_types: true } : rest)),
  };
  // The user's lines of the listing of agent types, where it was captured (null: none sent),
  // as a set: releases up to 2.1.84 at least list them in no stable order (the same layout
  // gives another order on the next run), which no bisection can place.
  if (c.agent_types !== undefined) out.agent_types = c.agent_types ? [...c.agent_types.entries].sort() : null;
  return out;
}

/**
 * The two captures' `normal` forms, comparable: the listing of agent types only when both
 * captures hold it (older captures were recorded before it was read).
 */
function comparable(x, y) {
  const [a, b] = [normal(x), normal(y)];
  if (a && b && !('agent_types' in a && 'agent_types' in b)) {
    delete a.agent_types;
    delete b.agent_types;
  }
  return [a, b];
}
const differ = (x, y) => {
  const [a, b] = comparable(x, y);
  return JSON.stringify(a) !== JSON.stringify(b);
};

function firstDifference(a, b, at = '') {
  if (JSON.stringify(a) === JSON.stringify(b)) return null;
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const d = firstDifference(a[k], b[k], `${at}/${k}`);
      if (d) return d;
    }
  }
  return `${at || '/'}: ${JSON.stringify(a)?.slice(0, 200)} → ${JSON.stringify(b)?.slice(0, 200)}`;
}

function diff(a, b, names) {
  for (const name of names) {
    const [x, y] = [loadCapture(name, a), loadCapture(name, b)];
    if (!x || !y) continue;
    if (differ(x, y)) console.log(`${name}: ${firstDifference(...comparable(x, y))}`);
  }
}

/**
 * Finds, for every case whose capture differs between the recorded releases `a` and `b`,
 * the first release published between them that sends what `b` sends. Each step records
 * only the cases still open on the middle release and splits them by which side it matches;
 * a case that matches neither has two changes in the interval and is searched on both.
 */
async function bisect(a, b, names, list = published(), found = []) {
  const open = names.filter((n) => {
    const [x, y] = [loadCapture(n, a), loadCapture(n, b)];
    return x && y && differ(x, y);
  });
  if (!open.length) return found;
  const lo = list.indexOf(a);
  const hi = list.indexOf(b);
  if (lo < 0 || hi < 0 || lo >= hi) throw new Error(`${a} and ${b} are not two published releases in order`);
  if (hi - lo === 1) {
    for (const n of open) {
      console.log(`FIRST ${b} (after ${a}): ${n}: ${firstDifference(...comparable(loadCapture(n, a), loadCapture(n, b)))?.slice(0, 300)}`);
      found.push({ first: b, before: a, case: n });
    }
    return found;
  }
  const mid = list[Math.floor((lo + hi) / 2)];
  const missing = open.filter((n) => !loadCapture(n, mid));
  if (missing.length) await record(mid, missing, false);
  await bisect(a, mid, open, list, found);
  await bisect(mid, b, open, list, found);
  return found;
}

async function main() {
  const args = process.argv.slice(2);
  const verb = args[0];
  const cases = args.flatMap((x, i) => (x === '--case' ? [args[i + 1]] : []));
  const rest = args.slice(1).filter((x, i, all) => !x.startsWith('--') && all[i - 1] !== '--case');
  const names = cases.length ? cases : caseNames();
  if (verb === 'record') {
    for (const ver of rest) {
      try {
        await record(ver, names, args.includes('--keep'));
      } catch (e) {
        console.log(`${ver}: not recorded: ${e.message}`);
      }
    }
  } else if (verb === 'rebuild') {
    const vers = rest.length ? rest : fs.readdirSync(path.join(RELEASES, 'raw'));
    for (const ver of vers) rebuild(ver, names);
  } else if (verb === 'diff') {
    diff(rest[0], rest[1], names);
  } else if (verb === 'bisect') {
    // Each neighbouring pair of the releases given, in order.
    const vers = rest.sort(compareVersions);
    for (let i = 0; i + 1 < vers.length; i += 1) await bisect(vers[i], vers[i + 1], names);
  } else if (verb === 'keep-pin') {
    const kept = new Set();
    for (const name of names) kept.add(await keepPin(name));
    kept.delete(null);
    console.log(`kept ${names.length} captures as releases/${[...kept].join(', ')}.json`);
  } else if (verb === 'list') {
    console.log(published().join(' '));
  } else if (verb === 'watch') {
    const at = args.indexOf('--registry');
    const answer = at >= 0
      ? JSON.parse(fs.readFileSync(args[at + 1], 'utf8'))
      : registryAnswer();
    const report = unrecorded(answer, recordedReleases(CASES_DIR, { fs, path }));
    console.log(args.includes('--json') ? JSON.stringify(report, null, 2) : describe(report));
  } else {
    console.log('usage: releases.mjs record|rebuild|diff|bisect|keep-pin|list|watch … (see the top of this file)');
    process.exitCode = 2;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
