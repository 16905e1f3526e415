//! The registry of finding codes: every kind of finding, declared once.
//!
//! Each entry gives the code's variant, its kebab-case string (what the JSON report, SARIF,
//! the packed form and shared links carry), its default severity, a one-line summary (the
//! variant's doc comment, which the report's JSON Schema and SARIF's rule descriptions read)
//! and a paragraph for users. The macro generates the [`Code`] enum, [`Code::ALL`],
//! [`Code::as_str`], [`Code::severity`], [`Code::severity_varies`], [`Code::summary`] and
//! [`Code::doc`] from them; `docs/codes.md` is generated from those by
//! `tests/tests/codes.rs`, which also checks that every finding a fixture or case produces
//! has its code's severity and that every code is produced by one.
//!
//! Entries are in the order of their strings, and a code's string and place never change:
//! reports, packed reports and shared links written before must read the same. A code is
//! produced where its rule lives (`git grep -n 'Code::ImportCycle' core/src`).

use crate::report::{Harm, Severity};

/// Declares the codes. Per entry: the summary as doc comments, then
/// `Variant = "kebab-case", Severity,` (or `Severity varies,` when the same code is
/// produced at more than one severity), its [`Harm`] and the verdict's line for several
/// findings (`{n}` for the count), then the users' paragraph and a semicolon.
macro_rules! codes {
    ($(
        $(#[doc = $summary:literal])+
        $variant:ident = $name:literal, $severity:ident $($varies:ident)?, $harm:ident, $many:literal,
        $doc:literal;
    )*) => {
        // The doc comment's words and line breaks are the JSON Schema's description of `Code`
        // (core/report.schema.json): keep them as they are.
        /// Every kind of finding, one per stable kebab-case code (`import-cycle`), in the order of
        /// those codes. The core, the page and the tests name findings by these, never by strings.
        #[derive(
            Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize,
            serde::Deserialize,
        )]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        #[serde(rename_all = "kebab-case")]
        pub enum Code {
            $(
                $(#[doc = $summary])+
                $variant,
            )*
        }

        impl Code {
            /// How many codes there are.
            pub const COUNT: usize = [$(Code::$variant),*].len();

            /// Every code, in order.
            pub const ALL: [Code; Code::COUNT] = [$(Code::$variant),*];

            /// The kebab-case code, as the JSON report writes it.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$variant => $name,)*
                }
            }

            /// The severity a finding of this code has, unless
            /// [`Code::severity_varies`] says it depends on the case.
            pub fn severity(self) -> Severity {
                match self {
                    $(Code::$variant => Severity::$severity,)*
                }
            }

            /// True for a code produced at more than one severity; [`Code::severity`] is then
            /// the most common one.
            pub fn severity_varies(self) -> bool {
                match self {
                    $(Code::$variant => codes!(@varies $($varies)?),)*
                }
            }

            /// The one-line summary (the variant's doc comment), with its lines joined.
            pub fn summary(self) -> &'static str {
                match self {
                    $(Code::$variant => concat!($($summary),+).trim(),)*
                }
            }

            /// What findings of this code do to what Claude Code sends, which ranks them in
            /// the verdict ([`crate::report::verdict`]).
            pub fn harm(self) -> Harm {
                match self {
                    $(Code::$variant => Harm::$harm,)*
                }
            }

            /// The verdict's line for several findings of this code, with `{n}` for how many.
            pub fn many(self) -> &'static str {
                match self {
                    $(Code::$variant => $many,)*
                }
            }

            /// What the finding means and what to do about it, for users.
            pub fn doc(self) -> &'static str {
                match self {
                    $(Code::$variant => $doc,)*
                }
            }
        }
    };
    (@varies) => { false };
    (@varies varies) => { true };
}

