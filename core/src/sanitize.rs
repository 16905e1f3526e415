//! Sanitizing a snapshot for sharing: a new, minimal snapshot that analyses to the same
//! report as the original and holds no word the person wrote.
//!
//! [`sanitize`] takes the tree an analysis ran over (with the contents it read), the input
//! and the finished report, and returns a [`Sanitized`] snapshot. [`crate::share`] turns that
//! into a link or a zip.
//!
//! ## What is kept
//! - Every file the report lists that exists: each row, and each reference target that
//!   exists (references past the listed depth included, so `exists` stays true).
//! - The three settings files, reduced to `autoMemoryEnabled`, `autoMemoryDirectory` and
//!   `claudeMdExcludes` (a key of the wrong type keeps its JSON type, so its warning stays).
//! - The `.git` folder or file that decides the git root (a folder is kept empty; a file keeps
//!   only its `gitdir:` line's path).
//! - Sub-agent definitions under `<config>/agents/` and `<project>/.claude/agents/`.
//! - For this project's folder in `report.memory_folders` (and, with
//!   [`SanitizeOptions::other_projects`], every other one; without it, only those a finding
//!   names), its `memory/` folder and every `.md` below it (size only where the analysis
//!   never read it), so the counts and lookups stay. [`Sanitized::left_out_folders`] names
//!   the others, which the shared report does not list.
//! - The folders a link points to, each agent-memory folder, the folders a finding names (a
//!   colliding project), and the mount roots.
//! - For each conditional rule whose globs match a file of the project, up to three matching
//!   files (by size only), so the health view still finds the rule can load.
//!
//! Everything else is left out: transcripts, `file-history/`, `todos/`, `.credentials.json`,
//! other settings keys, any file the analysis did not list. A file the analysis never reads
//! (a transcript a file links to, a file over the read cap, a CLAUDE.md over 4 MiB) keeps its
//! size and no contents.
//!
//! ## How text is replaced
//! Every character becomes a placeholder of the same UTF-8 length, which also keeps its UTF-16
//! length: an ASCII letter `x`, an ASCII digit `0`; a two-, three- or four-byte letter or
//! digit `ø`, `ㅁ` or `𝑥`, and any other two-, three- or four-byte character `·`, `□` or `🔲`
//! (so word boundaries stay where they were). Kept as they are: every ASCII
//! character that is not a letter or digit (line breaks, spaces, tabs, and all Markdown, YAML
//! and glob punctuation such as `` # * - _ > [ ] ( ) ! ` | ~ < : @ % { } ``), and every
//! Unicode white space character. So lines, characters, bytes, UTF-16 units, the
//! `MEMORY.md` caps, frontmatter, fenced code and HTML comment boundaries all measure as
//! before. Invalid UTF-8 stays invalid, byte for byte in length.
//!
//! Inside that text, what decides discovery is rewritten instead: `@` import paths and local
//! link destinations become the pseudonymised path of what they point to (percent-escapes
//! and backslash escapes kept in place). In frontmatter only the words the analysis reads
//! pass ([`KEPT_FRONTMATTER_KEYS`], the list discovery's own reads are checked against):
//! those keys stay, and every other key, anchor and alias name and custom tag becomes
//! placeholders of its length, distinct where the originals were (`xxxx`, `xxxb`, …). The
//! values of `type`, `memory` and `disable-model-invocation` stay only when they are words
//! the analysis reads (a memory type, a scope, a boolean); `modified` keeps its day and
//! nothing else (the time's digits become `0`); `paths` globs and the `name` of a skill or
//! sub-agent are pseudonymised like file names; every other value is replaced like text. A
//! digit in a plain YAML value becomes `1`, not `0`, so that no placeholder reads as a YAML
//! number such as `0x0`; a number that must stay a number becomes one of the same form and
//! shown length (`4096` → `1111`, `0xDEADBEEF` → `0x3B9ACA00`); a boolean or null stays. In a `MEMORY.md`, the words the health view reads to tell a
//! correction (`not`, `instead`, `wrong`, `actually`, `corrected`, `no longer`) stay.
//!
//! ## How names are pseudonymised
//! A name is split into runs of ASCII letters and digits, single non-ASCII characters, and
//! everything else (kept). Each run maps to a run of the same length through one table for
//! the whole snapshot, case-insensitively (the case of each letter stays), so a path and the
//! memory-folder name that encodes it change together, and the lookups by encoded path, by
//! the older encoding and by a case-insensitive suffix all still hit. The table is a trie
//! that keeps order: pseudonyms sort among their neighbours as the originals did, so rows,
//! memory folders and findings keep their order. The cost is that a pseudonym shows where a
//! name sorts among the names that are kept: often its first letter, and a short name with
//! no free slot between its kept neighbours comes out unchanged. Kept runs: the
//! well-known names (`claude`, `md`, `rules`, `skills`, `memory`, `projects`, `settings`,
//! `git`, …), file extensions, drive letters, and (with `keep_file_names`) every run that is
//! not part of the user name. The user name is replaced wherever it appears, unless
//! `keep_user_name` (a user named like a well-known name, `claude`, stays).
//!
//! With `keep_text`, contents stay as written, except the reference paths and names above,
//! which follow the pseudonyms, and the user name, replaced wherever it is written unless
//! `keep_user_name`. Of files' modification times only the day stays: the growth view
//! counts days.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use serde_json::{Map, Value as Json};

use crate::analyze::{analyze, Input, Step};
use crate::discover::READ_CAP_BYTES;
use crate::report::{
    Diagnostic, DiagnosticData, FileStatus, Group, LoadType, ReferenceKind, Report,
};
use crate::text::frontmatter::{self, untag, Frontmatter, Value as Yaml};
use crate::text::glob::Glob;
use crate::text::measure::{is_js_space, measure};
use crate::text::references;
use crate::tree::{Contents, FileEntry, Tree};
use crate::vpath::VPath;

/// The frontmatter keys a shared snapshot keeps as written: the ones the analysis reads.
/// Every other key, and every anchor, alias and custom tag name, becomes placeholders.
pub const KEPT_FRONTMATTER_KEYS: &[&str] = &FRONTMATTER_KEYS;

/// What the person sharing chooses; the defaults are the safe ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SanitizeOptions {
    /// Keep folder and file names as they are (the user name is still replaced).
    pub keep_file_names: bool,
    /// Keep the user name in home paths and wherever else it appears in a name.
    pub keep_user_name: bool,
    /// Keep file contents as written. The page must warn that contents will be shared.
    pub keep_text: bool,
    /// Keep the memory folders of other projects (`projects/<name>/memory/` for every
    /// project but this one), as counts only: their files by size, never their text. Off,
    /// only this project's folder and the folders a finding names are kept.
    pub other_projects: bool,
}

impl Default for SanitizeOptions {
    /// The safe defaults: names pseudonymised, text replaced, other projects left out.
    fn default() -> SanitizeOptions {
        SanitizeOptions {
            keep_file_names: false,
            keep_user_name: false,
            keep_text: false,
            other_projects: false,
        }
    }
}

/// A sanitized snapshot: what a share link or file carries, and for the person sharing, the
/// way from their names to the shared ones.
#[derive(Debug, Clone)]
pub struct Sanitized {
    /// The shared tree: every kept file with its size, and contents wherever the analysis
    /// reads them. [`crate::analyze`] over it finishes in one turn.
    pub tree: Tree,
    /// The host facts, with pseudonymised paths.
    pub input: Input,
    /// Original path → shared path, for every file, folder and mount root kept. It holds the
    /// original names: show it to the person sharing, never put it in a payload.
    pub paths: BTreeMap<String, String>,
    /// What could not be kept exactly, each a sentence for the person sharing (shared paths
    /// only). Empty when the shared report will match theirs.
    pub warnings: Vec<String>,
    /// True when the person chose to keep the files' text: whoever opens the copy is told.
    pub text_kept: bool,
    /// The memory folders of other projects left out (their names in `projects/`, as the
    /// original report lists them), unless [`SanitizeOptions::other_projects`].
    pub left_out_folders: BTreeSet<String>,
    /// The folders kept without a file in them (a `.git` folder, an empty `memory/`), which
    /// the tree knows but does not list.
    dirs: Vec<VPath>,
    pseudonyms: Pseudonyms,
}

impl Sanitized {
    /// The folders kept without needing a file in them; a payload carries them.
    pub(crate) fn dirs(&self) -> &[VPath] {
        &self.dirs
    }

    /// The names (folder and file names, one path segment each) that the shared snapshot
    /// shows as the person wrote them, besides the well-known ones such as `CLAUDE.md`,
    /// `rules` or `.claude`: what "keep names" reveals, for the dialog to list. Sorted.
    pub fn visible_names(&self) -> Vec<String> {
        let mut names = BTreeSet::new();
        for (original, shared) in &self.paths {
            for (a, b) in original.split('/').zip(shared.split('/')) {
                let telling = split_name(a).iter().any(|piece| match piece {
                    NamePiece::Run(run) => {
                        let lower = run.to_ascii_lowercase();
                        let well_known = WELL_KNOWN.contains(&lower.as_str());
                        let extension = a.ends_with(&format!(".{run}"));
                        let drive = a.len() == 2 && a.ends_with(':');
                        !(well_known || extension || drive)
                    }
                    NamePiece::Char(c) => !c.is_ascii() && !is_space(*c),
                });
                if a == b && telling {
                    names.insert(a.to_owned());
                }
            }
        }
        names.into_iter().collect()
    }

    /// The shared form of any path, name or glob from the original snapshot (a report row's
    /// path, an unresolved reference, a skill name). Runs the snapshot never held become
    /// placeholders.
    pub fn pseudonym(&self, original: &str) -> String {
        self.pseudonyms.name(original)
    }

    /// Analyses the shared snapshot and lists where its report differs from `original`,
    /// after mapping names through [`Sanitized::pseudonym`]; empty when they agree.
    ///
    /// Figures, statuses, load types, diagnostic codes, severities and lines must match;
    /// messages and other sentences are not compared (they quote names and text), and free
    /// text such as a dropped index entry is compared by length. The differences quote
    /// original values, so they are for the person sharing only.
    pub fn verify(&self, original: &Report) -> Vec<String> {
        let shared = match analyze(&self.tree, &self.input) {
            Ok(Step::Done(report)) => *report,
            Ok(Step::NeedsContents(paths)) => {
                return vec![format!(
                    "the shared snapshot lacks the contents of {} files the analysis reads",
                    paths.len()
                )]
            }
            Err(error) => return vec![error.to_string()],
        };
        let mut original = original.clone();
        original
            .memory_folders
            .retain(|folder| !self.left_out_folders.contains(&folder.name));
        let expected = comparable(&original, &mut |s| self.pseudonyms.name(s));
        let actual = comparable(&shared, &mut |s| s.to_owned());
        let mut differences = Vec::new();
        diff(&expected, &actual, &mut String::new(), &mut differences);
        differences
    }
}

/// Builds the shared snapshot of `tree` as analysed into `report` with `input`.
///
/// `tree` must hold the contents the analysis read (as it does after [`crate::analyze_with`],
/// or after the caller handed every requested file to [`Tree::set_contents`]). See the module
/// documentation for what is kept, replaced and pseudonymised.
pub fn sanitize(
    tree: &Tree,
    input: &Input,
    report: &Report,
    options: &SanitizeOptions,
) -> Sanitized {
    let plan = Plan::new(tree, input, report, options);
    // The first pass only gathers every name the shared snapshot will hold, so that the
    // pseudonym table knows all its neighbours before it assigns anything.
    let collecting = Namer::Collect(RefCell::default());
    let first = Builder::new(&plan, tree, input, report, options, &collecting).build();
    drop(first);
    let Namer::Collect(collected) = collecting else {
        unreachable!("the first pass collects")
    };
    let pseudonyms = Pseudonyms::new(collected.into_inner(), input, options);
    let applying = Namer::Apply(&pseudonyms);
    let built = Builder::new(&plan, tree, input, report, options, &applying).build();
    Sanitized {
        tree: built.tree,
        input: built.input,
        paths: built.paths,
        warnings: built.warnings,
        text_kept: options.keep_text,
        left_out_folders: plan.left_out_folders.clone(),
        dirs: built.dirs,
        pseudonyms,
    }
}

