//! Claude Code releases: the ones published, the ones measured, and the behaviour changes
//! the measurements show.
//!
//! Every row of [`RULE_CHANGES`] was found by running the conformance cases on published
//! releases (`tests/conformance/releases.mjs`): its first release is the first one, in the
//! published list, whose captures show the new behaviour, and the release before it in that
//! list still shows the old one. The replay (`tests/tests/conformance.rs`) checks that the
//! captures of the cases a row names really differ across that boundary, and that the core's
//! report matches every recorded release's captures.
//!
//! Releases older than [`FIRST_SIMULATED`] are refused: they were measured to differ in ways
//! the core does not reproduce (see [`UNSIMULATED_BEFORE`]), and a guess would be a
//! confident wrong answer.

use std::fmt;

use crate::text::memory_index::WarningStyle;

/// A Claude Code release number, `major.minor.patch`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ClaudeVersion(pub u32, pub u32, pub u32);

impl ClaudeVersion {
    /// Parses `2.1.80` (a leading `v` is allowed).
    ///
    /// # Errors
    /// Anything that is not three dot-separated numbers, with a message for a person.
    pub fn parse(text: &str) -> Result<ClaudeVersion, String> {
        let trimmed = text.trim().trim_start_matches('v');
        let parts: Vec<&str> = trimmed.split('.').collect();
        let numbers: Option<Vec<u32>> = parts.iter().map(|p| p.parse().ok()).collect();
        match numbers.as_deref() {
            Some([major, minor, patch]) => Ok(ClaudeVersion(*major, *minor, *patch)),
            _ => Err(format!("{text:?} is not a Claude Code version like 2.1.80")),
        }
    }

    /// True when npm lists this release ([`PUBLISHED_RELEASES`]).
    pub fn is_published(self) -> bool {
        PUBLISHED_RELEASES.binary_search(&self).is_ok()
    }
}

impl fmt::Display for ClaudeVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.0, self.1, self.2)
    }
}

/// A behaviour of Claude Code that changed at a measured release.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Behaviour {
    /// Linked git worktrees use the main worktree's memory folder and project entry.
    WorktreesShareMemory,
    /// The `autoMemoryDirectory` setting moves the memory folder.
    AutoMemoryDirectory,
    /// `MEMORY.md` is cut at 25,000 UTF-16 units as well as 200 lines.
    MemorySizeCap,
    /// A YAML list in a rule's `paths` is a list of patterns.
    PathsList,
    /// The warning on a cut `MEMORY.md` says "Only part of it was loaded".
    WarningPartLoaded,
    /// The warning names what was cut and where.
    WarningDetailed,
    /// `AGENTS.md` loads when the walk sends no `CLAUDE.md`.
    AgentsMdFallback,
    /// A memory folder with topic files and no `MEMORY.md` gets an index written.
    IndexBackfill,
    /// The managed policy's files are labelled as organization-managed instructions.
    ManagedLabel,
    /// `MEMORY.md` loses its carriage returns and other control and format characters.
    MemoryIndexCleaned,
    /// `autoMemoryDirectory` is read from the project's settings too.
    ProjectMemoryDirectory,
    /// `skillListingMaxDescChars` sets where the skills listing cuts a description.
    SkillListingMaxDescChars,
    /// The instruction block's files are trimmed before they are sent.
    InstructionFilesTrimmed,
    /// Block HTML comments are stripped from the files sent.
    CommentsStripped,
    /// The managed settings' inline `claudeMd` is sent with the instructions.
    ManagedInlineInstructions,
    /// A skill whose frontmatter names it otherwise than its folder is listed as
    /// `<folder> (<name>)`.
    SkillDeclaredNameShown,
    /// A byte order mark is dropped when a file is read, so frontmatter after it counts.
    BomStripped,
    /// A skill without a frontmatter description is listed (by its body's first line).
    SkillsWithoutDescriptionListed,
    /// The skills listing cuts every description at 250 UTF-16 units.
    SkillDescriptionsCut,
    /// Over its budget, the skills listing measures lines in display columns, not units.
    ListingCountsColumns,
    /// Over its budget, the skills listing gives whole descriptions back in listing order
    /// instead of cutting every competing one to the same length.
    ListingFillsInOrder,
    /// A Read below a folder with `.claude/skills/` announces those skills.
    SubfolderSkillsAnnounced,
    /// `skillListingBudgetFraction` sets the skills listing's share of the context window.
    ListingBudgetFractionSetting,
    /// A CLAUDE.md-family file over 4 MiB is skipped; before, every size was read whole.
    FileSizeCap,
    /// A linked worktree nested in its main repository takes only `CLAUDE.local.md` from
    /// the main repository's folders above it; before, every file of those folders.
    NestedWorktreeLocalOnly,
    /// A `.claude/rules` linked outside the working folder, or a link inside one leading out
    /// of it, is followed only where the walk may leave it (the user's rules, approved
    /// external imports); before, always.
    LinkedRulesConfined,
    /// A Read in a `claude -p` or SDK session attaches the folder's files and the rules it
    /// matches, as in an interactive session; before, it attached nothing there.
    PrintSessionReadsAttach,
    /// `MEMORY.md` is sent as quoted notes: a sentence on where they come from, then each
    /// line after `> ` (its load warning too).
    MemoryIndexQuoted,
    /// A sub-agent's frontmatter that strict YAML rejects (an unquoted second colon) is read
    /// leniently; before, the file was no agent.
    AgentFrontmatterLenient,
    /// A sub-agent whose name starts with `-` is no agent.
    AgentNameNoLeadingHyphen,
    /// The working directory's sub-agents shadow a parent folder's of the same name;
    /// before, the parent's won.
    DeeperAgentsShadow,
    /// A sub-agent whose name holds a colon is no agent.
    AgentNameNoColon,
    /// A sub-agent whose name is over 256 UTF-16 units is no agent.
    AgentNameCapped,
    /// Frontmatter with CRLF line ends that both YAML readings reject is read a third time
    /// with LF line ends, so a value with `: ` or `#` in it is quoted as on LF files.
    FrontmatterLfRetry,
}

impl Behaviour {
    /// A stable name for the report and the page (`memory-size-cap`).
    pub fn id(self) -> &'static str {
        match self {
            Behaviour::WorktreesShareMemory => "worktrees-share-memory",
            Behaviour::AutoMemoryDirectory => "auto-memory-directory",
            Behaviour::MemorySizeCap => "memory-size-cap",
            Behaviour::PathsList => "paths-list",
            Behaviour::WarningPartLoaded => "warning-part-loaded",
            Behaviour::WarningDetailed => "warning-detailed",
            Behaviour::AgentsMdFallback => "agents-md-fallback",
            Behaviour::IndexBackfill => "index-backfill",
            Behaviour::ManagedLabel => "managed-label",
            Behaviour::MemoryIndexCleaned => "memory-index-cleaned",
            Behaviour::ProjectMemoryDirectory => "project-memory-directory",
            Behaviour::SkillListingMaxDescChars => "skill-listing-max-desc-chars",
            Behaviour::InstructionFilesTrimmed => "instruction-files-trimmed",
            Behaviour::CommentsStripped => "comments-stripped",
            Behaviour::ManagedInlineInstructions => "managed-inline-instructions",
            Behaviour::SkillDeclaredNameShown => "skill-declared-name-shown",
            Behaviour::BomStripped => "bom-stripped",
            Behaviour::SkillsWithoutDescriptionListed => "skills-without-description-listed",
            Behaviour::SkillDescriptionsCut => "skill-descriptions-cut",
            Behaviour::ListingCountsColumns => "skills-listing-counts-columns",
            Behaviour::ListingFillsInOrder => "skills-listing-fills-in-order",
            Behaviour::SubfolderSkillsAnnounced => "subfolder-skills-announced",
            Behaviour::ListingBudgetFractionSetting => "skills-listing-budget-fraction-setting",
            Behaviour::FileSizeCap => "file-size-cap",
            Behaviour::NestedWorktreeLocalOnly => "nested-worktree-local-only",
            Behaviour::LinkedRulesConfined => "linked-rules-confined",
            Behaviour::PrintSessionReadsAttach => "print-session-reads-attach",
            Behaviour::MemoryIndexQuoted => "memory-index-quoted",
            Behaviour::AgentFrontmatterLenient => "agent-frontmatter-lenient",
            Behaviour::AgentNameNoLeadingHyphen => "agent-name-no-leading-hyphen",
            Behaviour::DeeperAgentsShadow => "deeper-agents-shadow",
            Behaviour::AgentNameNoColon => "agent-name-no-colon",
            Behaviour::AgentNameCapped => "agent-name-capped",
            Behaviour::FrontmatterLfRetry => "frontmatter-lf-retry",
        }
    }
}

