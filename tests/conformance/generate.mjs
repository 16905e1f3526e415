// Writes generated conformance cases: fixtures/conformance/generated-01 … generated-NN.
//
//   node tests/conformance/generate.mjs              writes 6 cases
//   node tests/conformance/generate.mjs --count 10   writes 10
//
// Deterministic: every case draws from its own mulberry32 stream (fixed seed + case number),
// so the same command writes the same bytes every time, and adding cases leaves the earlier
// ones unchanged. It deletes and rewrites only `generated-*` folders, keeping a recorded
// `capture.json` in place (record it with `node tests/conformance/run.mjs --record --case …`).
//
// The cases mix the rules the hand-written cases pin one by one: a walk of parent
// directories, deep nested trees read later, rules with and without `paths`, imports across
// folders (some outside the project, some approved), settings in every layer
// (claudeMdExcludes, autoMemoryEnabled, autoMemoryDirectory), MEMORY.md near its caps,
// skills, sub-agents with memory, git subdirectories and linked worktrees.
//
// Two things the program does in directory-read order (rules within one folder) or
// modification-time order (a backfilled MEMORY.md) are kept out on purpose, so a capture does
// not depend on the file system: each rules folder holds at most one rule without `paths`,
// every conditional rule names a token no other rule names (so one read matches at most one
// rule), and every memory folder that has topic files has its MEMORY.md. Subdirectory skills
// appear only in cases with at most four reads (see below).

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const CASES_DIR = path.resolve(here, '../../fixtures/conformance');
const LAYOUT_ROOT = '/tmp/memdiag-conformance';
const SEED = 0x6d656d64; // "memd"

