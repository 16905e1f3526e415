//! # memdiag-core
//!
//! Reproduces, over a virtual file tree, which memory and instruction files Claude Code
//! loads, how each one loads, what a `MEMORY.md` loses to its caps, and what the standing
//! context cost is. The crate does no I/O: it never touches `std::fs`, a clock or the
//! network, and compiles for `wasm32-unknown-unknown`. The browser page, the `memdiag`
//! command (`src/bin/memdiag/`, feature `cli`: the native reader of folders and zips, the
//! text, SARIF and Markdown formats, the gates) and every test drive the same code.
//!
//! **The reference is the program.** Every rule here reproduces what Claude Code 2.1.328 was
//! measured to do (the pin is in `scripts/npm/package.json`), not what its documentation
//! says. `fixtures/conformance/` holds one case per rule, each with the capture of what the
//! program sent; the test command runs the program on every case, and
//! `tests/tests/conformance.rs` replays every capture against this crate.
//!
//! **Other releases** (`version`): the same cases were recorded on other
//! published releases (`releases/<ver>.json` beside each capture, by
//! `tests/conformance/releases.mjs`, run by hand). Each behaviour change is declared once in
//! `version/behaviours.rs` (its id, first release, the cases whose captures prove it, a
//! paragraph for users), from which [`Behaviour`], [`RULE_CHANGES`] and `docs/releases.md`
//! come; [`NOT_REPRODUCED`] names what older releases were measured to do that the core
//! does not simulate. Behaviours that turned on and off again (`SKILL_ANNOUNCEMENTS`,
//! `SKILL_ORDERS`), Claude Code's own text around the user's (`OWN_TEXT`) and the listings'
//! budgets and built-in lines are per-release tables in `version/fitted.rs`, fitted to the
//! captures (`tests/conformance/fit-tables.py`, with the replay's `MEMDIAG_FIT=1` output). [`PUBLISHED_RELEASES`] lists npm's releases. A release
//! older than [`FIRST_SIMULATED`] is refused ([`AnalyzeError::Unsimulated`]). The report
//! carries the rules it applied ([`report::RulesInForce`]), so that readers draw only those.
//!
//! ## The pipeline
//! 1. **Tree** ([`tree`], [`vpath`]): a source lists files with their sizes into a [`Tree`]:
//!    [`Tree::from_entries`] for files the caller lists (the browser, tests), [`mount_zip`] (in
//!    `archive`) for a zip archive: central directory first, entries inflated on request under
//!    size, ratio and count caps; [`mount_zip_in_place`] reads it in place, from the ranges the
//!    caller fetches ([`ZipInPlace`], [`Fetch`]; the entries of a turn in a few merged ranges,
//!    [`ZipBatch`]). A source may list files by name only
//!    ([`Tree::mark_unstatted`]): the tree records which of their entries the analysis looks at,
//!    the turn asks for their sizes and dates, and the driver reads in the same round the
//!    files the turn wanted once sized, before the turn runs again. A source that lists lazily
//!    ([`Tree::add_unlisted_dir`]) is asked for the folders a turn looks into and for single
//!    paths inside unlisted ones ([`Probe`](tree::Probe), [`ContentSource::probe`]), so bulk
//!    folders are never listed. The tree is a tree of folders,
//!    its byte order made once per batch. A source that sees symbolic links records where a
//!    followed one leads ([`Tree::add_link`]: the command's file and folder links on the host's own
//!    paths, the conformance replay), for imports that resolve beside the target, and for linked
//!    rules folders and the links inside one (loaded under their targets' paths; outward ones only
//!    before 2.1.232). A source that sees the order a `skills/` folder is listed in records it
//!    ([`Tree::set_listing_order`]: the command's `read_dir`, a zip's entries, the replay's
//!    `dir_order`), for the releases that list skills in that order; the tree's own order stays
//!    byte order. Paths are [`VPath`]s, made by one normalising constructor that rejects escapes.
//!    Every source (the page's folder reader, the zip mount, the command) reads with the one limit
//!    and bulk-data list of [`limits`].
//! 2. **Analysis protocol** (`answer`, [`analyze()`](analyze())): a turn ([`analyze`]) returns
//!    either everything it still needs as a value ([`Step::Needs`] with [`Requests`]: folders to
//!    list, paths to look up, sizes, contents) or the finished [`Report`]. One driver,
//!    [`drive`], runs the turns ([`Analysis`], bounded to [`MAX_TURNS`]) and has an
//!    [`Answerer`] answer each turn's requests into the tree: the page's worker (which reads
//!    asynchronously) is one, and [`analyze_with`] drives a synchronous [`ContentSource`] (the
//!    command, a zip, the tests, a shared snapshot) through [`Synchronous`]. Session
//!    transcripts and other bulk data are never requested. The [`Input`] names home,
//!    project, config directory and OS, optionally a release to simulate (`version`), today's
//!    date, the paths whose Read to answer and the kind of session they are in
//!    ([`SessionKind`]: on 2.1.59-2.1.68 a `claude -p` Read attaches nothing), and
//!    `CLAUDE_CODE_DISABLE_AUTO_MEMORY` when the caller knows it.
//! 3. **Parsing** (`text`): pure text-to-value functions with no knowledge of the tree:
//!    `text::frontmatter` (the only module that knows the YAML crate, `serde_norway`; bounded in
//!    flow depth, aliases, values and size; `frontmatter/spans.rs` says where each key, value,
//!    comment, anchor and tag sits, which the crate does not, for the share's rewriting),
//!    `text::references` (imports, read from Markdown text only, and links), `text::measure` (the
//!    text exactly as sent, and the four sizes), `text::memory_index` (the 200-line and 25,000-unit
//!    caps and the warning, word for word), `text::settings` (settings keys, and the one key of
//!    `~/.claude.json` read), `text::glob`.
//! 4. **Discovery** (`discover`), one stage per source, run in the order the program sends
//!    what they find:
//!    - `discover::settings`: the layers, `claudeMdExcludes`, the memory switch and folder,
//!      the managed settings' inline `claudeMd`, the external-import approval;
//!    - `discover::walk`: the managed policy, the user's files, the directory walk from `/`
//!      to the project (three names, every folder's rules, the `AGENTS.md` fallback,
//!      worktrees inside their main repository), and the folders below the project;
//!    - `discover::rules`: a `.claude/rules/` folder, the links in it, and what `paths` means;
//!    - `discover::skills`: listed skills, their listing lines, which lines keep their
//!      description, whole or cut, under the listing's budget (`fit_listing`, each era's
//!      way; a release's budget and built-in skills' lengths are a `version::LISTING_BUDGETS`
//!      row), the order each folder's skills are listed in (by name, or on 2.1.113-2.1.153
//!      the source's recorded order, `version::SKILL_ORDERS`), and announced ones;
//!    - `discover::memory`: auto memory (folder, caps, the backfilled index) and agent memory;
//!    - `discover::references`: imports and links: depth, approval, exclusion, non-text;
//!    - `discover::session`: what every session sends and costs, what a Read attaches (its
//!      files untrimmed, `text::measure::as_attached`; nothing where the release and the
//!      session kind say so, `Paths::reads_attach`), what a sub-agent receives; Claude
//!      Code's own text modelled by measured lengths;
//!    - `discover::health`: the five reasons memory can look off, each folder's figures; its
//!      rule-glob scan over the project runs only in a turn that asks for nothing more
//!      ([`Tree::has_asks_pending`]).
//!
//!    The memory-folder name encoding (with the program's 32-bit hash) is in `encode`.
//! 5. **Footprint** (`footprint`): adds up what discovery marked as sent in every session.
//! 6. **Report** ([`report`]): the one serialisable boundary; every collection is ordered, so
//!    the same tree gives byte-identical JSON. [`compare`] (in `report::comparison`) marks
//!    what differs between two reports of one snapshot: rows, findings and figures, for the
//!    pinned release against a simulated one.
//! 7. **Share** ([`sanitize()`], [`share`]): a minimal snapshot of what the report listed, every
//!    word replaced by placeholders of the same UTF-8 and UTF-16 length and names replaced by rank
//!    counters (`sanitize/names.rs`), so that it analyses to the same report: the lengths Claude
//!    Code's own text quotes travel as figures ([`Tree::set_quoted`], read by discovery where it
//!    measures a quoted path or name), and so does the original's order of each folder whose
//!    counters sort otherwise ([`Tree::set_order`], which every listing of the tree follows), the
//!    targets of the reference paths a text writes as stand-ins of the original's length
//!    ([`Tree::set_stand_ins`], which discovery resolves through), a skills folder's recorded
//!    listing order ([`Tree::set_listing_order`]) and the environment
//!    values the analysis reads; packed into a versioned link fragment or a zip with a manifest.
//!    Opening one checks it against [`ShareLimits`] before anything is analysed (size, files,
//!    frontmatter nesting, braces, wildcards, glob work, that a carried order is one, that each
//!    stand-in is a reference its text holds), and
//!    [`share::check_shareable`] tells the sender the same first. What sharing keeps comes from
//!    discovery, not a second model of it: the files it read (or counted, matched, looked up)
//!    besides the rows' text, and why ([`report::SourceRead`] in `Report::sources`: settings
//!    layers, `~/.claude.json` with its key, the `.git` file or folder, rows never read, memory
//!    folders and the files counted in them, the project file that shows a rule can load, linked
//!    folders, agent memory folders, sub-agent definitions, the files whose day the growth chart
//!    read, mount roots; `sanitize::basis`, the tree cut down to the rows
//!    and those, analyses to the same report), the settings keys the parser reads
//!    (`text::settings::READ_KEYS`) and the frontmatter keys discovery reads
//!    (`discover::FRONTMATTER_KEYS`, [`sanitize::KEPT_FRONTMATTER_KEYS`]); unit tests check both
//!    lists against the code that reads. `sanitize/` is split by section: `plan` (what is kept,
//!    read off the report), `build` (the two passes; `build/text` a file's text, `build/references`
//!    its references and their stand-ins), `yaml` (the frontmatter
//!    rewriting, span by span, read back by `text::frontmatter`), `settings` (settings,
//!    `~/.claude.json`, `.git`), `names` (the counters; no shape-keeping fallback), `placeholders`,
//!    `compare` (`Sanitized::verify`).
//!
//! Around the pipeline: [`infer`] guesses home, project and OS from a dropped snapshot's names.
//! [`cleanup`] plans clean-ups from a report and its tree (dead index lines, orphaned topic files,
//! an over-cap index, deleting a file): each a list of whole-file changes with their unified diff,
//! its undo, and the same plan as a POSIX `sh` script; the page writes them, the core never does.
//! `fuzzing` (hidden) hands the private parsers to the fuzz targets in `fuzz/`.
//!
//! ## Where each rule is tested
//! Against the program: `fixtures/conformance/` (live, by `tests/conformance/run.mjs`) and
//! `tests/tests/conformance.rs` (the captures, offline). On tiny trees: the rule cases in
//! `fixtures/rules/` (`tests/tests/cases.rs`); rules that need the context, measurements or
//! reads in `tests/tests/discovery.rs`; the health findings and simulated releases in
//! `tests/tests/diagnose.rs`; sanitizing and sharing in `tests/tests/sanitize.rs` and
//! `tests/tests/share.rs`; hostile input (bombs, lying archives, deep nesting, huge files)
//! in `tests/tests/hostile.rs`, with time and memory bounds, and by the fuzz targets
//! (`scripts/fuzz.sh`); the demo's whole report is the reviewed snapshot
//! `fixtures/demo/expected.txt`; parsers carry their own unit tests, the warning texts
//! among them copied from the program's output.
//!
//! ## Invariants
//! `docs/ARCHITECTURE.md` states these with the workspace's others; `tests/tests/architecture.rs`
//! checks the ones the sources show.
//! - The core never depends on `web-sys`, `js-sys` or `std::fs`, and never reads a clock
//!   (the `memdiag` binary, a separate target, is the one place that touches the disk).
//! - The report's JSON Schema (`core/report.schema.json`, feature `schema`) is what the
//!   report types derive; `tests/tests/report_schema.rs` fails when it is stale.
//! - Host facts (home directory, OS, config directory, today) come in through [`Input`].
//! - Parsing never fails: bad input becomes a [`Diagnostic`] beside the results. `Err` is only
//!   for an analysis that cannot start (an invalid home path, a file that is not a zip).
//! - Only files the analysis names are read; `*.jsonl` transcripts never are.
//! - Only [`report`] types (and the share payload) are serialisable.
//! - Input cannot panic the core or make it quadratic: every parser bounds its nesting,
//!   collection size and expansion; every byte slice of input text falls on a character
//!   boundary; no `expect`/`unwrap` rests on what the input says; a finding quotes at most a
//!   short excerpt; a file not read, or unreadable, is a finding and is not counted.

