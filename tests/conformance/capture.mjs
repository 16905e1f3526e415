// Turns the requests the stand-in recorded into a capture: what the program loaded, in the
// shape the core's report is compared with (see `tests/tests/conformance.rs`).
//
// Only what the user's files put into the context is kept as text. Claude Code's own text
// (its prompt, its built-in skills' descriptions) is kept as lengths only, so that the
// repository never copies it; the core models it by those measured lengths.

import { isSubAgent, systemText } from './standin.mjs';

/** The labels Claude Code puts after a file's path in the instruction block. */
export const LABELS = {
  managed: 'organization-managed policy instructions',
  user: "user's private global instructions for all projects",
  project: 'project instructions, checked into the codebase',
  local: "user's private project instructions, not checked in",
  'auto-memory': "user's auto-memory, persists across conversations",
};

const BLOCK_OPENING = 'Codebase and user instructions are shown below.';
const SKILLS_MARKER = 'The following skills are available for use with the Skill tool:\n\n';
const NEW_SKILLS = /^New skills discovered in ([^\n]*?), now available via the Skill tool:/;

/** The skills every session lists whatever the user has; they are kept as lengths only. */
export const BUILT_IN_SKILLS = new Set([
  'dataviz', 'update-config', 'keybindings-help', 'code-review', 'simplify',
  'fewer-permission-prompts', 'loop', 'claude-api', 'workflow-authoring', 'run',
  'plugin-authoring', 'init', 'security-review',
]);

const labelByText = Object.fromEntries(Object.entries(LABELS).map(([k, v]) => [v, k]));
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const ENTRY = new RegExp(
  `(?:^|\\n\\n)Contents of (/[^\\n]*?|<managed-settings>)(?: \\((${Object.values(LABELS).map(escape).join('|')})\\))?:\\n\\n`,
  'g',
);

/** UTF-16 length, as the program counts. */
const units = (s) => s.length;

/**
 * Splits a `<system-reminder>` body that lists files (`Contents of <path> (<label>):`) into
 * { path, label, text } entries, in order.
 */
export function parseEntries(body) {
  const out = [];
  const marks = [...body.matchAll(ENTRY)];
  marks.forEach((m, i) => {
    const start = m.index + m[0].length;
    const end = i + 1 < marks.length ? marks[i + 1].index : body.length;
    out.push({ path: m[1], label: m[2] ? labelByText[m[2]] : null, text: body.slice(start, end) });
  });
  return out;
}

function textBlocks(message) {
  if (typeof message.content === 'string') return [{ type: 'text', text: message.content }];
  return message.content || [];
}

const unwrap = (t) => t.replace(/^<system-reminder>\n/, '').replace(/\n*<\/system-reminder>\n*$/, '');

/**
 * The body of a reminder that carries what a Read attached. Its file is sent as it is on
 * disk (stripped, never trimmed), then one newline closes the reminder: only that goes, so
 * a file's own leading and trailing blank lines stay (measured on 2.1.328).
 */
const unwrapAttachment = (t) => t.replace(/^<system-reminder>\n/, '').replace(/\n<\/system-reminder>\n?$/, '');

const CONTEXT_OPENING = "<system-reminder>\nAs you answer the user's questions, you can use the following context:\n";

/**
 * The instruction block of a session's first request, or null when it has none. Current
 * releases send it as a reminder of its own; older ones as the `# claudeMd` entry of the
 * context reminder (`shape: "context"`), whose next entry starts `\n# <key>\n`.
 */