function mulberry32(a) {
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function tools(rand) {
  const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
  const pick = (xs) => xs[Math.floor(rand() * xs.length)];
  const chance = (p) => rand() < p;
  return { int, pick, chance };
}

const WORDS = ['alpha', 'bravo', 'cobalt', 'delta', 'ember', 'fjord', 'garnet', 'harbor', 'indigo',
  'juniper', 'kestrel', 'lumen', 'mosaic', 'nectar', 'orbit', 'prism', 'quartz', 'raven', 'sable',
  'tundra', 'umber', 'vertex', 'willow', 'xenon', 'yonder', 'zephyr', '한글', '메모리', '규칙', '🎉', '🧪'];
const SEGMENTS = ['src', 'lib', 'pkg', 'app', 'docs', 'node_modules', 'build', 'vendor', '.hidden',
  'deep', 'inner', 'core', 'web', '모듈', 'x1', 'y2'];

const slug = (p) => p.replace(/[^a-zA-Z0-9]/g, '-');
function javaHash(s) {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = ((h << 5) - h + s.charCodeAt(i)) | 0;
  return h;
}
function projectFolderName(abs) {
  const name = slug(abs);
  return name.length > 200 ? `${name.slice(0, 200)}-${Math.abs(javaHash(abs)).toString(36)}` : name;
}

function generateCase(n) {
  const rand = mulberry32((SEED + n * 7919) | 0);
  const { int, pick, chance } = tools(rand);
  const name = `generated-${String(n).padStart(2, '0')}`;
  const root = `${LAYOUT_ROOT}/${name}`;
  const files = {};
  const put = (p, text) => { files[p] = text; };
  let counter = 0;
  const tag = (where) => `G${n}.${++counter} ${where}`;
  const sentence = () => Array.from({ length: int(3, 8) }, () => pick(WORDS)).join(' ');
  const body = (where) => {
    const lines = [`${tag(where)}: ${sentence()}`];
    if (chance(0.3)) lines.push(`<!-- ${sentence()} (block comment, removed) -->`);
    if (chance(0.3)) lines.push(`kept inline <!-- ${pick(WORDS)} --> comment`);
    if (chance(0.4)) lines.push(`- ${sentence()}`);
    const text = lines.join('\n');
    return chance(0.25) ? `---\ndescription: ${pick(WORDS)}\n---\n${text}\n` : `${text}\n`;
  };

  // Where the program starts.
  // The layout cycles so that every six cases hold each kind; the rest is drawn.
  const mode = ['plain', 'git-subdir', 'worktree-nested', 'plain', 'worktree-outside', 'git-subdir'][(n - 1) % 6];
  const proj = 'home/u/proj';
  let cwd = proj;
  const spec = { about: '', git: [], worktrees: [] };
  if (mode === 'plain' && chance(0.5)) cwd = `${proj}/${Array.from({ length: int(1, 3) }, () => pick(['w', 'ws', 'repo', '작업'])).join('/')}`;
  if (mode === 'git-subdir') {
    spec.git.push(proj);
    cwd = `${proj}/${Array.from({ length: int(1, 3) }, () => pick(['sub', 'pkg', 'svc', 'mod'])).join('/')}`;
  }
  if (mode === 'worktree-nested') {
    spec.git.push(proj);
    cwd = `${proj}/wt`;
    spec.worktrees.push({ repo: proj, path: cwd, branch: 'wt' });
  }
  if (mode === 'worktree-outside') {
    spec.git.push(proj);
    cwd = 'home/u/wt';
    spec.worktrees.push({ repo: proj, path: cwd, branch: 'wt' });
  }
  const worktree = mode.startsWith('worktree');
  // The worktree folder must be empty for `git worktree add`: nothing may be written in it.
  const writable = (p) => !worktree || !(p === cwd || p.startsWith(`${cwd}/`));
  const walk = [''];
  for (const seg of cwd.split('/')) walk.push(walk[walk.length - 1] ? `${walk[walk.length - 1]}/${seg}` : seg);
  const inDir = (dir, p) => (dir ? `${dir}/${p}` : p);

  // Imports: targets in shared folders, some inside the working directory, some outside.
  const importTargets = [];
  const makeImport = (fromDir, depth) => {
    const inside = writable(`${cwd}/shared`) && chance(0.6);
    const dir = inside ? `${cwd}/shared/${pick(['a', 'b', '한'])}` : pick(['home/u/notes', `${proj}/docs`, 'home/shared']);
    const file = `${dir}/imp-${++counter}.md`;
    if (!writable(file)) return null;
    let text = `${tag('import')}: ${sentence()}`;
    if (depth < 6 && chance(0.55)) {
      const next = makeImport(dir, depth + 1);
      if (next) text += `\n@${next.rel(dir)}`;
    }
    put(file, `${text}\n`);
    const target = { file, rel: (from) => path.posix.relative(from, file) };
    importTargets.push(file);
    return target;
  };
  const withImports = (dir, text) => {
    if (!chance(0.45)) return text;
    const refs = [];
    for (let k = int(1, 2); k > 0; k--) {
      const t = makeImport(dir, 1);
      if (!t) continue;
      const rel = t.rel(dir);
      refs.push(pick([`@${rel}`, `@./${rel}`, `@${root}/${t.file}`]));
    }
    return refs.length ? `${text}${refs.map((r) => `see ${r}`).join('\n')}\n` : text;
  };

  // Conditional rules: each names a token no other rule names.
  const tokens = [];
  const conditional = (rulesDir, baseDir, label) => {
    const token = `tok${n}${String.fromCharCode(97 + tokens.length)}`;
    const form = pick(['globstar', 'anywhere', 'list', 'braces', 'extension']);
    const paths = {
      globstar: `paths: "${token}/**"`,
      anywhere: `paths: "**/${token}/*.ts"`,
      list: `paths:\n  - "${token}/*.ts"\n  - "never-${token}/*.md"`,
      braces: `paths: "{${token},other-${token}}/*.ts, ${token}-docs/*.md"`,
      extension: `paths: "*.${token}"`,
    }[form];
    tokens.push({ token, form, baseDir });
    put(`${rulesDir}/${pick(['c', 'cond', 'when'])}-${token}.md`, `---\n${paths}\n---\n${tag(`${label} rule ${form}`)}: ${sentence()}\n`);
  };

  // The walk: every directory from the case root down to the working directory.
  for (const dir of walk) {
    if (!writable(inDir(dir, 'x'))) continue;
    const isHome = dir === 'home/u';
    if (chance(isHome ? 0.5 : 0.45)) put(inDir(dir, 'CLAUDE.md'), withImports(dir, body(`${dir || 'root'} CLAUDE.md`)));
    if (!isHome && chance(0.25)) put(inDir(dir, '.claude/CLAUDE.md'), body(`${dir || 'root'} .claude/CLAUDE.md`));
    if (chance(0.25)) put(inDir(dir, 'CLAUDE.local.md'), withImports(dir, body(`${dir || 'root'} CLAUDE.local.md`)));
    if (chance(0.2)) put(inDir(dir, 'AGENTS.md'), body(`${dir || 'root'} AGENTS.md`));
    const rulesDir = inDir(dir, '.claude/rules');
    if (!isHome && chance(0.4)) {
      const sub = chance(0.3) ? `${pick(['topic', '주제'])}/` : '';
      const paths = pick(['', '---\npaths: "**"\n---\n', '---\npaths: []\n---\n', '---\npaths:\n---\n']);
      put(`${rulesDir}/${sub}always-${++counter}.md`, `${paths}${tag(`${dir || 'root'} rule`)}: ${sentence()}\n`);
    }
    if (!isHome) for (let k = int(0, 2); k > 0; k--) conditional(`${rulesDir}/${pick(['', 'scoped/'])}`.replace(/\/$/, ''), dir, dir || 'root');
  }
  // The user's own files (the config folder is home/u/.claude).
  if (chance(0.7)) put('home/u/.claude/CLAUDE.md', withImports('home/u/.claude', body('user CLAUDE.md')));
  if (chance(0.5)) put(`home/u/.claude/rules/${pick(['mine', 'u', '사용자'])}.md`, body('user rule'));
  for (let k = int(0, 2); k > 0; k--) conditional('home/u/.claude/rules/when', cwd, 'user');

  // A deep tree below the working directory, read at its leaves.
  const reads = [];
  const ruled = new Set(); // folders whose .claude/rules already hold a rule (two trees may share one)
  if (!worktree) {
    for (let t = int(1, 2); t > 0; t--) {
      let dir = cwd;
      const depth = int(2, 8);
      for (let d = 0; d < depth; d++) {
        dir = `${dir}/${pick(SEGMENTS)}`;
        if (chance(0.35)) put(`${dir}/CLAUDE.md`, withImports(dir, body(`nested ${dir.slice(cwd.length + 1)} CLAUDE.md`)));
        if (chance(0.12)) put(`${dir}/.claude/CLAUDE.md`, body('nested .claude/CLAUDE.md'));
        if (chance(0.12)) put(`${dir}/CLAUDE.local.md`, body('nested CLAUDE.local.md'));
        if (chance(0.15) && !ruled.has(dir)) {
          ruled.add(dir);
          if (chance(0.5)) put(`${dir}/.claude/rules/nested-${++counter}.md`, body('nested rule'));
          else conditional(`${dir}/.claude/rules`, dir, 'nested');
        }
        if (chance(0.1)) put(`${dir}/.claude/skills/nested-skill-${counter}/SKILL.md`, `---\ndescription: ${sentence()}\n---\nbody\n`);
      }
      const leaf = `${dir}/${pick(['index.ts', 'main.js', 'README.md', '파일.txt'])}`;
      put(leaf, `${sentence()}\n`);
      reads.push(leaf);
    }
  }
  // Reads that the conditional rules may match (within the working directory).
  for (const { token, form } of tokens) {
    if (worktree || !chance(0.7)) continue;
    const where = chance(0.5) ? cwd : `${cwd}/${pick(SEGMENTS)}`;
    const file = form === 'extension' ? `${where}/data.${token}`
      : form === 'braces' && chance(0.5) ? `${where}/${token}-docs/notes.md`
        : `${where}/${token}/file.ts`;
    if (!files[file]) put(file, `${sentence()}\n`);
    reads.push(file);
  }
  if (worktree && chance(0.7)) {
    const outside = `${proj}/src/outside-${counter}.ts`;
    put(outside, `${sentence()}\n`);
    reads.push(outside);
  }
  if (reads.length > 1 && chance(0.5)) reads.push(reads[0]); // a second read of the same file
  // From the fifth tool call on, the program appends a reminder of its own to the text block
  // that announced new skills, and capture.mjs would copy it as part of the announcement:
  // a case with more than four reads gets no subdirectory skills.
  if (reads.length > 4) for (const p of Object.keys(files)) if (/\/\.claude\/skills\/nested-skill-/.test(p)) delete files[p];

  // Settings in every layer.
  const settings = { user: {}, project: {}, local: {} };
  const layerPath = {
    user: 'home/u/.claude/settings.json',
    project: `${cwd}/.claude/settings.json`,
    local: `${cwd}/.claude/settings.local.json`,
  };
  const candidates = Object.keys(files).filter((p) => /(^|\/)(CLAUDE(\.local)?\.md|imp-\d+\.md)$/.test(p));
  for (let k = int(0, 2); k > 0 && candidates.length; k--) {
    const target = pick(candidates);
    const layer = pick(worktree ? ['user'] : ['user', 'project', 'local']);
    const glob = chance(0.5) ? `${root}/${target}` : `**/${target.split('/').slice(-2).join('/')}`;
    (settings[layer].claudeMdExcludes ??= []).push(glob);
  }
  const off = chance(0.2);
  if (off) settings.user.autoMemoryEnabled = false;
  if (off && !worktree && chance(0.5)) settings.local.autoMemoryEnabled = true;
  let memDir = null;
  if (!worktree && chance(0.25)) {
    const layer = pick(['user', 'project', 'local']);
    settings[layer].autoMemoryDirectory = pick(['~/gen-mem', `${root}/elsewhere/mem`]);
    memDir = settings[layer].autoMemoryDirectory.startsWith('~/')
      ? `home/u/${settings[layer].autoMemoryDirectory.slice(2)}`
      : settings[layer].autoMemoryDirectory.slice(root.length + 1);
  }
  if (!memDir) {
    const key = spec.git.length ? proj : cwd;
    memDir = `home/u/.claude/projects/${projectFolderName(`${root}/${key}`)}/memory`;
  }
  for (const layer of Object.keys(settings)) {
    if (Object.keys(settings[layer]).length && writable(layerPath[layer])) put(layerPath[layer], `${JSON.stringify(settings[layer], null, 2)}\n`);
  }
  // MEMORY.md, sometimes over a cap, sometimes with a topic file beside it.
  if (chance(0.75)) {
    const lines = chance(0.3) ? int(201, 260) : int(1, 40);
    const width = chance(0.2) ? int(120, 180) : int(10, 60);
    const text = Array.from({ length: lines }, (_, i) => `- ${tag(`memory line ${i + 1}`)} ${'m'.repeat(width)} ${pick(WORDS)}`).join('\n');
    put(`${memDir}/MEMORY.md`, `${chance(0.2) ? '---\ntype: index\n---\n' : ''}${text}\n`);
    if (chance(0.5)) put(`${memDir}/topic-${n}.md`, `---\ndescription: ${sentence()}\ntype: project\n---\n${sentence()}\n`);
  }
  // Skills.
  if (chance(0.5)) put(`home/u/.claude/skills/gen-user-${n}/SKILL.md`, `---\ndescription: ${sentence()}\n---\nbody\n`);
  if (writable(`${cwd}/.claude`) && chance(0.5)) {
    put(`${cwd}/.claude/skills/gen-proj-${n}/SKILL.md`, `---\nname: gen-${pick(WORDS.slice(0, 26))}\ndescription: ${sentence()}\nwhen_to_use: ${sentence()}\n---\nbody\n`);
  }
  // A sub-agent with memory (plain layouts only).
  const agents = [];
  if (mode === 'plain' && chance(0.4)) {
    const scope = pick(['user', 'project', 'local']);
    const agentName = `gen-agent-${n}`;
    put(`${cwd}/.claude/agents/${agentName}.md`, `---\nname: ${agentName}\ndescription: A generated sub-agent\nmemory: ${scope}\n---\nYou are ${agentName}.\n`);
    const agentDir = { user: `home/u/.claude/agent-memory/${agentName}`, project: `${cwd}/.claude/agent-memory/${agentName}`, local: `${cwd}/.claude/agent-memory-local/${agentName}` }[scope];
    put(`${agentDir}/MEMORY.md`, `- ${tag('agent memory')} ${sentence()}\n`);
    agents.push(agentName);
  }

  // The case file.
  const out = {
    about: `Generated (seed ${SEED}, case ${n}): ${mode} layout, ${Object.keys(files).length} files, ${tokens.length} conditional rules, ${importTargets.length} imports, ${reads.length} reads; captures whatever the program loads`,
  };
  if (cwd !== proj) out.cwd = cwd;
  if (spec.git.length) out.git = spec.git;
  if (spec.worktrees.length) out.worktrees = spec.worktrees;
  if (chance(0.4)) out.claude_json = { hasClaudeMdExternalIncludesApproved: true };
  if (reads.length) out.reads = reads;
  if (agents.length) out.agents = agents;
  return { name, spec: out, files };
}

function writeCase({ name, spec, files }) {
  const dir = path.join(CASES_DIR, name);
  const capture = path.join(dir, 'capture.json');
  const kept = fs.existsSync(capture) ? fs.readFileSync(capture) : null;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'case.json'), `${JSON.stringify(spec, null, 2)}\n`);
  for (const p of Object.keys(files).sort()) {
    const abs = path.join(dir, 'tree', p);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, files[p]);
  }
  if (kept) fs.writeFileSync(capture, kept);
}

function main() {
  const args = process.argv.slice(2);
  const at = args.indexOf('--count');
  const count = at >= 0 ? Number(args[at + 1]) : 6;
  if (!Number.isInteger(count) || count < 1 || count > 99) throw new Error('--count takes 1 to 99');
  const names = new Set();
  for (let n = 1; n <= count; n++) {
    const c = generateCase(n);
    writeCase(c);
    names.add(c.name);
    console.log(`wrote ${c.name}: ${Object.keys(c.files).length} files`);
  }
  // Generated folders beyond the count go entirely.
  for (const entry of fs.readdirSync(CASES_DIR)) {
    if (/^generated-\d+$/.test(entry) && !names.has(entry)) {
      fs.rmSync(path.join(CASES_DIR, entry), { recursive: true, force: true });
      console.log(`removed ${entry}`);
    }
  }
}

main();
