//! The report: the one serialisable boundary of the core.
//!
//! Everything the web page, the scan command, the share feature and the tests know about an
//! analysis comes from these types. They are plain data with public fields; every collection
//! is in a fixed order before it leaves [`crate::analyze`], so the same tree always gives
//! byte-identical JSON.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

mod codes;
pub mod comparison;
pub mod verdict;
pub mod why;

pub use codes::Code;

/// The schema name carried by every report, bumped when a field changes meaning.
pub const REPORT_SCHEMA: &str = "memdiag-report/6";

/// The result of one analysis.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Report {
    /// Always [`REPORT_SCHEMA`].
    pub schema: String,
    /// The inputs and the facts derived from them before any file was listed.
    pub context: Context,
    /// Every discovered file, grouped in [`Group`] order, each reference directly after the
    /// file that holds it.
    pub files: Vec<FileRow>,
    /// The groups in display order with the counts their headers show.
    pub groups: Vec<GroupSummary>,
    /// The standing context cost.
    pub footprint: Footprint,
    /// Every folder of the projects base that has a `memory/` subfolder, by name.
    pub memory_folders: Vec<MemoryFolder>,
    /// Findings about the snapshot, in a stable order.
    pub diagnostics: Vec<Diagnostic>,
    /// What is lost or broken, most harmful first, one line each: what a reader shows first
    /// ([`verdict::verdict`]). Empty when nothing is.
    #[serde(default)]
    pub verdict: Vec<VerdictLine>,
    /// The answer to "is my memory working, and what is it losing?".
    pub health: Health,
    /// What every session starts with, in the order Claude Code sends it.
    pub session: Session,
    /// What a Read of each path in [`crate::Input::reads`] attaches, in that order.
    pub reads: Vec<ReadAnswer>,
    /// The rules the analysis applied: the caps, depth and thresholds of the simulated
    /// release and which measured behaviours apply, so that a reader draws only these.
    #[serde(default)]
    pub rules: RulesInForce,
    /// When a release is simulated: what differs from the pinned release's report of the
    /// same files (rows, findings, figures). Null for the pinned release itself.
    #[serde(default)]
    pub comparison: Option<comparison::Comparison>,
    /// What discovery read, counted or looked up besides the rows' text, and why: the
    /// settings layers, `~/.claude.json`, the `.git` that decides the git root, the rows it
    /// listed without reading, the memory folders and the files it counted in them, the
    /// project files that showed a rule can load, the folders links point to, the mount
    /// roots. A shared snapshot keeps exactly these and the rows ([`crate::sanitize()`]).
    #[serde(default)]
    pub sources: Vec<SourceRead>,
}

/// What findings of a code do to what Claude Code sends: the verdict's ranking, most harmful
/// first.
#[derive(
    Debug, Default, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Harm {
    /// Instructions load only in part, or not at all, in every session (a cut index, a file
    /// over 4 MiB).
    Cuts,
    /// Something the person wrote never loads, or loads otherwise than meant (an import that
    /// needs approval, a rule whose paths match nothing, a skill cut from the listing).
    Drops,
    /// Context is spent for little (a file near its caps, a large instruction file).
    Wastes,
    /// Worth a look, nothing lost (a link that leads nowhere, an orphaned topic file).
    #[default]
    Warns,
}

/// One line of the verdict: a kind of finding, how many, and the file a click opens.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct VerdictLine {
    /// What the findings do.
    pub harm: Harm,
    /// Their code.
    pub code: Code,
    /// The most serious of their severities.
    pub severity: Severity,
    /// How many findings the line stands for.
    pub count: u64,
    /// The line, for a person (a sentence: it quotes names, like a finding's message).
    pub message: String,
    /// The file of the first finding, which a click opens.
    pub path: Option<String>,
    /// Its line, when the finding has one.
    pub line: Option<u64>,
}

/// A file or folder discovery read or looked up that is not a row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SourceRead {
    /// Its path.
    pub path: String,
    /// Why discovery read it.
    pub why: ReadFor,
    /// For `~/.claude.json`: the project key whose approval was read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
}

/// Why discovery read a file that is not a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum ReadFor {
    /// A settings layer (user, project, local, managed policy): its keys that decide
    /// memory (`text::settings::READ_KEYS`).
    Settings,
    /// `~/.claude.json`: one project's external-import approval.
    ClaudeJson,
    /// A `.git` file: its `gitdir:` line names the main worktree.
    GitFile,
    /// A `.git` folder: it exists, so its parent is the git root.
    GitDir,
    /// Text that is no row and no sub-agent definition: an agent memory index.
    Text,
    /// A row listed by its size whose text was never read: bulk data, a file over the read
    /// cap, an instruction file the simulated release skips for its size.
    Unread,
    /// A file counted by its size, never read: a `.md` file of a memory folder.
    Counted,
    /// A file whose existence decided a reference's `exists` where it lists no row (a
    /// reference one hop past the rows).
    Exists,
    /// A file of the project that a conditional rule's `paths` matched (the first one): it
    /// shows that the rule can load.
    RuleWitness,
    /// A folder looked up or listed: a memory folder, an agent's memory folder, a folder a
    /// link points to, a folder whose path encodes to this project's memory folder name.
    Folder,
    /// A root of the snapshot: a path below it that is missing is missing, not outside.
    Mount,
    /// A sub-agent definition: its `name` keys the agent's memory folder, its `memory`
    /// names the folder's scope, and its name, description and tools make its line of the
    /// listing of agent types.
    AgentDefinition,
    /// A memory file whose modification day the growth chart read (its frontmatter names
    /// none); only its size besides, unless it is a row.
    Dated,
    /// An MCP configuration (`.mcp.json`, `managed-mcp.json`): its servers' names and the
    /// programs they start, listed in `session.not_counted`.
    McpConfig,
    /// A plugin's configuration: `installed_plugins.json`, `known_marketplaces.json`, a
    /// `marketplace.json`, a `plugin.json`, a plugin's `hooks/hooks.json`.
    PluginConfig,
}