/// A release at which a behaviour the analysis reproduces changed, and the conformance
/// cases whose captures show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleChange {
    /// The first published release with the new behaviour.
    pub version: ClaudeVersion,
    /// The published release just before it, the last with the old behaviour.
    pub before: ClaudeVersion,
    /// What changed.
    pub behaviour: Behaviour,
    /// What changed, for a person choosing a version.
    pub summary: &'static str,
    /// The conformance cases (`fixtures/conformance/<case>/`) whose captures on
    /// [`RuleChange::before`] and [`RuleChange::version`] differ by this change.
    pub cases: &'static [&'static str],
}

/// The first release the core simulates; older ones are refused.
pub const FIRST_SIMULATED: ClaudeVersion = ClaudeVersion(2, 1, 59);

/// The release the core reproduces when no release is simulated: the one the conformance
/// suite runs (pinned in `scripts/npm/package.json`; `tests/tests/comparison.rs` checks the
/// two agree).
pub const PINNED: ClaudeVersion = ClaudeVersion(2, 1, 337);

/// What releases before [`FIRST_SIMULATED`] were measured to do differently, for the
/// message that refuses them.
pub const UNSIMULATED_BEFORE: &str =
    "releases before 2.1.59 have no auto memory and were not measured";

/// The measured behaviour changes, oldest first. Each is proven by the captures of the cases
/// it names on [`RuleChange::before`] and [`RuleChange::version`].
pub const RULE_CHANGES: &[RuleChange] = &[
    RuleChange {
        version: ClaudeVersion(2, 1, 63),
        before: ClaudeVersion(2, 1, 62),
        behaviour: Behaviour::WorktreesShareMemory,
        summary: "a linked git worktree uses its main worktree's memory folder and its \
                  ~/.claude.json project entry (the external-import approval); before, its own",
        cases: &[
            "auto-memory-linked-worktree-uses-main-repository",
            "generated-03",
        ],
    },
    RuleChange {
        version: ClaudeVersion(2, 1, 74),
        before: ClaudeVersion(2, 1, 73),
        behaviour: Behaviour::AutoMemoryDirectory,
        summary: "the autoMemoryDirectory setting moves the memory folder",
        cases: &[
            "auto-memory-directory-local-settings-tilde",
            "auto-memory-directory-user-settings-tilde-is-the-folder",
        ],
    },
    RuleChange {
        version: ClaudeVersion(2, 1, 69),
        before: ClaudeVersion(2, 1, 68),
        behaviour: Behaviour::SkillsWithoutDescriptionListed,
        summary: "a skill without a frontmatter description is listed, by its body's first \
                  line; before, it was left out of the listing",
        cases: &["skills-listing-line-forms"],
    },
    RuleChange {
        version: ClaudeVersion(2, 1, 69),
        before: ClaudeVersion(2, 1, 68),
        behaviour: Behaviour::NestedWorktreeLocalOnly,
        summary: "a linked worktree nested in its main repository takes only CLAUDE.local.md \
                  from the main repository's folders above it; before, their CLAUDE.md, \
                  .claude/CLAUDE.md and rules too",
        cases: &["worktree-nested-in-main-repository-walk"],
    },
    RuleChange {
        version: ClaudeVersion(2, 1, 69),
        before: ClaudeVersion(2, 1, 68),
        behaviour: Behaviour::PrintSessionReadsAttach,
        summary: "in claude -p and SDK sessions a Read attaches its folders' files and the \
                  rules it matches; before, it attached nothing there (2.1.68's print session \
                  never collects the files a Read makes relevant), while interactive sessions \
                  attached them as later releases do",
        cases: &[
            "nested-read-dot-claude-local-and-rules-once",
            "rule-paths-patterns-match-on-read",
            "walk-order-and-three-names",
        ],
    },
    RuleChange {
        version: ClaudeVersion(2, 1, 72),
        before: ClaudeVersion(2, 1, 71),
        behaviour: Behaviour::CommentsStripped,
        summary: "block HTML comments are stripped from the files sent; before, each was sent \
                  as written below its frontmatter, comments and carriage returns included",
        cases: &[
            "text-frontmatter-and-block-comments-stripped",
            "walk-order-and-three-names",
        ],
    },
    RuleChange {
        version: ClaudeVersion(2, 1, 79),
        before: ClaudeVersion(2, 1, 78),
        behaviour: Behaviour::InstructionFilesTrimmed,
        summary: "the instruction block's files are trimmed; before, each kept its leading \
                  and trailing blank lines and final newline, as a Read's still do",
        cases: &[
            "generated-05",
            "text-frontmatter-and-block-comments-stripped",
        ],
    },
    RuleChange {
        version: ClaudeVersion(2, 1, 83),
        before: ClaudeVersion(2, 1, 81),
        behaviour: Behaviour::MemorySizeCap,
        summary: "MEMORY.md is cut at 25,000 UTF-16 units as well as 200 lines",
        cases: &[
            "memory-md-25001-units-cut-at-last-newline",
            "memory-md-size-cut-short-lines",
        ],
    },
    RuleChange {
        version: ClaudeVersion(2, 1, 83),
        before: ClaudeVersion(2, 1, 81),
        behaviour: Behaviour::WarningPartLoaded,
        summary: "the MEMORY.md warning says only part of it was loaded, and asks for index \
                  lines under ~200 chars",
        cases: &["memory-md-201-lines-cut-with-warning"],
    },
    RuleChange {
        version: ClaudeVersion(2, 1, 84),
        before: ClaudeVersion(2, 1, 83),
        behaviour: Behaviour::PathsList,
        summary: "rule paths may be a YAML list; before, a list was joined into one pattern",
        cases: &["rule-paths-missing-empty-or-only-globstar-load-at-startup"],
    },
    RuleChange {
        version: ClaudeVersion(2, 1, 86),
        before: ClaudeVersion(2, 1, 85),
        behaviour: Behaviour::SkillDescriptionsCut,
        summary: "the skills listing cuts every description at 250 units, and its budget \
                  halves to 1% of the context window (8,000 columns); before, descriptions \
                  were listed whole under a 16,000-unit budget",
        cases: &[
            "skills-listing-line-forms",
            "skills-listing-max-desc-chars-setting",
            "skills-listing-budget-from-env",
            "skills-listing-over-budget",
        ],
    },
    RuleChange {
        version: ClaudeVersion(2, 1, 88),
        before: ClaudeVersion(2, 1, 87),
        behaviour: Behaviour::ListingCountsColumns,
        summary: "over its budget, the skills listing counts display columns (a Korean \
                  character takes two); before, UTF-16 units",
        cases: &["skills-listing-over-budget"],
    },
    RuleChange {
        version: ClaudeVersion(2, 1, 105),
        before: ClaudeVersion(2, 1, 104),
        behaviour: Behaviour::ListingBudgetFractionSetting,
        summary: "the skillListingBudgetFraction setting sets the skills listing's share of \
                  the context window; before, it was ignored",
        cases: &["skills-listing-budget-fraction-setting"],
    },
    RuleChange {
        version: ClaudeVersion(2, 1, 105),
        before: ClaudeVersion(2, 1, 104),
        behaviour: Behaviour::SkillListingMaxDescChars,
        summary: "the skillListingMaxDescChars setting sets where the skills listing cuts a \
                  description; before, it was ignored",
        cases: &["skills-listing-max-desc-chars-setting"],
    },
    RuleChange {
        version: ClaudeVersion(2, 1, 129),
        before: ClaudeVersion(2, 1, 128),
        behaviour: Behaviour::ListingFillsInOrder,
        summary: "over its budget, the skills listing lists the user's skills by name and gives \
                  whole descriptions back in listing order while they fit; before, it cut \
                  every description to one length, or listed names alone when that length \
                  was under 20",
        cases: &[
            "skills-listing-over-budget",
            "skills-listing-budget-from-env",
        ],
    },
    RuleChange {
        version: ClaudeVersion(2, 1, 136),
        before: ClaudeVersion(2, 1, 133),
        behaviour: Behaviour::ManagedLabel,
        summary: "the managed policy's files are labelled as organization-managed instructions; \
                  before, as the user's",
        cases: &[
            "agents-md-fallback-with-managed-claude-md",
            "managed-import-of-sibling-loads-when-external-approved",
        ],
    },
    RuleChange {
        version: ClaudeVersion(2, 1, 139),
        before: ClaudeVersion(2, 1, 138),
        behaviour: Behaviour::ManagedInlineInstructions,
        summary: "the managed settings' inline claudeMd is sent after the managed CLAUDE.md; \
                  before, it was ignored",
        cases: &["managed-settings-inline-claude-md"],
    },
    RuleChange {
        version: ClaudeVersion(2, 1, 157),
        before: ClaudeVersion(2, 1, 156),
        behaviour: Behaviour::ProjectMemoryDirectory,
        summary: "autoMemoryDirectory is read from the project's .claude/settings.json too; \
                  before, only from the user's, local and managed settings",
        cases: &["auto-memory-directory-project-settings-absolute"],
    },
    RuleChange {
        version: ClaudeVersion(2, 1, 196),
        before: ClaudeVersion(2, 1, 195),
        behaviour: Behaviour::FileSizeCap,
        summary: "a CLAUDE.md-family file over 4 MiB is skipped; before, a file of any size \
                  was read and sent whole (2.1.195's code has no size check)",
        cases: &["size-4-mib-cap-counts-bytes-not-chars"],
    },
    RuleChange {
        version: ClaudeVersion(2, 1, 232),
        before: ClaudeVersion(2, 1, 231),
        behaviour: Behaviour::LinkedRulesConfined,
        summary: "a .claude/rules linked outside the working folder, or a rule or subfolder \
                  inside one linked outside it, is followed only for the user's rules or once \
                  external imports are approved; before, always, its rules loading under \
                  their target's paths",
        cases: &[
            "symlinked-files-load-at-the-link-path-folders-are-not-followed",
            "symlinked-rules-folders-followed-without-approval",
            "symlinked-files-inside-a-rules-folder",
        ],
    },
    RuleChange {
        version: ClaudeVersion(2, 1, 239),
        before: ClaudeVersion(2, 1, 238),
        behaviour: Behaviour::BomStripped,
        summary: "a byte order mark is dropped when a file is read, so frontmatter after it \
                  is frontmatter; before, the mark stayed in the text and hid the frontmatter",
        cases: &["text-trim-bom-crlf-and-korean"],
    },
    RuleChange {
        version: ClaudeVersion(2, 1, 257),
        before: ClaudeVersion(2, 1, 252),
        behaviour: Behaviour::SubfolderSkillsAnnounced,
        summary: "a Read below a folder with .claude/skills announces those skills; 2.1.233 \
                  to 2.1.252 announced none, and 2.1.198 to 2.1.232 announced them one Read \
                  late (but 2.1.229, on the Read)",
        cases: &["skills-in-subdirectory-announced-after-read"],
    },
    RuleChange {
        version: ClaudeVersion(2, 1, 268),
        before: ClaudeVersion(2, 1, 267),
        behaviour: Behaviour::WarningDetailed,
        summary: "the MEMORY.md warning names what was cut and where",
        cases: &[
            "memory-md-300-lines-cut-with-warning",
            "memory-md-warning-quote-cut-at-word-after-unit-40",
        ],
    },
    RuleChange {
        version: ClaudeVersion(2, 1, 281),
        before: ClaudeVersion(2, 1, 280),
        behaviour: Behaviour::AgentsMdFallback,
        summary: "AGENTS.md loads when the walk sends no CLAUDE.md (measured from 2.1.281; the \
                  changelog says 2.1.277)",
        cases: &[
            "agents-md-fallback-when-the-walk-loads-no-claude-md",
            "agents-md-fallback-with-managed-claude-md",
        ],
    },
    RuleChange {
        version: ClaudeVersion(2, 1, 284),
        before: ClaudeVersion(2, 1, 283),
        behaviour: Behaviour::MemoryIndexCleaned,
        summary: "MEMORY.md loses its carriage returns and other control and format characters; \
                  before, it was sent as written",
        cases: &[
            "memory-md-crlf-control-and-format-characters",
            "memory-md-crlf-frontmatter-stripped",
        ],
    },
    RuleChange {
        version: ClaudeVersion(2, 1, 285),
        before: ClaudeVersion(2, 1, 284),
        behaviour: Behaviour::IndexBackfill,
        summary: "a memory folder with topic files and no MEMORY.md gets an index written",
        cases: &[
            "auto-memory-backfill-uses-file-name-and-description",
            "auto-memory-backfill-nested-topic-file",
        ],
    },
    RuleChange {
        version: ClaudeVersion(2, 1, 290),
        before: ClaudeVersion(2, 1, 289),
        behaviour: Behaviour::SkillDeclaredNameShown,
        summary: "a skill whose frontmatter names it otherwise than its folder is listed as \
                  <folder> (<name>); before, by its folder alone",
        cases: &["skills-listing-line-forms"],
    },
    RuleChange {
        version: ClaudeVersion(2, 1, 337),
        before: ClaudeVersion(2, 1, 332),
        behaviour: Behaviour::MemoryIndexQuoted,
        summary: "MEMORY.md is sent as quoted notes: a 273-unit sentence saying they were saved \
                  by Claude in earlier conversations and grant no permission, then every line \
                  (the load warning's too) after \"> \"; before, as written",
        cases: &[
            "auto-memory-backfill-uses-file-name-and-description",
            "memory-md-201-lines-cut-with-warning",
            "memory-md-crlf-frontmatter-stripped",
            "releases-memory-index-quote-marks",
            "subagent-without-memory",
        ],
    },
    RuleChange {
        version: ClaudeVersion(2, 1, 337),
        before: ClaudeVersion(2, 1, 332),
        behaviour: Behaviour::FrontmatterLfRetry,
        summary: "frontmatter with CRLF line ends that YAML rejects (a value holding \": \") is \
                  read again with LF line ends and its values quoted, so it counts; before, \
                  such a block counted for nothing",
        cases: &["skills-listing-edge-invalid-yaml"],
    },
    RuleChange {
        version: ClaudeVersion(2, 1, 69),
        before: ClaudeVersion(2, 1, 68),
        behaviour: Behaviour::AgentFrontmatterLenient,
        summary: "a sub-agent whose frontmatter strict YAML rejects (an unquoted second colon in \
                  its description) is listed; before, the file was no agent",
        cases: &["agents-listing-fifty-in-a-subfolder"],
    },
    RuleChange {
        version: ClaudeVersion(2, 1, 172),
        before: ClaudeVersion(2, 1, 170),
        behaviour: Behaviour::AgentNameNoLeadingHyphen,
        summary: "a sub-agent whose name starts with - is no agent; before, it was listed",
        cases: &["agents-listing-line-forms-and-order"],
    },
    RuleChange {
        version: ClaudeVersion(2, 1, 178),
        before: ClaudeVersion(2, 1, 177),
        behaviour: Behaviour::DeeperAgentsShadow,
        summary: "the working directory's sub-agents shadow a parent folder's of the same name; \
                  before, the parent folder's were in force",
        cases: &["agents-listing-sources-subfolders-and-shadowing"],
    },
    RuleChange {
        version: ClaudeVersion(2, 1, 218),
        before: ClaudeVersion(2, 1, 217),
        behaviour: Behaviour::AgentNameNoColon,
        summary: "a sub-agent whose name holds a colon is no agent; before, it was listed",
        cases: &["agents-listing-line-forms-and-order"],
    },
    RuleChange {
        version: ClaudeVersion(2, 1, 292),
        before: ClaudeVersion(2, 1, 291),
        behaviour: Behaviour::AgentNameCapped,
        summary: "a sub-agent whose name is over 256 UTF-16 units is no agent; before, it was \
                  listed",
        cases: &["agents-listing-line-forms-and-order"],
    },
];

