//! The registry of release behaviours: every behaviour of Claude Code that changed at a
//! measured release, declared once.
//!
//! Each entry gives the behaviour's variant, its stable id (what the report, the page and
//! `docs/releases.md` carry), the first published release it holds in (and, for one that
//! later stopped, the last: `until (2, 1, 153)`), the conformance cases whose captures show
//! the change (`fixtures/conformance/<case>/`), a one-line summary (the variant's doc
//! comment) and a paragraph for users choosing a release. The macro generates the
//! [`Behaviour`] enum, [`Behaviour::ALL`], its `id`, `first`, `last`, `title`, `description`
//! and `cases`, and the [`RULE_CHANGES`] table; `Rules::has` answers from it, and
//! `docs/releases.md` is generated from it by `tests/tests/release_rules.rs`, which also
//! checks that every case named exists. The replay (`tests/tests/conformance.rs`) checks
//! that each case's captures on the release before and the first release differ.
//!
//! Entries are in the order the report lists them (`rules.behaviours`): a new behaviour goes
//! last, and an entry never moves. The release before each one (the last with the old
//! behaviour) is the published release before its first, found in
//! [`super::PUBLISHED_RELEASES`] when the crate is compiled: a first release npm never
//! published does not compile.

use super::{published, ClaudeVersion, RuleChange};

/// Declares the behaviours. Per entry: the summary as doc comments, then
/// `Variant = "kebab-id", from (major, minor, patch),` (and `until (…),` when it stopped),
/// `cases [ "case", … ],`, then the users' paragraph and a semicolon.
macro_rules! behaviours {
    ($(
        $(#[doc = $summary:literal])+
        $variant:ident = $id:literal, from ($a:literal, $b:literal, $c:literal),
        $(until ($la:literal, $lb:literal, $lc:literal),)?
        cases [$($case:literal),+ $(,)?],
        $description:literal;
    )*) => {
        /// A behaviour of Claude Code that changed at a measured release
        /// (`core/src/version/behaviours.rs` declares each).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Behaviour {
            $(
                $(#[doc = $summary])+
                $variant,
            )*
        }

        impl Behaviour {
            /// How many behaviours there are.
            pub const COUNT: usize = [$(Behaviour::$variant),*].len();

            /// Every behaviour, in the order the report lists them.
            pub const ALL: [Behaviour; Behaviour::COUNT] = [$(Behaviour::$variant),*];

            /// A stable name for the report and the page (`memory-size-cap`).
            pub fn id(self) -> &'static str {
                match self {
                    $(Behaviour::$variant => $id,)*
                }
            }

            /// The first published release with this behaviour.
            pub const fn first(self) -> ClaudeVersion {
                match self {
                    $(Behaviour::$variant => ClaudeVersion($a, $b, $c),)*
                }
            }

            /// The last release with this behaviour, for one that stopped; `None` while it
            /// holds.
            pub const fn last(self) -> Option<ClaudeVersion> {
                match self {
                    $(Behaviour::$variant => behaviours!(@last $(($la, $lb, $lc))?),)*
                }
            }

            /// The one-line summary (the variant's doc comment), with its lines joined.
            pub fn title(self) -> &'static str {
                match self {
                    $(Behaviour::$variant => concat!($($summary),+).trim(),)*
                }
            }

            /// What changed, for a person choosing a release.
            pub fn description(self) -> &'static str {
                match self {
                    $(Behaviour::$variant => $description,)*
                }
            }

            /// The conformance cases (`fixtures/conformance/<case>/`) whose captures show the
            /// change.
            pub fn cases(self) -> &'static [&'static str] {
                match self {
                    $(Behaviour::$variant => &[$($case),+],)*
                }
            }
        }

        /// The measured behaviour changes, in the order the report lists them. Each is proven
        /// by the captures of the cases it names on [`RuleChange::before`] and
        /// [`RuleChange::version`].
        pub const RULE_CHANGES: &[RuleChange] = &[
            $(
                RuleChange {
                    version: ClaudeVersion($a, $b, $c),
                    before: published_before(ClaudeVersion($a, $b, $c)),
                    last: behaviours!(@last $(($la, $lb, $lc))?),
                    behaviour: Behaviour::$variant,
                    summary: $description,
                    cases: &[$($case),+],
                },
            )*
        ];
    };
    (@last) => { None };
    (@last ($la:literal, $lb:literal, $lc:literal)) => { Some(ClaudeVersion($la, $lb, $lc)) };
}