function instructionBlock(body) {
  const first = firstTurn(body);
  if (!first.length) return null;
  for (const block of first.flatMap(textBlocks)) {
    if (block.type !== 'text') continue;
    if (block.text.startsWith(`<system-reminder>\n${BLOCK_OPENING}`)) {
      const inner = unwrap(block.text);
      return blockOf(inner, units(block.text));
    }
    const key = `\n# claudeMd\n${BLOCK_OPENING}`;
    const at = block.text.startsWith(CONTEXT_OPENING) ? block.text.indexOf(key) : -1;
    if (at >= 0) {
      const rest = block.text.slice(at + key.length - BLOCK_OPENING.length);
      const next = rest.search(/\n# (currentDate|gitStatus|directoryStructure)\n/);
      const inner = next < 0 ? unwrap(rest) : rest.slice(0, next);
      return { shape: 'context', ...blockOf(inner, units(inner)) };
    }
  }
  return null;
}

/**
 * The messages of the session's first user turn: one message in most releases, several
 * consecutive user messages in some (2.1.69 sends its deferred tools, the skills listing and
 * the context as messages of their own).
 */
function firstTurn(body) {
  const out = [];
  for (const m of body.messages) {
    if (m.role !== 'user') break;
    out.push(m);
  }
  return out;
}

function blockOf(inner, chars) {
  const header = inner.slice(0, inner.search(/\n\nContents of (\/|<)/) >>> 0);
  return { chars, header_chars: units(header), files: parseEntries(inner) };
}

/**
 * Every text of a request outside its user turns' own words: the system prompt, system
 * messages and (older releases) the reminders of the first user turn.
 */
function systemTexts(body) {
  const texts = [systemText(body)];
  const leading = firstTurn(body).length;
  body.messages.forEach((m, i) => {
    const reminders = m.role === 'system' || (i < leading && m.role === 'user');
    if (!reminders) return;
    for (const b of textBlocks(m)) {
      if (b.type === 'text' && (m.role === 'system' || b.text.startsWith('<system-reminder>\nThe following skills'))) texts.push(b.text);
    }
  });
  return texts;
}

/** Splits a listing (`- name: description` entries) into entries. */
export function listingEntries(listing) {
  return listing.split(/\n(?=- )/).filter((l) => l.startsWith('- ')).map((l) => l.slice(2));
}

export function entryName(entry) {
  const colon = entry.indexOf(': ');
  return (colon < 0 ? entry : entry.slice(0, colon)).replace(/ \(.*\)$/, '');
}

/**
 * The skills listing every session gets: the user's entries as text, built-ins (the names in
 * `builtIns`) as lengths.
 */
function skillsListing(body, builtIns = BUILT_IN_SKILLS) {
  for (const text of systemTexts(body)) {
    const at = text.indexOf(SKILLS_MARKER);
    if (at < 0 || NEW_SKILLS.test(text)) continue;
    const rest = text.slice(at + SKILLS_MARKER.length);
    const end = rest.search(/\n\n|\n<\/system-reminder>/);
    const listing = end < 0 ? rest : rest.slice(0, end);
    const entries = listingEntries(listing);
    const user = entries.filter((e) => !builtIns.has(entryName(e)));
    const builtIn = entries.filter((e) => builtIns.has(entryName(e)));
    return {
      chars: units(SKILLS_MARKER) + units(listing),
      built_in: builtIn.length,
      built_in_chars: builtIn.reduce((n, e) => n + units(e) + 3, 0),
      entries: user,
    };
  }
  return null;
}

const AGENT_TYPES_MARKER = 'Available agent types for the Agent tool:\n';
const TOOL_AGENT_TYPES_MARKER = 'Available agent types and the tools they have access to:\n';
const CONCURRENCY_NOTE = 'When you launch multiple agents for independent work, send them in a single message with multiple tool uses so they run concurrently.';

/** The agent types every session lists whatever the user has; they are kept as lengths only. */
export const BUILT_IN_AGENTS = new Set(['claude', 'Explore', 'general-purpose', 'Plan', 'statusline-setup']);

/**
 * The listing of agent types a request carries, or null. 2.1.328 sends it in the system
 * message of the first user turn, among the environment, the deferred tools and the skills
 * listing: `Available agent types for the Agent tool:`, one `- <name>: <description> (Tools:
 * …)` line per agent, then (in the default permission mode) the note on launching agents
 * together. Older releases send it inside the description of the tool that starts
 * sub-agents (`Agent`, `Task` before it): `Available agent types and the tools they have
 * access to:` and the lines, up to the description's next paragraph; such a listing says
 * `in_tool: true`. `chars` counts from the opening to the note's end (to the last line's
 * end in a tool's description), the user's entries are kept as text (without `- `), the
 * built-in ones (`builtIns`: every name the case's own agents do not give) as lengths. An
 * entry ends with `)` before the next `\n- `: a description may hold line breaks, blank
 * lines and `- ` of its own.
 */
function agentTypes(body, builtIns = BUILT_IN_AGENTS) {
  const leading = firstTurn(body).length;
  const texts = [systemText(body)];
  body.messages.forEach((m, i) => {
    if (m.role !== 'system' && !(i < leading && m.role === 'user')) return;
    for (const b of textBlocks(m)) if (b.type === 'text') texts.push(b.text);
  });
  for (const text of texts) {
    const at = text.indexOf(AGENT_TYPES_MARKER);
    if (at < 0) continue;
    const rest = text.slice(at + AGENT_TYPES_MARKER.length);
    // Up to the note, or (releases without it, 2.1.263 among them) up to the skills listing
    // that follows in the same message: a description may hold blank lines of its own.
    const noteAt = rest.indexOf(`\n\n${CONCURRENCY_NOTE}`);
    const end = noteAt >= 0 ? noteAt : rest.search(/\n\n(?=The following skills)|\n<\/system-reminder>|$/);
    const note = noteAt >= 0 ? units(`\n\n${CONCURRENCY_NOTE}`) : 0;
    return { ...agentLines(rest.slice(0, end), units(AGENT_TYPES_MARKER) + note, builtIns), note: noteAt >= 0 };
  }
  for (const tool of body.tools || []) {
    if ((tool.name !== 'Agent' && tool.name !== 'Task') || typeof tool.description !== 'string') continue;
    const at = tool.description.indexOf(TOOL_AGENT_TYPES_MARKER);
    if (at < 0) continue;
    const rest = tool.description.slice(at + TOOL_AGENT_TYPES_MARKER.length);
    // The tool's next paragraph ("When using the Task tool, …", "When NOT to use …").
    const end = rest.search(/\n\nWhen |$/);
    return { ...agentLines(rest.slice(0, end), units(TOOL_AGENT_TYPES_MARKER), builtIns), note: false, in_tool: true };
  }
  return null;
}

/** The listing's lines split into the user's (as text) and the built-in ones (as lengths). */
function agentLines(listing, opening, builtIns) {
  const entries = listing.split(/(?<=\))\n(?=- )/).map((l) => l.slice(2));
  const name = (e) => e.slice(0, e.indexOf(': '));
  const builtIn = entries.filter((e) => builtIns.has(name(e)));
  return {
    chars: opening + units(listing),
    built_in: builtIn.length,
    built_in_chars: builtIn.reduce((n, e) => n + units(e) + 3, 0),
    entries: entries.filter((e) => !builtIns.has(name(e))),
  };
}

