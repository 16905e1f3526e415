//! Glob patterns for rule `paths` and `claudeMdExcludes`, without a regex engine.

/// A compiled glob: `*` (any run within a segment), `**` (any number of segments), `?`,
/// `[abc]`, `[a-z]`, `[!x]`, and `{a,b}` brace alternatives (nesting allowed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Glob {
    pattern: String,
}

impl Glob {
    /// Compiles `pattern`.
    ///
    /// # Errors
    /// An unclosed `[` or `{`, or an empty pattern, with a message for a person.
    pub(crate) fn new(pattern: &str) -> Result<Glob, String> {
        todo!()
    }

    /// True when the whole of `path` matches (segments split on `/`).
    pub(crate) fn matches(&self, path: &str) -> bool {
        todo!()
    }

    /// Gitignore-style match of a path relative to a base folder: a pattern without a `/`
    /// (other than a trailing one) matches the file name at any depth; a leading `/` anchors.
    pub(crate) fn matches_relative(&self, relative: &str) -> bool {
        todo!()
    }
}