pub mod cleanup;
pub mod date;
pub mod infer;
pub mod report;
pub mod tree;
pub mod vpath;

mod analyze;
mod answer;
mod archive;
mod discover;
mod encode;
mod footprint;
#[doc(hidden)]
pub mod fuzzing;
mod input;
pub mod limits;
pub mod sanitize;
pub mod share;
mod text;
mod version;

pub use analyze::{analyze, Analysis, AnalyzeError, Requests, Step, MAX_TURNS};
pub use answer::{analyze_with, drive, drive_at_once, Answerer, Synchronous};
pub use archive::{
    mount_zip, mount_zip_in_place, BatchStep, Fetch, ZipBatch, ZipError, ZipInPlace, ZipLimits,
    ZipSource, MAX_BATCH_GAP, MAX_BATCH_HELD, MAX_OPEN_FETCHES,
};
pub use discover::group_digits;
pub use discover::{memory_candidates, MemoryCandidate};
pub use encode::{decode_guess, encode_project_path};
pub use input::{Input, SessionKind};
pub use limits::is_bulk_data;
pub use report::comparison::{compare, Comparison};
pub use report::why::{why, Loads, Why};
pub use report::{Diagnostic, Report, Severity};
pub use sanitize::{sanitize, SanitizeOptions, Sanitized};
/// Claude Code's caps on a `MEMORY.md` index, for a page that draws them and for the
/// command's hooks, which measure one index without an analysis.
pub mod caps {
    pub use crate::discover::{CLAUDE_MD_MAX_BYTES, LARGE_FILE_CHARS};
    pub use crate::text::memory_index::{MAX_LINES, MAX_UTF16, REMINDER_LINES};