impl ReadFor {
    /// True for a folder rather than a file.
    pub fn is_folder(self) -> bool {
        matches!(self, ReadFor::GitDir | ReadFor::Folder | ReadFor::Mount)
    }

    /// True when discovery read the file's text (or keys), not only its size or name.
    pub fn reads_text(self) -> bool {
        matches!(
            self,
            ReadFor::Settings
                | ReadFor::ClaudeJson
                | ReadFor::GitFile
                | ReadFor::Text
                | ReadFor::AgentDefinition
                | ReadFor::McpConfig
                | ReadFor::PluginConfig
        )
    }
}

/// The loading rules of the simulated release, as measured on the published releases.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RulesInForce {
    /// The release whose rules were applied: `current` or `2.1.80`.
    pub release: String,
    /// Lines of a `MEMORY.md` that load (200).
    pub memory_max_lines: u64,
    /// UTF-16 units of a `MEMORY.md` that load, or null for a release without that cap.
    pub memory_max_utf16: Option<u64>,
    /// Import hops that load below the file that starts the chain.
    pub import_max_hops: u32,
    /// An instruction file larger than this many bytes is skipped, or null for a release
    /// that read every size (before 2.1.196).
    pub file_max_bytes: Option<u64>,
    /// Claude Code's large-file notice threshold, in characters (UTF-16 units).
    pub large_file_chars: u64,
    /// Claude Code's notice threshold for all instruction files together.
    pub total_chars: u64,
    /// The budget the skills listing was fitted to: `SLASH_COMMAND_TOOL_CHAR_BUDGET`, else
    /// the release's share of its context window (`skillListingBudgetFraction` where read).
    #[serde(default)]
    pub skills_listing_budget: u64,
    /// True when that budget counts display columns (2.1.88 on); else UTF-16 units.
    #[serde(default)]
    pub skills_listing_counts_columns: bool,
    /// Every measured behaviour change, oldest first, and whether it applies.
    pub behaviours: Vec<BehaviourInForce>,
    /// What the simulated release was measured to do that the analysis does not reproduce:
    /// its figures are approximate there.
    pub not_reproduced: Vec<String>,
}

/// One measured behaviour change and whether the simulated release has it.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BehaviourInForce {
    /// A stable name (`memory-size-cap`).
    pub id: String,
    /// The first release with it.
    pub since: String,
    /// What it is, for a person.
    pub summary: String,
    /// True when the simulated release has it.
    pub applies: bool,
}

/// What every session starts with: the instruction block, the skills listing and the
/// memory section of the system prompt, in the order and words Claude Code sends them.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Session {
    /// The files of the instruction block, in the order they are sent.
    pub files: Vec<SentFile>,
    /// The listing lines of the user's skills (`<name>: <description>`), in listing order.
    pub skills: Vec<String>,
    /// The listing lines of the user's sub-agents (`<name>: <description> (Tools: …)`), in
    /// the order the agent types are listed, after Claude Code's built-in ones.
    pub agents: Vec<String>,
    /// The memory folder the system prompt names, or null when auto memory is off.
    pub memory_dir: Option<String>,
    /// The cost of each part, split into the user's text and Claude Code's own text.
    pub cost: SessionCost,
    /// What can load later, apart from what every session carries, each kind on its own.
    pub later: LaterCost,
    /// Hooks and MCP servers found in the configuration: they add text at session time that
    /// depends on running them, which no file tells, so [`SessionCost`] leaves it out. They
    /// are listed, never run. In the order they were found: the settings layers (the
    /// managed policy, the user's, the project's, local), then the MCP configuration.
    pub not_counted: Vec<NotCounted>,
    /// The plugins found: installed ones (enabled or not) and `--plugin-dir` ones, in the
    /// order their entries are listed.
    pub plugins: Vec<PluginInfo>,
}