/// The part of `tree` that [`sanitize`] reads for `report`: the mount roots, the files and
/// folders the shared snapshot could keep (each file's entry whole, contents included) and
/// the findings made while the tree was built.
///
/// [`sanitize`] over it gives the same snapshot as over the whole tree, and it holds every
/// file the report lists that exists, so the page's analysis worker hands the page this
/// (a few hundred entries) instead of a tree of every listed file. Where the project holds
/// more files than the health check matches globs against, the rule witnesses depend on
/// files outside it, and the whole tree is returned.
pub fn basis(tree: &Tree, input: &Input, report: &Report) -> Tree {
    // Every option's snapshot comes from the basis: the widest plan.
    let widest = SanitizeOptions {
        other_projects: true,
        ..SanitizeOptions::default()
    };
    let plan = Plan::new(tree, input, report, &widest);
    if let Some(project) = &plan.project {
        if tree.files_under(project).nth(RULE_MATCH_FILES).is_some() {
            return tree.clone();
        }
    }
    let mut out = Tree::new();
    for mount in &plan.mounts {
        out.add_mount(mount.clone());
    }
    for dir in &plan.dirs {
        out.add_dir(dir.clone());
    }
    for path in plan.files.keys() {
        if let Some(entry) = tree.file(path) {
            out.insert(path.clone(), entry.clone());
        }
    }
    for finding in tree.diagnostics() {
        out.push_diagnostic(finding.clone());
    }
    out
}

// ----- what is kept ----------------------------------------------------------------------

/// How a kept file's contents are carried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// Text, replaced as the module documents.
    Text(FileKind),
    /// A settings file, reduced to the keys the analysis reads.
    Settings,
    /// A `.git` file: only its `gitdir:` path matters.
    GitFile,
    /// `~/.claude.json`: only the project's external-import approval is kept.
    ClaudeJson,
    /// The analysis never reads it: its size is kept, not its contents.
    SizeOnly,
}

/// Which frontmatter `name` is a name rather than text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FileKind {
    /// A `SKILL.md`: its `name` is the skill's name.
    Skill,
    /// A sub-agent definition: its `name` keys the agent's memory folder.
    Agent,
    /// Anything else.
    Other,
}

/// What the shared snapshot will hold, decided from the report before anything is renamed.
struct Plan {
    files: BTreeMap<VPath, Role>,
    dirs: BTreeSet<VPath>,
    mounts: Vec<VPath>,
    /// Top-level CLAUDE.md-family and rule rows that `claudeMdExcludes` is matched against.
    exclude_candidates: Vec<String>,
    /// The project, when the snapshot covers it: rules' globs are matched against its files.
    project: Option<VPath>,
    /// Each conditional rule's globs, and whether a file of the project matched them.
    rules: Vec<(Vec<String>, bool)>,
    /// Other projects' memory folders left out.
    left_out_folders: BTreeSet<String>,
}

use crate::discover::{
    AGENT_MEMORY_SCOPES, CORRECTION_WORDS, FRONTMATTER_KEYS, MEMORY_TYPES, RULE_MATCH_FILES,
};
/// Files kept per conditional rule to show that its globs match something.
const RULE_WITNESSES: usize = 3;

/// Sub-agent definitions live here, relative to the config directory and to the project.
const AGENT_DIRS: [&str; 2] = ["agents", ".claude/agents"];

impl Plan {
    fn new(tree: &Tree, input: &Input, report: &Report, options: &SanitizeOptions) -> Plan {
        let path = |s: &str| VPath::new(s).ok();
        let home = path(&input.home).or_else(|| path(&report.context.home));
        let config = match &input.config_dir {
            Some(dir) => path(dir),
            None => home.as_ref().map(|h| h.child(".claude")),
        };
        let project = input.project.as_deref().and_then(path);
        let mut plan = Plan {
            files: BTreeMap::new(),
            dirs: BTreeSet::new(),
            mounts: tree.mounts().cloned().collect(),
            exclude_candidates: Vec::new(),
            project: project.clone().filter(|p| tree.is_covered(p)),
            rules: Vec::new(),
            left_out_folders: BTreeSet::new(),
        };

        for row in &report.files {
            if row.size.is_none() {
                continue;
            }
            let Some(file) = path(&row.path).filter(|p| tree.is_file(p)) else {
                continue;
            };
            let size = tree.file(&file).map_or(0, |f| f.size);
            // Bulk data, files over the read cap and CLAUDE.md files over 4 MiB are never
            // read, so their contents would only make the payload larger.
            let role = if file.extension() == Some("jsonl")
                || size > READ_CAP_BYTES
                || row.status == FileStatus::Skipped
            {
                Role::SizeOnly
            } else if file.file_name() == "SKILL.md" {
                Role::Text(FileKind::Skill)
            } else {
                Role::Text(FileKind::Other)
            };
            plan.files.entry(file).or_insert(role);
            if row.depth == 0 && matches!(row.group, Group::User | Group::Project | Group::Rules) {
                plan.exclude_candidates.push(row.path.clone());
            }
        }
        for row in &report.files {
            for site in &row.references {
                let Some(resolved) = site.resolved.as_deref().and_then(path) else {
                    continue;
                };
                if site.exists && tree.is_file(&resolved) {
                    // Listed past the depth the analysis reads: it must exist, nothing more.
                    plan.files.entry(resolved).or_insert(Role::SizeOnly);
                } else if tree.is_dir(&resolved) {
                    // A link to a folder lists no row only because the folder exists.
                    plan.dirs.insert(resolved);
                }
            }
        }

        let mut settings = Vec::new();
        if let Some(config) = &config {
            settings.push(config.child("settings.json"));
        }
        if let Some(project) = &project {
            settings.push(project.child(".claude").child("settings.json"));
            settings.push(project.child(".claude").child("settings.local.json"));
            // The nearest `.git`, as the analysis finds the git root.
            for dir in project.ancestors() {
                let git = dir.child(".git");
                if tree.is_dir(&git) {
                    plan.dirs.insert(git);
                    break;
                }
                if tree.is_file(&git) {
                    plan.files.insert(git, Role::GitFile);
                    break;
                }
            }
        }
        if let Some(home) = &home {
            // The managed policy's settings (its inline claudeMd is a row, and it may set
            // autoMemoryDirectory) and ~/.claude.json (the import approval).
            let managed = match input.os {
                crate::report::Os::Linux => "/etc/claude-code/managed-settings.json",
                crate::report::Os::Macos => {
                    "/Library/Application Support/ClaudeCode/managed-settings.json"
                }
                crate::report::Os::Windows => "C:/Program Files/ClaudeCode/managed-settings.json",
            };
            settings.extend(path(managed));
            for file in [home.child(".claude.json")]
                .into_iter()
                .chain(config.iter().map(|c| c.child(".claude.json")))
            {
                if tree.is_file(&file) {
                    plan.files.insert(file, Role::ClaudeJson);
                }
            }
        }
        for file in settings {
            if tree.is_file(&file) {
                plan.files.insert(file, Role::Settings);
            }
        }

        let mut agent_dirs = Vec::new();
        if let Some(config) = &config {
            agent_dirs.push(config.child(AGENT_DIRS[0]));
        }
        if let Some(project) = &project {
            agent_dirs.push(project.join(AGENT_DIRS[1]).expect("a constant path"));
        }
        for dir in &agent_dirs {
            for (file, _) in tree.files_under(dir) {
                if file.extension() == Some("md") {
                    plan.files
                        .entry(file.clone())
                        .or_insert(Role::Text(FileKind::Agent));
                }
            }
        }
        for agent in &report.health.agents {
            if let Some(file) = path(&agent.path).filter(|p| tree.is_file(p)) {
                plan.files
                    .entry(file)
                    .or_insert(Role::Text(FileKind::Agent));
            }
        }

        if let Some(base) = path(&report.context.projects_base) {
            // A folder a finding names (a collision, a lookalike) stays with its counts, so
            // that the finding does.
            let named: BTreeSet<&str> = report
                .diagnostics
                .iter()
                .filter_map(|d| match &d.data {
                    Some(DiagnosticData::Paths { paths }) => Some(paths),
                    _ => None,
                })
                .flatten()
                .chain(report.diagnostics.iter().filter_map(|d| d.path.as_ref()))
                .map(String::as_str)
                .collect();
            for folder in &report.memory_folders {
                let Ok(root) = base.join(&folder.name) else {
                    continue;
                };
                let is_named = named
                    .iter()
                    .any(|p| path(p).is_some_and(|p| p == root || p.starts_with(&root)));
                if !(folder.current || options.other_projects || is_named) {
                    plan.left_out_folders.insert(folder.name.clone());
                    continue;
                }
                let memory = root.child("memory");
                for (file, _) in tree.files_under(&memory) {
                    if file.extension() == Some("md") {
                        plan.files.entry(file.clone()).or_insert(Role::SizeOnly);
                    }
                }
                plan.dirs.insert(memory);
            }
        }
        let mut agent_memory = Vec::new();
        if let Some(config) = &config {
            agent_memory.push(config.child("agent-memory"));
        }
        if let Some(project) = &project {
            agent_memory.push(project.child(".claude").child("agent-memory"));
            agent_memory.push(project.child(".claude").child("agent-memory-local"));
        }
        for root in agent_memory {
            for name in tree.child_dirs(&root) {
                plan.dirs.insert(root.child(&name));
            }
        }
        for diagnostic in &report.diagnostics {
            // Findings that name other folders (a colliding project, a lookalike memory
            // folder) need those to exist in the shared snapshot too.
            if let Some(DiagnosticData::Paths { paths }) = &diagnostic.data {
                for named in paths.iter().filter_map(|p| path(p)) {
                    if tree.is_file(&named) {
                        plan.files.entry(named).or_insert(Role::SizeOnly);
                    } else if tree.is_dir(&named) {
                        plan.dirs.insert(named);
                    }
                }
            }
        }
        plan.rule_witnesses(tree, report);
        // A finding about a file that is not a row (one Claude Code never reads) needs only
        // the file to exist.
        for finding in &report.diagnostics {
            if let Some(file) = finding
                .path
                .as_deref()
                .and_then(path)
                .filter(|p| tree.is_file(p))
            {
                plan.files.entry(file).or_insert(Role::SizeOnly);
            }
        }

        plan
    }

    /// The health view warns about a conditional rule whose globs match no file of the
    /// project. For each rule that does match, a few matching files are kept (by size only),
    /// the files it already keeps first, so that the shared snapshot tells the same.
    fn rule_witnesses(&mut self, tree: &Tree, report: &Report) {
        let Some(project) = self.project.clone() else {
            return;
        };
        let rules: Vec<(Vec<String>, Vec<Glob>)> = report
            .files
            .iter()
            .filter(|r| r.group == Group::Rules && r.depth == 0 && r.load == LoadType::Conditional)
            .map(|r| {
                let globs = r.paths.clone().unwrap_or_default();
                let compiled = globs.iter().filter_map(|g| Glob::new(g).ok()).collect();
                (globs, compiled)
            })
            .filter(|(_, compiled): &(Vec<String>, Vec<Glob>)| !compiled.is_empty())
            .collect();
        let project_files: Vec<(VPath, String)> = tree
            .files_under(&project)
            .filter_map(|(p, _)| Some((p.clone(), p.strip_prefix(&project)?.to_owned())))
            .filter(|(_, relative)| !relative.starts_with(".git/"))
            .take(RULE_MATCH_FILES)
            .collect();
        for (globs, compiled) in rules {
            let matches = |relative: &str| compiled.iter().any(|g| g.matches_relative(relative));
            let matching: Vec<&VPath> = project_files
                .iter()
                .filter(|(_, relative)| matches(relative))
                .map(|(path, _)| path)
                .collect();
            let kept = matching
                .iter()
                .filter(|p| self.files.contains_key(**p))
                .count();
            for path in matching.iter().take(RULE_WITNESSES.saturating_sub(kept)) {
                self.files.entry((*path).clone()).or_insert(Role::SizeOnly);
            }
            self.rules.push((globs, !matching.is_empty()));
        }
    }
}

/// What a pass of [`Builder::build`] produces.
struct Built {
    tree: Tree,
    dirs: Vec<VPath>,
    input: Input,
    paths: BTreeMap<String, String>,
    warnings: Vec<String>,
}

/// One pass over the plan: the first collects names, the second writes the shared snapshot.
struct Builder<'a> {
    plan: &'a Plan,
    tree: &'a Tree,
    input: &'a Input,
    report: &'a Report,
    options: &'a SanitizeOptions,
    namer: &'a Namer<'a>,
    warnings: Vec<String>,
}

/// The message a finding made while the original tree was read carries into the share: the
/// original may quote names or paths that are not shared.
const CARRIED_FINDING: &str =
    "found when the original snapshot was read; the details are not shared";

