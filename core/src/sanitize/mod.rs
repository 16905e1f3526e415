//! Sanitizing a snapshot for sharing: a new, minimal snapshot that analyses to the same
//! report as the original and holds no word the person wrote.
//!
//! [`sanitize`] takes the tree an analysis ran over (with the contents it read), the input
//! and the finished report, and returns a [`Sanitized`] snapshot. [`crate::share`] turns that
//! into a link or a zip.
//!
//! ## What is kept
//! Exactly what discovery recorded (`plan.rs`), never a second model of it: every row of
//! the report that exists, every file and folder in `Report::sources`, and every path a
//! finding names (a colliding project folder, a lookalike memory folder). Discovery records,
//! with the reason ([`crate::report::ReadFor`]):
//! - each settings layer it read, reduced to the keys the settings parser reads
//!   (`autoMemoryEnabled`, `autoMemoryDirectory`, `claudeMd`, `claudeMdExcludes`; a key of
//!   the wrong type keeps its JSON type, so its warning stays);
//! - `~/.claude.json`, reduced to the approval under the key discovery read it by;
//! - the `.git` folder or file that decides the git root (a folder is kept empty; a file
//!   keeps only its `gitdir:` line's path);
//! - every other file whose text it read and that is no row: sub-agent definitions (their
//!   `name` pseudonymised like a file name), agent memory indexes, worktrees' `gitdir`;
//! - what it looked at by size or name only, kept by size: the rows it never read (bulk
//!   data, over the read cap, skipped for their size by the simulated release), the `.md`
//!   files it counted in every memory folder, reference targets past the rows, and for each
//!   conditional rule the first project file its globs matched;
//! - the folders it looked up (memory folders, agents' memory folders, folders a link points
//!   to, folders that encode to this project's memory folder name) and the mount roots;
//! - the files whose modification day the growth chart read: the only ones that keep a day.
//!
//! Which texts are skills (a row discovery listed as one) and sub-agent definitions (their
//! own reason) is read off the record too, never off a file's name.
//!
//! Besides the files: of the environment, only what the analysis reads (whether
//! `DISABLE_AUTO_MEMORY` turns auto memory off, the number `SLASH_COMMAND_TOOL_CHAR_BUDGET`
//! sets), the order a source listed a skills folder in where it recorded one
//! ([`Tree::set_listing_order`]), as positions among the shared names, and which texts
//! the original sent twice in every session: each `sent-twice` finding's file and the
//! earlier file it repeats ([`Tree::set_sent_twice`]). Placeholders keep a text's shape,
//! not its words, so two different texts of one shape read the same in the copy; the pairs
//! tell what the original's words did, and reveal no more than the finding itself.
//!
//! The memory folders of other projects (their files and folders) are left out unless
//! [`SanitizeOptions::other_projects`], or a finding names them; [`Sanitized::left_out_folders`]
//! names them, and the shared report does not list them. A file keeps its text only when
//! discovery read its text; everything else (transcripts, `file-history/`, `todos/`,
//! `.credentials.json`, other settings keys, any file discovery did not record) is left out.
//! `tests/tests/sanitize.rs` holds both sides to it: the tree cut down to what discovery
//! recorded analyses to the same report, and the share holds exactly those paths.
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
//! shown length (`4096` → `1111`, `0xDEADBEEF` → `0x3B9ACA00`); a boolean or null stays.
//! In a `MEMORY.md`, the words the health view reads to tell a correction (`not`,
//! `instead`, `wrong`, `actually`, `corrected`, `no longer`) stay.
//!
//! ## How names are pseudonymised
//! A name is split into runs of ASCII letters and digits, single non-ASCII characters, and
//! everything else (kept). Each renamed run becomes a counter (`names.rs`): the runs are
//! numbered in sorted order within their class (led by a digit, led by a letter), every
//! counter of a class has one width (the fewest characters that number them all), and no
//! counter starts as its run does. So a pseudonym tells a run's rank and class, never its
//! letters or its length: a one-letter name and a twenty-letter one of the same class get
//! counters of one width. One table serves the whole snapshot, case-insensitively (the
//! case of each letter stays), so a path and the memory-folder name that encodes it change
//! together, and the lookups by encoded path, by the older encoding and by a
//! case-insensitive suffix all still hit. Counters need not keep the names' order: where a
//! kept run sorts among renamed ones (`memo` between `md` and `memory`, which only a
//! counter starting with `m` could), the snapshot carries the original's order of each
//! folder whose shared names sort otherwise ([`Tree::set_order`]), so no row moves. Kept
//! runs: the well-known names (`claude`, `md`, `rules`, `skills`, `memory`, `projects`,
//! `settings`, `git`, …), file extensions, drive letters, and (with `keep_file_names`)
//! every run that is not part of the user name. The user name is replaced wherever it
//! appears, unless `keep_user_name` (a user named like a well-known name, `claude`, stays).
//!
//! Where Claude Code's own text quotes a renamed name, its original length travels as a
//! figure (`Tree::set_quoted`). Where a file's text holds one (an import, a link), it is
//! written at the length the original was written at, so that no line needs room: as its
//! pseudonym where that has the length, else as a stand-in of placeholders (`@xxxxxxxa`,
//! numbered in letters so that the file's stand-ins differ from each other and from every
//! other target it writes), whose target the shared tree carries per file
//! ([`Tree::set_stand_ins`]; discovery resolves through it). A frontmatter value renamed to
//! another length (a `paths` glob, a `name`) is settled by a placeholder word of the body.
//! There is no fallback that keeps names' shapes: when a figure still cannot be kept,
//! [`sanitize`] analyses the copy, and [`Sanitized::differences`] and a sentence in
//! [`Sanitized::warnings`] tell the person sharing before anything is sent.
//!
//! With `keep_text`, contents stay as written, except the reference paths above, which
//! follow the pseudonyms (or stand-ins), and the user name, replaced wherever it is written
//! unless `keep_user_name` by its pseudonym fitted to its length (cut, or followed by
//! `x`s). Of files' modification times only the day of the files the growth view dated by
//! it stays: it counts days, and reads no other file's date.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use serde_json::{Map, Value as Json};