/// A measured behaviour of older releases that the core does not reproduce: releases
/// `from..=to` send something else for the cases named. The report of such a release names
/// it ([`crate::report::RulesInForce::not_reproduced`]), and the replay checks that those
/// cases, and only those, still differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unreproduced {
    /// The first release affected.
    pub from: ClaudeVersion,
    /// The last release affected; the next published one behaves as the core does.
    pub to: ClaudeVersion,
    /// What those releases do, for a person.
    pub summary: &'static str,
    /// The conformance cases whose captures on those releases show it.
    pub cases: &'static [&'static str],
}

/// The measured differences the core does not reproduce, oldest first.
pub const NOT_REPRODUCED: &[Unreproduced] = &[
    Unreproduced {
        from: ClaudeVersion(2, 1, 59),
        to: ClaudeVersion(2, 1, 110),
        summary: "the listing of agent types gives the user's agents unsorted, in the order their \
                  files were found (the user's folder, then the project's folders, each in the \
                  order the file system gave, which a snapshot does not keep and which moved \
                  between runs); from 2.1.111 they are sorted by name, as the report lists them",
        cases: &[
            "agents-listing-line-forms-and-order",
            "agents-listing-sources-subfolders-and-shadowing",
        ],
    },
    Unreproduced {
        from: ClaudeVersion(2, 1, 69),
        to: ClaudeVersion(2, 1, 110),
        summary: "the listing of agent types gives the user's agents unsorted, in the order their \
                  files were found (the user's folder, then the project's folders, each in the \
                  order the file system gave, which a snapshot does not keep and which moved \
                  between runs); from 2.1.111 they are sorted by name, as the report lists them",
        cases: &["agents-listing-fifty-in-a-subfolder"],
    },
    Unreproduced {
        from: ClaudeVersion(2, 1, 111),
        to: ClaudeVersion(2, 1, 292),
        summary: "the listing of agent types sorts a name with non-ASCII letters among the ASCII \
                  ones, by the locale's collation (ångström right after ab); from 2.1.293, as \
                  the report lists them, after every ASCII name",
        cases: &["agents-listing-line-forms-and-order"],
    },
    Unreproduced {
        from: ClaudeVersion(2, 1, 172),
        to: ClaudeVersion(2, 1, 177),
        summary: "a sub-agent's own requests carry the listing of agent types too (its Agent \
                  tool's description: a sub-agent could start sub-agents), which the report \
                  counts in the main session only",
        cases: &["agents-listing-sources-subfolders-and-shadowing"],
    },
];