impl<'a> Builder<'a> {
    fn new(
        plan: &'a Plan,
        tree: &'a Tree,
        input: &'a Input,
        report: &'a Report,
        options: &'a SanitizeOptions,
        namer: &'a Namer<'a>,
    ) -> Builder<'a> {
        Builder {
            plan,
            tree,
            input,
            report,
            options,
            namer,
            warnings: Vec::new(),
        }
    }

    fn build(mut self) -> Built {
        let mut out = Tree::new();
        let mut dirs = Vec::new();
        let mut paths = BTreeMap::new();
        for mount in &self.plan.mounts {
            if let Some(shared) = self.shared_path(mount.as_str(), false) {
                paths.insert(mount.as_str().to_owned(), shared.as_str().to_owned());
                out.add_mount(shared);
            }
        }
        for dir in &self.plan.dirs {
            if let Some(shared) = self.shared_path(dir.as_str(), false) {
                paths.insert(dir.as_str().to_owned(), shared.as_str().to_owned());
                out.add_dir(shared.clone());
                dirs.push(shared);
            }
        }
        for (path, role) in &self.plan.files {
            let Some(entry) = self.tree.file(path) else {
                continue;
            };
            let Some(shared) = self.shared_path(path.as_str(), true) else {
                continue;
            };
            let file = self.file(entry, *role, shared.as_str());
            paths.insert(path.as_str().to_owned(), shared.as_str().to_owned());
            out.insert(shared, file);
        }
        for finding in self.tree.diagnostics() {
            out.push_diagnostic(Diagnostic {
                code: finding.code,
                severity: finding.severity,
                path: finding.path.as_deref().map(|p| self.namer.name(p)),
                line: finding.line,
                message: CARRIED_FINDING.to_owned(),
                data: None,
            });
        }
        let input = Input {
            home: self.namer.name(&self.input.home),
            project: self.input.project.as_deref().map(|p| self.namer.name(p)),
            config_dir: self.input.config_dir.as_deref().map(|p| self.namer.name(p)),
            os: self.input.os,
            version: self.input.version.clone(),
            today: self.input.today.clone(),
            reads: Vec::new(),
            disable_auto_memory_env: None,
        };
        self.check_rules(&out);
        if self.namer.collecting() {
            // The report's paths and names go through the table too, so that
            // `Sanitized::pseudonym` maps every one of them, unresolved targets included.
            comparable(self.report, &mut |s| self.namer.name(s));
            for row in &self.report.files {
                self.namer.file(&row.path);
            }
        }
        Built {
            tree: out,
            dirs,
            input,
            paths,
            warnings: self.warnings,
        }
    }

    /// Warns when a renamed rule glob stops matching every kept file of the project it
    /// matched before (a wildcard inside a renamed word), or starts matching one.
    fn check_rules(&mut self, shared: &Tree) {
        let Some(project) = &self.plan.project else {
            return;
        };
        if self.namer.collecting() {
            return;
        }
        let Ok(project) = VPath::new(&self.namer.name(project.as_str())) else {
            return;
        };
        let files: Vec<&str> = shared
            .files_under(&project)
            .filter_map(|(p, _)| p.strip_prefix(&project))
            .filter(|relative| !relative.starts_with(".git/"))
            .collect();
        for (globs, matched) in &self.plan.rules {
            let compiled: Vec<Glob> = globs
                .iter()
                .filter_map(|g| Glob::new(&self.namer.name(g)).ok())
                .collect();
            let matches = files
                .iter()
                .any(|f| compiled.iter().any(|g| g.matches_relative(f)));
            if matches != *matched {
                let shown: Vec<String> = globs.iter().map(|g| self.namer.name(g)).collect();
                self.warnings.push(format!(
                    "the rule paths {} match the shared project differently; the shared report \
                     may say otherwise about whether the rule ever loads",
                    shown.join(", ")
                ));
            }
        }
    }

    fn shared_path(&mut self, original: &str, file: bool) -> Option<VPath> {
        let shared = if file {
            self.namer.file(original)
        } else {
            self.namer.name(original)
        };
        match VPath::new(&shared) {
            Ok(path) => Some(path),
            Err(error) => {
                self.warnings.push(format!(
                    "a path could not be shared and is left out: {error}"
                ));
                None
            }
        }
    }

    fn file(&mut self, entry: &FileEntry, role: Role, shown: &str) -> FileEntry {
        let unreadable =
            || Contents::Unreadable("it could not be read when the snapshot was shared".to_owned());
        let (size, contents) = match (&entry.contents, role) {
            // Before size-only: a file that could not be read is skipped in the report, and
            // must stay unreadable rather than become one the analysis asks for.
            (Contents::Unreadable(_), _) => (entry.size, unreadable()),
            (_, Role::SizeOnly) | (Contents::Unread, _) => (entry.size, Contents::Unread),
            (Contents::Loaded(bytes), Role::Text(kind)) => {
                let text = self.text_bytes(bytes, &mut |b, s| b.text(s, kind, shown));
                (entry.size, Contents::Loaded(text))
            }
            (Contents::Loaded(bytes), Role::GitFile) => {
                let text = self.text_bytes(bytes, &mut |b, s| b.git_file(s));
                (text.len() as u64, Contents::Loaded(text))
            }
            (Contents::Loaded(bytes), Role::Settings) => {
                let mut text = self.settings(bytes, shown);
                // The managed settings are a row (their inline claudeMd), whose size shows:
                // white space after the JSON keeps it.
                if shown.ends_with("/managed-settings.json") && text.len() < bytes.len() {
                    text.resize(bytes.len(), b' ');
                }
                (text.len() as u64, Contents::Loaded(text))
            }
            (Contents::Loaded(bytes), Role::ClaudeJson) => {
                let text = self.claude_json(bytes);
                (text.len() as u64, Contents::Loaded(text))
            }
        };
        FileEntry {
            size,
            contents,
            // The growth chart reads a file's day, no more: the time of day is not shared.
            modified: entry.modified.as_deref().and_then(day_of),
        }
    }

    // ----- text --------------------------------------------------------------------------

    /// Applies a text rewrite to a file's bytes the way discovery decodes them: a byte order
    /// mark is set aside on valid UTF-8, and invalid UTF-8 is rewritten through its lossy
    /// decoding with each invalid sequence kept invalid at the same length.
    fn text_bytes(
        &mut self,
        bytes: &[u8],
        rewrite: &mut dyn FnMut(&mut Self, &str) -> String,
    ) -> Vec<u8> {
        if let Ok(text) = std::str::from_utf8(bytes) {
            let (bom, body) = match text.strip_prefix('\u{feff}') {
                Some(body) => ("\u{feff}", body),
                None => ("", text),
            };
            return format!("{bom}{}", rewrite(self, body)).into_bytes();
        }
        let lossy = String::from_utf8_lossy(bytes);
        let rewritten = rewrite(self, &lossy);
        let mut out = Vec::with_capacity(bytes.len());
        let mut at = 0;
        for chunk in bytes.utf8_chunks() {
            let valid = chunk.valid().len();
            out.extend_from_slice(&rewritten.as_bytes()[at..at + valid]);
            at += valid;
            if !chunk.invalid().is_empty() {
                // One U+FFFD in the lossy text; one invalid sequence of the original length
                // in the bytes, so the file stays invalid and measures the same.
                out.extend_from_slice(invalid_sequence(chunk.invalid().len()));
                at += '\u{fffd}'.len_utf8();
            }
        }
        out
    }

    /// The shared text of a Markdown (or any text) file.
    fn text(&mut self, text: &str, kind: FileKind, shown: &str) -> String {
        let keep_text = self.options.keep_text;
        let mut out: String = text.chars().map(|c| placeholder(c, keep_text)).collect();
        if !keep_text && shown.ends_with("/MEMORY.md") {
            keep_correction_words(text, &mut out);
        }
        if let Some(block) = frontmatter::locate(text) {
            let yaml = &text[block.yaml.clone()];
            let shared = self.frontmatter(yaml, kind, shown);
            out.replace_range(block.yaml, &shared);
        }
        self.references(text, &mut out, shown);
        if keep_text && !self.options.keep_user_name {
            self.replace_user_name(text, &mut out);
        }
        out
    }

    /// With the text kept, the user name is still replaced wherever it is written (in any
    /// case, inside longer words too), by its pseudonym, which has the same length. A name of
    /// one or two letters, or one that is a word the analysis reads, is left: replacing every
    /// `al` or every `project` would change what the text means to the analysis.
    fn replace_user_name(&mut self, text: &str, out: &mut String) {
        let user = VPath::new(&self.input.home)
            .map(|home| home.file_name().to_ascii_lowercase())
            .unwrap_or_default();
        let reserved = WELL_KNOWN.contains(&user.as_str())
            || [
                "user",
                "project",
                "local",
                "feedback",
                "reference",
                "true",
                "false",
            ]
            .contains(&user.as_str());
        if user.len() < 3 || reserved {
            return;
        }
        // ASCII lower-casing keeps every byte offset.
        let lower = text.to_ascii_lowercase();
        let found: Vec<usize> = lower.match_indices(&user).map(|(at, _)| at).collect();
        for at in found {
            let end = at + user.len();
            if !(text.is_char_boundary(at) && text.is_char_boundary(end)) {
                continue;
            }
            let shared = self.namer.name(&text[at..end]);
            if shared.len() == end - at && out.is_char_boundary(at) && out.is_char_boundary(end) {
                out.replace_range(at..end, &shared);
            }
        }
    }

    /// Rewrites every import path and local link destination in `out` (the placeholder text
    /// of `text`, at the same byte offsets) to the shared path, where the scanner found it
    /// written, then checks that the shared text scans to the renamed references.
    fn references(&mut self, text: &str, out: &mut String, shown: &str) {
        // An `@word` without an extension that names no file is no import to the analysis
        // (a handle, a package name): it is text like any other, and becomes placeholders.
        let existing: BTreeSet<&str> = self
            .report
            .files
            .iter()
            .flat_map(|row| &row.references)
            .filter(|r| r.exists)
            .map(|r| r.target.as_str())
            .collect();
        let counts = |r: &references::RawReference| {
            r.kind == ReferenceKind::Link
                || references::has_extension(&r.target)
                || existing.contains(r.target.as_str())
        };
        let expected: Vec<_> = references::scan(text).into_iter().filter(counts).collect();
        for reference in &expected {
            let written = &text[reference.span.clone()];
            let shared = match reference.kind {
                ReferenceKind::Import => self.import_path(written),
                ReferenceKind::Link => self.link_destination(written),
            };
            if shared.len() == written.len() {
                out.replace_range(reference.span.clone(), &shared);
            }
        }
        if self.namer.collecting() {
            return;
        }
        let renamed: BTreeSet<String> = expected
            .iter()
            .map(|e| self.namer.file(&e.target))
            .collect();
        let shared: Vec<_> = references::scan(out)
            .into_iter()
            .filter(|r| {
                r.kind == ReferenceKind::Link
                    || references::has_extension(&r.target)
                    || renamed.contains(&r.target)
            })
            .collect();
        let same = shared.len() == expected.len()
            && shared.iter().zip(&expected).all(|(s, e)| {
                s.kind == e.kind
                    && s.line == e.line
                    && s.trailing_punctuation == e.trailing_punctuation
                    && s.target == self.namer.file(&e.target)
            });
        if !same {
            self.warnings.push(format!(
                "a reference in {shown} could not be rewritten exactly; it may resolve \
                 differently in the shared report"
            ));
        }
    }

    /// The shared form of an import path as written (after its `@`): the path renamed, an
    /// escaped space kept escaped, a `#fragment` replaced like text.
    fn import_path(&mut self, written: &str) -> String {
        let mut decoded: Vec<(char, bool)> = Vec::new();
        let mut chars = written.chars().peekable();
        while let Some(c) = chars.next() {
            if c == '\\' && chars.peek() == Some(&' ') {
                chars.next();
                decoded.push((' ', true));
            } else {
                decoded.push((c, false));
            }
        }
        let cut = decoded
            .iter()
            .position(|&(c, _)| c == '#')
            .unwrap_or(decoded.len());
        let target: String = decoded[..cut].iter().map(|&(c, _)| c).collect();
        let shared = self.namer.file(&target);
        let keep_text = self.options.keep_text;
        let mut renamed = shared.chars();
        let mut out = String::with_capacity(written.len());
        for (index, &(c, escaped)) in decoded.iter().enumerate() {
            let c = if index < cut {
                renamed.next().unwrap_or(c)
            } else {
                placeholder(c, keep_text)
            };
            if escaped {
                out.push('\\');
            }
            out.push(c);
        }
        out
    }

    /// The shared form of a local link destination as written (inside its parentheses or
    /// angle brackets), with backslash and percent escapes kept where they stand.
    fn link_destination(&mut self, written: &str) -> String {
        // The destination as Markdown reads it: a backslash before ASCII punctuation escapes it.
        let mut decoded: Vec<(char, bool)> = Vec::new();
        let mut chars = written.chars().peekable();
        while let Some(c) = chars.next() {
            if c == '\\' && chars.peek().is_some_and(char::is_ascii_punctuation) {
                let next = chars.next().expect("peeked");
                decoded.push((next, true));
            } else {
                decoded.push((c, false));
            }
        }
        let cut = decoded
            .iter()
            .position(|&(c, _)| c == '#')
            .unwrap_or(decoded.len());
        let before: Vec<char> = decoded[..cut].iter().map(|&(c, _)| c).collect();
        let mut renamed = before.clone();
        match percent_units(&before) {
            Some((units, target)) => {
                let shared = self.namer.file(&target);
                let bytes = shared.as_bytes();
                let mut at = 0;
                for unit in units {
                    match unit {
                        Unit::Literal(index) => {
                            let len = before[index].len_utf8();
                            let c = shared
                                .get(at..at + len)
                                .and_then(|s| s.chars().next())
                                .unwrap_or(before[index]);
                            renamed[index] = c;
                            at += len;
                        }
                        Unit::Escape(index) => {
                            let byte = bytes.get(at).copied().unwrap_or(0);
                            // The escape keeps the case its hex letters were written in.
                            let upper = !before[index + 1..=index + 2]
                                .iter()
                                .any(char::is_ascii_lowercase);
                            for (offset, nibble) in [(1, byte >> 4), (2, byte & 0xf)] {
                                renamed[index + offset] = hex_digit(nibble, upper);
                            }
                            at += 1;
                        }
                    }
                }
            }
            None => {
                let target: String = before.iter().collect();
                let shared = self.namer.file(&target);
                for (slot, c) in renamed.iter_mut().zip(shared.chars()) {
                    *slot = c;
                }
            }
        }
        let keep_text = self.options.keep_text;
        let mut out = String::with_capacity(written.len());
        for (index, &(c, escaped)) in decoded.iter().enumerate() {
            let c = if index < cut {
                renamed[index]
            } else {
                placeholder(c, keep_text)
            };
            if escaped {
                out.push('\\');
            }
            out.push(c);
        }
        out
    }

    // ----- frontmatter -------------------------------------------------------------------

    /// The shared YAML of a frontmatter block (between its `---` lines).
    ///
    /// Values are rewritten piece by piece; the result is parsed and compared with the
    /// original key by key. A key whose value changed shape (a number that became a string)
    /// is rewritten again with YAML numbers, booleans and nulls kept as written.
    fn frontmatter(&mut self, yaml: &str, kind: FileKind, shown: &str) -> String {
        let lexed = lex_yaml(yaml);
        let policies: Vec<Policy> = lexed
            .keys
            .iter()
            .map(|key| policy(key.as_deref(), kind))
            .collect();
        let mut careful = vec![false; lexed.keys.len()];
        let original = parse_yaml(yaml);
        let names = YamlNames::new(yaml, &lexed, self.options.keep_text);
        let mut shared = String::new();
        for round in 0..2 {
            shared = self.rewrite_yaml(yaml, &lexed, &policies, &careful, &names);
            if self.namer.collecting() {
                return shared;
            }
            let failing =
                self.yaml_differences(&original, &parse_yaml(&shared), &lexed, kind, &names);
            if failing.is_empty() {
                return shared;
            }
            if round == 1 {
                self.warnings.push(format!(
                    "the frontmatter of {shown} could not be kept exactly; its fields may \
                     differ in the shared report"
                ));
                break;
            }
            for index in failing {
                careful[index] = true;
            }
        }
        shared
    }

    fn rewrite_yaml(
        &mut self,
        yaml: &str,
        lexed: &Lexed,
        policies: &[Policy],
        careful: &[bool],
        names: &YamlNames,
    ) -> String {
        let keep_text = self.options.keep_text;
        let mut out = yaml.to_owned();
        for (index, piece) in lexed.pieces.iter().enumerate() {
            let source = &yaml[piece.range.clone()];
            if matches!(
                piece.kind,
                PieceKind::Key { .. } | PieceKind::Anchor | PieceKind::Tag
            ) {
                if let Some(shared) = names.pieces.get(&index) {
                    if shared.len() == source.len() {
                        out.replace_range(piece.range.clone(), shared);
                    }
                }
                continue;
            }
            let mut policy = policies[piece.key];
            if policy == Policy::Keep {
                // Only the words the analysis reads stay; anything else a kept key holds
                // (a secret written as a `type`) is text.
                let key = lexed.keys[piece.key].as_deref().unwrap_or_default();
                let word = source.trim_matches(['"', '\'']);
                if piece.kind == PieceKind::Comment || !in_vocabulary(key, word) {
                    policy = Policy::Text;
                }
                if piece.kind != PieceKind::Comment && key == "modified" {
                    if let Some(kept) = date_then_placeholder(source, keep_text) {
                        if kept.len() == source.len() {
                            out.replace_range(piece.range.clone(), &kept);
                        }
                        continue;
                    }
                }
            }
            let shared = match (piece.kind, policy) {
                (PieceKind::Comment, _) => text_placeholder(source, keep_text),
                (PieceKind::Escape, Policy::Text) if !keep_text => escape_placeholder(source),
                (PieceKind::Escape, _) | (_, Policy::Keep) => source.to_owned(),
                (_, Policy::Name) => self.namer.name(source),
                (PieceKind::Atom, Policy::Text) => {
                    if keep_text {
                        source.to_owned()
                    } else if careful[piece.key] && is_yaml_special(source) {
                        // A number stays a number of the same shown length; a boolean or a
                        // null tells nothing and stays.
                        number_placeholder(source).unwrap_or_else(|| source.to_owned())
                    } else {
                        source
                            .chars()
                            .map(|c| match c {
                                '0'..='9' => '1',
                                c => placeholder(c, false),
                            })
                            .collect()
                    }
                }
                (PieceKind::Quoted | PieceKind::Block, Policy::Text) => {
                    text_placeholder(source, keep_text)
                }
                (PieceKind::Key { .. } | PieceKind::Anchor | PieceKind::Tag, _) => {
                    unreachable!("names are rewritten above")
                }
            };
            if shared.len() == source.len() {
                out.replace_range(piece.range.clone(), &shared);
            }
        }
        out
    }

    /// The lexer's key indices whose values do not have the shape they should.
    fn yaml_differences(
        &self,
        original: &Frontmatter,
        shared: &Frontmatter,
        lexed: &Lexed,
        kind: FileKind,
        names: &YamlNames,
    ) -> Vec<usize> {
        let all: Vec<usize> = (0..lexed.keys.len()).collect();
        if original.error.is_some() {
            return if shared.error.is_some() {
                Vec::new()
            } else {
                all
            };
        }
        if shared.error.is_some() || shared.fields.len() != original.fields.len() {
            return all;
        }
        let mut failing = BTreeSet::new();
        // Each key's first index, looked up in a map: a search per field would be quadratic
        // in a frontmatter of many keys.
        let mut first_index: BTreeMap<&str, usize> = BTreeMap::new();
        for (index, key) in lexed.keys.iter().enumerate() {
            if let Some(key) = key {
                first_index.entry(key.as_str()).or_insert(index);
            }
        }
        for ((key, before), (shared_key, after)) in original.fields.iter().zip(&shared.fields) {
            let index = first_index.get(key.as_str()).copied().unwrap_or(0);
            let expected_key = names.keys.get(key).unwrap_or(key);
            let ok = expected_key == shared_key
                && match policy(Some(key), kind) {
                    Policy::Keep if key == "modified" => same_day(before, after),
                    Policy::Keep => before == after || !value_in_vocabulary(key, before),
                    Policy::Name if key == "paths" => {
                        let expected: Vec<String> = frontmatter::parse_paths(before)
                            .iter()
                            .map(|glob| self.namer.name(glob))
                            .collect();
                        frontmatter::parse_paths(after) == expected && same_shape(before, after)
                    }
                    Policy::Name => {
                        let expected = original.string(key).map(|name| self.namer.name(&name));
                        shared.string(key) == expected && same_shape(before, after)
                    }
                    Policy::Text => same_shape(before, after),
                };
            if !ok {
                failing.insert(index);
            }
        }
        failing.into_iter().collect()
    }

    // ----- settings and .git -------------------------------------------------------------

    /// A settings file reduced to the keys the analysis reads, with the same parse outcome
    /// and warnings: a key of the wrong type keeps its JSON type with an empty value, a
    /// non-string exclude stays a non-string at its index, paths and globs are renamed.
    fn settings(&mut self, bytes: &[u8], shown: &str) -> Vec<u8> {
        let invalid_utf8 = std::str::from_utf8(bytes).is_err();
        let text = String::from_utf8_lossy(bytes);
        let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
        let Ok(map) = serde_json::from_str::<Map<String, Json>>(text) else {
            // Still not a JSON object, so the analysis still ignores it with a warning.
            let mut out = b"{".to_vec();
            if invalid_utf8 {
                out.push(0xff);
            }
            return out;
        };
        let mut reduced = Map::new();
        if let Some(value) = map.get("autoMemoryEnabled") {
            let value = match value {
                Json::Bool(_) => value.clone(),
                other => empty_like(other),
            };
            reduced.insert("autoMemoryEnabled".to_owned(), value);
        }
        if let Some(value) = map.get("autoMemoryDirectory") {
            let value = match value {
                Json::String(dir) => Json::String(self.namer.name(dir)),
                other => empty_like(other),
            };
            reduced.insert("autoMemoryDirectory".to_owned(), value);
        }
        if let Some(value) = map.get("claudeMd") {
            // The managed policy's inline instructions: text, so placeholders of its length.
            let value = match value {
                Json::String(text) => Json::String(
                    text.chars()
                        .map(|c| placeholder(c, self.options.keep_text))
                        .collect(),
                ),
                other => empty_like(other),
            };
            reduced.insert("claudeMd".to_owned(), value);
        }
        if let Some(value) = map.get("claudeMdExcludes") {
            let value = match value {
                Json::Array(items) => Json::Array(
                    items
                        .iter()
                        .map(|item| match item {
                            Json::String(pattern) => Json::String(self.exclude(pattern, shown)),
                            _ => Json::Null,
                        })
                        .collect(),
                ),
                other => empty_like(other),
            };
            reduced.insert("claudeMdExcludes".to_owned(), value);
        }
        let mut out = serde_json::to_string_pretty(&Json::Object(reduced))
            .expect("a JSON value serialises")
            .into_bytes();
        if invalid_utf8 {
            // The original was read with a replacement character somewhere; one inside a
            // string keeps the `invalid-utf8` finding without changing what parses.
            let mut marked = b"{\"_\": \"\xff\"".to_vec();
            if out.len() > 2 {
                marked.push(b',');
            }
            marked.extend_from_slice(&out[1..]);
            out = marked;
        }
        out
    }

    /// `~/.claude.json` reduced to the one key the analysis reads, for the project only:
    /// its history, other projects and account data never leave.
    fn claude_json(&mut self, bytes: &[u8]) -> Vec<u8> {
        let text = String::from_utf8_lossy(bytes);
        let key = self
            .report
            .context
            .git_root
            .clone()
            .or(self.report.context.project.clone());
        let approved = key.as_deref().and_then(|key| {
            crate::text::settings::external_includes_approved(&text, key).map(|v| (key, v))
        });
        let reduced = match approved {
            Some((key, value)) => serde_json::json!({
                "projects": { self.namer.name(key): { "hasClaudeMdExternalIncludesApproved": value } }
            }),
            None => serde_json::json!({}),
        };
        serde_json::to_string_pretty(&reduced)
            .expect("a JSON value serialises")
            .into_bytes()
    }

    /// A `claudeMdExcludes` pattern renamed; if the renamed pattern would not exclude exactly
    /// the renamed files the original excluded, a pattern listing those files instead.
    fn exclude(&mut self, pattern: &str, shown: &str) -> String {
        let renamed = self.namer.name(pattern);
        if self.namer.collecting() {
            return renamed;
        }
        let (Ok(before), Ok(after)) = (Glob::new(pattern), Glob::new(&renamed)) else {
            if Glob::new(pattern).is_ok() != Glob::new(&renamed).is_ok() {
                self.warnings.push(format!(
                    "a claudeMdExcludes pattern in {shown} could not be kept exactly"
                ));
            }
            return renamed;
        };
        let mut agrees = true;
        let mut matched = Vec::new();
        for candidate in &self.plan.exclude_candidates {
            let shared = self.namer.name(candidate);
            let hit = before.matches(candidate);
            agrees &= hit == after.matches(&shared);
            if hit {
                matched.push(shared);
            }
        }
        if agrees {
            return renamed;
        }
        // Wildcards inside a renamed word (`leg*`, `[a-c]*`) can stop matching; the files it
        // matched, each escaped, keep the same ones excluded.
        let escaped: Vec<String> = matched.iter().map(|p| escape_glob(p)).collect();
        match escaped.len() {
            0 => "/.memdiag-matches-nothing".to_owned(),
            1 => escaped[0].clone(),
            _ => format!("{{{}}}", escaped.join(",")),
        }
    }

    /// A `.git` file with its `gitdir:` paths renamed and every other line replaced.
    fn git_file(&mut self, text: &str) -> String {
        let keep_text = self.options.keep_text;
        let mut out = String::with_capacity(text.len());
        for line in text.split_inclusive('\n') {
            let indent = line.len() - line.trim_start().len();
            match line[indent..].strip_prefix("gitdir:") {
                Some(rest) => {
                    let body = rest.trim_end();
                    let start = body.len() - body.trim_start().len();
                    out.push_str(&line[..indent]);
                    out.push_str("gitdir:");
                    out.push_str(&body[..start]);
                    out.push_str(&self.namer.name(&body[start..]));
                    out.push_str(&rest[body.len()..]);
                }
                None => out.push_str(&text_placeholder(line, keep_text)),
            }
        }
        out
    }
}

