//! The `MEMORY.md` caps: 200 lines, then 25,000 UTF-16 units.

use crate::report::{CutBy, Truncation};

/// Lines of a memory index that load.
pub(crate) const MAX_LINES: u64 = 200;
/// UTF-16 code units of a memory index that load (a JavaScript string length, not bytes).
pub(crate) const MAX_UTF16: u64 = 25_000;

/// What loads of a memory index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct IndexCut {
    /// The figures for the report.
    pub(crate) truncation: Truncation,
    /// The text that loads.
    pub(crate) loaded: String,
}

/// Applies Claude Code's caps exactly as 2.1.2xx does: strip frontmatter and block-level
/// HTML comments ([`super::measure::strip_for_loading`]), trim white space at both ends
/// (as JavaScript's `trim`), split on `\n`, keep the first 200 lines, then, if the kept text
/// is longer than 25,000 UTF-16 units, cut at the last `\n` at or before unit 25,000 (at unit
/// 25,000, on a char boundary, when there is no such `\n`). `cut_by` is `size` when the size
/// cap cut (whether or not the line cap did too), `lines` when only the line cap did.
/// `first_dropped_line` maps the first dropped line back to the raw text.
pub(crate) fn cut(raw: &str) -> IndexCut {
    todo!()
}

/// Claude Code's load-time warning for a cut index, in its own words, e.g.
/// `WARNING: MEMORY.md is 210 lines (limit: 200). Only part of it was loaded.` or
/// `WARNING: MEMORY.md is 26KB (limit: 24.4KB) — index entries are too long. Only part of it
/// was loaded. Keep index entries to one line under ~150 chars; move detail into topics.`
/// (KB = units / 1024 with one decimal, a trailing `.0` dropped). `None` when nothing was cut.
pub(crate) fn truncated_warning(truncation: &Truncation) -> Option<String> {
    todo!()
}

/// Claude Code's reminder when either dimension reaches 80 % of its cap (160 lines or
/// 20,000 units) and nothing is cut yet, e.g. `The memory index at MEMORY.md is 161 lines,
/// approaching the 200-line read limit. Compact it to under 140 lines now: keep one line per
/// entry, move detail into topic files, and merge or drop stale entries.` (the size variant
/// names KB and asks for under 17.1KB, 70 % of the cap). `None` below 80 %.
pub(crate) fn near_limit_warning(truncation: &Truncation) -> Option<String> {
    todo!()
}

#[allow(dead_code)]
fn _uses(_: CutBy) {}