/// The first release with `behaviour`.
pub fn first_release(behaviour: Behaviour) -> ClaudeVersion {
    RULE_CHANGES
        .iter()
        .find(|c| c.behaviour == behaviour)
        .map_or(FIRST_SIMULATED, |c| c.version)
}

/// The published 2.x releases, as npm lists them (late 2026), oldest first: the page's
/// suggestions. A release missing here (2.1.82) was never published.
pub const PUBLISHED_RELEASES: &[ClaudeVersion] = &published::LIST;

mod published {
    use super::ClaudeVersion as V;
    include!("version/published.rs");
}

/// The text Claude Code puts around the user's files, by its measured length (UTF-16
/// units). It changes from release to release; each row holds from its release until the
/// next row's, measured at the recorded releases.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct OwnText {
    /// The first release these lengths were measured on.
    pub(crate) since: ClaudeVersion,
    /// The instruction block's header and wrapping (`<system-reminder>` or the `# claudeMd`
    /// entry of the context reminder).
    pub(crate) block_wrap: u64,
    /// The skills listing without the user's lines: its opening and the built-in skills'
    /// lines; 0 when a release lists no built-in skill (no listing without the user's).
    pub(crate) skills_listing: u64,
    /// The memory section of the system prompt, but for the folder path it names once.
    pub(crate) memory_section: u64,
}

/// When a Read announces the skills of a subfolder it reaches (`<folder>/.claude/skills/`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SkillAnnouncement {
    /// No Read announces them.
    Never,
    /// The Read that reaches the folder announces them.
    OnRead,
    /// The Read after the one that reached the folder announces them (a session whose last
    /// Read reached it never hears of them).
    OnNextRead,
}

/// [`SkillAnnouncement`] by release, each row holding from its release until the next:
/// bisected on `skills-in-subdirectory-announced-after-read`, whose captures on 2.1.197 and
/// 2.1.198, 2.1.228 and 2.1.229, 2.1.229 and 2.1.231 (2.1.230 was not published), 2.1.232
/// and 2.1.233, 2.1.252 and 2.1.257 show each step. It turns on, off and on again, which a
/// [`RuleChange`] (a behaviour from one release on) cannot say; the 2.1.257 step is also
/// the `subfolder-skills-announced` row the page lists.
pub(crate) const SKILL_ANNOUNCEMENTS: &[(ClaudeVersion, SkillAnnouncement)] = &[
    (ClaudeVersion(2, 1, 59), SkillAnnouncement::Never),
    (ClaudeVersion(2, 1, 198), SkillAnnouncement::OnNextRead),
    (ClaudeVersion(2, 1, 229), SkillAnnouncement::OnRead),
    (ClaudeVersion(2, 1, 231), SkillAnnouncement::OnNextRead),
    (ClaudeVersion(2, 1, 233), SkillAnnouncement::Never),
    (ClaudeVersion(2, 1, 257), SkillAnnouncement::OnRead),
];

/// The order the skills listing gives the skills of one folder in (the user's, the working
/// directory's, each parent's; the folders themselves always come in that order).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SkillOrder {
    /// By folder name.
    ByName,
    /// In the order the file system lists their folders, unsorted: a source records it
    /// where it knows it ([`crate::Tree::set_listing_order`]); elsewhere the core lists them
    /// by name and says that the order is not known.
    AsListed,
}

/// [`SkillOrder`] by release, each row holding from its release until the next: the
/// captures of `skills-listing-order-user-and-project-folders` (and, for the user's folder,
/// `skills-listing-line-forms` and `skills-listing-over-budget`) list each folder's skills
/// by name on 2.1.112, in the order the file system listed them on 2.1.113 (the order each
/// capture records in `dir_order`) through 2.1.153, and by name again on 2.1.154. It turns
/// on and off, which a [`RuleChange`] cannot say.
pub(crate) const SKILL_ORDERS: &[(ClaudeVersion, SkillOrder)] = &[
    (ClaudeVersion(2, 1, 59), SkillOrder::ByName),
    (ClaudeVersion(2, 1, 113), SkillOrder::AsListed),
    (ClaudeVersion(2, 1, 154), SkillOrder::ByName),
];

/// "Your MEMORY.md is currently empty. …": what a sub-agent's memory section holds when its
/// declared folder has no index, by its measured length (UTF-16 units) from each release on.
/// Before 2.1.83 the sentence went on to say what to save and when it comes back.
pub(crate) const EMPTY_AGENT_INDEX: &[(ClaudeVersion, u64)] = &[
    (ClaudeVersion(2, 1, 59), 180),
    (ClaudeVersion(2, 1, 83), 85),
];

/// The listing of agent types every main-session request carries, without the user's lines,
/// from a release on: fitted to the `agents-listing-*` captures of every release they were
/// recorded on (`tests/conformance/agent-rows.py` prints the rows from the kept requests,
/// lengths only). Up to 2.1.177 the listing is part of the `Task`/`Agent` tool's
/// description (`Available agent types and the tools they have access to:`), from 2.1.178 a
/// system message of the first turn; the note on launching agents together comes and goes.
/// Each row holds from its release until the next; a release between two recorded ones
/// takes the older one's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct AgentListing {
    /// The first release these lengths were measured on.
    pub(crate) since: ClaudeVersion,
    /// Its UTF-16 units without the user's lines: `Available agent types for the Agent
    /// tool:`, the built-in agents' lines and, in the default permission mode, the note on
    /// launching agents together.
    pub(crate) units: u64,
    /// The built-in agents by name, each with the units its line takes (`- `, the line and
    /// the line break that joins it): a user's agent of the same name takes its place.
    pub(crate) built_ins: &'static [(&'static str, u64)],
}

/// [`AgentListing`] by release, oldest first.
pub(crate) const AGENT_LISTINGS: &[AgentListing] = &[
    AgentListing {
        since: ClaudeVersion(2, 1, 59),
        units: 1_353,
        built_ins: &[
            ("general-purpose", 310),
            ("statusline-setup", 112),
            ("Explore", 568),
            ("Plan", 307),
        ],
    },
    AgentListing {
        since: ClaudeVersion(2, 1, 67),
        units: 1_355,
        built_ins: &[
            ("general-purpose", 310),
            ("statusline-setup", 112),
            ("Explore", 569),
            ("Plan", 308),
        ],
    },
    AgentListing {
        since: ClaudeVersion(2, 1, 138),
        units: 1_476,
        built_ins: &[
            ("Explore", 690),
            ("general-purpose", 310),
            ("Plan", 308),
            ("statusline-setup", 112),
        ],
    },
    AgentListing {
        since: ClaudeVersion(2, 1, 161),
        units: 1_402,
        built_ins: &[
            ("claude", 133),
            ("Explore", 483),
            ("general-purpose", 310),
            ("Plan", 308),
            ("statusline-setup", 112),
        ],
    },
    AgentListing {
        since: ClaudeVersion(2, 1, 178),
        units: 1_522,
        built_ins: &[
            ("claude", 133),
            ("Explore", 483),
            ("general-purpose", 310),
            ("Plan", 308),
            ("statusline-setup", 112),
        ],
    },
    AgentListing {
        since: ClaudeVersion(2, 1, 206),
        units: 1_542,
        built_ins: &[
            ("claude", 133),
            ("Explore", 493),
            ("general-purpose", 310),
            ("Plan", 318),
            ("statusline-setup", 112),
        ],
    },
    AgentListing {
        since: ClaudeVersion(2, 1, 222),
        units: 1_407,
        built_ins: &[
            ("claude", 133),
            ("Explore", 493),
            ("general-purpose", 310),
            ("Plan", 318),
            ("statusline-setup", 112),
        ],
    },
    AgentListing {
        since: ClaudeVersion(2, 1, 263),
        units: 1_501,
        built_ins: &[
            ("claude", 133),
            ("Explore", 540),
            ("general-purpose", 310),
            ("Plan", 365),
            ("statusline-setup", 112),
        ],
    },
    AgentListing {
        since: ClaudeVersion(2, 1, 289),
        units: 1_636,
        built_ins: &[
            ("claude", 133),
            ("Explore", 540),
            ("general-purpose", 310),
            ("Plan", 365),
            ("statusline-setup", 112),
        ],
    },
];