use crate::analyze::{analyze, Step};
use crate::discover::{AGENT_MEMORY_SCOPES, CORRECTION_WORDS, FRONTMATTER_KEYS, MEMORY_TYPES};
use crate::input::Input;
use crate::report::{Code, Diagnostic, DiagnosticData, ReadFor, ReferenceKind, Report};
use crate::text::frontmatter::{self, untag, Frontmatter, Span, SpanKind, Spans, Value as Yaml};
use crate::text::glob::Glob;
use crate::text::measure::{is_js_space, measure};
use crate::tree::{Contents, FileEntry, QuotedLength, Tree};
use crate::vpath::VPath;

mod build;
mod compare;
mod names;
mod placeholders;
mod plan;
mod settings;
mod yaml;

use build::*;
use compare::*;
use names::*;
use placeholders::*;
use plan::*;
use yaml::*;

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
    /// Where the shared snapshot's own report differs from the original's
    /// ([`Sanitized::verify`], run once by [`sanitize`]): empty when every figure, status and
    /// finding is kept. The differences quote original values: for the person sharing only.
    pub differences: Vec<String>,
    /// True when the person chose to keep the files' text: whoever opens the copy is told.
    pub text_kept: bool,
    /// The memory folders of other projects left out (their names in `projects/`, as the
    /// original report lists them), unless [`SanitizeOptions::other_projects`].
    pub left_out_folders: BTreeSet<String>,
    /// The shared snapshot's own report, as whoever opens the copy sees it (names
    /// pseudonymised, text as placeholders unless kept): the sanitized report. `None` when
    /// the copy could not be analysed (see [`Sanitized::differences`]).
    pub report: Option<Report>,
    /// The folders kept without a file in them (a `.git` folder, an empty `memory/`), which
    /// the tree knows but does not list.
    dirs: Vec<VPath>,
    /// What the tree's quoted names measured before ([`Tree::set_quoted`]); a payload
    /// carries it.
    quoted: BTreeMap<String, QuotedLength>,
    /// The original's order of the folders whose shared names sort otherwise
    /// ([`Tree::set_order`]): positions in byte order, in the original's order.
    order: BTreeMap<VPath, Vec<usize>>,
    /// The order the source listed some kept folders' entries in ([`Tree::set_listing_order`]):
    /// positions in the shared tree's order, in the source's.
    listing_orders: BTreeMap<VPath, Vec<usize>>,
    pseudonyms: Pseudonyms,
}

