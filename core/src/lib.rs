//! # memdiag-core
//!
//! Reproduces, over a virtual file tree, which memory and instruction files Claude Code
//! loads, how each one loads, what a `MEMORY.md` loses to its caps, and what the standing
//! context cost is. The crate does no I/O: it never touches `std::fs`, a clock or the
//! network, and compiles for `wasm32-unknown-unknown`. The browser page, the `scan` example
//! and every test drive the same code.
//!
//! ## The pipeline
//! 1. **Tree** ([`tree`], [`vpath`]): a source lists files with their sizes into a [`Tree`]:
//!    [`Tree::from_entries`] for files the caller lists (the browser, tests), [`mount_zip`]
//!    (in `archive`) for a zip archive: central directory first, entries inflated on request
//!    under size, ratio and count caps. Paths are [`VPath`]s, made by one normalising
//!    constructor that rejects escapes.
//! 2. **Analysis loop** ([`analyze()`](analyze())): [`analyze`] returns either the contents it
//!    still needs ([`Step::NeedsContents`]) or the finished [`Report`]. The caller reads the
//!    requested files, hands them over with [`Tree::set_contents`] and calls again.
//!    [`analyze_with`] runs the loop for a synchronous [`ContentSource`]. Session transcripts
//!    and other bulk data are never requested. The [`Input`] names home, project, config
//!    directory and OS, and optionally a Claude Code release to simulate (`version`, whose
//!    rules live in `version`) and today's date for the growth projection.
//! 3. **Parsing** (`text`): pure text-to-value functions with no knowledge of the tree:
//!    `text::frontmatter`, `text::references` (`@` imports and Markdown links),
//!    `text::measure` (what Claude Code strips before injecting, and the four sizes),
//!    `text::memory_index` (the 200-line and 25,000-unit caps and Claude Code's warning
//!    texts), `text::settings`, `text::glob`.
//! 4. **Discovery** (`discover`): walks the tree in Claude Code's order (managed policy, user,
//!    user rules, project and parents, nested, project rules, skills, auto memory, agent
//!    memory, then every import and link) and decides each file's group, load type, scope
//!    and status. The memory-folder name encoding and its lookups are in `encode`.
//! 5. **Health** (`discover::health`): the five reasons auto memory can look off (a different
//!    folder, nothing saved, switched off, a sub-agent, truncation) and each memory folder's
//!    figures, with diagnostics as their evidence.
//! 6. **Footprint** (`footprint`): marks what loads in every session and adds it up.
//! 7. **Report** ([`report`]): the one serialisable boundary; every collection is ordered, so
//!    the same tree gives byte-identical JSON.
//! 8. **Share** ([`sanitize`], [`share`]): a minimal snapshot of what the report listed, every
//!    word replaced by placeholders of the same UTF-8 and UTF-16 length and names
//!    pseudonymised consistently, so that it analyses to the same report; packed into a
//!    versioned link fragment or a zip with a manifest.
//!
//! Around the pipeline: [`infer`] guesses home, project and OS from a dropped snapshot's
//! names.
//!
//! ## Where each rule is tested
//! Rules that rows show are case files in `fixtures/rules/` (`tests/tests/cases.rs`); rules
//! that need the context, measurements or reads are in `tests/tests/discovery.rs`; the
//! health findings and simulated releases in `tests/tests/diagnose.rs`; sanitizing and
//! sharing in `tests/tests/sanitize.rs` and `tests/tests/share.rs`; the demo's whole
//! report is the reviewed snapshot `fixtures/demo/expected.txt`; parsers carry their own unit
//! tests.
//!
//! ## Invariants
//! - The core never depends on `web-sys`, `js-sys` or `std::fs`, and never reads a clock.
//! - Host facts (home directory, OS, config directory, today) come in through [`Input`].
//! - Parsing never fails: bad input becomes a [`Diagnostic`] beside the results. `Err` is only
//!   for an analysis that cannot start (an invalid home path, a file that is not a zip).
//! - Only files the analysis names are read; `*.jsonl` transcripts never are.
//! - Only [`report`] types (and the share payload) are serialisable.

pub mod date;
pub mod infer;
pub mod report;
pub mod tree;
pub mod vpath;

mod analyze;
mod archive;
mod discover;
mod encode;
mod footprint;
pub mod sanitize;
pub mod share;
mod text;
mod version;

pub use analyze::{analyze, analyze_with, AnalyzeError, Input, Step};
pub use archive::{mount_zip, ZipError, ZipLimits, ZipSource};
pub use encode::{decode_guess, encode_project_path};
pub use report::{Diagnostic, Report, Severity};
pub use sanitize::{sanitize, SanitizeOptions, Sanitized};
/// Claude Code's caps on a `MEMORY.md` index, for a page that draws them.
pub mod caps {
    pub use crate::text::memory_index::{MAX_LINES, MAX_UTF16, REMINDER_LINES};
}
pub use share::{
    decode_link, decode_link_with, encode_link, inspect_link, is_share_zip, open_share_zip,
    open_share_zip_with, to_zip, ShareError, ShareLimits, SharedSnapshot, LINK_KEY, MANIFEST_NAME,
    SHARE_FORMAT,
};
pub use tree::{is_bulk_data, ContentSource, Contents, Entry, FileEntry, Tree};
pub use version::{ClaudeVersion, RuleChange, RULE_CHANGES};
pub use vpath::{PathError, VPath};
