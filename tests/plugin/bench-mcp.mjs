// The benchmark of `memdiag mcp` (issue 34: tool calls after the first ≤ 200 ms on the large
// benchmark tree). Not a test: it prints times and asserts none.
//
//   cargo build --release -p memdiag-core --features cli
//   node tests/plugin/bench-mcp.mjs [--files 30000] [--runs 9] [--trees DIR]
//
// It writes the page benchmark's synthetic trees (tests/e2e/bench.mjs --trees-only: a
// ~/.claude of N entries, mostly sparse transcripts, and a project of 0.43 N entries, mostly
// node_modules/ and dist/), or reuses those under --trees DIR, starts the release build's
// `memdiag mcp` over them (--mount, as scripts/bench-native.sh runs the command), and times
// each tool from the request written to the answer read: the first call, then the median of
// --runs more. Every call runs a whole analysis (no cache), so "after the first" is warm
// only in the operating system's file cache.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const option = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const sizes = option('--files', '30000').split(',').map(Number);
const runs = Number(option('--runs', '9'));
const memdiag = path.join(process.env.CARGO_TARGET_DIR || path.join(repo, 'target'), 'release/memdiag');
if (!fs.existsSync(memdiag)) {
  console.error(`${memdiag} is missing: cargo build --release -p memdiag-core --features cli`);
  process.exit(2);
}

let trees = option('--trees', null);
let scratch = null;
if (!trees) {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'memdiag-bench-mcp-'));
  trees = scratch;
  const made = spawnSync(process.execPath, [path.join(repo, 'tests/e2e/bench.mjs'),
    '--files', sizes.join(','), '--trees-only', trees], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (made.status !== 0) process.exit(made.status ?? 1);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Starts the server over one tree; resolves to `call(method, params)` and `close()`. */
async function server(home) {
  const child = spawn(memdiag, ['mcp', '--home', '/home/bench', '--project', '/home/bench/work/app',
    '--mount', `/home/bench=${home}`], { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting = new Map();
  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    const message = JSON.parse(line);
    waiting.get(message.id)?.(message);
    waiting.delete(message.id);
  });
  let next = 0;
  const call = (method, params) => new Promise((resolve) => {
    const id = ++next;
    waiting.set(id, resolve);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
  });
  await call('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '0' } });
  child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  return { call, close: () => { child.stdin.end(); return new Promise((r) => child.on('close', r)); } };
}

const TOOLS = [
  ['every_session', {}],
  ['why', { path: '/home/bench/work/app/CLAUDE.md' }],
  ['read_attaches', { path: '/home/bench/work/app/src/module-0.ts' }],
  ['memory_health', {}],
  ['subagent', { name: 'reviewer' }],
];

console.log('| entries | tool | first ms | after the first, median ms | min–max ms | load |');
console.log('|---:|---|---:|---:|---:|---|');
for (const size of sizes) {
  const home = path.join(trees, `tree-${size}`, 'home/bench');
  const { call, close } = await server(home);
  for (const [tool, args] of TOOLS) {
    const time = async () => {
      const start = process.hrtime.bigint();
      const answer = await call('tools/call', { name: tool, arguments: args });
      if (!answer.result || answer.result.isError) throw new Error(`${tool}: ${JSON.stringify(answer).slice(0, 300)}`);
      return Number(process.hrtime.bigint() - start) / 1e6;
    };
    const first = await time();
    const after = [];
    for (let i = 0; i < runs; i += 1) after.push(await time());
    const load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    console.log(`| ${size} | ${tool} | ${first.toFixed(0)} | ${median(after).toFixed(0)} | ${Math.min(...after).toFixed(0)}–${Math.max(...after).toFixed(0)} | ${load} |`);
  }
  await close();
}
if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
