//! Claude Code releases whose loading rules differ, and the rules each one applies.
//!
//! The rules changed one issue at a time (the changelog in the seed document): the 25KB cap
//! arrived in 2.1.83, list-form rule `paths` in 2.1.84, measuring without frontmatter and
//! comments in 2.1.211. Simulating a release lets a person pinned to it see what it does.

use std::fmt;

use crate::text::memory_index::WarningStyle;

/// A Claude Code release number, `major.minor.patch`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ClaudeVersion(pub u32, pub u32, pub u32);

impl ClaudeVersion {
    /// Parses `2.1.80` (a leading `v` is allowed).
    ///
    /// # Errors
    /// Anything that is not three dot-separated numbers, with a message for a person.
    pub fn parse(text: &str) -> Result<ClaudeVersion, String> {
        let trimmed = text.trim().trim_start_matches('v');
        let parts: Vec<&str> = trimmed.split('.').collect();
        let numbers: Option<Vec<u32>> = parts.iter().map(|p| p.parse().ok()).collect();
        match numbers.as_deref() {
            Some([major, minor, patch]) => Ok(ClaudeVersion(*major, *minor, *patch)),
            _ => Err(format!("{text:?} is not a Claude Code version like 2.1.80")),
        }
    }
}

impl fmt::Display for ClaudeVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.0, self.1, self.2)
    }
}

/// A release at which a rule the analysis reproduces changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleChange {
    /// The first release with the new behaviour.
    pub version: ClaudeVersion,
    /// What changed, for a person choosing a version.
    pub summary: &'static str,
}

/// The rule changes the simulation knows, oldest first: the page offers these as choices.
pub const RULE_CHANGES: [RuleChange; 6] = [
    RuleChange {
        version: ClaudeVersion(2, 1, 59),
        summary: "auto memory arrives; before it, no MEMORY.md loads",
    },
    RuleChange {
        version: ClaudeVersion(2, 1, 63),
        summary: "git worktrees share the main worktree's auto memory",
    },
    RuleChange {
        version: ClaudeVersion(2, 1, 83),
        summary: "MEMORY.md is cut at 25,000 UTF-16 units as well as 200 lines",
    },
    RuleChange {
        version: ClaudeVersion(2, 1, 84),
        summary: "rule paths may be a YAML list; before, a list was joined into one pattern",
    },
    RuleChange {
        version: ClaudeVersion(2, 1, 150),
        summary: "imports documented as four hops deep (about May 2026; five before)",
    },
    RuleChange {
        version: ClaudeVersion(2, 1, 211),
        summary: "MEMORY.md is measured without frontmatter and comments",
    },
];

/// The loading rules of one release.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Rules {
    /// Auto memory exists at all.
    pub(crate) auto_memory: bool,
    /// Linked worktrees use the main worktree's memory folder.
    pub(crate) worktrees_share_memory: bool,
    /// `MEMORY.md` is cut at 25,000 units too.
    pub(crate) memory_size_cap: bool,
    /// A YAML list in `paths` works; before, it was joined without separators.
    pub(crate) paths_list: bool,
    /// Hops an import chain loads.
    pub(crate) max_import_hops: u32,
    /// Frontmatter and block comments are stripped before the caps measure.
    pub(crate) strip_before_caps: bool,
    /// The words of the warning appended to a cut `MEMORY.md`.
    pub(crate) warning_style: WarningStyle,
}

impl Rules {
    /// The rules of current releases.
    pub(crate) const CURRENT: Rules = Rules {
        auto_memory: true,
        worktrees_share_memory: true,
        memory_size_cap: true,
        paths_list: true,
        max_import_hops: 4,
        strip_before_caps: true,
        warning_style: WarningStyle::Detailed,
    };

    /// The rules `version` applies; the current ones for `None`.
    pub(crate) fn of(version: Option<ClaudeVersion>) -> Rules {
        let Some(v) = version else {
            return Rules::CURRENT;
        };
        let since = |index: usize| v >= RULE_CHANGES[index].version;
        Rules {
            auto_memory: since(0),
            worktrees_share_memory: since(1),
            memory_size_cap: since(2),
            paths_list: since(3),
            max_import_hops: if since(4) { 4 } else { 5 },
            strip_before_caps: since(5),
            warning_style: if v >= ClaudeVersion(2, 1, 268) {
                WarningStyle::Detailed
            } else if v >= ClaudeVersion(2, 1, 210) {
                WarningStyle::PartLoaded
            } else {
                WarningStyle::FirstLines
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_release_numbers() {
        assert_eq!(ClaudeVersion::parse("2.1.80"), Ok(ClaudeVersion(2, 1, 80)));
        assert_eq!(
            ClaudeVersion::parse(" v2.1.263 "),
            Ok(ClaudeVersion(2, 1, 263))
        );
        assert!(ClaudeVersion::parse("2.1").is_err());
        assert!(ClaudeVersion::parse("latest").is_err());
        assert_eq!(ClaudeVersion(2, 1, 83).to_string(), "2.1.83");
    }

    #[test]
    fn each_change_switches_at_its_release() {
        let at = |v: (u32, u32, u32)| Rules::of(Some(ClaudeVersion(v.0, v.1, v.2)));
        assert_eq!(Rules::of(None), Rules::CURRENT);
        assert_eq!(at((2, 1, 328)), Rules::CURRENT);
        assert_eq!(at((2, 1, 209)).warning_style, WarningStyle::FirstLines);
        assert_eq!(at((2, 1, 210)).warning_style, WarningStyle::PartLoaded);
        assert_eq!(at((2, 1, 267)).warning_style, WarningStyle::PartLoaded);
        assert_eq!(at((2, 1, 268)).warning_style, WarningStyle::Detailed);
        assert!(!at((2, 1, 58)).auto_memory && at((2, 1, 59)).auto_memory);
        assert!(!at((2, 1, 62)).worktrees_share_memory && at((2, 1, 63)).worktrees_share_memory);
        assert!(!at((2, 1, 82)).memory_size_cap && at((2, 1, 83)).memory_size_cap);
        assert!(!at((2, 1, 83)).paths_list && at((2, 1, 84)).paths_list);
        assert_eq!(
            (
                at((2, 1, 149)).max_import_hops,
                at((2, 1, 150)).max_import_hops
            ),
            (5, 4)
        );
        assert!(!at((2, 1, 210)).strip_before_caps && at((2, 1, 211)).strip_before_caps);
    }
}