/// Claude Code's own text, by release, oldest first.
pub(crate) const OWN_TEXT: &[OwnText] = &[
    OwnText {
        since: ClaudeVersion(2, 1, 59),
        block_wrap: 193,
        skills_listing: 0,
        memory_section: 1_682,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 63),
        block_wrap: 193,
        skills_listing: 159,
        memory_section: 1_682,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 69),
        block_wrap: 193,
        skills_listing: 467,
        memory_section: 1_944,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 72),
        block_wrap: 193,
        skills_listing: 782,
        memory_section: 1_944,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 74),
        block_wrap: 193,
        skills_listing: 782,
        memory_section: 2_064,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 77),
        block_wrap: 193,
        skills_listing: 1_478,
        memory_section: 2_064,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 83),
        block_wrap: 193,
        skills_listing: 1_478,
        memory_section: 12_499,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 86),
        block_wrap: 193,
        skills_listing: 951,
        memory_section: 12_499,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 94),
        block_wrap: 193,
        skills_listing: 951,
        memory_section: 12_463,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 101),
        block_wrap: 193,
        skills_listing: 1_200,
        memory_section: 12_463,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 105),
        block_wrap: 193,
        skills_listing: 2_313,
        memory_section: 12_463,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 108),
        block_wrap: 193,
        skills_listing: 2_438,
        memory_section: 12_463,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 110),
        block_wrap: 193,
        skills_listing: 2_239,
        memory_section: 12_463,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 111),
        block_wrap: 193,
        skills_listing: 2_560,
        memory_section: 12_463,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 113),
        block_wrap: 193,
        skills_listing: 2_561,
        memory_section: 12_463,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 118),
        block_wrap: 193,
        skills_listing: 2_573,
        memory_section: 12_463,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 139),
        block_wrap: 193,
        skills_listing: 2_573,
        memory_section: 12_765,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 145),
        block_wrap: 193,
        skills_listing: 3_203,
        memory_section: 12_765,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 146),
        block_wrap: 193,
        skills_listing: 3_206,
        memory_section: 12_765,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 147),
        block_wrap: 193,
        skills_listing: 3_356,
        memory_section: 12_765,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 152),
        block_wrap: 193,
        skills_listing: 3_562,
        memory_section: 12_765,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 154),
        block_wrap: 193,
        skills_listing: 4_147,
        memory_section: 2_025,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 163),
        block_wrap: 193,
        skills_listing: 4_464,
        memory_section: 2_025,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 170),
        block_wrap: 193,
        skills_listing: 4_471,
        memory_section: 2_025,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 186),
        block_wrap: 193,
        skills_listing: 4_518,
        memory_section: 2_025,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 198),
        block_wrap: 193,
        skills_listing: 5_803,
        memory_section: 2_025,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 200),
        block_wrap: 193,
        skills_listing: 5_867,
        memory_section: 2_025,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 216),
        block_wrap: 193,
        skills_listing: 5_042,
        memory_section: 2_025,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 218),
        block_wrap: 193,
        skills_listing: 4_554,
        memory_section: 2_025,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 224),
        block_wrap: 193,
        skills_listing: 4_475,
        memory_section: 2_025,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 227),
        block_wrap: 193,
        skills_listing: 4_475,
        memory_section: 2_018,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 246),
        block_wrap: 193,
        skills_listing: 4_930,
        memory_section: 2_018,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 252),
        block_wrap: 193,
        skills_listing: 5_514,
        memory_section: 2_018,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 268),
        block_wrap: 230,
        skills_listing: 5_514,
        memory_section: 2_018,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 277),
        block_wrap: 230,
        skills_listing: 5_561,
        memory_section: 2_018,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 286),
        block_wrap: 230,
        skills_listing: 5_811,
        memory_section: 2_018,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 289),
        block_wrap: 230,
        skills_listing: 5_960,
        memory_section: 2_018,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 290),
        block_wrap: 230,
        skills_listing: 5_952,
        memory_section: 2_018,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 295),
        block_wrap: 230,
        skills_listing: 5_971,
        memory_section: 2_018,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 305),
        block_wrap: 230,
        skills_listing: 5_969,
        memory_section: 2_018,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 311),
        block_wrap: 230,
        skills_listing: 6_167,
        memory_section: 2_018,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 328),
        block_wrap: 230,
        skills_listing: 6_275,
        memory_section: 2_018,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 337),
        block_wrap: 230,
        skills_listing: 6_288,
        memory_section: 2_018,
    },
];

/// One of Claude Code's built-in skills as the listing shows it, by length only: the
/// repository never copies Claude Code's text. Their lines are plain: a column per unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BuiltInSkill {
    /// The name's UTF-16 units.
    pub(crate) name_units: u64,
    /// The description's UTF-16 units before any cut.
    pub(crate) description_units: u64,
    /// Where its description breaks lines (units from its start): a line break takes no
    /// column.
    pub(crate) line_breaks: &'static [u64],
    /// Kept whole however full the listing is (Claude Code's bundled skills); the others
    /// compete with the user's for the budget.
    pub(crate) fixed: bool,
}

const fn built_in(name_units: u64, description_units: u64, fixed: bool) -> BuiltInSkill {
    BuiltInSkill {
        name_units,
        description_units,
        line_breaks: &[],
        fixed,
    }
}

impl BuiltInSkill {
    /// The units of its description the listing shows under a cut at `limit` units.
    pub(crate) fn shown_units(&self, limit: usize) -> u64 {
        self.description_units.min(limit as u64)
    }

    /// The columns of its description's first `units` units.
    pub(crate) fn columns(&self, units: u64) -> u64 {
        units - self.line_breaks.iter().filter(|at| **at < units).count() as u64
    }
}

/// How a release fits its skills listing into its budget, and what its own skills take
/// (measured against the program: `skills-listing-*`; the algorithm read in each era's
/// bundled code).
///
/// The budget is `SLASH_COMMAND_TOOL_CHAR_BUDGET` when set, else the context window × 4 ×
/// the fraction (`skillListingBudgetFraction` where read, else `fraction_percent` %). When
/// every line fits, all keep their descriptions. Otherwise the fixed lines (Claude Code's
/// bundled skills) keep theirs and the others compete: before 2.1.129 each competing
/// description is cut to ⌊(budget − the fixed lines − the competing names) / their count⌋,
/// or dropped when that is under 20 ([`Behaviour::ListingFillsInOrder`]); from 2.1.129 each
/// starts as its name alone and, in listing order, gets its description back while it
/// fits. Lengths are UTF-16 units before 2.1.88 and display columns after
/// ([`Behaviour::ListingCountsColumns`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ListingBudget {
    /// The first release these values were measured on; each row holds until the next.
    pub(crate) since: ClaudeVersion,
    /// The context window the budget is taken from, at 4 characters a token: the one the
    /// captures of that release measure (200,000 tokens until 2.1.128, 40,000 columns on
    /// 2.1.129–2.1.138, 30,000 from 2.1.139).
    pub(crate) context_tokens: u64,
    /// The budget's share of the context, in percent, when no setting says otherwise: 2
    /// before 2.1.86, then 1.
    pub(crate) fraction_percent: u64,
    /// The built-in skills in listing order, by length.
    pub(crate) built_ins: &'static [BuiltInSkill],
}

impl ListingBudget {
    /// The budget when neither the environment nor a setting sets it.
    pub(crate) fn default_budget(&self) -> u64 {
        self.budget(self.fraction_percent as f64 / 100.0)
    }

    /// The budget at `fraction` of the context (the program's `window × 4 × fraction`).
    pub(crate) fn budget(&self, fraction: f64) -> u64 {
        ((self.context_tokens as f64 * 4.0 * fraction).floor() as u64).max(1)
    }
}