/// A plugin and where it comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PluginInfo {
    /// The name its skills, commands and agents are listed under (`<name>:<skill>`): its
    /// manifest's `name`, else the installed key's.
    pub name: String,
    /// Where it comes from: its marketplace, or null for a `--plugin-dir` folder.
    pub marketplace: Option<String>,
    /// The folder its content is read from (the cached copy at `installPath`, a folder of
    /// its marketplace, or the `--plugin-dir`).
    pub folder: String,
    /// True when it loads: `enabledPlugins` says true (a `--plugin-dir` one always loads).
    pub enabled: bool,
}

/// A hook or an MCP server: configured in a file, it adds text when it runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct NotCounted {
    /// A hook or an MCP server.
    pub kind: NotCountedKind,
    /// A hook's event (`SessionStart`, `UserPromptSubmit`, …); null for an MCP server.
    pub event: Option<String>,
    /// An MCP server's name; null for a hook.
    pub server: Option<String>,
    /// A hook's matcher as written; null when it has none or an empty one.
    pub matcher: Option<String>,
    /// The program a hook runs or an MCP server starts, its name only: no folder, no
    /// arguments. Null for a hook that runs no command (a prompt) and a server reached by URL.
    pub program: Option<String>,
    /// The file it is configured in.
    pub path: String,
    /// Which configuration that file is.
    pub layer: ConfigLayer,
    /// When it adds its text.
    pub when: RunsWhen,
}

/// What kind of configured program a [`NotCounted`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum NotCountedKind {
    /// A hook: a command Claude Code runs on an event; what it prints may be sent.
    Hook,
    /// An MCP server: its tools' definitions and its instructions are sent with every
    /// request once it connects.
    McpServer,
}

/// Which configuration a hook or an MCP server comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum ConfigLayer {
    /// The managed policy (`managed-settings.json`, `managed-mcp.json`).
    Managed,
    /// The user's settings, or the user's MCP servers in `~/.claude.json`.
    User,
    /// The project's `.claude/settings.json`, or a `.mcp.json` of the project or a parent.
    Project,
    /// `.claude/settings.local.json`, or the project's MCP servers in `~/.claude.json`.
    Local,
    /// A plugin's `hooks/hooks.json` or `.mcp.json`.
    Plugin,
}

impl NotCounted {
    /// What it is, for a person: `SessionStart hook (matcher startup)`, `MCP server github`.
    pub fn describe(&self) -> String {
        match self.kind {
            NotCountedKind::Hook => {
                let event = self.event.as_deref().unwrap_or("?");
                match &self.matcher {
                    Some(matcher) => format!("{event} hook (matcher {matcher})"),
                    None => format!("{event} hook"),
                }
            }
            NotCountedKind::McpServer => {
                format!("MCP server {}", self.server.as_deref().unwrap_or("?"))
            }
        }
    }
}

impl ConfigLayer {
    /// The layer in a word.
    pub fn label(self) -> &'static str {
        match self {
            ConfigLayer::Managed => "managed",
            ConfigLayer::User => "user",
            ConfigLayer::Project => "project",
            ConfigLayer::Local => "local",
            ConfigLayer::Plugin => "plugin",
        }
    }
}

impl RunsWhen {
    /// When it runs, in a few words.
    pub fn label(self) -> &'static str {
        match self {
            RunsWhen::Startup => "at startup, its output in the first request",
            RunsWhen::SessionResumed => "when a session is resumed, cleared or compacted",
            RunsWhen::NoSource => "never: its matcher names no session source",
            RunsWhen::EachPrompt => "with every prompt, its output sent with it",
            RunsWhen::ToolCalls => "on tool calls",
            RunsWhen::OtherEvent => "on its event",
            RunsWhen::EverySession => "every session: its tools and instructions",
            RunsWhen::NeedsApproval => "once approved (asks first)",
            RunsWhen::Disabled => "never: switched off",
        }
    }
}

/// When a hook or an MCP server adds its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum RunsWhen {
    /// A `SessionStart` hook that runs when a session starts: its output is in the first
    /// request.
    Startup,
    /// A `SessionStart` hook whose matcher leaves out a new session (`resume`, `clear`,
    /// `compact`).
    SessionResumed,
    /// A `UserPromptSubmit` hook: it runs on every prompt.
    EachPrompt,
    /// A hook on tool calls (`PreToolUse`, `PostToolUse`, …).
    ToolCalls,
    /// A hook on another event (`Stop`, `Notification`, `PreCompact`, …).
    OtherEvent,
    /// An MCP server that starts with every session.
    EverySession,
    /// A project's MCP server not approved yet: an interactive session asks first (a
    /// `claude -p` session starts it, measured on 2.1.328).
    NeedsApproval,
    /// Switched off: `disabledMcpjsonServers`, `disableAllHooks`, or a server the managed
    /// policy's `managed-mcp.json` replaces.
    Disabled,
    /// A `SessionStart` hook whose matcher matches no source (`startup`, `resume`, `clear`,
    /// `compact`): it never runs (`tup`, `Startup`, an invalid expression).
    NoSource,
}

/// Files and characters (UTF-16 units, as Claude Code counts) of one kind of later load.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Figure {
    /// Files.
    pub files: u64,
    /// UTF-16 units of their text as it would be sent.
    pub utf16: u64,
}