/// The day (`YYYY-MM-DD`) of a modification time, when it names one.
fn day_of(modified: &str) -> Option<String> {
    crate::date::parse_day(modified)?;
    modified.trim().get(..10).map(str::to_owned)
}

// The words the health view looks for in dropped index entries (CORRECTION_WORDS) stay in
// `MEMORY.md` files wherever they stand as whole words, so that its "correction" flags stay.
fn keep_correction_words(text: &str, out: &mut String) {
    // ASCII lower-casing keeps every byte offset, and the words are ASCII.
    let lower = text.to_ascii_lowercase();
    let is_word = |c: char| c.is_alphanumeric() || c == '\'';
    for word in CORRECTION_WORDS {
        for (at, _) in lower.match_indices(word) {
            let end = at + word.len();
            let before = text[..at].chars().next_back().is_none_or(|c| !is_word(c));
            let after = text[end..].chars().next().is_none_or(|c| !is_word(c));
            if before && after {
                out.replace_range(at..end, &text[at..end]);
            }
        }
    }
}

/// An invalid UTF-8 sequence of `len` bytes (1 to 3) that decodes to exactly one U+FFFD
/// whatever follows it: a lone `0xFF`, or the start of a two-byte or three-byte lead
/// without its last continuation byte.
fn invalid_sequence(len: usize) -> &'static [u8] {
    match len {
        1 => b"\xff",
        2 => b"\xe1\x80",
        _ => b"\xf1\x80\x80",
    }
}