/// The skills listings, by release, oldest first: the built-in skills as lengths, measured
/// from each release's own listing (`skills-listing-line-forms`, where every line fits), and
/// the budget its captures show. 2.1.328's default model gives 30,000 columns at 0.01 (found
/// by moving the budget until one more description fits; the thresholds are conformance
/// cases).
pub(crate) const LISTING_BUDGETS: &[ListingBudget] = &[
    ListingBudget {
        since: ClaudeVersion(2, 1, 59),
        context_tokens: 200_000,
        fraction_percent: 2,
        built_ins: &[],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 63),
        context_tokens: 200_000,
        fraction_percent: 2,
        built_ins: &[built_in(8, 82, true)],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 69),
        context_tokens: 200_000,
        fraction_percent: 2,
        built_ins: &[
            built_in(8, 82, true),
            BuiltInSkill {
                line_breaks: &[48, 189],
                ..built_in(10, 293, true)
            },
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 72),
        context_tokens: 200_000,
        fraction_percent: 2,
        built_ins: &[
            built_in(8, 82, true),
            built_in(4, 306, true),
            BuiltInSkill {
                line_breaks: &[48, 189],
                ..built_in(10, 293, true)
            },
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 77),
        context_tokens: 200_000,
        fraction_percent: 2,
        built_ins: &[
            built_in(13, 678, true),
            built_in(8, 82, true),
            built_in(4, 306, true),
            BuiltInSkill {
                line_breaks: &[48, 189],
                ..built_in(10, 293, true)
            },
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 86),
        context_tokens: 200_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(13, 250, true),
            built_in(8, 82, true),
            built_in(4, 250, true),
            BuiltInSkill {
                line_breaks: &[48, 189],
                ..built_in(10, 250, true)
            },
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 101),
        context_tokens: 200_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(13, 250, true),
            built_in(16, 228, true),
            built_in(8, 82, true),
            built_in(4, 250, true),
            BuiltInSkill {
                line_breaks: &[117],
                ..built_in(10, 250, true)
            },
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 105),
        context_tokens: 200_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(13, 678, true),
            built_in(16, 228, true),
            built_in(8, 82, true),
            built_in(4, 306, true),
            BuiltInSkill {
                line_breaks: &[117, 685],
                ..built_in(10, 879, true)
            },
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 108),
        context_tokens: 200_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(13, 678, true),
            built_in(16, 228, true),
            built_in(8, 82, true),
            built_in(4, 306, true),
            BuiltInSkill {
                line_breaks: &[117, 475],
                ..built_in(10, 614, true)
            },
            built_in(4, 59, false),
            built_in(10, 35, false),
            built_in(6, 21, false),
            built_in(15, 71, false),
            built_in(8, 53, false),
            built_in(15, 63, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 110),
        context_tokens: 200_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(13, 678, true),
            built_in(16, 228, true),
            built_in(8, 82, true),
            built_in(4, 306, true),
            BuiltInSkill {
                line_breaks: &[117, 475],
                ..built_in(10, 614, true)
            },
            built_in(4, 59, false),
            built_in(6, 21, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 111),
        context_tokens: 200_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(13, 678, true),
            built_in(16, 228, true),
            built_in(8, 82, true),
            built_in(23, 163, true),
            built_in(4, 306, true),
            BuiltInSkill {
                line_breaks: &[247, 605],
                ..built_in(10, 744, true)
            },
            built_in(4, 59, false),
            built_in(6, 21, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 113),
        context_tokens: 200_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(13, 678, true),
            built_in(16, 228, true),
            built_in(8, 82, true),
            built_in(24, 163, true),
            built_in(4, 306, true),
            BuiltInSkill {
                line_breaks: &[247, 605],
                ..built_in(10, 744, true)
            },
            built_in(4, 59, false),
            built_in(6, 21, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 118),
        context_tokens: 200_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(8, 82, true),
            built_in(24, 163, true),
            built_in(4, 306, true),
            BuiltInSkill {
                line_breaks: &[247, 605],
                ..built_in(10, 744, true)
            },
            built_in(4, 59, false),
            built_in(6, 21, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 129),
        context_tokens: 1_000_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(8, 82, true),
            built_in(24, 163, true),
            built_in(4, 306, true),
            BuiltInSkill {
                line_breaks: &[247, 605],
                ..built_in(10, 744, true)
            },
            built_in(4, 59, false),
            built_in(6, 21, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 139),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(8, 82, true),
            built_in(24, 163, true),
            built_in(4, 306, true),
            BuiltInSkill {
                line_breaks: &[247, 605],
                ..built_in(10, 744, true)
            },
            built_in(4, 59, false),
            built_in(6, 21, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 145),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(6, 250, true),
            built_in(8, 82, true),
            built_in(24, 163, true),
            built_in(4, 306, true),
            BuiltInSkill {
                line_breaks: &[247, 605],
                ..built_in(10, 744, true)
            },
            built_in(3, 361, true),
            built_in(4, 59, false),
            built_in(6, 21, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 146),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(6, 250, true),
            built_in(11, 82, true),
            built_in(24, 163, true),
            built_in(4, 306, true),
            BuiltInSkill {
                line_breaks: &[247, 605],
                ..built_in(10, 744, true)
            },
            built_in(3, 361, true),
            built_in(4, 59, false),
            built_in(6, 21, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 147),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(6, 250, true),
            built_in(11, 232, true),
            built_in(24, 163, true),
            built_in(4, 306, true),
            BuiltInSkill {
                line_breaks: &[247, 605],
                ..built_in(10, 744, true)
            },
            built_in(3, 361, true),
            built_in(4, 59, false),
            built_in(6, 21, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 152),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(6, 250, true),
            built_in(11, 346, true),
            built_in(8, 79, true),
            built_in(24, 163, true),
            built_in(4, 306, true),
            BuiltInSkill {
                line_breaks: &[247, 605],
                ..built_in(10, 744, true)
            },
            built_in(3, 361, true),
            built_in(4, 59, false),
            built_in(6, 21, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 154),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(13, 470, true),
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(6, 250, true),
            built_in(11, 346, true),
            built_in(8, 176, true),
            built_in(24, 163, true),
            built_in(4, 306, true),
            BuiltInSkill {
                line_breaks: &[247, 605],
                ..built_in(10, 744, true)
            },
            built_in(3, 361, true),
            built_in(4, 59, false),
            built_in(6, 21, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 163),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(13, 470, true),
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(6, 250, true),
            built_in(11, 346, true),
            built_in(8, 176, true),
            built_in(24, 163, true),
            built_in(4, 306, true),
            BuiltInSkill {
                line_breaks: &[150, 740],
                ..built_in(10, 1_061, true)
            },
            built_in(3, 361, true),
            built_in(4, 59, false),
            built_in(6, 21, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 173),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(13, 470, true),
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(6, 250, true),
            built_in(11, 346, true),
            built_in(8, 176, true),
            built_in(24, 163, true),
            built_in(4, 306, true),
            BuiltInSkill {
                line_breaks: &[150, 747],
                ..built_in(10, 1_068, true)
            },
            built_in(3, 361, true),
            built_in(4, 59, false),
            built_in(6, 21, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 186),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(13, 470, true),
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(6, 250, true),
            built_in(11, 346, true),
            built_in(8, 176, true),
            built_in(24, 163, true),
            built_in(4, 306, true),
            BuiltInSkill {
                line_breaks: &[150, 747],
                ..built_in(10, 1_068, true)
            },
            built_in(3, 361, true),
            built_in(4, 59, false),
            built_in(6, 68, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 198),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(13, 470, true),
            built_in(7, 1_135, true),
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(6, 388, true),
            built_in(11, 346, true),
            built_in(8, 176, true),
            built_in(24, 163, true),
            built_in(4, 306, true),
            BuiltInSkill {
                line_breaks: &[150, 747],
                ..built_in(10, 1_068, true)
            },
            built_in(3, 361, true),
            built_in(4, 59, false),
            built_in(6, 68, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 200),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(13, 470, true),
            built_in(7, 1_135, true),
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(6, 452, true),
            built_in(11, 346, true),
            built_in(8, 176, true),
            built_in(24, 163, true),
            built_in(4, 306, true),
            BuiltInSkill {
                line_breaks: &[150, 747],
                ..built_in(10, 1_068, true)
            },
            built_in(3, 361, true),
            built_in(4, 59, false),
            built_in(6, 68, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 224),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(7, 1_135, true),
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(8, 176, true),
            built_in(24, 163, true),
            built_in(4, 306, true),
            BuiltInSkill {
                line_breaks: &[150, 747],
                ..built_in(10, 1_068, true)
            },
            built_in(3, 361, true),
            built_in(4, 59, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 246),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(7, 1_135, true),
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(11, 439, true),
            built_in(8, 176, true),
            built_in(24, 163, true),
            built_in(4, 306, true),
            BuiltInSkill {
                line_breaks: &[150, 747],
                ..built_in(10, 1_068, true)
            },
            built_in(3, 361, true),
            built_in(4, 59, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 252),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(7, 1_436, true),
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(11, 439, true),
            built_in(8, 176, true),
            built_in(24, 163, true),
            built_in(4, 336, true),
            BuiltInSkill {
                line_breaks: &[150, 747],
                ..built_in(10, 1_068, true)
            },
            built_in(18, 230, true),
            built_in(3, 361, true),
            built_in(4, 59, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 277),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(7, 1_436, true),
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(11, 486, true),
            built_in(8, 176, true),
            built_in(24, 163, true),
            built_in(4, 336, true),
            BuiltInSkill {
                line_breaks: &[150, 747],
                ..built_in(10, 1_068, true)
            },
            built_in(18, 230, true),
            built_in(3, 361, true),
            built_in(4, 59, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 286),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(7, 1_436, true),
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(11, 486, true),
            built_in(8, 176, true),
            built_in(24, 163, true),
            built_in(4, 336, true),
            BuiltInSkill {
                line_breaks: &[150, 747],
                ..built_in(10, 1_068, true)
            },
            built_in(18, 230, true),
            built_in(3, 361, true),
            built_in(16, 229, true),
            built_in(4, 59, false),
            BuiltInSkill {
                line_breaks: &[71, 72, 99, 100],
                ..built_in(15, 552, false)
            },
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 289),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(7, 1_436, true),
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(11, 635, true),
            built_in(8, 176, true),
            built_in(24, 163, true),
            built_in(4, 336, true),
            BuiltInSkill {
                line_breaks: &[150, 747],
                ..built_in(10, 1_068, true)
            },
            built_in(18, 230, true),
            built_in(3, 361, true),
            built_in(16, 229, true),
            built_in(4, 59, false),
            BuiltInSkill {
                line_breaks: &[71, 72, 99, 100],
                ..built_in(15, 552, false)
            },
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 290),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(7, 1_436, true),
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(11, 627, true),
            built_in(8, 176, true),
            built_in(24, 163, true),
            built_in(4, 336, true),
            BuiltInSkill {
                line_breaks: &[150, 747],
                ..built_in(10, 1_068, true)
            },
            built_in(18, 230, true),
            built_in(3, 361, true),
            built_in(16, 229, true),
            built_in(4, 59, false),
            BuiltInSkill {
                line_breaks: &[71, 72, 99, 100],
                ..built_in(15, 552, false)
            },
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 295),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(7, 1_436, true),
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(11, 627, true),
            built_in(8, 176, true),
            built_in(24, 163, true),
            built_in(4, 336, true),
            BuiltInSkill {
                line_breaks: &[150, 747],
                ..built_in(10, 1_068, true)
            },
            built_in(18, 230, true),
            built_in(3, 361, true),
            built_in(16, 248, true),
            built_in(4, 59, false),
            BuiltInSkill {
                line_breaks: &[71, 72, 99, 100],
                ..built_in(15, 552, false)
            },
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 303),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(7, 1_436, true),
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(11, 627, true),
            built_in(8, 176, true),
            built_in(24, 163, true),
            built_in(4, 336, true),
            BuiltInSkill {
                line_breaks: &[150, 747],
                ..built_in(10, 1_068, true)
            },
            built_in(18, 230, true),
            built_in(3, 361, true),
            built_in(16, 248, true),
            built_in(4, 59, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 305),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(7, 1_436, true),
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(11, 627, true),
            built_in(8, 176, true),
            built_in(24, 163, true),
            built_in(4, 336, true),
            BuiltInSkill {
                line_breaks: &[150, 747],
                ..built_in(10, 1_068, true)
            },
            built_in(18, 230, true),
            built_in(3, 361, true),
            built_in(16, 246, true),
            built_in(4, 59, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 311),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(7, 1_436, true),
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(11, 825, true),
            built_in(8, 176, true),
            built_in(24, 163, true),
            built_in(4, 336, true),
            BuiltInSkill {
                line_breaks: &[150, 747],
                ..built_in(10, 1_068, true)
            },
            built_in(18, 230, true),
            built_in(3, 361, true),
            built_in(16, 246, true),
            built_in(4, 59, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 315),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(7, 1_436, true),
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(11, 825, true),
            built_in(8, 176, true),
            built_in(24, 163, true),
            built_in(4, 336, true),
            BuiltInSkill {
                line_breaks: &[150, 747],
                ..built_in(10, 1_068, true)
            },
            built_in(18, 230, true),
            built_in(3, 361, true),
            built_in(16, 246, true),
            built_in(4, 59, false),
            BuiltInSkill {
                line_breaks: &[71, 72],
                ..built_in(15, 100, false)
            },
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 328),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(7, 1_436, true),
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(11, 835, true),
            built_in(8, 176, true),
            built_in(24, 163, true),
            built_in(4, 336, true),
            BuiltInSkill {
                line_breaks: &[150, 802],
                ..built_in(10, 1_157, true)
            },
            built_in(18, 230, true),
            built_in(3, 361, true),
            built_in(16, 255, true),
            built_in(4, 59, false),
            built_in(15, 71, false),
        ],
    },
    // 2.1.337 (the pin): one bundled skill's description grows by 13 units (`listing-rows.py`
    // on its `skills-listing-line-forms` requests); the rest is 2.1.328's row.
    ListingBudget {
        since: ClaudeVersion(2, 1, 337),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(7, 1_436, true),
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(11, 835, true),
            built_in(8, 176, true),
            built_in(24, 163, true),
            built_in(4, 336, true),
            BuiltInSkill {
                line_breaks: &[150, 815],
                ..built_in(10, 1_170, true)
            },
            built_in(18, 230, true),
            built_in(3, 361, true),
            built_in(16, 255, true),
            built_in(4, 59, false),
            built_in(15, 71, false),
        ],
    },
];