/// What a session can take in after it starts, none of it counted in every session.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct LaterCost {
    /// Nested CLAUDE.md files, their folders' rules and what they import: they attach when
    /// Claude reads a file below their folder.
    pub on_read: Figure,
    /// Conditional rules (and their imports): they attach when Claude reads a file their
    /// globs match.
    pub conditional_rules: Figure,
    /// Memory topic files and skill bodies: they load only when Claude reads them.
    pub on_demand: Figure,
    /// Sub-agents' own memory indexes: a spawned sub-agent gets its own, the main session
    /// none.
    pub agent_memory: Figure,
}

/// One file as Claude Code sends it.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SentFile {
    /// The absolute path, as the `Contents of <path>` line names it.
    pub path: String,
    /// The index of its row in [`Report::files`].
    pub row: usize,
    /// The label after the path, or null where Claude Code shows none (files attached on a
    /// read).
    pub label: Option<SentLabel>,
    /// The text as sent (frontmatter and comments stripped, trimmed; a `MEMORY.md` cut, with
    /// its warning).
    pub loaded: Measure,
}

/// The label Claude Code puts after a file's path, which tells the model whose it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum SentLabel {
    /// ` (organization-managed policy instructions)`.
    Managed,
    /// ` (user's private global instructions for all projects)`.
    User,
    /// ` (project instructions, checked into the codebase)`.
    Project,
    /// ` (user's private project instructions, not checked in)`.
    Local,
    /// ` (user's auto-memory, persists across conversations)`.
    AutoMemory,
}

impl SentLabel {
    /// The text after the path, leading space and parentheses included.
    pub fn text(self) -> &'static str {
        match self {
            SentLabel::Managed => " (organization-managed policy instructions)",
            SentLabel::User => " (user's private global instructions for all projects)",
            SentLabel::Project => " (project instructions, checked into the codebase)",
            SentLabel::Local => " (user's private project instructions, not checked in)",
            SentLabel::AutoMemory => " (user's auto-memory, persists across conversations)",
        }
    }
}

/// Characters (UTF-16 code units, as Claude Code counts them) of one part of what a session
/// carries.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Cost {
    /// The user's own text: files as sent, the user's skills' listing lines.
    pub user: u64,
    /// Claude Code's text around it: the header, one `Contents of …` line per file, the
    /// memory instructions, the built-in skills. Modelled by its measured length per
    /// release, never copied.
    pub claude_code: u64,
}

impl Cost {
    /// Both parts together.
    pub fn total(self) -> u64 {
        self.user + self.claude_code
    }
}

/// What every session carries, part by part, and in all.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SessionCost {
    /// The `<system-reminder>` that lists the instruction files; zero when no file is sent.
    pub instruction_block: Cost,
    /// The skills listing, built-in skills included.
    pub skills_listing: Cost,
    /// The "# Memory" section of the system prompt; zero when auto memory is off.
    pub memory_section: Cost,
    /// The listing of agent types the main session's requests carry: the user's sub-agents'
    /// lines, and Claude Code's built-in agents' lines and the listing's opening.
    pub agents: Cost,
    /// The four together.
    pub total: Cost,
    /// An estimate: total UTF-16 units / 4, rounded half up. Not a tokenizer's count.
    pub tokens_estimate: u64,
}

/// What a Read of one file attaches, beyond what the session already carries.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ReadAnswer {
    /// The path read, as asked.
    pub path: String,
    /// The files that arrive with the read, in the order Claude Code sends them (no label).
    pub files: Vec<SentFile>,
    /// Skills announced by the read: `<name>: <description> (from <dir> — …)` lines.
    pub skills: Vec<String>,
    /// Their characters (UTF-16 units) as sent, framing included.
    pub cost: Cost,
    /// Why nothing could be said, when the path is not below the project.
    pub note: Option<String>,
}

/// The inputs of an analysis and what was derived from them.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Context {
    /// The home directory (`~`).
    pub home: String,
    /// The Claude config directory, `<home>/.claude` unless set otherwise.
    pub config_dir: String,
    /// The project directory, if one was given.
    pub project: Option<String>,
    /// The operating system the snapshot comes from.
    pub os: Os,
    /// Where auto-memory folders live: `<config>/projects` or `autoMemoryDirectory`.
    pub projects_base: String,
    /// The git root whose path keys the memory folder (the main worktree's for a linked
    /// worktree), or null outside a git repository.
    pub git_root: Option<String>,
    /// The memory folder Claude Code uses for the project, whether or not the snapshot holds
    /// it (`memory_found_via` is null when it does not); null without a project.
    pub memory_dir: Option<String>,
    /// Which lookup found the memory folder.
    pub memory_found_via: Option<MemoryLookup>,
    /// False when a settings file sets `autoMemoryEnabled: false`.
    pub auto_memory_enabled: bool,
    /// The settings file that decided `auto_memory_enabled`, if any said anything.
    pub auto_memory_setting_from: Option<String>,
    /// The encoded folder name the project's key path maps to.
    pub memory_folder_name: Option<String>,
    /// The Claude Code version whose rules were applied: `current` or `2.1.80`.
    pub version: String,
    /// The date the growth projection counts from (ISO 8601), if one was given.
    pub today: Option<String>,
}