codes! {
    /// An agent declares a memory folder that does not exist yet.
    AgentMemoryMissing = "agent-memory-missing", Info, Warns, "{n} agents have no memory folder yet",
        "An agent definition (`agents/<name>.md`) names a `memory` scope, so Claude Code keeps \
         that agent's memory in a folder of its own, and that folder is not there. Either the \
         agent has saved nothing yet, or the snapshot leaves the folder out. Nothing is lost; \
         the agent starts with an empty memory.";

    /// An agent-memory folder no agent definition declares.
    AgentMemoryOrphan = "agent-memory-orphan", Warning, Drops, "{n} agent-memory folders belong to no agent and never load",
        "An agent-memory folder exists, but no agent definition declares a `memory` scope that \
         leads to it, so it is never loaded. This happens when an agent was renamed or deleted \
         or its memory scope changed. Rename the folder to match the agent, or delete it.";

    /// A settings file or the environment switches auto memory off.
    AutoMemoryDisabled = "auto-memory-disabled", Warning, Drops, "auto memory is switched off ({n} settings)",
        "Auto memory is off: a settings file sets `autoMemoryEnabled: false`, or \
         `CLAUDE_CODE_DISABLE_AUTO_MEMORY` is set. The memory folder's files are listed but \
         nothing of them loads. The finding points at the settings file that decided.";

    /// A `.claude/CLAUDE.local.md`, which Claude Code never reads.
    ClaudeLocalMdNeverRead = "claude-local-md-never-read", Warning, Drops, "{n} .claude/CLAUDE.local.md files are never read",
        "The documentation lists `.claude/CLAUDE.local.md`, but Claude Code was measured never \
         to read it (2.1.328). Move its contents to `CLAUDE.local.md` beside the `.claude/` \
         folder.";

    /// A file `claudeMdExcludes` matches.
    ClaudeMdExcluded = "claude-md-excluded", Info, Drops, "{n} instruction files are excluded by claudeMdExcludes",
        "A `claudeMdExcludes` pattern in the settings matches this file, so Claude Code does not \
         load it and does not follow its imports. The finding names the pattern. The managed \
         policy's files are never excluded.";

    /// An instruction file over the 4 MiB Claude Code loads.
    ClaudeMdSkipped = "claude-md-skipped", Error, Cuts, "{n} instruction files are over 4 MiB and never load",
        "A `CLAUDE.md`-family file is over 4 MiB, and Claude Code skips it entirely: none of its \
         instructions reach Claude. Releases before 2.1.196 read every size whole. Split it, or \
         move the bulk into files it links to.";

    /// An instruction file over the large-file threshold.
    ClaudeMdTooLarge = "claude-md-too-large", Warning, Wastes, "{n} instruction files are large enough to slow Claude Code",
        "Claude Code warns that this instruction file is large enough to impact performance \
         (over 40,000 characters as sent). It still loads whole, in every session. Move what is \
         not needed every time into rules with `paths`, skills or linked files.";

    /// A command hidden by a skill or a command of the same name.
    CommandShadowed = "command-shadowed", Warning, Drops, "{n} commands are hidden by a skill or command of the same name",
        "A custom slash command has the name of a skill, or of another command that wins: Claude \
         Code lists and runs only the winner, so this command's instructions never reach Claude \
         and `/name` runs the other. A skill (the user's or the project's) beats any command; of \
         two commands the managed policy's wins, then the user's, then the working \
         directory's, then a parent folder's (measured on 2.1.328). The finding names the \
         winner and what the hidden command's line in the skills listing would have cost in \
         every session. Rename one to keep both.";

    /// A file the analysis does not read (bulk data, over the read cap).
    FileNotRead = "file-not-read", Warning varies, Warns, "{n} files were not read",
        "The analysis did not read this file. Session data (transcripts and other bulk folders) \
         is never read, and is an info finding; a file the analysis needed that is over the \
         64 MiB read cap is a warning, and its row is marked skipped. Only the file's size is \
         shown, and none of it is counted.";

    /// A file that could not be read.
    FileUnreadable = "file-unreadable", Warning, Drops, "{n} files could not be read",
        "The browser or the file system refused to read this file (permissions, a file that \
         changed or vanished, a damaged zip entry). Nothing is built on it and it is not \
         counted; the finding quotes the error.";

    /// A `SessionStart` matcher whose reading memdiag cannot decide.
    HookMatcherUndecided = "hook-matcher-undecided", Info, Warns, "{n} hook matchers could not be read",
        "A `SessionStart` hook's matcher is a regular expression that memdiag's bounded reader \
         cannot decide: longer than 512 characters, nested deeper than 16 groups, taking more \
         than 10,000 steps on a session's source (a pattern built to backtrack), or using what \
         the reader does not follow (two groups of one name, a back-reference inside a \
         look-behind). Claude Code tests it with JavaScript's `RegExp`; memdiag takes it to run \
         when it holds the source's name (`startup`), which may be wrong. Simplify the matcher, \
         or list the sources: `startup|resume`.";

    /// An import that leads back to a file already being loaded.
    ImportCycle = "import-cycle", Warning, Warns, "{n} imports form a cycle",
        "An `@import` leads back to a file that is already being loaded higher up the chain. \
         Claude Code does not follow the cycle, so nothing is loaded twice, but the import does \
         nothing. Remove it.";

    /// An import that leaves the project and needs approval.
    ImportNeedsApproval = "import-needs-approval", Warning, Drops, "{n} imports leave the project and load only after approval",
        "An `@import` in a project, local or managed file resolves outside the project. Claude \
         Code loads such an import only after you approve external imports for the project, \
         which it records in `~/.claude.json`; until then it is not counted. Add \
         `~/.claude.json` to the page to see whether you approved.";

    /// An import of a file with a non-text extension.
    ImportNotText = "import-not-text", Info, Drops, "{n} imports name files that are not text and never load",
        "An `@import` names a file with a binary extension (an image, an archive, a PDF, …). \
         Claude Code skips it, so it adds nothing.";

    /// An import past the depth Claude Code follows.
    ImportTooDeep = "import-too-deep", Warning, Drops, "{n} imports are past the import depth and never load",
        "An `@import` sits more hops from the file that starts the chain than Claude Code \
         follows (four on the pinned release), so the imported file is not loaded. Import it \
         from a file nearer the top.";

    /// An import whose path ends in punctuation.
    ImportTrailingPunctuation = "import-trailing-punctuation", Info, Drops, "{n} imports end in punctuation and never load",
        "An `@path` ends in punctuation (`:`, `,`, `.`, `)`, …) that Claude Code keeps as part of \
         the path, so the import looks for a file that does not exist. Write the path with a \
         space after it.";

    /// All instruction files together over the total limit.
    InstructionsTooLarge = "instructions-too-large", Warning, Wastes, "{n} instruction blocks are over the large-file warning",
        "Claude Code warns that the instruction files sent in every session together are large \
         enough to impact performance. Every session carries them; move what is not always \
         needed into conditional rules, skills or linked files.";

    /// Frontmatter that does not parse.
    InvalidFrontmatter = "invalid-frontmatter", Warning, Drops, "{n} files have frontmatter Claude Code cannot read",
        "The YAML frontmatter block at the top of this file does not parse, so its keys \
         (`paths`, `name`, `description`, …) are ignored: a rule with broken `paths` loads in \
         every session, a skill loses its description. The finding quotes the parser's error.";

    /// A path a source listed that is not a valid virtual path.
    InvalidPath = "invalid-path", Warning, Warns, "{n} paths cannot be read",
        "A source listed a file or mount point whose path cannot be used (relative, escaping \
         its root with `..`, or holding NUL), so it was left out of the analysis.";

    /// A settings file or key that is ignored.
    InvalidSettings = "invalid-settings", Warning, Drops, "{n} settings files cannot be read, so their settings do not apply",
        "A settings file does not parse, or a key the analysis reads has a value Claude Code \
         ignores (a `claudeMdExcludes` glob that is invalid, an `autoMemoryDirectory` that is \
         neither absolute nor under `~/`). The file or the key is ignored, as Claude Code \
         ignores it.";

    /// A file that is not valid UTF-8.
    InvalidUtf8 = "invalid-utf8", Warning, Drops, "{n} files are not valid UTF-8 and reach Claude garbled",
        "The file is not valid UTF-8. Claude Code reads files as UTF-8, so a UTF-16 file \
         arrives garbled, and invalid bytes become U+FFFD, which the report measures as such. \
         Save the file as UTF-8.";

    /// A topic file without a `modified` timestamp.
    MemoryFileNoTimestamp = "memory-file-no-timestamp", Info, Warns, "{n} memory files have no timestamp",
        "A memory topic file has no `modified` date in its frontmatter. Claude Code's own file \
         tools stamp one, so the file was likely written through the shell, which also skips \
         the index's size check. The growth projection dates it by its file time instead.";

    /// A topic file without a known `type`.
    MemoryFileNoType = "memory-file-no-type", Info, Warns, "{n} memory files have no type",
        "A memory topic file has no `type` in its frontmatter, or one Claude Code does not \
         write (it writes `user`, `feedback`, `project` or `reference`).";

    /// Another folder whose path encodes to the same memory folder.
    MemoryFolderCollision = "memory-folder-collision", Warning, Drops, "{n} projects share one memory folder",
        "Claude Code names a project's memory folder by encoding its path, and the encoding is \
         lossy: another folder's path encodes to the same name, so the two projects share one \
         auto memory. The finding lists the colliding paths.";

    /// A memory folder with no Markdown file.
    MemoryFolderEmpty = "memory-folder-empty", Warning, Warns, "{n} memory folders hold nothing",
        "The project's memory folder exists but holds no Markdown file, so nothing loads from \
         it.";

    /// A memory folder that looks like the project's but does not load.
    MemoryFolderLookalike = "memory-folder-lookalike", Warning varies, Warns, "{n} memory folders may be this project's",
        "A memory folder looks like this project's but is not the one Claude Code uses. As a \
         warning: no folder has the exact encoded name, the folder the report shows was found \
         by a fallback lookup, and Claude Code may start a new, empty one instead. As info: \
         another folder of the projects base looks like the project's (the older encoding, a \
         subfolder or worktree, the same last two folder names, or a linked worktree's folder \
         an older release kept), and its memory files do not load for this project.";

    /// A project outside git, keyed by its own folder.
    MemoryFolderNoGit = "memory-folder-no-git", Info, Warns, "{n} memory folders are keyed by a folder that is not a git repository",
        "The project is not inside a git repository in this snapshot, so Claude Code keys its \
         memory by the folder itself: starting Claude Code in a subfolder opens a different, \
         empty memory.";

    /// No memory folder for the project in the snapshot.
    MemoryFolderNotFound = "memory-folder-not-found", Info, Warns, "{n} projects have no memory folder",
        "The snapshot holds no auto-memory folder for this project. The finding names the \
         folder Claude Code would use; it creates it when it first saves something.";

    /// Topic files without an index: Claude Code writes one.
    MemoryIndexBackfilled = "memory-index-backfilled", Info, Warns, "{n} memory indexes are written by Claude Code from the topic files",
        "The memory folder has topic files but no `MEMORY.md`. Claude Code writes an index of \
         them at its next start and loads it; the report shows that index as it will be \
         written.";

    /// An import in `MEMORY.md`, which is not followed.
    MemoryIndexImport = "memory-index-import", Info, Warns, "{n} memory indexes import files",
        "`MEMORY.md` holds an `@import`. Claude Code loads the index as it is and does not \
         follow imports in it, so the imported file does not load. Markdown links to topic \
         files are the way to point Claude at them.";

    /// An index line longer than Claude Code advises.
    MemoryIndexLongLine = "memory-index-long-line", Info, Wastes, "{n} index lines are long",
        "A line of `MEMORY.md` is over 200 characters. Claude Code asks for one short line per \
         entry, with the detail in a topic file, so that the index stays under its caps.";

    /// An index at 80 % of a cap.
    MemoryIndexNearLimit = "memory-index-near-limit", Warning, Wastes, "{n} memory indexes are close to their caps",
        "`MEMORY.md` has reached 80 % of one of its caps (200 lines, 25,000 characters), and \
         Claude Code has started to remind Claude about it. Past the cap, the rest of the index \
         does not load.";

    /// An index the caps cut.
    MemoryIndexTruncated = "memory-index-truncated", Warning, Cuts, "{n} memory indexes lose lines past their caps in every session",
        "`MEMORY.md` is over its caps (the first 200 lines, and 25,000 characters from \
         2.1.83), so only its start loads and Claude Code appends a warning. The finding points \
         at the first line dropped; the file view shows which lines load. Move detail into \
         topic files and keep one short line per entry.";

    /// A memory folder with an index and no topic file.
    MemoryNothingSaved = "memory-nothing-saved", Info, Warns, "nothing is saved in auto memory yet ({n})",
        "The memory folder holds an index but no topic file. Claude Code does not save \
         something every session, and short scripted runs rarely do.";

    /// A topic file only lines past the cap link to.
    MemoryTopicCutOff = "memory-topic-cut-off", Warning, Cuts, "{n} topic files are cut off when Claude reads them",
        "Only lines of `MEMORY.md` past its cap link to this topic file, so Claude never sees a \
         link to it. Move its index line up, or shorten the index.";

    /// A topic file no loaded index line links to.
    MemoryTopicOrphan = "memory-topic-orphan", Warning, Warns, "{n} topic files are never read: no index line links them",
        "No line of `MEMORY.md` links to this topic file. Recall runs through the index, so the \
         file is effectively never read. Link it from the index, or delete it (the page's clean-up \
         does either).";

    /// A conditional rule no file of the project matches.
    RuleNeverMatches = "rule-never-matches", Warning, Drops, "{n} rules never load: no file matches their paths",
        "A rule's `paths` globs match no file of the project, so the rule never loads. Check \
         the globs against the project's layout.";

    /// Rules of one folder loaded in the file system's order, which the snapshot does not
    /// record.
    RuleOrderUnknown = "rule-order-unknown", Info, Warns, "the order of {n} rules folders is unknown",
        "Claude Code loads the rules of one `.claude/rules/` folder in the order the file \
         system lists its entries, a subfolder's where the subfolder stands (measured on \
         2.1.328 and 2.1.337). This snapshot (a dropped folder, a shared report) does not record \
         that order, so the report lists them by name. Only their order in the instruction \
         block depends on it, not what they cost. The `memdiag` command and zips record it.";

    /// A rule whose `paths` hold no glob or an invalid one.
    RulePathsInvalid = "rule-paths-invalid", Warning, Drops, "{n} rules have paths Claude Code cannot read",
        "A rule's `paths` is set but holds no glob, so the rule loads in every session, or one \
         of its globs is invalid and matches nothing.";

    /// A `paths` list the simulated release joins into one pattern.
    RulePathsJoined = "rule-paths-joined", Warning, Drops, "{n} rules have paths joined into one pattern",
        "The simulated release (before 2.1.84) reads a YAML list in `paths` as one pattern, the \
         items joined as written, so the rule loads only for files that pattern matches. On \
         those releases, write the globs as one comma-separated string.";

    /// Entries the scan command left out (links, unlistable entries).
    ScanSkipped = "scan-skipped", Info, Warns, "{n} folders were skipped by the scan",
        "The `memdiag` command left entries out below this folder: symbolic links leading \
         outside the mounted folder, dangling or looping links, links to folders (followed only \
         on the host's own paths), entries whose name is not one path segment, entries it could \
         not list, or everything past its listing cap. The finding says which.";

    /// A nested file a six-level scan with a skip list would miss.
    SeedScanMisses = "seed-scan-misses", Info, Warns, "{n} files a shallow scan would miss",
        "A nested `CLAUDE.md`-family file sits more than six folders below the project or \
         inside a folder such as `node_modules/`. Claude Code still attaches it when it reads a file \
         there; a scanner that stops six folders down or skips such folders would miss it.";

    /// The same text sent twice in every session.
    SentTwice = "sent-twice", Warning, Wastes, "{n} texts are sent twice in every session",
        "Two instruction files that both load in every session hold the same text as sent \
         (a `CLAUDE.local.md` copied from a `CLAUDE.md`, a parent folder's file repeated in the \
         project), or a skill and a command are listed with the same description: Claude \
         Code sends it twice, and the second copy costs its characters (UTF-16 units, as \
         Claude Code counts them) in every session. The finding names the earlier copy. Keep \
         one, or make the descriptions say what tells the two apart. A file reached under two \
         paths (a link), or imported by a file and loading on its own as well, is sent once \
         and is not this finding, and a text shorter than 30 characters is not reported \
         (measured on 2.1.328 and 2.1.337).";

    /// Hooks or MCP servers configured: text the every-session figure leaves out.
    SessionTextNotCounted = "session-text-not-counted", Info, Warns, "{n} configuration files set up hooks or MCP servers whose text is not counted",
        "A settings file configures hooks, or an MCP configuration (`.mcp.json`, \
         `managed-mcp.json`, `~/.claude.json`) configures MCP servers. A hook's output (a \
         `SessionStart` hook's at startup, a `UserPromptSubmit` hook's with every prompt) and \
         an MCP server's tools and instructions are sent to Claude, but what they are depends \
         on running them, which no file tells and memdiag never does. The report lists each \
         one (`session.not_counted`) and leaves its text out of the every-session figure.";

    /// A skill description the listing cuts.
    SkillDescriptionTruncated = "skill-description-truncated", Warning, Drops, "{n} skills lose part of their description in the listing",
        "A skill's description (with its `when_to_use`) is longer than the skills listing \
         keeps, so the rest never reaches Claude, which decides when to use a skill from what \
         is listed. Put the triggers first, or shorten it.";

    /// Two skills with the same name.
    SkillDuplicateName = "skill-duplicate-name", Warning, Drops, "{n} skills share a name with another",
        "Two skills have the same name, so only one of them can be invoked by it. Rename one.";

    /// A skill without a description.
    SkillNoDescription = "skill-no-description", Warning, Drops, "{n} skills have no description in the listing",
        "A skill has no `description` in its frontmatter. Claude Code lists the body's first \
         line instead, and Claude decides when to use a skill from what is listed.";

    /// Skills a simulated release lists in the file system's order, which the snapshot does
    /// not record.
    SkillOrderUnknown = "skill-order-unknown", Info, Warns, "the order of {n} skills folders is unknown",
        "The simulated release (2.1.113 to 2.1.153) lists skills in the order the file system \
         lists their folders, and this snapshot (a dropped folder, a shared report) does not \
         record it, so the report lists them by name. The finding says what depends on the \
         order. The `memdiag` command and zips record it.";

    /// A skill hidden by a skill of the same name.
    SkillShadowed = "skill-shadowed", Warning, Drops, "{n} skills are hidden by a skill of the same name",
        "Two skills have the same folder name, the name Claude Code invokes a skill by: it lists \
         and runs only the first, the managed policy's, then the user's, then the project \
         folder's, then a parent folder's (measured on 2.1.328). So a project skill of a name \
         the user also has silently never reaches Claude, in this project or any other. The \
         finding names the winner and what the hidden skill's line in the skills listing would \
         have cost in every session. Rename one folder to keep both.";

    /// A `SKILL.md` deeper than Claude Code looks.
    SkillTooDeep = "skill-too-deep", Warning, Drops, "{n} skills sit too deep to be found",
        "A `SKILL.md` sits more than one folder below `skills/`. Claude Code lists only \
         `skills/<name>/SKILL.md`, so this is not a skill. Move its folder up.";

    /// A reference whose target does not exist.
    UnresolvedReference = "unresolved-reference", Warning, Warns, "{n} links or imports lead nowhere",
        "An `@import` or a Markdown link points to a file that does not exist, or to a place \
         outside the folders in this snapshot (where it may exist on the machine).";

    /// A zip entry that was not mounted.
    ZipEntryRejected = "zip-entry-rejected", Warning, Warns, "{n} zip entries were left out",
        "A zip entry was left out: its name is unusable (empty, escaping its root, not a \
         path), it is encrypted or a symbolic link, it declares a size or a compression ratio \
         over the caps, or another entry already names the same file (the first is kept). The \
         finding says why.";

    /// A zip with more entries than are mounted.
    ZipTooManyEntries = "zip-too-many-entries", Warning, Warns, "the zip holds more entries than are read ({n})",
        "The zip holds more entries than are mounted, so the entries past the cap are left \
         out. Zip only what matters (the README's zip command leaves transcripts out).";
}