impl Sanitized {
    /// The folders kept without needing a file in them; a payload carries them.
    pub(crate) fn dirs(&self) -> &[VPath] {
        &self.dirs
    }

    /// How the names the shared tree renamed to another length measured before, where
    /// Claude Code's text quotes them; a payload carries it.
    pub(crate) fn quoted(&self) -> &BTreeMap<String, QuotedLength> {
        &self.quoted
    }

    /// For each folder whose shared names sort otherwise than the original's, the positions
    /// of its entries in byte order, in the original's order; a payload carries it.
    pub(crate) fn order(&self) -> &BTreeMap<VPath, Vec<usize>> {
        &self.order
    }

    /// For each kept folder whose listing order the source recorded, the positions of its
    /// shared entries in the source's order; a payload carries it.
    pub(crate) fn listing_orders(&self) -> &BTreeMap<VPath, Vec<usize>> {
        &self.listing_orders
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
        self.verified(original).1
    }

    /// [`Sanitized::verify`], with the shared snapshot's own report when it could be made.
    fn verified(&self, original: &Report) -> (Option<Report>, Vec<String>) {
        let shared = match analyze(&self.tree, &self.input) {
            Ok(Step::Done(report)) => *report,
            Ok(Step::Needs(needs)) => {
                return (
                    None,
                    vec![format!(
                        "the shared snapshot lacks the contents of {} files the analysis reads",
                        needs.reads.len()
                    )],
                )
            }
            Err(error) => return (None, vec![error.to_string()]),
        };
        let mut original = original.clone();
        original
            .memory_folders
            .retain(|folder| !self.left_out_folders.contains(&folder.name));
        // What discovery counted in the folders left out is not shared either.
        if let Ok(base) = VPath::new(&original.context.projects_base) {
            let left_out: Vec<VPath> = (self.left_out_folders.iter())
                .filter_map(|name| base.join(name).ok())
                .collect();
            original.sources.retain(|source| {
                VPath::new(&source.path)
                    .map_or(true, |at| !left_out.iter().any(|root| at.starts_with(root)))
            });
        }
        let expected = comparable(&original, &mut |s| self.pseudonyms.name(s));
        let actual = comparable(&shared, &mut |s| s.to_owned());
        let mut differences = Vec::new();
        diff(&expected, &actual, &mut String::new(), &mut differences);
        (Some(shared), differences)
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
    let plan = Plan::new(tree, report, options);
    // The first pass only gathers every name the shared snapshot will hold, so that the
    // pseudonym table knows all its neighbours before it assigns anything.
    let collecting = Namer::Collect(RefCell::default());
    let first = Builder::new(&plan, tree, input, report, options, &collecting).build();
    drop(first);
    let Namer::Collect(collected) = collecting else {
        unreachable!("the first pass collects")
    };
    let collected = collected.into_inner();
    let pseudonyms = Pseudonyms::new(collected, input, options);
    let applying = Namer::Apply(&pseudonyms);
    let mut built = Builder::new(&plan, tree, input, report, options, &applying).build();
    let order = carried_order(tree, &built.tree, &built.paths);
    for (dir, positions) in &order {
        let entries = built.tree.entry_names(dir);
        let names = positions.iter().map(|&at| entries[at].0.clone()).collect();
        built.tree.set_order(dir.clone(), names);
    }
    // The order a source listed a skills folder in decides the listing on 2.1.113-2.1.153.
    let listing_orders = carried_listing_orders(tree, &built.tree, &built.paths);
    for (dir, positions) in &listing_orders {
        let entries = built.tree.entry_names(dir);
        let names = positions.iter().map(|&at| entries[at].0.clone()).collect();
        built.tree.set_listing_order(dir.clone(), names);
    }
    // Which texts the original sent twice: the copy's text is placeholders of the same shape
    // (every letter `x`), which cannot tell two equal texts from two of one shape, so the
    // copy carries the pairs the report found instead, as it carries lengths and orders.
    built
        .tree
        .set_sent_twice(carried_sent_twice(report, &built.paths));
    let mut shared = Sanitized {
        tree: built.tree,
        input: built.input,
        paths: built.paths,
        warnings: built.warnings,
        differences: Vec::new(),
        text_kept: options.keep_text,
        left_out_folders: plan.left_out_folders.clone(),
        report: None,
        dirs: built.dirs,
        quoted: built.quoted,
        order,
        listing_orders,
        pseudonyms,
    };
    // The one check that the copy tells what the original does: the shared snapshot
    // analysed on its own. Names never fall back to shapes that keep their lengths; where
    // the counters cannot keep a figure, the person sharing is told before sending.
    (shared.report, shared.differences) = shared.verified(report);
    if !shared.differences.is_empty() {
        shared.warnings.push(differing_figures(&shared.differences));
    }
    shared
}

/// The pairs of the report's `sent-twice` findings (the file whose text repeats → the
/// earlier file it repeats), by their shared paths ([`Tree::set_sent_twice`]).
fn carried_sent_twice(report: &Report, paths: &BTreeMap<String, String>) -> BTreeMap<VPath, VPath> {
    let shared = |p: &str| paths.get(p).and_then(|s| VPath::new(s).ok());
    let mut pairs = BTreeMap::new();
    for finding in report
        .diagnostics
        .iter()
        .filter(|d| d.code == Code::SentTwice)
    {
        let earlier = match &finding.data {
            Some(DiagnosticData::Paths { paths }) => paths.first(),
            _ => None,
        };
        if let (Some(later), Some(earlier)) = (
            finding.path.as_deref().and_then(shared),
            earlier.and_then(|e| shared(e)),
        ) {
            pairs.insert(later, earlier);
        }
    }
    pairs
}

/// The sentence that tells the person sharing which figures the copy cannot keep: where in
/// the report (in words), never the values, which quote their names.
fn differing_figures(differences: &[String]) -> String {
    let places: Vec<&str> = differences
        .iter()
        .map(|d| d.split(':').next().unwrap_or(d))
        .collect();
    let shown: Vec<&str> = places.iter().take(6).copied().collect();
    let more = places.len().saturating_sub(shown.len());
    format!(
        "the shared report will not match yours in {} figure{} ({}{}): pseudonyms that kept \
         them would show your names' lengths or first letters",
        places.len(),
        if places.len() == 1 { "" } else { "s" },
        shown.join("; "),
        if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        }
    )
}