/// The published release just before `release`; compiling fails when `release` is not
/// published (or is the first).
const fn published_before(release: ClaudeVersion) -> ClaudeVersion {
    let list = &published::LIST;
    let mut at = 1;
    while at < list.len() {
        let v = list[at];
        if v.0 == release.0 && v.1 == release.1 && v.2 == release.2 {
            return list[at - 1];
        }
        at += 1;
    }
    panic!("a behaviour's first release is not in the published list")
}

behaviours! {
    /// Linked git worktrees use the main worktree's memory folder and project entry.
    WorktreesShareMemory = "worktrees-share-memory", from (2, 1, 63), cases [
        "auto-memory-linked-worktree-uses-main-repository",
        "generated-03",
    ],
        "a linked git worktree uses its main worktree's memory folder and its \
         ~/.claude.json project entry (the external-import approval); before, its own";

    /// The `autoMemoryDirectory` setting moves the memory folder.
    AutoMemoryDirectory = "auto-memory-directory", from (2, 1, 74), cases [
        "auto-memory-directory-local-settings-tilde",
        "auto-memory-directory-user-settings-tilde-is-the-folder",
    ],
        "the autoMemoryDirectory setting moves the memory folder";

    /// A skill without a frontmatter description is listed (by its body's first line).
    SkillsWithoutDescriptionListed = "skills-without-description-listed", from (2, 1, 69), cases [
        "skills-listing-line-forms",
    ],
        "a skill without a frontmatter description is listed, by its body's first \
         line; before, it was left out of the listing";

    /// A linked worktree nested in its main repository takes only `CLAUDE.local.md` from
    /// the main repository's folders above it; before, every file of those folders.
    NestedWorktreeLocalOnly = "nested-worktree-local-only", from (2, 1, 69), cases [
        "worktree-nested-in-main-repository-walk",
    ],
        "a linked worktree nested in its main repository takes only CLAUDE.local.md \
         from the main repository's folders above it; before, their CLAUDE.md, \
         .claude/CLAUDE.md and rules too";

    /// A Read in a `claude -p` or SDK session attaches the folder's files and the rules it
    /// matches, as in an interactive session; before, it attached nothing there.
    PrintSessionReadsAttach = "print-session-reads-attach", from (2, 1, 69), cases [
        "nested-read-dot-claude-local-and-rules-once",
        "rule-paths-patterns-match-on-read",
        "walk-order-and-three-names",
    ],
        "in claude -p and SDK sessions a Read attaches its folders' files and the \
         rules it matches; before, it attached nothing there (2.1.68's print session \
         never collects the files a Read makes relevant), while interactive sessions \
         attached them as later releases do";

    /// Block HTML comments are stripped from the files sent.
    CommentsStripped = "comments-stripped", from (2, 1, 72), cases [
        "text-frontmatter-and-block-comments-stripped",
        "walk-order-and-three-names",
    ],
        "block HTML comments are stripped from the files sent; before, each was sent \
         as written below its frontmatter, comments and carriage returns included";

    /// The instruction block's files are trimmed before they are sent.
    InstructionFilesTrimmed = "instruction-files-trimmed", from (2, 1, 79), cases [
        "generated-05",
        "text-frontmatter-and-block-comments-stripped",
    ],
        "the instruction block's files are trimmed; before, each kept its leading \
         and trailing blank lines and final newline, as a Read's still do";

    /// `MEMORY.md` is cut at 25,000 UTF-16 units as well as 200 lines.
    MemorySizeCap = "memory-size-cap", from (2, 1, 83), cases [
        "memory-md-25001-units-cut-at-last-newline",
        "memory-md-size-cut-short-lines",
    ],
        "MEMORY.md is cut at 25,000 characters as well as 200 lines";

    /// The warning on a cut `MEMORY.md` says "Only part of it was loaded".
    WarningPartLoaded = "warning-part-loaded", from (2, 1, 83), cases [
        "memory-md-201-lines-cut-with-warning",
    ],
        "the MEMORY.md warning says only part of it was loaded, and asks for index \
         lines under ~200 chars";

    /// A YAML list in a rule's `paths` is a list of patterns.
    PathsList = "paths-list", from (2, 1, 84), cases [
        "rule-paths-missing-empty-or-only-globstar-load-at-startup",
    ],
        "rule paths may be a YAML list; before, a list was joined into one pattern";

    /// The skills listing cuts every description at 250 UTF-16 units.
    SkillDescriptionsCut = "skill-descriptions-cut", from (2, 1, 86), cases [
        "skills-listing-line-forms",
        "skills-listing-max-desc-chars-setting",
        "skills-listing-budget-from-env",
        "skills-listing-over-budget",
    ],
        "the skills listing cuts every description at 250 units, and its budget \
         halves to 1% of the context window (8,000 columns); before, descriptions \
         were listed whole under a 16,000-unit budget";

    /// Over its budget, the skills listing measures lines in display columns, not units.
    ListingCountsColumns = "skills-listing-counts-columns", from (2, 1, 88), cases [
        "skills-listing-over-budget",
    ],
        "over its budget, the skills listing counts display columns (a Korean \
         character takes two); before, characters (UTF-16 units)";

    /// `skillListingBudgetFraction` sets the skills listing's share of the context window.
    ListingBudgetFractionSetting = "skills-listing-budget-fraction-setting", from (2, 1, 105), cases [
        "skills-listing-budget-fraction-setting",
    ],
        "the skillListingBudgetFraction setting sets the skills listing's share of \
         the context window; before, it was ignored";

    /// `skillListingMaxDescChars` sets where the skills listing cuts a description.
    SkillListingMaxDescChars = "skill-listing-max-desc-chars", from (2, 1, 105), cases [
        "skills-listing-max-desc-chars-setting",
    ],
        "the skillListingMaxDescChars setting sets where the skills listing cuts a \
         description; before, it was ignored";

    /// Over its budget, the skills listing gives whole descriptions back in listing order
    /// instead of cutting every competing one to the same length.
    ListingFillsInOrder = "skills-listing-fills-in-order", from (2, 1, 129), cases [
        "skills-listing-over-budget",
        "skills-listing-budget-from-env",
    ],
        "over its budget, the skills listing lists the user's skills by name and gives \
         whole descriptions back in listing order while they fit; before, it cut \
         every description to one length, or listed names alone when that length \
         was under 20";

    /// The managed policy's files are labelled as organization-managed instructions.
    ManagedLabel = "managed-label", from (2, 1, 136), cases [
        "agents-md-fallback-with-managed-claude-md",
        "managed-import-of-sibling-loads-when-external-approved",
    ],
        "the managed policy's files are labelled as organization-managed instructions; \
         before, as the user's";

    /// The managed settings' inline `claudeMd` is sent with the instructions.
    ManagedInlineInstructions = "managed-inline-instructions", from (2, 1, 139), cases [
        "managed-settings-inline-claude-md",
    ],
        "the managed settings' inline claudeMd is sent after the managed CLAUDE.md; \
         before, it was ignored";

    /// `autoMemoryDirectory` is read from the project's settings too.
    ProjectMemoryDirectory = "project-memory-directory", from (2, 1, 157), cases [
        "auto-memory-directory-project-settings-absolute",
    ],
        "autoMemoryDirectory is read from the project's .claude/settings.json too; \
         before, only from the user's, local and managed settings";

    /// A CLAUDE.md-family file over 4 MiB is skipped; before, every size was read whole.
    FileSizeCap = "file-size-cap", from (2, 1, 196), cases [
        "size-4-mib-cap-counts-bytes-not-chars",
    ],
        "a CLAUDE.md-family file over 4 MiB is skipped; before, a file of any size \
         was read and sent whole (2.1.195's code has no size check)";

    /// A `.claude/rules` linked outside the working folder, or a link inside one leading out
    /// of it, is followed only where the walk may leave it (the user's rules, approved
    /// external imports); before, always.
    LinkedRulesConfined = "linked-rules-confined", from (2, 1, 232), cases [
        "symlinked-files-load-at-the-link-path-folders-are-not-followed",
        "symlinked-rules-folders-followed-without-approval",
        "symlinked-files-inside-a-rules-folder",
    ],
        "a .claude/rules linked outside the working folder, or a rule or subfolder \
         inside one linked outside it, is followed only for the user's rules or once \
         external imports are approved; before, always, its rules loading under \
         their target's paths";

    /// A byte order mark is dropped when a file is read, so frontmatter after it counts.
    BomStripped = "bom-stripped", from (2, 1, 239), cases [
        "text-trim-bom-crlf-and-korean",
    ],
        "a byte order mark is dropped when a file is read, so frontmatter after it \
         is frontmatter; before, the mark stayed in the text and hid the frontmatter";

    /// A Read below a folder with `.claude/skills/` announces those skills.
    SubfolderSkillsAnnounced = "subfolder-skills-announced", from (2, 1, 257), cases [
        "skills-in-subdirectory-announced-after-read",
    ],
        "a Read below a folder with .claude/skills announces those skills; 2.1.233 \
         to 2.1.252 announced none, and 2.1.198 to 2.1.232 announced them one Read \
         late (but 2.1.229, on the Read)";

    /// The warning names what was cut and where.
    WarningDetailed = "warning-detailed", from (2, 1, 268), cases [
        "memory-md-300-lines-cut-with-warning",
        "memory-md-warning-quote-cut-at-word-after-unit-40",
    ],
        "the MEMORY.md warning names what was cut and where";

    /// `AGENTS.md` loads when the walk sends no `CLAUDE.md`.
    AgentsMdFallback = "agents-md-fallback", from (2, 1, 281), cases [
        "agents-md-fallback-when-the-walk-loads-no-claude-md",
        "agents-md-fallback-with-managed-claude-md",
    ],
        "AGENTS.md loads when the walk sends no CLAUDE.md (measured from 2.1.281; the \
         changelog says 2.1.277)";

    /// `MEMORY.md` loses its carriage returns and other control and format characters.
    MemoryIndexCleaned = "memory-index-cleaned", from (2, 1, 284), cases [
        "memory-md-crlf-control-and-format-characters",
        "memory-md-crlf-frontmatter-stripped",
    ],
        "MEMORY.md loses its carriage returns and other control and format characters; \
         before, it was sent as written";

    /// A memory folder with topic files and no `MEMORY.md` gets an index written.
    IndexBackfill = "index-backfill", from (2, 1, 285), cases [
        "auto-memory-backfill-uses-file-name-and-description",
        "auto-memory-backfill-nested-topic-file",
    ],
        "a memory folder with topic files and no MEMORY.md gets an index written";

    /// A skill whose frontmatter names it otherwise than its folder is listed as
    /// `<folder> (<name>)`.
    SkillDeclaredNameShown = "skill-declared-name-shown", from (2, 1, 290), cases [
        "skills-listing-line-forms",
    ],
        "a skill whose frontmatter names it otherwise than its folder is listed as \
         <folder> (<name>); before, by its folder alone";

    /// A file none of whose comments is stripped (its `<!--` inline or in a fence) is sent
    /// as written, CR line ends and all, not as the Markdown lexer rewrote it.
    UnstrippedTextAsWritten = "unstripped-text-as-written", from (2, 1, 330), cases [
        "text-comments-follow-the-programs-markdown-reader",
    ],
        "a file whose comments all stay (inline, or in a fence) is sent as written; \
         before, any file holding <!-- was sent as the Markdown lexer rewrote it, every \
         CRLF and lone CR made a line feed";

    /// `MEMORY.md` is sent as quoted notes: a sentence on where they come from, then each
    /// line after `> ` (its load warning too).
    MemoryIndexQuoted = "memory-index-quoted", from (2, 1, 337), cases [
        "auto-memory-backfill-uses-file-name-and-description",
        "memory-md-201-lines-cut-with-warning",
        "memory-md-crlf-frontmatter-stripped",
        "releases-memory-index-quote-marks",
        "subagent-without-memory",
    ],
        "MEMORY.md is sent as quoted notes: a 273-unit sentence saying they were saved \
         by Claude in earlier conversations and grant no permission, then every line \
         (the load warning's too) after \"> \"; before, as written";

    /// Frontmatter with CRLF line ends that both YAML readings reject is read a third time
    /// with LF line ends, so a value with `: ` or `#` in it is quoted as on LF files.
    FrontmatterLfRetry = "frontmatter-lf-retry", from (2, 1, 337), cases [
        "edges-frontmatter-lf-retry-anchors-aliases",
        "skills-listing-edge-invalid-yaml",
    ],
        "frontmatter with CRLF line ends that YAML rejects (a value holding \": \") is \
         read again with LF line ends and its values quoted, so it counts; before, such a \
         block counted for nothing";

    /// A sub-agent's frontmatter that strict YAML rejects (an unquoted second colon) is read
    /// leniently; before, the file was no agent.
    AgentFrontmatterLenient = "agent-frontmatter-lenient", from (2, 1, 69), cases [
        "agents-listing-fifty-in-a-subfolder",
    ],
        "a sub-agent whose frontmatter strict YAML rejects (an unquoted second colon in \
         its description) is listed; before, the file was no agent";

    /// A sub-agent whose name starts with `-` is no agent.
    AgentNameNoLeadingHyphen = "agent-name-no-leading-hyphen", from (2, 1, 172), cases [
        "agents-listing-line-forms-and-order",
    ],
        "a sub-agent whose name starts with - is no agent; before, it was listed";

    /// The working directory's sub-agents shadow a parent folder's of the same name;
    /// before, the parent's won.
    DeeperAgentsShadow = "deeper-agents-shadow", from (2, 1, 178), cases [
        "agents-listing-sources-subfolders-and-shadowing",
    ],
        "the working directory's sub-agents shadow a parent folder's of the same name; \
         before, the parent folder's were in force";

    /// A sub-agent whose name holds a colon is no agent.
    AgentNameNoColon = "agent-name-no-colon", from (2, 1, 218), cases [
        "agents-listing-line-forms-and-order",
    ],
        "a sub-agent whose name holds a colon is no agent; before, it was listed";

    /// A sub-agent whose name is over 256 UTF-16 units is no agent.
    AgentNameCapped = "agent-name-capped", from (2, 1, 292), cases [
        "agents-listing-line-forms-and-order",
    ],
        "a sub-agent whose name is over 256 characters is no agent; before, it was \
         listed";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_behaviour_that_stopped_has_its_last_release() {
        // What an entry's `until (…)` expands to.
        let last: Option<ClaudeVersion> = behaviours!(@last (2, 1, 153));
        assert_eq!(last, Some(ClaudeVersion(2, 1, 153)));
        let holds: Option<ClaudeVersion> = behaviours!(@last);
        assert_eq!(holds, None);
    }

    #[test]
    fn each_declaration_gives_its_row() {
        assert_eq!(RULE_CHANGES.len(), Behaviour::COUNT);
        for (change, behaviour) in RULE_CHANGES.iter().zip(Behaviour::ALL) {
            assert_eq!(change.behaviour, behaviour);
            assert_eq!(change.version, behaviour.first());
            assert_eq!(change.last, behaviour.last());
            assert_eq!(change.summary, behaviour.description());
            assert_eq!(change.cases, behaviour.cases());
            assert!(!behaviour.title().is_empty());
        }
        assert_eq!(
            published_before(ClaudeVersion(2, 1, 83)),
            ClaudeVersion(2, 1, 81)
        );
    }
}