/// The loading rules of one release.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Rules {
    /// The simulated release; `None` for current.
    pub(crate) release: Option<ClaudeVersion>,
    /// Linked worktrees use the main worktree's memory folder.
    pub(crate) worktrees_share_memory: bool,
    /// `autoMemoryDirectory` is read.
    pub(crate) auto_memory_directory: bool,
    /// `MEMORY.md` is cut at 25,000 units too.
    pub(crate) memory_size_cap: bool,
    /// A YAML list in `paths` works; before, it was joined without separators.
    pub(crate) paths_list: bool,
    /// Hops an import chain loads: 4 in every release measured.
    pub(crate) max_import_hops: u32,
    /// The words of the warning appended to a cut `MEMORY.md`.
    pub(crate) warning_style: WarningStyle,
    /// `AGENTS.md` loads when the walk sends no `CLAUDE.md`.
    pub(crate) agents_md_fallback: bool,
    /// A missing `MEMORY.md` is written from the topic files.
    pub(crate) index_backfill: bool,
    /// The managed policy's files carry their own label; before, the user's.
    pub(crate) managed_label: bool,
    /// `MEMORY.md` loses its control and format characters.
    pub(crate) memory_index_cleaned: bool,
    /// `autoMemoryDirectory` counts in the project's settings.
    pub(crate) project_memory_directory: bool,
    /// `skillListingMaxDescChars` is read.
    pub(crate) skill_listing_max_desc_chars: bool,
    /// The instruction block's files are trimmed; before, sent as a Read attaches them.
    pub(crate) instruction_files_trimmed: bool,
    /// Block HTML comments are stripped; before, files went as written below frontmatter.
    pub(crate) comments_stripped: bool,
    /// The managed settings' inline `claudeMd` is sent; before, it was ignored.
    pub(crate) managed_inline_instructions: bool,
    /// A skill's differing frontmatter name is shown beside its folder in the listing.
    pub(crate) skill_declared_name_shown: bool,
    /// A byte order mark is dropped when a file is read; before, it stayed in the text.
    pub(crate) bom_stripped: bool,
    /// `MEMORY.md` is sent as quoted notes after a sentence of Claude Code's.
    pub(crate) memory_index_quoted: bool,
    /// Claude Code's own text around the user's.
    pub(crate) own_text: OwnText,
    /// The length of the sentence a sub-agent gets for an empty memory folder.
    pub(crate) empty_agent_index: u64,
    /// Claude Code's own text in the listing of agent types.
    pub(crate) agent_listing: AgentListing,
    /// When a Read announces a subfolder's skills.
    pub(crate) skill_announcement: SkillAnnouncement,
    /// How the skills listing fits its budget, and the built-in skills it lists.
    pub(crate) listing_budget: ListingBudget,
    /// The order the listing gives each folder's skills in.
    pub(crate) skill_order: SkillOrder,
}

/// Why a release cannot be simulated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsimulated {
    /// The release asked for.
    pub release: ClaudeVersion,
}

impl fmt::Display for Unsimulated {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Claude Code {} is older than the first release simulated ({FIRST_SIMULATED}): \
             {UNSIMULATED_BEFORE}",
            self.release
        )
    }
}

impl Rules {
    /// The rules `version` applies; the pinned release's ([`PINNED`]) for `None`.
    ///
    /// # Errors
    /// A release older than [`FIRST_SIMULATED`].
    pub(crate) fn of(version: Option<ClaudeVersion>) -> Result<Rules, Unsimulated> {
        match version {
            Some(release) if release < FIRST_SIMULATED => Err(Unsimulated { release }),
            _ => Ok(Rules::at(version)),
        }
    }