/// The operating system a snapshot comes from; it decides the managed policy path.
#[derive(
    Debug, Default, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Os {
    /// Linux and WSL.
    #[default]
    Linux,
    /// macOS.
    Macos,
    /// Windows.
    Windows,
}

/// How the memory folder was found, first hit wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum MemoryLookup {
    /// The encoded git root (or project) path.
    Path,
    /// The encoded path of the main worktree, for a linked worktree.
    Worktree,
    /// The older encoding that changed only `\`, `/` and `:`.
    SeedEncoding,
    /// A folder whose name ends with the encoded last two segments of the project path.
    Suffix,
}

/// The tree groups, in display order.
#[derive(
    Debug, Default, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Group {
    /// The administrator's CLAUDE.md.
    #[serde(rename = "Managed Policy")]
    #[default]
    ManagedPolicy,
    /// `<config>/CLAUDE.md`.
    User,
    /// CLAUDE.md and CLAUDE.local.md of the project, its parents and its subdirectories.
    Project,
    /// `.claude/rules/` of the user and of the project.
    Rules,
    /// The project's auto-memory folder.
    #[serde(rename = "Auto Memory")]
    AutoMemory,
    /// SKILL.md files.
    Skills,
    /// Custom slash commands (`.claude/commands/**/*.md`), listed with the skills.
    Commands,
    /// Sub-agents' memory folders.
    #[serde(rename = "Agent Memory")]
    AgentMemory,
}

impl Group {
    /// Every group in display order.
    pub const ALL: [Group; 8] = [
        Group::ManagedPolicy,
        Group::User,
        Group::Project,
        Group::Rules,
        Group::AutoMemory,
        Group::Skills,
        Group::Commands,
        Group::AgentMemory,
    ];

    /// The name the tree header shows.
    pub fn name(self) -> &'static str {
        match self {
            Group::ManagedPolicy => "Managed Policy",
            Group::User => "User",
            Group::Project => "Project",
            Group::Rules => "Rules",
            Group::AutoMemory => "Auto Memory",
            Group::Skills => "Skills",
            Group::Commands => "Commands",
            Group::AgentMemory => "Agent Memory",
        }
    }
}

/// When Claude Code loads a file.
#[derive(
    Debug, Default, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum LoadType {
    /// In every session.
    #[default]
    Always,
    /// At session start, up to a size cap (`MEMORY.md`).
    Startup,
    /// When Claude works on a file that matches the rule's `paths`.
    Conditional,
    /// Only when Claude reads it (a skill body, a memory topic file).
    OnDemand,
    /// When Claude works in that subdirectory (nested CLAUDE.md).
    Tree,
    /// With the file that imports it.
    Import,
    /// Never by itself: a Markdown link only points to it.
    Link,
}

impl LoadType {
    /// The icon the tree shows for this load type.
    pub fn icon(self) -> &'static str {
        match self {
            LoadType::Always => "●",
            LoadType::Startup => "◒",
            LoadType::Conditional => "○",
            LoadType::OnDemand => "◌",
            LoadType::Tree => "◎",
            LoadType::Import => "@",
            LoadType::Link => "↗",
        }
    }

    /// The name the icon's tooltip shows.
    pub fn label(self) -> &'static str {
        match self {
            LoadType::Always => "Always",
            LoadType::Startup => "Startup",
            LoadType::Conditional => "Conditional",
            LoadType::OnDemand => "On-demand",
            LoadType::Tree => "Tree",
            LoadType::Import => "Import",
            LoadType::Link => "Link",
        }
    }

    /// Rows of these types load only sometimes; the tree shows them muted.
    pub fn is_muted(self) -> bool {
        matches!(
            self,
            LoadType::Conditional | LoadType::OnDemand | LoadType::Tree | LoadType::Link
        )
    }
}

/// Whose file a top-level row is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// Set by an administrator.
    Managed,
    /// The user's config directory.
    User,
    /// Shared with the project.
    Project,
    /// CLAUDE.local.md and `agent-memory-local`: personal to this checkout.
    Local,
}

/// What became of a listed file.
#[derive(
    Debug, Default, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum FileStatus {
    /// Found and handled by the usual rules.
    #[default]
    Ok,
    /// A reference whose target does not exist.
    Unresolved,
    /// Matched by `claudeMdExcludes`.
    Excluded,
    /// Auto memory is switched off in settings.
    Disabled,
    /// Too large for Claude Code to load, or for the page to read.
    Skipped,
    /// An import beyond the maximum depth.
    TooDeep,
    /// An import from a project, local or managed file that leaves the project folder: it
    /// loads only once the user approves external imports for the project.
    NeedsApproval,
    /// Read, but nothing is left once frontmatter and comments are stripped and the text
    /// trimmed: Claude Code does not send it.
    Empty,
    /// A file with a non-text extension that an import names: Claude Code skips it.
    NotText,
}