/// A JSON value of the same type with nothing in it.
fn empty_like(value: &Json) -> Json {
    match value {
        Json::Null => Json::Null,
        Json::Bool(_) => Json::Bool(false),
        Json::Number(_) => Json::from(0),
        Json::String(_) => Json::String(String::new()),
        Json::Array(_) => Json::Array(Vec::new()),
        Json::Object(_) => Json::Object(Map::new()),
    }
}

/// A path as a glob that matches only itself: glob syntax escaped segment by segment.
fn escape_glob(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for c in path.chars() {
        if matches!(
            c,
            '*' | '?' | '[' | ']' | '{' | '}' | ',' | '\\' | '!' | '^'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

// ----- placeholders ----------------------------------------------------------------------

/// The placeholders of non-ASCII characters, by UTF-8 length: a letter or digit becomes a
/// letter (`ø`, `ㅁ`, `𝑥`), anything else a symbol (`·`, `□`, `🔲`), so that word boundaries
/// (`char::is_alphanumeric`) fall where they fell. Four-byte ones are two UTF-16 units, like
/// every four-byte character.
const LETTER_PLACEHOLDERS: [char; 3] = ['\u{f8}', '\u{3141}', '\u{1d465}'];
const SYMBOL_PLACEHOLDERS: [char; 3] = ['\u{b7}', '\u{25a1}', '\u{1f532}'];

/// White space by Rust's definition or JavaScript's: the parsers use both, so both stay.
fn is_space(c: char) -> bool {
    c.is_whitespace() || is_js_space(c)
}

/// The placeholder of one character of text (itself when `keep` is set).
fn placeholder(c: char, keep: bool) -> char {
    if keep {
        return c;
    }
    match c {
        'a'..='z' | 'A'..='Z' => 'x',
        '0'..='9' => '0',
        c if c.is_ascii() || is_space(c) => c,
        c if c.is_alphanumeric() => LETTER_PLACEHOLDERS[c.len_utf8() - 2],
        c => SYMBOL_PLACEHOLDERS[c.len_utf8() - 2],
    }
}

fn text_placeholder(text: &str, keep: bool) -> String {
    text.chars().map(|c| placeholder(c, keep)).collect()
}

/// A YAML `\x..`, `\u....` or `\U........` escape rewritten to name the placeholder of the
/// character it names, at the same width; other escapes stay.
fn escape_placeholder(escape: &str) -> String {
    // `get`, not slicing: an escape such as `\é` has no character boundary at 2.
    let digits = escape.get(2..).unwrap_or_default();
    let parsed = u32::from_str_radix(digits, 16)
        .ok()
        .and_then(char::from_u32)
        .filter(|_| escape.len() > 2 && matches!(escape.get(1..2), Some("x" | "u" | "U")));
    let Some(c) = parsed else {
        return escape.to_owned();
    };
    let shared = placeholder(c, false) as u32;
    let width = digits.len();
    let hex = if digits.bytes().any(|b| b.is_ascii_uppercase()) {
        format!("{shared:0width$X}")
    } else {
        format!("{shared:0width$x}")
    };
    if hex.len() == width {
        format!("{}{hex}", &escape[..2])
    } else {
        escape.to_owned()
    }
}

// ----- names -----------------------------------------------------------------------------

/// Runs that stay in every name: what discovery looks for, the folders it skips or never
/// reads, and the fixed paths of managed policy and home folders.
const WELL_KNOWN: &[&str] = &[
    "claude",
    "managed",
    "md",
    "local",
    "memory",
    "skill",
    "skills",
    "rules",
    "agents",
    "agent",
    "projects",
    "settings",
    "json",
    "jsonl",
    "git",
    "head",
    "gitdir",
    "worktrees",
    "home",
    "users",
    "root",
    "etc",
    "code",
    "library",
    "application",
    "support",
    "claudecode",
    "program",
    "files",
    "node",
    "modules",
    "dist",
    "build",
    "out",
    "next",
    "nuxt",
    "vendor",
    "pycache",
    "venv",
    "hg",
    "svn",
    "file",
    "history",
    "todos",
    "shell",
    "snapshots",
    "debug",
    "statsig",
    "telemetry",
    "cache",
    "ide",
    "session",
    "env",
];

/// Names the first pass met, to be placed in the table.
#[derive(Debug, Default)]
struct Collected {
    /// ASCII letter-and-digit runs, lower-cased.
    runs: BTreeSet<String>,
    /// Non-ASCII characters that are not white space.
    chars: BTreeSet<char>,
    /// Runs of file extensions, lower-cased: they stay.
    extensions: BTreeSet<String>,
    /// Drive letters of Windows paths, lower-cased: they stay.
    drives: BTreeSet<String>,
}

/// Renames paths: in the first pass it only records what it sees and renames nothing.
enum Namer<'a> {
    Collect(RefCell<Collected>),
    Apply(&'a Pseudonyms),
}

impl Namer<'_> {
    fn collecting(&self) -> bool {
        matches!(self, Namer::Collect(_))
    }

    /// The shared form of a path, name or glob.
    fn name(&self, s: &str) -> String {
        match self {
            Namer::Apply(pseudonyms) => pseudonyms.name(s),
            Namer::Collect(collected) => {
                let mut collected = collected.borrow_mut();
                for piece in split_name(s) {
                    match piece {
                        NamePiece::Run(run) => {
                            collected.runs.insert(run.to_ascii_lowercase());
                        }
                        NamePiece::Char(c) if !c.is_ascii() && !is_space(c) => {
                            collected.chars.insert(c);
                        }
                        NamePiece::Char(_) => {}
                    }
                }
                let bytes = s.as_bytes();
                if bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':' {
                    collected
                        .drives
                        .insert((bytes[0] as char).to_ascii_lowercase().to_string());
                }
                s.to_owned()
            }
        }
    }

    /// The shared form of a file's path; its extension stays.
    fn file(&self, path: &str) -> String {
        if let Namer::Collect(collected) = self {
            let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
            if let Some(dot) = name.rfind('.').filter(|&i| i > 0) {
                for piece in split_name(&name[dot + 1..]) {
                    if let NamePiece::Run(run) = piece {
                        collected
                            .borrow_mut()
                            .extensions
                            .insert(run.to_ascii_lowercase());
                    }
                }
            }
        }
        self.name(path)
    }
}

enum NamePiece<'s> {
    Run(&'s str),
    Char(char),
}

/// A name as runs of ASCII letters and digits and single other characters.
fn split_name(s: &str) -> Vec<NamePiece<'_>> {
    let mut pieces = Vec::new();
    let mut run: Option<usize> = None;
    for (i, c) in s.char_indices() {
        if c.is_ascii_alphanumeric() {
            run.get_or_insert(i);
            continue;
        }
        if let Some(start) = run.take() {
            pieces.push(NamePiece::Run(&s[start..i]));
        }
        pieces.push(NamePiece::Char(c));
    }
    if let Some(start) = run {
        pieces.push(NamePiece::Run(&s[start..]));
    }
    pieces
}

/// The pseudonym table: an order-keeping trie for ASCII runs, and a map for other
/// characters.
#[derive(Debug, Clone, Default)]
struct Pseudonyms {
    runs: Trie,
    chars: BTreeMap<char, char>,
}

impl Pseudonyms {
    fn new(collected: Collected, input: &Input, options: &SanitizeOptions) -> Pseudonyms {
        let user = VPath::new(&input.home)
            .map(|home| home.file_name().to_owned())
            .unwrap_or_default();
        let mut user_runs = BTreeSet::new();
        let mut user_chars = BTreeSet::new();
        for piece in split_name(&user) {
            match piece {
                NamePiece::Run(run) => {
                    user_runs.insert(run.to_ascii_lowercase());
                }
                NamePiece::Char(c) => {
                    user_chars.insert(c);
                }
            }
        }
        let mut runs = Trie::new();
        for run in &collected.runs {
            let fixed = WELL_KNOWN.contains(&run.as_str())
                || collected.extensions.contains(run)
                || collected.drives.contains(run)
                || if user_runs.contains(run) {
                    options.keep_user_name
                } else {
                    options.keep_file_names
                };
            runs.insert(run.as_bytes(), fixed);
        }
        runs.allocate();
        let chars = collected
            .chars
            .iter()
            .map(|&c| {
                // U+FFFD stands for bytes that were not UTF-8; the shared file keeps them
                // invalid, so the receiver reads U+FFFD there too, and it tells nothing.
                let fixed = if c == char::REPLACEMENT_CHARACTER {
                    true
                } else if user_chars.contains(&c) {
                    options.keep_user_name
                } else {
                    options.keep_file_names
                };
                (c, fixed)
            })
            .collect();
        Pseudonyms {
            runs,
            chars: allocate_chars(&chars),
        }
    }

    fn name(&self, s: &str) -> String {
        let mut out = String::with_capacity(s.len());
        for piece in split_name(s) {
            match piece {
                NamePiece::Run(run) => out.push_str(&self.runs.map(run)),
                NamePiece::Char(c) if c.is_ascii() || is_space(c) => out.push(c),
                NamePiece::Char(c) => out.push(
                    self.chars
                        .get(&c)
                        .copied()
                        .unwrap_or_else(|| placeholder(c, false)),
                ),
            }
        }
        out
    }
}

/// A trie of lower-cased runs in which each node maps its character to an image of the same
/// class (letter or digit), keeping order among siblings. Nodes on the way to a kept run map
/// to themselves; the others take the lowest free images in the gaps between those, so a
/// pseudonym sorts exactly where its original did, and a prefix renames to a prefix.
#[derive(Debug, Clone)]
struct Trie {
    nodes: Vec<TrieNode>,
}

#[derive(Debug, Clone, Default)]
struct TrieNode {
    children: BTreeMap<u8, usize>,
    /// True when a kept run passes through this node.
    fixed: bool,
    image: u8,
}

impl Default for Trie {
    fn default() -> Trie {
        Trie::new()
    }
}

impl Trie {
    fn new() -> Trie {
        Trie {
            nodes: vec![TrieNode::default()],
        }
    }

    fn insert(&mut self, run: &[u8], fixed: bool) {
        let mut at = 0;
        for &byte in run {
            let next = match self.nodes[at].children.get(&byte) {
                Some(&next) => next,
                None => {
                    self.nodes.push(TrieNode::default());
                    let next = self.nodes.len() - 1;
                    self.nodes[at].children.insert(byte, next);
                    next
                }
            };
            self.nodes[next].fixed |= fixed;
            at = next;
        }
    }

    /// Assigns every node's image. Between two kept siblings there are at least as many
    /// free characters as free siblings (the originals themselves), so taking the lowest
    /// free image each time never runs past the next kept one.
    fn allocate(&mut self) {
        for at in 0..self.nodes.len() {
            let children: Vec<(u8, usize)> = self.nodes[at]
                .children
                .iter()
                .map(|(&byte, &node)| (byte, node))
                .collect();
            for (first, last) in [(b'0', b'9'), (b'a', b'z')] {
                let mut previous: Option<u8> = None;
                for &(byte, node) in children.iter().filter(|(b, _)| (first..=last).contains(b)) {
                    let image = if self.nodes[node].fixed {
                        byte
                    } else {
                        previous.map_or(first, |p| p + 1)
                    };
                    self.nodes[node].image = image;
                    previous = Some(image);
                }
            }
        }
    }

    /// The pseudonym of a run, keeping the case of each letter; a run the table never saw
    /// becomes a placeholder from where it leaves the trie.
    fn map(&self, run: &str) -> String {
        let mut out = String::with_capacity(run.len());
        let mut at = Some(0);
        for byte in run.bytes() {
            let next = at.and_then(|node| {
                self.nodes[node]
                    .children
                    .get(&byte.to_ascii_lowercase())
                    .copied()
            });
            let image = match next {
                Some(node) => self.nodes[node].image,
                None if byte.is_ascii_digit() => b'0',
                None => b'x',
            };
            let image = if byte.is_ascii_uppercase() {
                image.to_ascii_uppercase()
            } else {
                image
            };
            out.push(image as char);
            at = next;
        }
        out
    }
}

/// Maps non-ASCII characters of names to characters of the same UTF-8 length, keeping order
/// within each length and around the kept ones. With no kept character of that length, free
/// ones take letters in turn from a plain range (Latin Extended, Hangul syllables, CJK
/// Extension B). Otherwise each takes the lowest letter above the previous image and below
/// itself, or itself: an image never passes its original, so it never passes a kept one.
fn allocate_chars(chars: &BTreeMap<char, bool>) -> BTreeMap<char, char> {
    let letter = |x: &char, len: usize| x.len_utf8() == len && x.is_alphabetic() && !is_space(*x);
    let mut out = BTreeMap::new();
    for len in 2..=4 {
        let class: Vec<(char, bool)> = chars
            .iter()
            .filter(|(c, _)| c.len_utf8() == len)
            .map(|(&c, &fixed)| (c, fixed))
            .collect();
        let (preferred, last) = match len {
            2 => (0x100, 0x7ff),
            3 => (0xac00, 0xffff),
            _ => (0x20000, 0x10_ffff),
        };
        let any_fixed = class.iter().any(|(_, fixed)| *fixed);
        let mut previous: Option<u32> = None;
        for &(c, fixed) in &class {
            let image = if fixed {
                c
            } else if any_fixed {
                let after = previous.map_or(0, |p| p + 1);
                (after..c as u32)
                    .filter_map(char::from_u32)
                    .find(|x| letter(x, len))
                    .unwrap_or(c)
            } else {
                let after = previous.map_or(preferred, |p| p + 1);
                (after..=last)
                    .filter_map(char::from_u32)
                    .find(|x| letter(x, len))
                    .unwrap_or(c)
            };
            out.insert(c, image);
            previous = Some(image as u32);
        }
    }
    out
}

// ----- references: percent-escapes in a link destination ---------------------------------

/// One step of percent-decoding: a character kept as it is, or a `%XX` escape starting at
/// that index.
enum Unit {
    Literal(usize),
    Escape(usize),
}

/// Percent-decodes a destination (as a list of characters): the steps taken and the decoded
/// text, or `None` when the decoded bytes are not UTF-8 (then the scanner keeps the target as
/// written).
fn percent_units(chars: &[char]) -> Option<(Vec<Unit>, String)> {
    let mut units = Vec::new();
    let mut bytes = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let hex = |c: Option<&char>| c.and_then(|c| c.to_digit(16));
        if chars[i] == '%' {
            if let (Some(hi), Some(lo)) = (hex(chars.get(i + 1)), hex(chars.get(i + 2))) {
                units.push(Unit::Escape(i));
                bytes.push((hi * 16 + lo) as u8);
                i += 3;
                continue;
            }
        }
        units.push(Unit::Literal(i));
        let mut buffer = [0; 4];
        bytes.extend_from_slice(chars[i].encode_utf8(&mut buffer).as_bytes());
        i += 1;
    }
    String::from_utf8(bytes).ok().map(|text| (units, text))
}

