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
//!    for a zip archive (central directory first, entries inflated on request). Paths are
//!    [`VPath`]s, made by one normalising constructor.
//! 2. **Analysis loop** ([`analyze()`](analyze())): [`analyze`] returns either the contents it
//!    still needs ([`Step::NeedsContents`]) or the finished [`Report`]. The caller reads the
//!    requested files, hands them over with [`Tree::set_contents`] and calls again.
//!    [`analyze_with`] runs the loop for a synchronous [`ContentSource`]. Session transcripts
//!    and other bulk data are never requested.
//! 3. **Parsing** (`text`): pure text-to-value functions with no knowledge of the tree:
//!    frontmatter, `@` imports and Markdown links, loaded-content stripping and measurement,
//!    the `MEMORY.md` caps, settings, globs.
//! 4. **Discovery** (`discover`): walks the tree in Claude Code's order (managed policy, user,
//!    user rules, project and parents, nested, project rules, skills, auto memory, agent
//!    memory, references) and decides each file's group, load type, scope and status.
//!    The memory folder lookup and the path encoding live in `encode`.
//! 5. **Footprint** (`footprint`): adds up what loads in every session.
//! 6. **Report** ([`report`]): the one serialisable boundary; every collection is ordered, so
//!    the same tree gives byte-identical JSON.
//!
//! ## Invariants
//! - The core never depends on `web-sys`, `js-sys` or `std::fs`, and never reads a clock.
//! - Host facts (home directory, OS, config directory) come in through [`Input`].
//! - Parsing never fails: bad input becomes a [`Diagnostic`] beside the results. `Err` is only
//!   for an analysis that cannot start (an invalid home path, a file that is not a zip).
//! - Only files the analysis names are read; `*.jsonl` transcripts never are.

pub mod infer;
pub mod report;
pub mod tree;
pub mod vpath;

mod analyze;
mod archive;
mod date;
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
pub use tree::{ContentSource, Contents, Entry, FileEntry, Tree};
pub use version::{ClaudeVersion, RuleChange, RULE_CHANGES};
pub use vpath::{PathError, VPath};