/// Why a reference did not resolve.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum UnresolvedReason {
    /// The target lies inside a folder the snapshot holds, and is not there.
    Missing,
    /// The target lies outside every folder the snapshot holds, so nothing can be said.
    OutsideSnapshot,
    /// The target lies inside a folder the snapshot holds, but where the source did not look:
    /// a folder it left unlisted, or session data (transcripts and their folders) that no
    /// reader of a `~/.claude` lists. It may exist; it is never called missing.
    NotLookedAt,
}

/// The kind of reference that made a row.
#[derive(
    Debug, Default, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum ReferenceKind {
    /// `@path/to/file.md`.
    #[default]
    Import,
    /// `[text](file.md)`.
    Link,
}

/// Sizes of a text in the four units that matter.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Measure {
    /// UTF-8 bytes.
    pub bytes: u64,
    /// Unicode scalar values.
    pub chars: u64,
    /// UTF-16 code units: what a JavaScript `length` counts, and what Claude Code's caps count.
    pub utf16: u64,
    /// Lines as Rust's `str::lines` counts them.
    pub lines: u64,
}

/// What Claude Code's 200-line and 25,000-unit caps did to a `MEMORY.md`.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Truncation {
    /// Lines of the stripped, trimmed index.
    pub total_lines: u64,
    /// Lines that load.
    pub loaded_lines: u64,
    /// UTF-16 units of the stripped, trimmed index.
    pub total_utf16: u64,
    /// UTF-16 units that load.
    pub loaded_utf16: u64,
    /// Which cap cut: `lines`, `size` (also when both applied), or null when nothing was cut.
    pub cut_by: Option<CutBy>,
    /// The 1-based line number in the raw file of the first line that does not load.
    pub first_dropped_line: Option<u64>,
    /// The warning Claude Code appends to the loaded text when the caps cut, word for word
    /// (it is part of `loaded` on the row), or null when nothing was cut.
    pub warning: Option<String>,
}

/// The cap that cut a `MEMORY.md`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum CutBy {
    /// The 200-line cap.
    Lines,
    /// The 25,000-unit cap.
    Size,
}

/// One row of the tree.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FileRow {
    /// The absolute virtual path.
    pub path: String,
    /// The group the row shows in.
    pub group: Group,
    /// When Claude Code loads it.
    pub load: LoadType,
    /// Whose file it is; set on top-level rows where it applies.
    pub scope: Option<Scope>,
    /// The path of the file that references this one, or null for a top-level row.
    pub parent: Option<String>,
    /// The index in `files` of the referencing row, or null for a top-level row.
    pub parent_index: Option<usize>,
    /// Reference hops from the top-level row (0 for a top-level row).
    pub depth: u32,
    /// The size the snapshot lists, in bytes, or null when the file does not exist.
    pub size: Option<u64>,
    /// Measurement of the whole file, or null when it was not read.
    pub raw: Option<Measure>,
    /// Measurement of what loads, or null where nothing loads.
    pub loaded: Option<Measure>,
    /// Of `loaded`, the text Claude Code writes itself rather than the file's: around a
    /// `MEMORY.md`, the sentence before quoted notes (2.1.337), the `> ` before each line and
    /// the warning after a cut index. Null where it adds none. The footprint and the session
    /// cost count it as Claude Code's, not as the user's.
    pub claude_code: Option<Measure>,
    /// True when the row is part of the footprint. A file referenced twice counts once.
    pub counted: bool,
    /// What became of it.
    pub status: FileStatus,
    /// Why an unresolved reference did not resolve.
    pub unresolved_reason: Option<UnresolvedReason>,
    /// How this row was referenced, for rows below a top-level row.
    pub reference: Option<ReferenceSite>,
    /// The skill's name (`<subdir>:<name>` for skills in project subdirectories).
    pub skill_name: Option<String>,
    /// The skill's listing cost: name, description and `when_to_use` as the skill list holds them.
    pub skill_listing: Option<Measure>,
    /// The `skillOverrides` value that changes how the listing shows this skill or command
    /// (`off`, `user-invocable-only`, `name-only`), when one does.
    pub skill_override: Option<String>,
    /// The UTF-16 units that override keeps out of every session: the whole line (with its
    /// `\n- `) for `off` and `user-invocable-only`, the description for `name-only` (before
    /// the budget, which may give the room to other lines).
    pub skill_override_saves: Option<u64>,
    /// A rule's `paths` globs; empty for a rule that loads always.
    pub paths: Option<Vec<String>>,
    /// The agent whose memory folder holds this file.
    pub agent: Option<String>,
    /// What the caps did to a `MEMORY.md`.
    pub truncation: Option<Truncation>,
    /// The frontmatter, key by key, values as YAML text: at most the first 100 keys, each
    /// key and value cut to 300 characters (`…` marks a cut).
    pub frontmatter: Vec<FrontmatterField>,
    /// Frontmatter keys past the first 100, counted but not carried.
    #[serde(default)]
    pub frontmatter_omitted: u64,
    /// Every reference the file holds and where each resolves.
    pub references: Vec<ReferenceSite>,
    /// True for a `MEMORY.md` that is not in the snapshot but that Claude Code writes (from
    /// the topic files' frontmatter) and loads at its next start.
    pub backfilled: bool,
}