impl Default for Code {
    /// The code a damaged packed report reads as.
    fn default() -> Code {
        Code::UnresolvedReference
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Code {
    type Err = String;

    /// The code a kebab-case name stands for.
    fn from_str(name: &str) -> Result<Code, String> {
        Code::ALL
            .into_iter()
            .find(|code| code.as_str() == name)
            .ok_or_else(|| format!("{name:?} is no finding code"))
    }
}

impl PartialEq<&str> for Code {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<str> for Code {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

#[cfg(test)]
mod tests {
    use super::Code;

    #[test]
    fn every_code_writes_its_kebab_case_name_in_order() {
        let mut previous = "";
        for code in Code::ALL {
            let json = serde_json::to_string(&code).expect("a code serialises");
            assert_eq!(json, format!("\"{}\"", code.as_str()));
            assert!(previous < code.as_str(), "{code} is out of order");
            previous = code.as_str();
        }
    }

    #[test]
    fn every_code_has_a_summary_and_a_paragraph() {
        for code in Code::ALL {
            assert!(!code.summary().trim().is_empty(), "{code} has no summary");
            assert!(code.doc().len() > 40, "{code} has no paragraph for users");
            assert!(
                !code.doc().contains("  "),
                "{code}'s paragraph has a double space"
            );
        }
    }
}
