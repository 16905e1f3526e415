//! YAML frontmatter: the block between a first line `---` and the next `---` line.

/// A parsed frontmatter block.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Frontmatter {
    /// Top-level keys in file order, each with its value. Empty when the YAML did not parse.
    pub(crate) fields: Vec<(String, serde_yaml::Value)>,
    /// Byte offset in the text where the body starts: just after the closing `---` line and
    /// its line break.
    pub(crate) body_offset: usize,
    /// How many raw lines the block occupies, both `---` lines included.
    pub(crate) line_count: usize,
    /// The YAML error, when the block is not a valid YAML mapping (an empty block is valid).
    pub(crate) error: Option<String>,
}

/// Finds and parses the frontmatter block; `None` when the text has none (no `---` first
/// line, or no closing `---` line). `\r\n` line ends are accepted.
pub(crate) fn parse(text: &str) -> Option<Frontmatter> {
    todo!()
}

impl Frontmatter {
    /// A string field (a YAML string, number or bool rendered as text); `None` when absent
    /// or null.
    pub(crate) fn string(&self, key: &str) -> Option<String> {
        todo!()
    }

    /// A boolean field: YAML `true`/`false`, or the strings "true"/"false".
    pub(crate) fn boolean(&self, key: &str) -> Option<bool> {
        todo!()
    }

    /// The raw value of a field.
    pub(crate) fn value(&self, key: &str) -> Option<&serde_yaml::Value> {
        todo!()
    }

    /// Every field as display text, values rendered on one line (a list as `a, b`).
    pub(crate) fn display_fields(&self) -> Vec<(String, String)> {
        todo!()
    }
}

/// A rule's `paths` field as globs: a YAML list of strings, or one string split on commas
/// that are not inside `{…}` braces; entries trimmed, empty ones dropped.
pub(crate) fn parse_paths(value: &serde_yaml::Value) -> Vec<String> {
    todo!()
}