/// One frontmatter key and its value.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FrontmatterField {
    /// The key as written.
    pub key: String,
    /// The value rendered as single-line text.
    pub value: String,
}

/// A reference in a file: where it stands and where it leads.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ReferenceSite {
    /// Import or link.
    pub kind: ReferenceKind,
    /// The target as written (`@` and `#fragment` removed).
    pub target: String,
    /// The 1-based line in the raw file.
    pub line: u64,
    /// The resolved absolute path.
    pub resolved: Option<String>,
    /// True when the resolved path exists in the snapshot.
    pub exists: bool,
}

/// A tree group's header.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct GroupSummary {
    /// The group.
    pub name: Group,
    /// Top-level rows in the group: the number the header shows.
    pub top_level_files: u64,
    /// All rows in the group, references included.
    pub rows: u64,
}

/// The standing cost of memory: what can load in a session without Claude reading it on purpose.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Footprint {
    /// Counted files (skills are listings, not files, and add characters only).
    pub files: u64,
    /// Unicode scalar values.
    pub chars: u64,
    /// UTF-8 bytes.
    pub bytes: u64,
    /// UTF-16 code units.
    pub utf16: u64,
    /// Counted files whose load type is always or startup.
    pub always_loaded: u64,
    /// An estimate: UTF-16 units / 4, rounded half up. Not a tokenizer's count.
    pub tokens_estimate: u64,
    /// The same figures per group, keyed by group name; every group is present.
    pub groups: BTreeMap<String, GroupFootprint>,
}

/// Footprint figures of one group.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct GroupFootprint {
    /// Counted files.
    pub files: u64,
    /// Unicode scalar values.
    pub chars: u64,
    /// UTF-8 bytes.
    pub bytes: u64,
    /// UTF-16 code units.
    pub utf16: u64,
    /// Counted files whose load type is always or startup.
    pub always_loaded: u64,
    /// UTF-16 units / 4, rounded half up.
    pub tokens_estimate: u64,
}

/// A folder of the projects base that holds a `memory/` subfolder.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct MemoryFolder {
    /// The folder name, an encoded path.
    pub name: String,
    /// A best guess at the path it encodes. Encoding is lossy: `-` stood for `/`, `.`, `_`,
    /// a space or any non-ASCII character.
    pub decoded_guess: String,
    /// `.md` files under its `memory/`, recursively.
    pub files: u64,
    /// True for the folder the project maps to.
    pub current: bool,
}

/// How serious a finding is.
#[derive(
    Debug, Default, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Something is lost or broken.
    Error,
    /// Something will be lost soon, or looks wrong.
    Warning,
    /// Worth knowing.
    #[default]
    Info,
}

/// One finding.
#[derive(Debug, Default, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Diagnostic {
    /// What kind of finding it is; `import-cycle` in JSON.
    pub code: Code,
    /// How serious it is.
    pub severity: Severity,
    /// The file it is about, if any.
    pub path: Option<String>,
    /// The 1-based line in that file, if any.
    pub line: Option<u64>,
    /// A sentence for a person.
    pub message: String,
    /// Evidence beyond the message, for findings that carry it.
    pub data: Option<DiagnosticData>,
}

/// Evidence attached to a finding.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum DiagnosticData {
    /// The index entries a truncation drops, newest last.
    DroppedEntries {
        /// The dropped lines, the first 500 of them.
        entries: Vec<DroppedEntry>,
        /// Dropped lines beyond those listed.
        more: u64,
    },
    /// Line numbers the finding applies to.
    Lines {
        /// 1-based raw line numbers.
        lines: Vec<u64>,
    },
    /// Other paths the finding is about (a lookalike folder, a colliding project).
    Paths {
        /// Absolute paths.
        paths: Vec<String>,
    },
}

/// One index line that does not load.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DroppedEntry {
    /// The 1-based line in the raw file.
    pub line: u64,
    /// The line as written: its first 300 characters, and `…` when it is longer.
    pub text: String,
    /// True when it looks like a correction of an earlier entry ("not", "instead", "no
    /// longer", …, or a topic file an earlier entry links to): the newest lines go first.
    pub correction: bool,
}

/// The health view: the five reasons memory "looks off", and each memory folder's figures.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Health {
    /// The five reasons, in the seed's order.
    pub reasons: Vec<ReasonCheck>,
    /// One entry per memory folder analysed: the project's auto memory, then each agent's.
    pub memories: Vec<MemoryHealth>,
    /// Sub-agents defined in `<config>/agents/` and in `.claude/agents/` of the project
    /// folder and each parent up to the git root, subfolders included: those in force in
    /// listing order, then the shadowed ones.
    pub agents: Vec<AgentInfo>,
}

