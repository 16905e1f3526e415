//! `@` imports and Markdown links in a file's text.

use crate::report::ReferenceKind;

/// A reference as written in a file, before it is resolved against the tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RawReference {
    /// Import or link.
    pub(crate) kind: ReferenceKind,
    /// The path as written, without the `@`, without a `#fragment`, with `\ ` unescaped.
    pub(crate) target: String,
    /// The 1-based line in the text.
    pub(crate) line: u64,
    /// True when the import's path ends in punctuation that Claude Code keeps as part of the
    /// path (`:` `,` `;` `.` `)` `!` `?`), so that `@a.md,` fails to resolve.
    pub(crate) trailing_punctuation: bool,
}

/// Every import and link in `text`, in order of appearance.
///
/// An import is `@` at the start of a line or after white space, then a path up to the next
/// white space (`\ ` escapes a space), whose last segment has a file extension (`@docs/a.md`,
/// `@./x.md`, `@../y.txt`, `@~/notes.md`, `@name.md`; not `@biomejs/biome`, not `@name`).
/// A link is `[text](target)` whose target is not `http:`, `https:`, `mailto:` (any scheme
/// `x:` with two or more letters) and not a bare `#anchor`; a `<…>`-wrapped target and a
/// `"title"` after the target are handled as Markdown does. The frontmatter block, fenced
/// code blocks (``` and ~~~) and inline code spans are never scanned.
pub(crate) fn scan(text: &str) -> Vec<RawReference> {
    todo!()
}