/// A hex digit for `nibble`, upper-case when `upper`.
fn hex_digit(nibble: u8, upper: bool) -> char {
    let digit = char::from_digit(u32::from(nibble), 16).expect("a nibble is a hex digit");
    if upper {
        digit.to_ascii_uppercase()
    } else {
        digit
    }
}

// ----- frontmatter: a small YAML lexer ----------------------------------------------------

/// How a top-level frontmatter key's value is shared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Policy {
    /// Kept as written: discovery or the health view reads it.
    Keep,
    /// Renamed like a file name: a skill's or agent's `name`, a rule's `paths`.
    Name,
    /// Replaced like text.
    Text,
}

/// Frontmatter values that stay as written.
const KEPT_KEYS: [&str; 4] = ["type", "modified", "memory", "disable-model-invocation"];

/// True when `word` (a value as written, quotes stripped) belongs to the vocabulary the
/// analysis reads for `key`: the four memory types, the three agent-memory scopes, a
/// boolean, or a date-time (digits and its punctuation only). Any other value of a kept key
/// is replaced like text: the analysis reads it as unknown either way.
fn in_vocabulary(key: &str, word: &str) -> bool {
    match key {
        "type" => MEMORY_TYPES.contains(&word),
        "memory" => AGENT_MEMORY_SCOPES.contains(&word),
        "disable-model-invocation" => {
            ["true", "false", "True", "False", "TRUE", "FALSE"].contains(&word)
        }
        "modified" => {
            !word.is_empty()
                && word
                    .bytes()
                    .all(|b| b.is_ascii_digit() || b"-:.+TZ ".contains(&b))
        }
        _ => false,
    }
}

/// A `modified` value that starts with a date: the growth chart reads only its first ten
/// characters, the day ([`crate::date::parse_day`]), so those stay; the time after it keeps
/// its form with every digit `0` (`2026-11-02T09:41:07Z` → `2026-11-02T00:00:00Z`), and
/// anything else becomes text placeholders.
fn date_then_placeholder(source: &str, keep_text: bool) -> Option<String> {
    let quote = source.len() - source.trim_start_matches(['"', '\'']).len();
    let word = &source[quote..];
    crate::date::parse_day(word.get(..10)?)?;
    let (day, rest) = source.split_at(quote + 10);
    if keep_text {
        return Some(source.to_owned());
    }
    let rest: String = rest
        .chars()
        .map(|c| match c {
            '0'..='9' => '0',
            c if "-:.+TZ '\"".contains(c) => c,
            c => placeholder(c, false),
        })
        .collect();
    Some(format!("{day}{rest}"))
}

/// True when two `modified` values name the same day (or neither names one) and measure
/// the same: what the analysis reads of them.
fn same_day(a: &Yaml, b: &Yaml) -> bool {
    let day = |v: &Yaml| match untag(v) {
        Yaml::String(s) | Yaml::Number(s) => crate::date::parse_day(s),
        _ => None,
    };
    day(a) == day(b) && same_shape(a, b)
}

/// [`in_vocabulary`] for a parsed value.
fn value_in_vocabulary(key: &str, value: &Yaml) -> bool {
    match untag(value) {
        Yaml::String(word) | Yaml::Number(word) => in_vocabulary(key, word),
        Yaml::Bool(b) => in_vocabulary(key, if *b { "true" } else { "false" }),
        _ => false,
    }
}

