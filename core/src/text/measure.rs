//! Measuring text, and the content Claude Code actually injects.

use crate::report::Measure;

/// Bytes, chars, UTF-16 units and lines (as `str::lines` counts them) of `text`.
pub(crate) fn measure(text: &str) -> Measure {
    todo!()
}

/// The loaded content of a file and where each of its lines came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Stripped {
    /// The text with frontmatter and block-level HTML comments removed.
    pub(crate) text: String,
    /// For each line of `text` (split on `\n`), the 1-based line number in the raw text
    /// where that line starts. Always at least one entry.
    pub(crate) raw_line_of: Vec<u64>,
}

/// Removes what Claude Code removes before injecting a file:
/// - the YAML frontmatter, from the first line `---` through the closing `---` line and its
///   line break (only when both lines exist);
/// - block-level HTML comments: a `<!--` that starts a line (after at most three spaces),
///   outside fenced code, removed through the next `-->`, and through the end of that line
///   with its line break when only white space follows `-->`. An unclosed `<!--` stays.
///
/// Nothing else changes: no trimming, line ends kept as they are.
pub(crate) fn strip_for_loading(text: &str) -> Stripped {
    todo!()
}