    /// What loads of a `MEMORY.md` (or an agent's) whose text is `raw`, under the rules of
    /// the pinned release: the same cut the analysis makes, for a caller that has read one
    /// index and wants its headroom (the command's `hook post-tool-use` and `statusline`).
    pub fn cut_index(raw: &str) -> crate::report::Truncation {
        let caps = crate::version::Rules::of(None)
            .expect("the pinned release's rules")
            .index_caps();
        crate::text::memory_index::cut_with(raw, caps).truncation
    }
}
pub use share::{
    decode_link, decode_link_with, encode_link, inspect_link, is_share_zip, open_share_zip,
    open_share_zip_with, to_zip, ShareError, ShareLimits, SharedSnapshot, LINK_KEY, MANIFEST_NAME,
    SHARE_FORMAT,
};
pub use tree::{
    ContentSource, Contents, Entry, FileEntry, Listed, ListingAsk, Probe, QuotedLength, Tree,
    ORDERED_FOLDER_NAME,
};
pub use version::{
    first_release, Behaviour, ClaudeVersion, RuleChange, Unreproduced, Unsimulated,
    FIRST_SIMULATED, NOT_REPRODUCED, PINNED, PUBLISHED_RELEASES, RULE_CHANGES, UNSIMULATED_BEFORE,
};
pub use vpath::{PathError, VPath};