/**
 * The memory section of the main session's system prompt: "# Memory" in current releases,
 * "# auto memory" in older ones. When the section itself carries the index (older
 * releases), `index` is its text.
 */
function memorySection(body) {
  const text = systemText(body);
  const heading = text.search(/\n# (Memory|auto memory)\n/);
  if (heading < 0) return { enabled: false, dir: null, chars: 0 };
  const rest = text.slice(heading + 1);
  const next = rest.slice(1).search(/\n# /);
  const section = next < 0 ? rest : rest.slice(0, next + 1);
  // "memory at", "auto memory directory at", "memory system at": the first folder named.
  const dir = (section.match(/ at `(\/[^`]+)`/) || [])[1] || null;
  const out = { enabled: true, dir, chars: units(section) };
  const index = section.indexOf('\n## MEMORY.md\n\n');
  if (index >= 0) out.index = section.slice(index + '\n## MEMORY.md\n\n'.length);
  return out;
}

/** The attachments of a request: every `Contents of <path>:` reminder and skills announcement. */
function attachments(body) {
  const files = [];
  const skills = [];
  const leading = firstTurn(body).length;
  body.messages.forEach((m, i) => {
    if (i < leading) return;
    for (const b of textBlocks(m)) {
      if (b.type === 'tool_result') {
        // Some releases append what a Read attaches to the tool's result, one reminder a file.
        const content = typeof b.content === 'string' ? b.content
          : (b.content || []).map((c) => c.text || '').join('\n');
        for (const r of content.matchAll(/<system-reminder>\n(Contents of \/[\s\S]*?)\n<\/system-reminder>/g)) {
          for (const e of parseEntries(`\n\n${r[1]}`)) files.push({ path: e.path, text: e.text });
        }
        continue;
      }
      if (b.type !== 'text') continue;
      // A system message carries the context's token count after each batch of
      // attachments, and later batches and the program's own nudges are appended to the
      // same message. So the message is cut at each count, and each piece read alone: a
      // file ends where its batch does, and keeps its own final newline (2.1.233 to 2.1.306
      // send attachments untrimmed this way); the count takes only the blank line before it.
      for (const piece of b.text.split(/(?:\n\n)?<total_tokens>[^<]*<\/total_tokens>/)) {
        const text = piece.replace(/^\n+/, '');
        const announced = text.match(NEW_SKILLS);
        if (announced) {
          const at = text.indexOf(SKILLS_MARKER);
          const listing = at < 0 ? '' : text.slice(at + SKILLS_MARKER.length).replace(/\n+$/, '');
          skills.push({ dir: announced[1], entries: listingEntries(listing) });
          continue;
        }
        // A skill whose `paths` a Read matched: a listing of its own, in a system message
        // (2.1.328: `skills-listing-edge-paths`), with no folder named.
        if (m.role === 'system' && text.startsWith(SKILLS_MARKER)) {
          const listing = text.slice(SKILLS_MARKER.length).replace(/\n+$/, '');
          skills.push({ dir: null, entries: listingEntries(listing) });
          continue;
        }
        // In a reminder of the user turn, or (some releases) a system message of its own.
        const bare = text.startsWith('Contents of /');
        const listed = bare ? withoutNudge(text) : text;
        if (!bare && !text.startsWith('<system-reminder>\nContents of /')) continue;
        for (const e of parseEntries(bare ? `\n\n${listed}` : unwrapAttachment(text))) files.push({ path: e.path, text: e.text });
      }
    }
  });
  return { files, skills };
}

/**
 * The program's own nudges that some releases put among the files of the system message
 * that carries a Read's files, two newlines after a file (the task-tools nudge on 2.1.161
 * to 2.1.232, the keep-the-user-updated one on 2.1.280 to 2.1.306). Only their opening words
 * are kept here, enough to cut each nudge out up to the next file or the message's end.
 */
const NUDGES = ["The task tools haven't been used recently", "The user hasn't heard from you in a while"];

function withoutNudge(text) {
  let out = text;
  for (const opening of NUDGES) {
    for (let at = out.indexOf(`\n\n${opening}`); at >= 0; at = out.indexOf(`\n\n${opening}`, at)) {
      const next = out.indexOf('\n\nContents of ', at + 2);
      out = out.slice(0, at) + (next < 0 ? '' : out.slice(next));
    }
  }
  return out;
}

const key = (x) => JSON.stringify(x);

/** What arrived in `after` that `before` did not carry. */
function newAttachments(before, after) {
  const had = attachments(before);
  const now = attachments(after);
  const seenFiles = new Set(had.files.map(key));
  const seenSkills = new Set(had.skills.map(key));
  return {
    files: now.files.filter((f) => !seenFiles.has(key(f))),
    skills: now.skills.filter((s) => !seenSkills.has(key(s))),
  };
}

/** The agent-memory part of a sub-agent's system prompt. */
function agentMemory(body) {
  const text = systemText(body);
  const at = text.indexOf('# Persistent Agent Memory');
  if (at < 0) return null;
  const section = text.slice(at);
  const dir = (section.match(/memory system at `([^`]+)`/) || [])[1] || null;
  const idx = section.indexOf('\n## MEMORY.md\n\n');
  let index = null;
  if (idx >= 0) {
    const rest = section.slice(idx + '\n## MEMORY.md\n\n'.length);
    // What follows the index is the program's own text for sub-agents: the notes on paths
    // and replies before 2.1.198, the note on whose messages direct the work from it on.
    const ends = ['\n\nMessages from the agent that launched you', '\n\nNotes:\n- Agent threads']
      .map((marker) => rest.indexOf(marker))
      .filter((at) => at >= 0);
    index = ends.length ? rest.slice(0, Math.min(...ends)) : rest;
  }
  return { dir, index };
}

const HOOK_OUTPUT = /(SessionStart:[a-z]+|UserPromptSubmit) hook success: ([^\n]*)/g;
const MCP_FAILED = 'MCP servers are configured but failed to connect';

/**
 * What hooks and MCP servers added to the session's first request, which no file tells and
 * the report leaves out of its figure: each hook's output line (`<event> hook success: <text>`)
 * and each MCP server named as configured (the cases' servers never connect, so the
 * program names each under "failed to connect"). Sorted: the program runs hooks in
 * parallel, so their order changes from run to run. Null when there is neither (so every
 * other capture keeps its shape).
 */
function sessionTime(body) {
  const texts = [systemText(body)];
  for (const m of body.messages) for (const b of textBlocks(m)) if (b.type === 'text') texts.push(b.text);
  const hooks = [];
  const mcp = new Set();
  for (const text of texts) {
    for (const m of text.matchAll(HOOK_OUTPUT)) hooks.push(`${m[1]}: ${m[2]}`);
    let at = text.indexOf(MCP_FAILED);
    while (at >= 0) {
      const lines = text.slice(at).split('\n').slice(1);
      for (const line of lines) {
        const m = /^(\S+) \([A-Za-z_]+\): /.exec(line);
        if (!m) break;
        mcp.add(m[1]);
      }
      at = text.indexOf(MCP_FAILED, at + 1);
    }
  }
  if (!hooks.length && !mcp.size) return null;
  return { hooks: hooks.sort(), mcp_servers: [...mcp].sort() };
}

/**
 * Builds the capture from the stand-in's records and the case's script.
 * `script` is the list of steps the stand-in was given: { tool: 'Read', path } or
 * { tool: 'Agent', agent }. `builtIns` is the set of skill names the release lists in every
 * session, `builtInAgents` the set of its own agent names (default: the pinned release's).
 */
export function buildCapture({ release, records, script, builtIns, builtInAgents }) {
  // Older releases do not mark a sub-agent's requests; their system prompt opens otherwise
  // than the main session's (its third line names the agent).
  const flagged = records.some((r) => isSubAgent(r.body));
  const withTools = records.filter((r) => (r.body.tools || []).length > 0);
  // The billing line some releases open with carries a hash of each request (2.1.113 to
  // 2.1.163: `cch=…`), so it says nothing about whose request it is.
  const opening = (r) =>
    systemText(r.body)
      .split('\n')
      .filter((line) => !line.startsWith('x-anthropic-billing-header:'))
      .slice(0, 3)
      .join('\n');
  const mainOpening = withTools.length ? opening(withTools[0]) : null;
  const sub = (r) => (flagged ? isSubAgent(r.body) : opening(r) !== mainOpening);
  const main = withTools.filter((r) => !sub(r));
  const subs = withTools.filter(sub);
  if (!main.length) throw new Error('the program made no request with tools: it did not start a session');
  const first = main[0].body;
  const block = instructionBlock(first);
  const capture = {
    release,
    startup: block,
    skills: skillsListing(first, builtIns),
    agent_types: agentTypes(first, builtInAgents),
    memory: memorySection(first),
    reads: [],
    agents: [],
  };
  const extra = sessionTime(first);
  if (extra) capture.session_time = extra;
  script.forEach((step, i) => {
    const at = main.findIndex((r) => r.step === i);
    if (step.tool === 'Read') {
      if (at < 0 || at + 1 >= main.length) throw new Error(`read ${step.path} was never answered`);
      capture.reads.push({ path: step.path, ...newAttachments(main[at].body, main[at + 1].body) });
    }
  });
  const agents = script.filter((s) => s.tool === 'Agent');
  agents.forEach((step, i) => {
    const sub = subs[i];
    if (!sub) throw new Error(`sub-agent ${step.agent} made no request`);
    const b = instructionBlock(sub.body);
    capture.agents.push({
      agent: step.agent,
      files: b ? b.files : [],
      main_memory_section: memorySection(sub.body).enabled,
      agent_types: agentTypes(sub.body) !== null,
      // The skills listing a sub-agent's request carries (2.1.328: the main session's).
      skills: skillsListing(sub.body, builtIns),
      agent_memory: agentMemory(sub.body),
    });
  });
  return capture;
}