/// The five reasons auto memory can look off.
#[derive(
    Debug, Default, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum ReasonId {
    /// The project maps to a different memory folder than expected.
    #[default]
    DifferentFolder,
    /// Nothing was saved yet.
    NothingSaved,
    /// Auto memory is switched off.
    SwitchedOff,
    /// Sub-agents do not get the main conversation's auto memory.
    SubAgent,
    /// The index loaded, but not all of it.
    Truncated,
}

/// One reason, checked.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ReasonCheck {
    /// Which reason.
    pub id: ReasonId,
    /// The reason as a question a person asks.
    pub title: String,
    /// True when nothing was found for it.
    pub ok: bool,
    /// One sentence: what was found, or why it is fine.
    pub summary: String,
    /// The diagnostic codes that are its evidence.
    pub codes: Vec<Code>,
    /// What the snapshot cannot show (environment variables, flags).
    pub note: Option<String>,
}

/// Figures for one memory folder.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct MemoryHealth {
    /// The memory folder.
    pub folder: String,
    /// The agent whose folder it is, or null for auto memory.
    pub agent: Option<String>,
    /// The index, if there is one.
    pub index: Option<String>,
    /// Lines of the stripped, trimmed index.
    pub index_lines: u64,
    /// Mean characters per non-empty index line, one decimal.
    pub mean_line_chars: f64,
    /// Mean UTF-8 bytes per non-empty index line, one decimal.
    pub mean_line_bytes: f64,
    /// Index lines over 150 characters.
    pub long_lines: u64,
    /// Topic files (every `.md` but the index).
    pub topic_files: u64,
    /// Topic files without a `modified` timestamp.
    pub without_timestamp: u64,
    /// Topic files no loaded index line links to (none at all, or only lines past the cap).
    pub orphan_topics: u64,
    /// Files per frontmatter `type` (`user`, `feedback`, `project`, `reference`, `none`,
    /// `unknown`).
    pub types: BTreeMap<String, u64>,
    /// Growth over the last 60 days and the projected dates, when a date was given.
    pub growth: Option<Growth>,
}

/// How fast a memory folder grows and when its index reaches the caps.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Growth {
    /// The date counted from.
    pub today: String,
    /// Files dated in each of the last nine weeks, oldest first.
    pub weeks: Vec<WeekCount>,
    /// Mean files per week over the last 60 days, one decimal.
    pub files_per_week: f64,
    /// Estimated index lines at each week's end (today's lines less the files dated
    /// after it), oldest first; the last point is today.
    pub history: Vec<WeekCount>,
    /// The projected date the index reaches 160 lines (80 %), if it grows.
    pub reaches_80_percent: Option<String>,
    /// The projected date the index reaches 200 lines, if it grows.
    pub reaches_limit: Option<String>,
    /// Files whose date came from the archive's entry time, not from `modified`.
    pub dated_by_file_time: u64,
}

/// A count for the week that starts on `start`.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WeekCount {
    /// The first day of the week (ISO 8601 date).
    pub start: String,
    /// Files (or index lines, in `history`).
    pub count: u64,
}

/// A sub-agent definition, its memory, and what it receives when spawned.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct AgentInfo {
    /// The agent's name.
    pub name: String,
    /// The definition file.
    pub path: String,
    /// Whose definition it is: the user's (`<config>/agents/`) or the project's
    /// (`.claude/agents/` of the working directory or a parent up to the git root).
    pub scope: Option<Scope>,
    /// Its line in the listing of agent types (`<name>: <description> (Tools: …)`, without
    /// the `- ` before it) as sent in every session; null when another definition of the
    /// same name shadows it.
    pub listed: Option<Measure>,
    /// The definition in force instead of this one (a project agent shadows the user's of
    /// the same name), or null.
    pub shadowed_by: Option<String>,
    /// The `memory` scope from its frontmatter, if it has one.
    pub memory: Option<Scope>,
    /// The memory folder that scope maps to.
    pub memory_dir: Option<String>,
    /// True when that folder exists in the snapshot.
    pub memory_exists: bool,
    /// The files a spawned instance receives in its instruction block: the same project
    /// files and main `MEMORY.md` as the main session (measured on 2.1.328).
    pub receives: Vec<SentFile>,
    /// The skills listing its request carries: the main session's, with the commands and
    /// the plugins' entries (measured on 2.1.328: `agents-subagent-receives-the-skills-listing`).
    /// Its request carries no listing of agent types.
    pub skills_listing: Cost,
    /// Its own memory index as appended to its system prompt, capped like `MEMORY.md`, or
    /// null when it has none.
    pub memory_index: Option<Measure>,
}

impl Diagnostic {
    /// A finding about a file (or about nothing in particular when `path` is `None`).
    pub fn new(
        code: Code,
        severity: Severity,
        path: Option<&str>,
        message: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic {
            code,
            severity,
            path: path.map(str::to_owned),
            line: None,
            message: message.into(),
            data: None,
        }
    }

    /// The same finding, with evidence.
    pub fn with_data(mut self, data: DiagnosticData) -> Diagnostic {
        self.data = Some(data);
        self
    }

    /// The same finding, pinned to a line.
    pub fn at_line(mut self, line: u64) -> Diagnostic {
        self.line = Some(line);
        self
    }
}