/// The part of `tree` that [`sanitize`] reads for `report`: the mount roots, the files and
/// folders the shared snapshot could keep (each file's entry whole, contents included) and
/// the findings made while the tree was built.
///
/// [`sanitize`] over it gives the same snapshot as over the whole tree, and it holds every
/// file the report lists that exists, so the page's analysis worker hands the page this
/// (a few hundred entries) instead of a tree of every listed file.
pub fn basis(tree: &Tree, report: &Report) -> Tree {
    // Every option's snapshot comes from the basis: the widest plan.
    let widest = SanitizeOptions {
        other_projects: true,
        ..SanitizeOptions::default()
    };
    let plan = Plan::new(tree, report, &widest);
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
    // A shared snapshot shared again keeps its original's lengths and order.
    out.set_quoted(tree.quoted_lengths().clone());
    for (file, stand_ins) in tree.stand_ins() {
        out.set_stand_ins(file.clone(), stand_ins.clone());
    }
    for (dir, names) in tree.orders() {
        out.set_order(dir.clone(), names.to_vec());
    }
    for (dir, names) in tree.listing_orders() {
        out.set_listing_order(dir.clone(), names.to_vec());
    }
    if let Some(pairs) = tree.sent_twice() {
        out.set_sent_twice(pairs.clone());
    }
    out
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

    fn table(kept: &[&str], free: &[&str]) -> Pseudonyms {
        let collected = Collected {
            runs: kept
                .iter()
                .chain(free)
                .map(|r| r.to_ascii_lowercase())
                .collect(),
            spellings: kept.iter().chain(free).map(|r| (*r).to_owned()).collect(),
            extensions: kept.iter().map(|r| r.to_ascii_lowercase()).collect(),
            ..Collected::default()
        };
        let input = Input {
            home: "/home/q".to_owned(),
            ..Input::default()
        };
        Pseudonyms::new(collected, &input, &SanitizeOptions::default())
    }

    #[test]
    fn pseudonyms_are_counters_that_keep_order() {
        let words = [
            "alice", "alpha", "bob", "claud", "zed", "z9", "a1", "Bob", "BOB", "7e2b",
        ];
        let table = table(&["agents", "claude"], &words);
        let mapped: Vec<String> = words.iter().map(|w| table.name(w)).collect();
        assert_eq!(table.name("agents"), "agents");
        assert_eq!(table.name("claude"), "claude");
        // One width per class, counted in sorted order: nothing of the original is left.
        // (Two capitalised spellings of `bob` need two letters.)
        assert_eq!(
            mapped,
            ["bb", "bc", "ca", "da", "dc", "db", "ba", "Ca", "CA", "0"].map(String::from)
        );
        for (word, shared) in words.iter().zip(&mapped) {
            let first = |s: &str| s.chars().next().map(|c| c.to_ascii_lowercase());
            assert_ne!(first(word), first(shared), "{word} starts as {shared}");
        }
        for (i, a) in words.iter().enumerate() {
            for (j, b) in words.iter().enumerate() {
                let (la, lb) = (a.to_ascii_lowercase(), b.to_ascii_lowercase());
                if la != lb {
                    let (ma, mb) = (&mapped[i], &mapped[j]);
                    let shared = ma.to_ascii_lowercase().cmp(&mb.to_ascii_lowercase());
                    assert_eq!(la.cmp(&lb), shared, "{a} {b}");
                }
            }
        }
        assert_eq!(table.name("unknown1"), "xxxxxxx0");
    }

    #[test]
    fn a_short_name_gets_the_width_of_its_class() {
        // Thirty-one runs led by a letter need two letters each: the one-letter `q` too, so
        // its pseudonym does not tell that it was short.
        let words: Vec<String> = std::iter::once("q".to_owned())
            .chain((0..30).map(|i| format!("k{i:02}")))
            .collect();
        let free: Vec<&str> = words.iter().map(String::as_str).collect();
        let table = table(&[], &free);
        for word in &free {
            assert_eq!(table.name(word).len(), 2, "{word} → {}", table.name(word));
        }
    }

    #[test]
    fn counters_ignore_kept_neighbours_and_never_start_as_their_run() {
        // `memo` sorts between the kept `md` and `memory`: only a counter starting with `m`
        // could sort there. The counters need not: the snapshot carries the order.
        let table = table(&["md", "memory", "p"], &["memo", "notes"]);
        let (memo, notes) = (table.name("memo"), table.name("notes"));
        assert!(
            !memo.starts_with('m') && !notes.starts_with('n'),
            "{memo} {notes}"
        );
        assert_eq!((memo.len(), notes.len()), (1, 1), "{memo} {notes}");
        assert!(memo < notes, "{memo} {notes}");
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
        let mut next = BTreeMap::new();
        let mut seen = Vec::new();
        for name in ["alpha", "bravo", "gamma", "name", "x_y", "a_b"] {
            let shared = distinct_placeholder(name, &taken, &mut next);
            assert_eq!(shared.len(), name.len());
            assert!(!FRONTMATTER_KEYS.contains(&shared.as_str()));
            taken.insert(shared.clone());
            seen.push(shared);
        }
        assert_eq!(seen, ["xxxxx", "xxxxb", "xxxxc", "xxxx", "x_x", "x_b"]);
        // Past the letters' 26 values the digits count too: a hundred `k<n>` keys stay apart.
        let (mut taken, mut next) = (BTreeSet::new(), BTreeMap::new());
        for i in 10..110 {
            let shared = distinct_placeholder(&format!("k{i}"), &taken, &mut next);
            assert!(taken.insert(shared), "k{i} repeats a placeholder");
        }
    }
}