    fn at(version: Option<ClaudeVersion>) -> Rules {
        // No release asked for is the pinned one: a row of a newer recorded release (a
        // change the pin does not have yet) must not apply to it.
        let at = version.unwrap_or(PINNED);
        let has = |behaviour: Behaviour| at >= first_release(behaviour);
        let own_text = OWN_TEXT
            .iter()
            .rev()
            .find(|row| at >= row.since)
            .copied()
            .unwrap_or(OWN_TEXT[0]);
        let empty_agent_index = EMPTY_AGENT_INDEX
            .iter()
            .rev()
            .find(|(since, _)| at >= *since)
            .map_or(EMPTY_AGENT_INDEX[0].1, |(_, units)| *units);
        Rules {
            release: version,
            worktrees_share_memory: has(Behaviour::WorktreesShareMemory),
            auto_memory_directory: has(Behaviour::AutoMemoryDirectory),
            memory_size_cap: has(Behaviour::MemorySizeCap),
            paths_list: has(Behaviour::PathsList),
            max_import_hops: 4,
            warning_style: if has(Behaviour::WarningDetailed) {
                WarningStyle::Detailed
            } else if has(Behaviour::WarningPartLoaded) {
                WarningStyle::PartLoaded
            } else {
                WarningStyle::FirstLines
            },
            agents_md_fallback: has(Behaviour::AgentsMdFallback),
            index_backfill: has(Behaviour::IndexBackfill),
            managed_label: has(Behaviour::ManagedLabel),
            memory_index_cleaned: has(Behaviour::MemoryIndexCleaned),
            project_memory_directory: has(Behaviour::ProjectMemoryDirectory),
            skill_listing_max_desc_chars: has(Behaviour::SkillListingMaxDescChars),
            instruction_files_trimmed: has(Behaviour::InstructionFilesTrimmed),
            comments_stripped: has(Behaviour::CommentsStripped),
            managed_inline_instructions: has(Behaviour::ManagedInlineInstructions),
            skill_declared_name_shown: has(Behaviour::SkillDeclaredNameShown),
            bom_stripped: has(Behaviour::BomStripped),
            memory_index_quoted: has(Behaviour::MemoryIndexQuoted),
            own_text,
            empty_agent_index,
            agent_listing: AGENT_LISTINGS
                .iter()
                .rev()
                .find(|row| at >= row.since)
                .copied()
                .unwrap_or(AGENT_LISTINGS[0]),
            skill_announcement: SKILL_ANNOUNCEMENTS
                .iter()
                .rev()
                .find(|(since, _)| at >= *since)
                .map_or(SkillAnnouncement::Never, |(_, when)| *when),
            listing_budget: LISTING_BUDGETS
                .iter()
                .rev()
                .find(|row| at >= row.since)
                .copied()
                .unwrap_or(LISTING_BUDGETS[0]),
            skill_order: SKILL_ORDERS
                .iter()
                .rev()
                .find(|(since, _)| at >= *since)
                .map_or(SkillOrder::ByName, |(_, order)| *order),
        }
    }

    /// How `MEMORY.md` (and an agent's) is cut and cleaned under these rules. Every release
    /// simulated measures the index after stripping (2.1.59 on).
    pub(crate) fn index_caps(&self) -> crate::text::memory_index::Caps {
        crate::text::memory_index::Caps {
            size_cap: self.memory_size_cap,
            strip_first: true,
            strip_comments: self.comments_stripped,
            warning: self.warning_style,
            drop_controls: self.memory_index_cleaned,
        }
    }

    /// Whether `behaviour` applies under these rules.
    pub(crate) fn has(&self, behaviour: Behaviour) -> bool {
        self.release.unwrap_or(PINNED) >= first_release(behaviour)
    }

    /// Whether a Read attaches anything in a session started as `session`: always in an
    /// interactive one; in a `claude -p` or SDK one from 2.1.69 (2.1.68's code gives the
    /// print session's tools no set to collect what a Read makes relevant, its interactive
    /// session one).
    pub(crate) fn reads_attach(&self, session: crate::analyze::SessionKind) -> bool {
        session == crate::analyze::SessionKind::Interactive
            || self.has(Behaviour::PrintSessionReadsAttach)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_release_numbers() {
        assert_eq!(ClaudeVersion::parse("2.1.80"), Ok(ClaudeVersion(2, 1, 80)));
        assert_eq!(
            ClaudeVersion::parse(" v2.1.263 "),
            Ok(ClaudeVersion(2, 1, 263))
        );
        assert!(ClaudeVersion::parse("2.1").is_err());
        assert!(ClaudeVersion::parse("latest").is_err());
        assert_eq!(ClaudeVersion(2, 1, 83).to_string(), "2.1.83");
    }

    #[test]
    fn each_change_switches_at_its_release_and_its_neighbour_is_published() {
        for change in RULE_CHANGES {
            assert!(change.version.is_published(), "{}", change.version);
            assert!(change.before.is_published(), "{}", change.before);
            let at = PUBLISHED_RELEASES
                .iter()
                .position(|v| *v == change.version)
                .unwrap_or(0);
            assert_eq!(PUBLISHED_RELEASES[at - 1], change.before, "{change:?}");
            let old = Rules::at(Some(change.before));
            let new = Rules::at(Some(change.version));
            assert!(!old.has(change.behaviour) && new.has(change.behaviour));
            assert!(!change.cases.is_empty());
        }
        let at = |v: (u32, u32, u32)| Rules::at(Some(ClaudeVersion(v.0, v.1, v.2)));
        assert_eq!(at((2, 1, 81)).warning_style, WarningStyle::FirstLines);
        assert_eq!(at((2, 1, 83)).warning_style, WarningStyle::PartLoaded);
        assert_eq!(at((2, 1, 210)).warning_style, WarningStyle::PartLoaded);
        assert_eq!(at((2, 1, 268)).warning_style, WarningStyle::Detailed);
        assert!(!at((2, 1, 81)).memory_size_cap && at((2, 1, 83)).memory_size_cap);
        // Every release measured loads four hops of imports.
        assert_eq!(at((2, 1, 59)).max_import_hops, 4);
    }

    #[test]
    fn older_releases_are_refused() {
        let refused = Rules::of(Some(ClaudeVersion(2, 1, 58))).unwrap_err();
        assert!(refused
            .to_string()
            .contains("older than the first release simulated (2.1.59)"));
        assert!(Rules::of(Some(FIRST_SIMULATED)).is_ok());
        assert!(Rules::of(None).is_ok());
    }

    #[test]
    fn the_published_list_is_sorted_and_holds_the_pin() {
        assert!(PUBLISHED_RELEASES.windows(2).all(|w| w[0] < w[1]));
        assert!(PINNED.is_published());
        assert!(ClaudeVersion(2, 1, 328).is_published());
        assert!(!ClaudeVersion(2, 1, 82).is_published());
    }

    #[test]
    fn own_text_rows_are_in_order() {
        assert!(OWN_TEXT.windows(2).all(|w| w[0].since < w[1].since));
        assert_eq!(OWN_TEXT[0].since, FIRST_SIMULATED);
        assert!(EMPTY_AGENT_INDEX.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(LISTING_BUDGETS.windows(2).all(|w| w[0].since < w[1].since));
        assert_eq!(LISTING_BUDGETS[0].since, FIRST_SIMULATED);
        assert_eq!(Rules::at(None).listing_budget.since, PINNED);
        assert_eq!(EMPTY_AGENT_INDEX[0].0, FIRST_SIMULATED);
        assert!(SKILL_ORDERS.windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!(SKILL_ORDERS[0].0, FIRST_SIMULATED);
        assert_eq!(Rules::at(None).skill_order, SkillOrder::ByName);
        assert!(AGENT_LISTINGS.windows(2).all(|w| w[0].since < w[1].since));
        assert_eq!(AGENT_LISTINGS[0].since, FIRST_SIMULATED);
    }

    #[test]
    fn no_release_is_the_pinned_one_even_with_newer_rows() {
        // Rows of a release recorded after the pin (2.1.337's, while the pin was 2.1.328)
        // must not reach the pin's rules: no release asked for is the pinned one.
        let (none, pinned) = (Rules::at(None), Rules::at(Some(PINNED)));
        assert_eq!(none.own_text, pinned.own_text);
        assert_eq!(none.listing_budget.since, pinned.listing_budget.since);
        assert_eq!(none.agent_listing, pinned.agent_listing);
        assert_eq!(none.memory_index_quoted, pinned.memory_index_quoted);
        for change in RULE_CHANGES {
            assert_eq!(
                none.has(change.behaviour),
                change.version <= PINNED,
                "{change:?}"
            );
        }
        assert!(Rules::at(Some(ClaudeVersion(2, 1, 337))).memory_index_quoted);
        // The pin before it still replays under its own rules.
        assert!(!Rules::at(Some(ClaudeVersion(2, 1, 328))).memory_index_quoted);
    }
}