fn policy(key: Option<&str>, kind: FileKind) -> Policy {
    match key {
        Some(key) if KEPT_KEYS.contains(&key) => Policy::Keep,
        Some("paths") => Policy::Name,
        Some("name") if kind != FileKind::Other => Policy::Name,
        _ => Policy::Text,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PieceKind {
    /// A plain scalar word.
    Atom,
    /// The text of a quoted scalar between its quotes and escapes.
    Quoted,
    /// A `\…` escape in a double-quoted scalar.
    Escape,
    /// A line of a block scalar (`|` or `>`).
    Block,
    /// A comment, `#` included.
    Comment,
    /// A mapping key as written (quotes included). [`Piece::key`] names the top-level key
    /// it is, or the one whose value holds it.
    Key {
        /// True for a top-level key itself.
        top: bool,
    },
    /// The name of an anchor (`&name`) or alias (`*name`), after its sigil.
    Anchor,
    /// A tag (`!name`, `!!str`), sigils included.
    Tag,
}

/// A stretch of the YAML to rewrite; everything between pieces (keys, indicators,
/// indentation, anchors, tags) stays as written.
#[derive(Debug, Clone)]
struct Piece {
    range: Range<usize>,
    kind: PieceKind,
    /// The index in [`Lexed::keys`] of the top-level key whose value holds it.
    key: usize,
}

#[derive(Debug, Clone)]
struct Lexed {
    pieces: Vec<Piece>,
    /// Top-level keys in order; index 0 stands for what comes before the first key.
    keys: Vec<Option<String>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Plain,
    Double,
    Single,
    /// Inside a block scalar whose parent node starts at this column.
    Block(usize),
}

/// Splits frontmatter YAML into the pieces that hold values. This is not a YAML parser: it
/// knows keys, quotes, escapes, comments, flow brackets and block scalars, which is what
/// frontmatter uses; the caller checks the result by parsing it.
fn lex_yaml(yaml: &str) -> Lexed {
    let mut lexed = Lexed {
        pieces: Vec::new(),
        keys: vec![None],
    };
    let mut mode = Mode::Plain;
    let mut flow = 0usize;
    let mut top_indent: Option<usize> = None;
    let mut key = 0;
    let mut offset = 0;
    for line in yaml.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let body = line.trim_end_matches(['\n', '\r']);
        let end = start + body.len();
        let indent = body.len() - body.trim_start_matches(' ').len();
        if let Mode::Block(parent) = mode {
            if body.trim().is_empty() {
                continue;
            }
            if indent > parent {
                lexed.pieces.push(Piece {
                    range: start + indent..end,
                    kind: PieceKind::Block,
                    key,
                });
                continue;
            }
            mode = Mode::Plain;
        }
        let mut i = 0;
        if mode == Mode::Plain && flow == 0 {
            i = indent;
            if body[i..].starts_with('#') {
                lexed.pieces.push(Piece {
                    range: start + i..end,
                    kind: PieceKind::Comment,
                    key,
                });
                continue;
            }
            let mut listed = false;
            while body[i..].starts_with("- ") || &body[i..] == "-" {
                listed = true;
                i += 1;
                i += body[i..].len() - body[i..].trim_start_matches(' ').len();
            }
            if let Some(len) = key_length(&body[i..]) {
                let top = !listed && top_indent.is_none_or(|top| top == indent);
                lexed.pieces.push(Piece {
                    range: start + i..start + i + len,
                    kind: PieceKind::Key { top },
                    key: if top { lexed.keys.len() } else { key },
                });
                if top {
                    top_indent = Some(indent);
                    let written = &body[i..i + len];
                    let name = written
                        .strip_prefix(['"', '\''])
                        .and_then(|k| k.strip_suffix(['"', '\'']))
                        .unwrap_or(written);
                    lexed.keys.push(Some(name.to_owned()));
                    key = lexed.keys.len() - 1;
                }
                let column = i;
                i += len + 1;
                mode = lex_value(body, start, i, column, key, &mut flow, &mut lexed.pieces);
                continue;
            }
            mode = lex_value(body, start, i, indent, key, &mut flow, &mut lexed.pieces);
            continue;
        }
        mode = lex_value_in(
            body,
            start,
            i,
            indent,
            key,
            &mut flow,
            &mut lexed.pieces,
            mode,
        );
    }
    lexed
}

/// The length of a mapping key at the start of `s` (up to its `:`), if `s` starts with one.
fn key_length(s: &str) -> Option<usize> {
    let bytes = s.as_bytes();
    let first = *bytes.first()?;
    let close = match first {
        b'"' | b'\'' => {
            let mut i = 1;
            loop {
                match *bytes.get(i)? {
                    b'\\' if first == b'"' => i += 2,
                    b'\'' if first == b'\'' && bytes.get(i + 1) == Some(&b'\'') => i += 2,
                    b if b == first => break i + 1,
                    _ => i += 1,
                }
            }
        }
        b'[' | b']' | b'{' | b'}' | b',' | b'#' | b'&' | b'*' | b'!' | b'|' | b'>' | b'%'
        | b'@' | b'`' | b'?' | b':' | b'-' | b' ' | b'\t' => return None,
        _ => {
            let mut i = 0;
            loop {
                match bytes.get(i) {
                    None => return None,
                    Some(b':') if matches!(bytes.get(i + 1), None | Some(b' ' | b'\t')) => break i,
                    Some(b'#') if i > 0 && matches!(bytes[i - 1], b' ' | b'\t') => return None,
                    _ => i += 1,
                }
            }
        }
    };
    (bytes.get(close) == Some(&b':') && matches!(bytes.get(close + 1), None | Some(b' ' | b'\t')))
        .then_some(close)
}

fn lex_value(
    body: &str,
    start: usize,
    i: usize,
    column: usize,
    key: usize,
    flow: &mut usize,
    pieces: &mut Vec<Piece>,
) -> Mode {
    lex_value_in(body, start, i, column, key, flow, pieces, Mode::Plain)
}

/// Lexes the rest of a line from `i` in `mode`; returns the mode the next line starts in.
#[allow(clippy::too_many_arguments)]
fn lex_value_in(
    body: &str,
    start: usize,
    mut i: usize,
    column: usize,
    key: usize,
    flow: &mut usize,
    pieces: &mut Vec<Piece>,
    mut mode: Mode,
) -> Mode {
    let bytes = body.as_bytes();
    let mut push = |range: Range<usize>, kind: PieceKind| {
        if !range.is_empty() {
            pieces.push(Piece {
                range: start + range.start..start + range.end,
                kind,
                key,
            });
        }
    };
    let mut token_start = true;
    let mut next_mode = None;
    while i < bytes.len() {
        match mode {
            Mode::Double => match bytes[i] {
                b'\\' => {
                    let escape = bytes.get(i + 1).copied();
                    let width = match escape {
                        Some(b'x') => 2,
                        Some(b'u') => 4,
                        Some(b'U') => 8,
                        _ => 0,
                    };
                    let hex_end = i + 2 + width;
                    let end = if width > 0
                        && body
                            .get(i + 2..hex_end)
                            .is_some_and(|h| h.bytes().all(|b| b.is_ascii_hexdigit()))
                    {
                        hex_end
                    } else {
                        let next = body[i + 1..].chars().next().map_or(0, char::len_utf8);
                        i + 1 + next
                    };
                    push(i..end, PieceKind::Escape);
                    i = end;
                }
                b'"' => {
                    mode = Mode::Plain;
                    token_start = false;
                    i += 1;
                }
                _ => {
                    let end = body[i..].find(['\\', '"']).map_or(bytes.len(), |at| i + at);
                    push(i..end, PieceKind::Quoted);
                    i = end;
                }
            },
            Mode::Single => {
                if bytes[i] == b'\'' {
                    if bytes.get(i + 1) == Some(&b'\'') {
                        i += 2;
                    } else {
                        mode = Mode::Plain;
                        token_start = false;
                        i += 1;
                    }
                } else {
                    let end = body[i..].find('\'').map_or(bytes.len(), |at| i + at);
                    push(i..end, PieceKind::Quoted);
                    i = end;
                }
            }
            Mode::Plain | Mode::Block(_) => {
                let b = bytes[i];
                match b {
                    b' ' | b'\t' => {
                        token_start = true;
                        i += 1;
                    }
                    b'#' if token_start => {
                        push(i..bytes.len(), PieceKind::Comment);
                        i = bytes.len();
                    }
                    b'"' if token_start => {
                        mode = Mode::Double;
                        i += 1;
                    }
                    b'\'' if token_start => {
                        mode = Mode::Single;
                        i += 1;
                    }
                    b'[' | b'{' => {
                        *flow += 1;
                        token_start = true;
                        i += 1;
                    }
                    b']' | b'}' => {
                        *flow = flow.saturating_sub(1);
                        token_start = false;
                        i += 1;
                    }
                    b',' if *flow > 0 => {
                        token_start = true;
                        i += 1;
                    }
                    b'|' | b'>' if token_start && *flow == 0 => {
                        i += 1;
                        while i < bytes.len() && matches!(bytes[i], b'0'..=b'9' | b'+' | b'-') {
                            i += 1;
                        }
                        next_mode = Some(Mode::Block(column));
                        token_start = false;
                    }
                    b'&' | b'*' | b'!' if token_start => {
                        let sigil = i;
                        while i < bytes.len()
                            && !matches!(bytes[i], b' ' | b'\t')
                            && !(*flow > 0 && matches!(bytes[i], b',' | b'[' | b']' | b'{' | b'}'))
                        {
                            i += 1;
                        }
                        if b == b'!' {
                            push(sigil..i, PieceKind::Tag);
                        } else {
                            push(sigil + 1..i, PieceKind::Anchor);
                        }
                        token_start = false;
                    }
                    b'-' | b'?' | b':'
                        if token_start && matches!(bytes.get(i + 1), None | Some(b' ' | b'\t')) =>
                    {
                        i += 1;
                    }
                    _ => {
                        let begin = i;
                        while i < bytes.len() {
                            let c = bytes[i];
                            let ends_here = matches!(c, b' ' | b'\t')
                                || (*flow > 0 && matches!(c, b',' | b'[' | b']' | b'{' | b'}'))
                                || (c == b':'
                                    && matches!(
                                        bytes.get(i + 1),
                                        None | Some(b' ' | b'\t' | b',' | b']' | b'}')
                                    ));
                            if ends_here {
                                break;
                            }
                            i += 1;
                        }
                        let is_key = bytes.get(i) == Some(&b':');
                        if is_key {
                            // A key inside a flow mapping, after a list marker or nested.
                            push(begin..i, PieceKind::Key { top: false });
                            i += 1;
                        } else {
                            push(begin..i, PieceKind::Atom);
                        }
                        token_start = is_key;
                    }
                }
            }
        }
    }
    if let Some(block) = next_mode {
        return block;
    }
    match mode {
        Mode::Block(_) => Mode::Plain,
        other => other,
    }
}

/// Parses frontmatter YAML the way discovery does.
fn parse_yaml(yaml: &str) -> Frontmatter {
    frontmatter::parse(&format!("---\n{yaml}---\n")).unwrap_or(Frontmatter {
        fields: Vec::new(),
        body_offset: 0,
        line_count: 0,
        error: Some("no frontmatter".to_owned()),
    })
}

/// True for a plain scalar that YAML reads as something other than a string.
fn is_yaml_special(atom: &str) -> bool {
    frontmatter::is_special_scalar(atom)
}

/// True when two values have the same structure and every scalar (mapping keys too: a key
/// the analysis never reads is replaced) the same measurements: what the report shows of a
/// replaced value.
fn same_shape(a: &Yaml, b: &Yaml) -> bool {
    match (untag(a), untag(b)) {
        (Yaml::Null, Yaml::Null) => true,
        (Yaml::Bool(x), Yaml::Bool(y)) => x == y,
        (Yaml::Number(x), Yaml::Number(y)) => {
            x.to_string().chars().count() == y.to_string().chars().count()
        }
        (Yaml::String(x), Yaml::String(y)) => measure(x) == measure(y),
        (Yaml::Sequence(x), Yaml::Sequence(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_shape(x, y))
        }
        (Yaml::Mapping(x), Yaml::Mapping(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((kx, vx), (ky, vy))| same_shape(kx, ky) && same_shape(vx, vy))
        }
        _ => false,
    }
}

/// The shared form of every key, anchor and tag name in one frontmatter block: a key the
/// analysis reads ([`FRONTMATTER_KEYS`], at the top level) and a standard tag (`!!str`) stay;
/// every other becomes placeholders of its length, distinct from each other (two keys that
/// were different stay different, so no mapping gains a duplicate key), the same name always
/// the same placeholder (so an alias still names its anchor).
#[derive(Debug, Default)]
struct YamlNames {
    /// Piece index → its shared text.
    pieces: BTreeMap<usize, String>,
    /// Top-level key as parsed → its shared form.
    keys: BTreeMap<String, String>,
}

/// The tags of YAML's core and failsafe schemas: they say how to read a value, nothing more.
const STANDARD_TAGS: [&str; 9] = [
    "!!str",
    "!!int",
    "!!float",
    "!!bool",
    "!!null",
    "!!seq",
    "!!map",
    "!!binary",
    "!!timestamp",
];

impl YamlNames {
    fn new(yaml: &str, lexed: &Lexed, keep_text: bool) -> YamlNames {
        let mut names = YamlNames::default();
        if keep_text {
            return names;
        }
        // One namespace per kind, each mapping a name as written to its placeholder.
        let mut spaces: [(BTreeMap<&str, String>, BTreeSet<String>); 3] = Default::default();
        for (index, piece) in lexed.pieces.iter().enumerate() {
            let source = &yaml[piece.range.clone()];
            let space = match piece.kind {
                PieceKind::Key { top } => {
                    let name = lexed.keys.get(piece.key).cloned().flatten();
                    if top
                        && name
                            .as_deref()
                            .is_some_and(|n| FRONTMATTER_KEYS.contains(&n))
                    {
                        continue;
                    }
                    0
                }
                PieceKind::Anchor => 1,
                PieceKind::Tag if source == "!" || STANDARD_TAGS.contains(&source) => continue,
                PieceKind::Tag => 2,
                _ => continue,
            };
            let (assigned, taken) = &mut spaces[space];
            let shared = match assigned.get(source) {
                Some(shared) => shared.clone(),
                None => {
                    let shared = distinct_placeholder(source, taken);
                    taken.insert(shared.clone());
                    assigned.insert(source, shared.clone());
                    shared
                }
            };
            if let PieceKind::Key { top: true } = piece.kind {
                if let Some(Some(name)) = lexed.keys.get(piece.key) {
                    let unquoted = shared
                        .strip_prefix(['"', '\''])
                        .and_then(|k| k.strip_suffix(['"', '\'']))
                        .unwrap_or(&shared);
                    names.keys.insert(name.clone(), unquoted.to_owned());
                }
            }
            names.pieces.insert(index, shared);
        }
        names
    }
}

/// The placeholder of a name, made different from every one in `taken` by writing a counter
/// into its letters (`xxxx`, `xxxb`, `xxxc`, …); never a key the analysis reads or a YAML
/// word such as `true`. With no letter to count in, the plain placeholder.
fn distinct_placeholder(written: &str, taken: &BTreeSet<String>) -> String {
    let base = text_placeholder(written, false);
    let letters: Vec<usize> = base
        .bytes()
        .enumerate()
        .filter(|&(_, b)| b == b'x')
        .map(|(at, _)| at)
        .collect();
    let usable = |candidate: &String| {
        !taken.contains(candidate)
            && !FRONTMATTER_KEYS.contains(&candidate.as_str())
            && !is_yaml_special(candidate)
    };
    if usable(&base) {
        return base;
    }
    let mut bytes = base.clone().into_bytes();
    for n in 1..=taken.len() as u64 + 1 {
        let mut rest = n;
        for &at in letters.iter().rev() {
            if rest == 0 {
                bytes[at] = b'x';
                continue;
            }
            bytes[at] = b'a' + (rest % 26) as u8;
            rest /= 26;
        }
        if rest > 0 {
            break;
        }
        let candidate = String::from_utf8(bytes.clone()).unwrap_or_default();
        if usable(&candidate) {
            return candidate;
        }
    }
    base
}

/// A YAML number replaced by one of the same form and the same shown length: every digit
/// `1` where that keeps the length, else the smallest number of that many digits written at
/// the original width (`0xFF` → `0x64`), else zeros kept (`2.50` → `1.10`). `None` when the
/// atom is not a number or no form fits.
fn number_placeholder(atom: &str) -> Option<String> {
    let shown = |candidate: &str| match frontmatter::parse_value(candidate) {
        Ok(Yaml::Number(n)) => Some(n.chars().count()),
        _ => None,
    };
    let target = shown(atom)?;
    let (sign, unsigned) = match atom.strip_prefix(['-', '+']) {
        Some(rest) => (&atom[..1], rest),
        None => ("", atom),
    };
    let (prefix, radix) = match unsigned.get(..2) {
        Some("0x" | "0X") => (&unsigned[..2], 16),
        Some("0o" | "0O") => (&unsigned[..2], 8),
        _ => ("", 10),
    };
    let digits = &unsigned[prefix.len()..];
    let mut candidates = Vec::new();
    let ones: String = digits
        .chars()
        .map(|c| if c.is_digit(radix) { '1' } else { c })
        .collect();
    candidates.push(format!("{sign}{prefix}{ones}"));
    if digits.bytes().all(|b| (b as char).is_digit(radix)) && !digits.is_empty() {
        let decimal = target - usize::from(sign == "-");
        let smallest = 10u128.checked_pow(u32::try_from(decimal.saturating_sub(1)).ok()?)?;
        let width = digits.len();
        let written = match radix {
            16 if digits.bytes().any(|b| b.is_ascii_uppercase()) => {
                format!("{smallest:0width$X}")
            }
            16 => format!("{smallest:0width$x}"),
            8 => format!("{smallest:0width$o}"),
            _ => format!("{smallest:0width$}"),
        };
        if written.len() == width {
            candidates.push(format!("{sign}{prefix}{written}"));
        }
    }
    let zeros_kept: String = unsigned
        .chars()
        .map(|c| if matches!(c, '1'..='9') { '1' } else { c })
        .collect();
    candidates.push(format!("{sign}{zeros_kept}"));
    candidates
        .into_iter()
        .find(|c| c.len() == atom.len() && shown(c) == Some(target))
}

// ----- comparing reports -----------------------------------------------------------------

/// Fields that hold a path or a name: the original's are renamed before comparing.
const NAME_FIELDS: &[&str] = &[
    "path",
    "parent",
    "resolved",
    "target",
    "home",
    "config_dir",
    "project",
    "projects_base",
    "git_root",
    "memory_dir",
    "auto_memory_setting_from",
    "memory_folder_name",
    "decoded_guess",
    "skill_name",
    "agent",
    "folder",
    "index",
    "paths",
];

/// Sentences for a person: they quote names and text, so they are not compared.
const SENTENCE_FIELDS: &[&str] = &["message", "summary", "title", "note", "correction"];

/// A report as JSON in a form two reports can be compared in: names passed through `rename`,
/// sentences dropped, free text replaced by its length, diagnostics in a fixed order (their
/// order breaks ties by message).
fn comparable(report: &Report, rename: &mut dyn FnMut(&str) -> String) -> Json {
    let mut value = serde_json::to_value(report).unwrap_or(Json::Null);
    walk(&mut value, None, None, rename);
    if let Some(Json::Array(diagnostics)) = value.get_mut("diagnostics") {
        diagnostics.sort_by_key(Json::to_string);
    }
    value
}

fn walk(
    value: &mut Json,
    key: Option<&str>,
    list: Option<&str>,
    rename: &mut dyn FnMut(&str) -> String,
) {
    match value {
        Json::Object(object) => {
            let skill = object.get("skill_name").is_some_and(|name| !name.is_null());
            for (field, inner) in object.iter_mut() {
                match field.as_str() {
                    "frontmatter" => {
                        if let Json::Array(fields) = inner {
                            for entry in fields {
                                frontmatter_entry(entry, skill, rename);
                            }
                        }
                    }
                    // Free text the report carries: compared by length, as placeholders keep it.
                    "text" | "warning" => {
                        if let Json::String(text) = inner {
                            *inner = Json::from(text.chars().count());
                        }
                    }
                    "skills" => {
                        if let Json::Array(lines) = inner {
                            for line in lines {
                                if let Json::String(text) = line {
                                    *line = Json::from(text.chars().count());
                                }
                            }
                        }
                    }
                    "name" if matches!(list, Some("memory_folders" | "agents")) => {
                        rename_in(inner, rename);
                    }
                    "memory_folder_name" => {
                        rename_in(inner, rename);
                        // Over 200 characters the name ends in a hash of the full path,
                        // which the renamed path hashes differently; the prefix is the key.
                        if let Json::String(name) = inner {
                            let cut: String =
                                name.chars().take(crate::encode::MAX_NAME_CHARS).collect();
                            *name = cut;
                        }
                    }
                    field if SENTENCE_FIELDS.contains(&field) => *inner = Json::Null,
                    field if NAME_FIELDS.contains(&field) => rename_in(inner, rename),
                    field => walk(inner, Some(field), list, rename),
                }
            }
        }
        Json::Array(items) => {
            for item in items {
                walk(item, None, key.or(list), rename);
            }
        }
        _ => {}
    }
}

fn rename_in(value: &mut Json, rename: &mut dyn FnMut(&str) -> String) {
    match value {
        Json::String(s) => *s = rename(s),
        Json::Array(items) => {
            for item in items {
                rename_in(item, rename);
            }
        }
        _ => {}
    }
}

fn frontmatter_entry(entry: &mut Json, skill: bool, rename: &mut dyn FnMut(&str) -> String) {
    let key = entry
        .get("key")
        .and_then(Json::as_str)
        .unwrap_or_default()
        .to_owned();
    let kind = if skill {
        FileKind::Skill
    } else {
        FileKind::Other
    };
    if !FRONTMATTER_KEYS.contains(&key.as_str()) {
        // A key the analysis never reads was replaced by placeholders: compared by length.
        entry["key"] = Json::from(key.chars().count());
    }
    let Some(value) = entry.get_mut("value") else {
        return;
    };
    match policy(Some(&key), kind) {
        Policy::Keep if key == "modified" => {
            // Only the day stays: the day and the length are compared.
            if let Json::String(text) = value {
                let day = crate::date::parse_day(text).map(|_| text.trim().get(..10));
                *value = serde_json::json!([day.flatten(), text.chars().count()]);
            }
        }
        Policy::Keep => {
            // A word outside the vocabulary was replaced like text: compared by length.
            if let Json::String(text) = value {
                if !in_vocabulary(&key, text.trim_matches(['"', '\''])) {
                    *value = Json::from(text.chars().count());
                }
            }
        }
        Policy::Name => rename_in(value, rename),
        Policy::Text => {
            if let Json::String(text) = value {
                *value = Json::from(text.chars().count());
            }
        }
    }
}

/// Lists where `actual` differs from `expected`, by JSON path.
fn diff(expected: &Json, actual: &Json, at: &mut String, out: &mut Vec<String>) {
    const MAX_DIFFERENCES: usize = 50;
    if out.len() >= MAX_DIFFERENCES {
        return;
    }
    match (expected, actual) {
        (Json::Object(e), Json::Object(a)) => {
            let keys: BTreeSet<&String> = e.keys().chain(a.keys()).collect();
            for key in keys {
                let len = at.len();
                at.push('/');
                at.push_str(key);
                diff(
                    e.get(key).unwrap_or(&Json::Null),
                    a.get(key).unwrap_or(&Json::Null),
                    at,
                    out,
                );
                at.truncate(len);
            }
        }
        (Json::Array(e), Json::Array(a)) if e.len() != a.len() => out.push(format!(
            "{at}: expected {} items, shared {}",
            e.len(),
            a.len()
        )),
        (Json::Array(e), Json::Array(a)) => {
            for (index, (e, a)) in e.iter().zip(a).enumerate() {
                let len = at.len();
                at.push_str(&format!("/{index}"));
                diff(e, a, at, out);
                at.truncate(len);
            }
        }
        (e, a) if e != a => out.push(format!("{at}: expected {e}, shared {a}")),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_keep_every_length() {
        for c in [
            'a', 'Z', '7', '#', ' ', '\u{a0}', 'é', '가', '😀', '\u{3000}', '\u{feff}',
        ] {
            let p = placeholder(c, false);
            assert_eq!(p.len_utf8(), c.len_utf8(), "{c:?}");
            assert_eq!(p.len_utf16(), c.len_utf16(), "{c:?}");
            assert_eq!(is_space(p), is_space(c), "{c:?}");
        }
        assert_eq!(
            text_placeholder("# Hi 42 가é😀—!", false),
            "# xx 00 ㅁø🔲□!"
        );
        assert!('가'.is_alphanumeric() && placeholder('가', false).is_alphanumeric());
        assert!(!'—'.is_alphanumeric() && !placeholder('—', false).is_alphanumeric());
    }

    #[test]
    fn escapes_name_the_placeholder() {
        assert_eq!(escape_placeholder("\\x41"), "\\x78");
        assert_eq!(escape_placeholder("\\u00E9"), "\\u00F8");
        assert_eq!(escape_placeholder("\\uac00"), "\\u3141");
        assert_eq!(escape_placeholder("\\u2014"), "\\u25a1");
        assert_eq!(escape_placeholder("\\U0001F600"), "\\U0001F532");
        assert_eq!(escape_placeholder("\\U0001D4B3"), "\\U0001D465");
        assert_eq!(escape_placeholder("\\n"), "\\n");
    }

    fn table(kept: &[&str], free: &[&str]) -> Trie {
        let mut trie = Trie::new();
        for run in kept {
            trie.insert(run.as_bytes(), true);
        }
        for run in free {
            trie.insert(run.as_bytes(), false);
        }
        trie.allocate();
        trie
    }

    #[test]
    fn the_trie_keeps_order_prefixes_and_kept_runs() {
        let words = [
            "agents", "alice", "alpha", "bob", "claude", "claud", "zed", "z9", "a1",
        ];
        let trie = table(&["agents", "claude"], &words);
        let mapped: Vec<String> = words.iter().map(|w| trie.map(w)).collect();
        assert_eq!(trie.map("agents"), "agents");
        assert_eq!(trie.map("claude"), "claude");
        assert_eq!(trie.map("claud"), "claud");
        assert_eq!(trie.map("Alice"), format!("A{}", &trie.map("alice")[1..]));
        for (i, a) in words.iter().enumerate() {
            for (j, b) in words.iter().enumerate() {
                assert_eq!(a.cmp(b), mapped[i].cmp(&mapped[j]), "{a} {b} {mapped:?}");
            }
        }
        assert_eq!(trie.map("unknown1"), "xxxxxxx0");
    }

    #[test]
    fn characters_keep_their_length_and_order() {
        let chars: BTreeMap<char, bool> =
            [('é', false), ('가', true), ('나', false), ('😀', false)]
                .into_iter()
                .collect();
        let map = allocate_chars(&chars);
        assert_eq!(map[&'가'], '가');
        assert!(map[&'나'] > '가' && map[&'나'].len_utf8() == 3);
        assert_eq!(map[&'é'].len_utf8(), 2);
        assert_eq!(map[&'😀'].len_utf8(), 4);
    }

    #[test]
    fn numbers_stay_numbers_of_their_shown_length() {
        for (atom, shared) in [
            ("4096", "1111"),
            ("-12", "-11"),
            ("0xDEADBEEF", "0x3B9ACA00"),
            ("0x1f", "0x11"),
            ("0o17", "0o12"),
            ("1.50", "1.10"),
        ] {
            assert_eq!(number_placeholder(atom).as_deref(), Some(shared), "{atom}");
        }
        assert_eq!(number_placeholder("true"), None);
        assert_eq!(number_placeholder("word"), None);
    }

    #[test]
    fn names_get_distinct_placeholders() {
        let mut taken = BTreeSet::new();
        let mut seen = Vec::new();
        for name in ["alpha", "bravo", "gamma", "name", "x_y", "a_b"] {
            let shared = distinct_placeholder(name, &taken);
            assert_eq!(shared.len(), name.len());
            assert!(!FRONTMATTER_KEYS.contains(&shared.as_str()));
            taken.insert(shared.clone());
            seen.push(shared);
        }
        assert_eq!(seen, ["xxxxx", "xxxxb", "xxxxc", "xxxx", "x_x", "x_b"]);
    }

    #[test]
    fn the_lexer_finds_keys_and_values() {
        let yaml = "name: my-skill # why\ndescription: >-\n  Line one: 2\n  two\npaths: [\"src/**\", lib/*.ts]\ntype: user\nx: \"a\\u00e9\"\ny: &a !t {k: *a}\n";
        let lexed = lex_yaml(yaml);
        let keys: Vec<&str> = lexed.keys.iter().flatten().map(String::as_str).collect();
        assert_eq!(keys, ["name", "description", "paths", "type", "x", "y"]);
        let pieces: Vec<(&str, PieceKind, usize)> = lexed
            .pieces
            .iter()
            .map(|p| (&yaml[p.range.clone()], p.kind, p.key))
            .collect();
        assert_eq!(
            pieces,
            [
                ("name", PieceKind::Key { top: true }, 1),
                ("my-skill", PieceKind::Atom, 1),
                ("# why", PieceKind::Comment, 1),
                ("description", PieceKind::Key { top: true }, 2),
                ("Line one: 2", PieceKind::Block, 2),
                ("two", PieceKind::Block, 2),
                ("paths", PieceKind::Key { top: true }, 3),
                ("src/**", PieceKind::Quoted, 3),
                ("lib/*.ts", PieceKind::Atom, 3),
                ("type", PieceKind::Key { top: true }, 4),
                ("user", PieceKind::Atom, 4),
                ("x", PieceKind::Key { top: true }, 5),
                ("a", PieceKind::Quoted, 5),
                ("\\u00e9", PieceKind::Escape, 5),
                ("y", PieceKind::Key { top: true }, 6),
                ("a", PieceKind::Anchor, 6),
                ("!t", PieceKind::Tag, 6),
                ("k", PieceKind::Key { top: false }, 6),
                ("a", PieceKind::Anchor, 6),
            ]
        );
    }
}
