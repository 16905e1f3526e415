//! Claude Code releases: the ones published, the ones measured, and the behaviour changes
//! the measurements show.
//!
//! Every behaviour (declared once in `version/behaviours.rs`, from which [`Behaviour`] and
//! [`RULE_CHANGES`] come) was found by running the conformance cases on published
//! releases (`tests/conformance/releases.mjs`): its first release is the first one, in the
//! published list, whose captures show the new behaviour, and the release before it in that
//! list still shows the old one. The replay (`tests/tests/conformance.rs`) checks that the
//! captures of the cases a row names really differ across that boundary, and that the core's
//! report matches every recorded release's captures.
//!
//! Releases older than [`FIRST_SIMULATED`] are refused: they were measured to differ in ways
//! the core does not reproduce (see [`UNSIMULATED_BEFORE`]), and a guess would be a
//! confident wrong answer.

use std::fmt;

use crate::text::memory_index::WarningStyle;

mod behaviours;
mod fitted;

pub use behaviours::{Behaviour, RULE_CHANGES};
pub(crate) use fitted::{
    AGENT_LISTINGS, EMPTY_AGENT_INDEX, LISTING_BUDGETS, OWN_TEXT, SKILL_ANNOUNCEMENTS, SKILL_ORDERS,
};

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

    /// True when npm lists this release ([`PUBLISHED_RELEASES`]).
    pub fn is_published(self) -> bool {
        PUBLISHED_RELEASES.binary_search(&self).is_ok()
    }
}

impl fmt::Display for ClaudeVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.0, self.1, self.2)
    }
}

/// A release at which a behaviour the analysis reproduces changed, and the conformance
/// cases whose captures show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleChange {
    /// The first published release with the new behaviour.
    pub version: ClaudeVersion,
    /// The published release just before it, the last with the old behaviour.
    pub before: ClaudeVersion,
    /// The last release with the new behaviour, for one that stopped; `None` while it holds.
    pub last: Option<ClaudeVersion>,
    /// What changed.
    pub behaviour: Behaviour,
    /// What changed, for a person choosing a version.
    pub summary: &'static str,
    /// The conformance cases (`fixtures/conformance/<case>/`) whose captures on
    /// [`RuleChange::before`] and [`RuleChange::version`] differ by this change.
    pub cases: &'static [&'static str],
}

/// The first release the core simulates; older ones are refused.
pub const FIRST_SIMULATED: ClaudeVersion = ClaudeVersion(2, 1, 59);

/// The release the core reproduces when no release is simulated: the one the conformance
/// suite runs (pinned in `scripts/npm/package.json`; `tests/tests/comparison.rs` checks the
/// two agree).
pub const PINNED: ClaudeVersion = ClaudeVersion(2, 1, 337);

/// What releases before [`FIRST_SIMULATED`] were measured to do differently, for the
/// message that refuses them.
pub const UNSIMULATED_BEFORE: &str =
    "releases before 2.1.59 have no auto memory and were not measured";

/// A measured behaviour of older releases that the core does not reproduce: releases
/// `from..=to` send something else for the cases named. The report of such a release names
/// it ([`crate::report::RulesInForce::not_reproduced`]), and the replay checks that those
/// cases, and only those, still differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unreproduced {
    /// The first release affected.
    pub from: ClaudeVersion,
    /// The last release affected; the next published one behaves as the core does.
    pub to: ClaudeVersion,
    /// What those releases do, for a person.
    pub summary: &'static str,
    /// The conformance cases whose captures on those releases show it.
    pub cases: &'static [&'static str],
}

/// The measured differences the core does not reproduce, oldest first.
pub const NOT_REPRODUCED: &[Unreproduced] = &[
    Unreproduced {
        from: ClaudeVersion(2, 1, 59),
        to: ClaudeVersion(2, 1, 110),
        summary: "the listing of agent types gives the user's agents unsorted, in the order their \
                  files were found (the user's folder, then the project's folders, each in the \
                  order the file system gave, which a snapshot does not keep and which moved \
                  between runs); from 2.1.111 they are sorted by name, as the report lists them",
        cases: &[
            "agents-listing-line-forms-and-order",
            "agents-listing-sources-subfolders-and-shadowing",
        ],
    },
    Unreproduced {
        from: ClaudeVersion(2, 1, 69),
        to: ClaudeVersion(2, 1, 110),
        summary: "the listing of agent types gives the user's agents unsorted, in the order their \
                  files were found (the user's folder, then the project's folders, each in the \
                  order the file system gave, which a snapshot does not keep and which moved \
                  between runs); from 2.1.111 they are sorted by name, as the report lists them",
        cases: &["agents-listing-fifty-in-a-subfolder"],
    },
    Unreproduced {
        from: ClaudeVersion(2, 1, 111),
        to: ClaudeVersion(2, 1, 292),
        summary: "the listing of agent types sorts a name with non-ASCII letters among the ASCII \
                  ones, by the locale's collation (ångström right after ab); from 2.1.293, as \
                  the report lists them, after every ASCII name",
        cases: &["agents-listing-line-forms-and-order"],
    },
    Unreproduced {
        from: ClaudeVersion(2, 1, 172),
        to: ClaudeVersion(2, 1, 177),
        summary: "a sub-agent's own requests carry the listing of agent types too (its Agent \
                  tool's description: a sub-agent could start sub-agents), which the report \
                  counts in the main session only",
        cases: &["agents-listing-sources-subfolders-and-shadowing"],
    },
];

/// The first release with `behaviour` ([`Behaviour::first`]).
pub fn first_release(behaviour: Behaviour) -> ClaudeVersion {
    behaviour.first()
}

/// The published 2.x releases, as npm lists them (late 2026), oldest first: the page's
/// suggestions. A release missing here (2.1.82) was never published.
pub const PUBLISHED_RELEASES: &[ClaudeVersion] = &published::LIST;

mod published {
    use super::ClaudeVersion as V;
    include!("version/published.rs");
}

/// The text Claude Code puts around the user's files, by its measured length (UTF-16
/// units). It changes from release to release; each row holds from its release until the
/// next row's, measured at the recorded releases.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct OwnText {
    /// The first release these lengths were measured on.
    pub(crate) since: ClaudeVersion,
    /// The instruction block's header and wrapping (`<system-reminder>` or the `# claudeMd`
    /// entry of the context reminder).
    pub(crate) block_wrap: u64,
    /// The skills listing without the user's lines: its opening and the built-in skills'
    /// lines; 0 when a release lists no built-in skill (no listing without the user's).
    pub(crate) skills_listing: u64,
    /// The memory section of the system prompt, but for the folder path it names once.
    pub(crate) memory_section: u64,
}

/// When a Read announces the skills of a subfolder it reaches (`<folder>/.claude/skills/`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SkillAnnouncement {
    /// No Read announces them.
    Never,
    /// The Read that reaches the folder announces them.
    OnRead,
    /// The Read after the one that reached the folder announces them (a session whose last
    /// Read reached it never hears of them).
    OnNextRead,
}

/// The order the skills listing gives the skills of one folder in (the user's, the working
/// directory's, each parent's; the folders themselves always come in that order).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SkillOrder {
    /// By folder name.
    ByName,
    /// In the order the file system lists their folders, unsorted: a source records it
    /// where it knows it ([`crate::Tree::set_listing_order`]); elsewhere the core lists them
    /// by name and says that the order is not known.
    AsListed,
}

/// The listing of agent types every main-session request carries, without the user's lines,
/// from a release on: fitted to the `agents-listing-*` captures of every release they were
/// recorded on (`tests/conformance/agent-rows.py` prints the rows from the kept requests,
/// lengths only). Up to 2.1.177 the listing is part of the `Task`/`Agent` tool's
/// description (`Available agent types and the tools they have access to:`), from 2.1.178 a
/// system message of the first turn; the note on launching agents together comes and goes.
/// Each row holds from its release until the next; a release between two recorded ones
/// takes the older one's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct AgentListing {
    /// The first release these lengths were measured on.
    pub(crate) since: ClaudeVersion,
    /// Its UTF-16 units without the user's lines: `Available agent types for the Agent
    /// tool:`, the built-in agents' lines and, in the default permission mode, the note on
    /// launching agents together.
    pub(crate) units: u64,
    /// The built-in agents by name, each with the units its line takes (`- `, the line and
    /// the line break that joins it): a user's agent of the same name takes its place.
    pub(crate) built_ins: &'static [(&'static str, u64)],
}

/// One of Claude Code's built-in skills as the listing shows it, by length only: the
/// repository never copies Claude Code's text. Their lines are plain: a column per unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BuiltInSkill {
    /// The name's UTF-16 units.
    pub(crate) name_units: u64,
    /// The description's UTF-16 units before any cut.
    pub(crate) description_units: u64,
    /// Where its description breaks lines (units from its start): a line break takes no
    /// column.
    pub(crate) line_breaks: &'static [u64],
    /// Kept whole however full the listing is (Claude Code's bundled skills); the others
    /// compete with the user's for the budget.
    pub(crate) fixed: bool,
}

const fn built_in(name_units: u64, description_units: u64, fixed: bool) -> BuiltInSkill {
    BuiltInSkill {
        name_units,
        description_units,
        line_breaks: &[],
        fixed,
    }
}

impl BuiltInSkill {
    /// The units of its description the listing shows under a cut at `limit` units.
    pub(crate) fn shown_units(&self, limit: usize) -> u64 {
        self.description_units.min(limit as u64)
    }

    /// The columns of its description's first `units` units.
    pub(crate) fn columns(&self, units: u64) -> u64 {
        units - self.line_breaks.iter().filter(|at| **at < units).count() as u64
    }
}

/// How a release fits its skills listing into its budget, and what its own skills take
/// (measured against the program: `skills-listing-*`; the algorithm read in each era's
/// bundled code).
///
/// The budget is `SLASH_COMMAND_TOOL_CHAR_BUDGET` when set, else the context window × 4 ×
/// the fraction (`skillListingBudgetFraction` where read, else `fraction_percent` %). When
/// every line fits, all keep their descriptions. Otherwise the fixed lines (Claude Code's
/// bundled skills) keep theirs and the others compete: before 2.1.129 each competing
/// description is cut to ⌊(budget − the fixed lines − the competing names) / their count⌋,
/// or dropped when that is under 20 ([`Behaviour::ListingFillsInOrder`]); from 2.1.129 each
/// starts as its name alone and, in listing order, gets its description back while it
/// fits. Lengths are UTF-16 units before 2.1.88 and display columns after
/// ([`Behaviour::ListingCountsColumns`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ListingBudget {
    /// The first release these values were measured on; each row holds until the next.
    pub(crate) since: ClaudeVersion,
    /// The context window the budget is taken from, at 4 characters a token: the one the
    /// captures of that release measure (200,000 tokens until 2.1.128, 40,000 columns on
    /// 2.1.129–2.1.138, 30,000 from 2.1.139).
    pub(crate) context_tokens: u64,
    /// The budget's share of the context, in percent, when no setting says otherwise: 2
    /// before 2.1.86, then 1.
    pub(crate) fraction_percent: u64,
    /// The built-in skills in listing order, by length.
    pub(crate) built_ins: &'static [BuiltInSkill],
}

impl ListingBudget {
    /// The budget when neither the environment nor a setting sets it.
    pub(crate) fn default_budget(&self) -> u64 {
        self.budget(self.fraction_percent as f64 / 100.0)
    }

    /// The budget at `fraction` of the context (the program's `window × 4 × fraction`).
    pub(crate) fn budget(&self, fraction: f64) -> u64 {
        ((self.context_tokens as f64 * 4.0 * fraction).floor() as u64).max(1)
    }
}

/// The loading rules of one release.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Rules {
    /// The simulated release; `None` for current.
    pub(crate) release: Option<ClaudeVersion>,
    /// Hops an import chain loads: 4 in every release measured.
    pub(crate) max_import_hops: u32,
    /// Claude Code's own text around the user's.
    pub(crate) own_text: OwnText,
    /// The length of the sentence a sub-agent gets for an empty memory folder.
    pub(crate) empty_agent_index: u64,
    /// Claude Code's own text in the listing of agent types.
    pub(crate) agent_listing: AgentListing,
    /// When a Read announces a subfolder's skills.
    pub(crate) skill_announcement: SkillAnnouncement,
    /// How the skills listing fits its budget, and the built-in skills it lists.
    pub(crate) listing_budget: ListingBudget,
    /// The order the listing gives each folder's skills in.
    pub(crate) skill_order: SkillOrder,
}

/// Why a release cannot be simulated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsimulated {
    /// The release asked for.
    pub release: ClaudeVersion,
}

impl fmt::Display for Unsimulated {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Claude Code {} is older than the first release simulated ({FIRST_SIMULATED}): \
             {UNSIMULATED_BEFORE}",
            self.release
        )
    }
}

impl Rules {
    /// The rules `version` applies; the pinned release's ([`PINNED`]) for `None`.
    ///
    /// # Errors
    /// A release older than [`FIRST_SIMULATED`].
    pub(crate) fn of(version: Option<ClaudeVersion>) -> Result<Rules, Unsimulated> {
        match version {
            Some(release) if release < FIRST_SIMULATED => Err(Unsimulated { release }),
            _ => Ok(Rules::at(version)),
        }
    }

    fn at(version: Option<ClaudeVersion>) -> Rules {
        // No release asked for is the pinned one: a row of a newer recorded release (a
        // change the pin does not have yet) must not apply to it.
        let at = version.unwrap_or(PINNED);
        let own_text = OWN_TEXT
            .iter()
            .rev()
            .find(|row| at >= row.since)
            .copied()
            .unwrap_or(OWN_TEXT[0]);
        let empty_agent_index = EMPTY_AGENT_INDEX
            .iter()
            .rev()
            .find(|(since, _)| at >= *since)
            .map_or(EMPTY_AGENT_INDEX[0].1, |(_, units)| *units);
        Rules {
            release: version,
            max_import_hops: 4,
            own_text,
            empty_agent_index,
            agent_listing: AGENT_LISTINGS
                .iter()
                .rev()
                .find(|row| at >= row.since)
                .copied()
                .unwrap_or(AGENT_LISTINGS[0]),
            skill_announcement: SKILL_ANNOUNCEMENTS
                .iter()
                .rev()
                .find(|(since, _)| at >= *since)
                .map_or(SkillAnnouncement::Never, |(_, when)| *when),
            listing_budget: LISTING_BUDGETS
                .iter()
                .rev()
                .find(|row| at >= row.since)
                .copied()
                .unwrap_or(LISTING_BUDGETS[0]),
            skill_order: SKILL_ORDERS
                .iter()
                .rev()
                .find(|(since, _)| at >= *since)
                .map_or(SkillOrder::ByName, |(_, order)| *order),
        }
    }

    /// How `MEMORY.md` (and an agent's) is cut and cleaned under these rules. Every release
    /// simulated measures the index after stripping (2.1.59 on).
    pub(crate) fn index_caps(&self) -> crate::text::memory_index::Caps {
        crate::text::memory_index::Caps {
            size_cap: self.has(Behaviour::MemorySizeCap),
            strip_first: true,
            strip_comments: self.has(Behaviour::CommentsStripped),
            warning: self.warning_style(),
            drop_controls: self.has(Behaviour::MemoryIndexCleaned),
        }
    }

    /// Whether `behaviour` applies under these rules: from its first release, and up to its
    /// last when it stopped.
    pub(crate) fn has(&self, behaviour: Behaviour) -> bool {
        let at = self.release.unwrap_or(PINNED);
        at >= behaviour.first() && behaviour.last().is_none_or(|last| at <= last)
    }

    /// The words of the warning appended to a cut `MEMORY.md`.
    pub(crate) fn warning_style(&self) -> WarningStyle {
        if self.has(Behaviour::WarningDetailed) {
            WarningStyle::Detailed
        } else if self.has(Behaviour::WarningPartLoaded) {
            WarningStyle::PartLoaded
        } else {
            WarningStyle::FirstLines
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
    fn each_change_switches_at_its_release_and_its_neighbour_is_published() {
        for change in RULE_CHANGES {
            assert!(change.version.is_published(), "{}", change.version);
            assert!(change.before.is_published(), "{}", change.before);
            let at = PUBLISHED_RELEASES
                .iter()
                .position(|v| *v == change.version)
                .unwrap_or(0);
            assert_eq!(PUBLISHED_RELEASES[at - 1], change.before, "{change:?}");
            let old = Rules::at(Some(change.before));
            let new = Rules::at(Some(change.version));
            assert!(!old.has(change.behaviour) && new.has(change.behaviour));
            assert!(!change.cases.is_empty());
        }
        let at = |v: (u32, u32, u32)| Rules::at(Some(ClaudeVersion(v.0, v.1, v.2)));
        assert_eq!(at((2, 1, 81)).warning_style(), WarningStyle::FirstLines);
        assert_eq!(at((2, 1, 83)).warning_style(), WarningStyle::PartLoaded);
        assert_eq!(at((2, 1, 210)).warning_style(), WarningStyle::PartLoaded);
        assert_eq!(at((2, 1, 268)).warning_style(), WarningStyle::Detailed);
        assert!(
            !at((2, 1, 81)).has(Behaviour::MemorySizeCap)
                && at((2, 1, 83)).has(Behaviour::MemorySizeCap)
        );
        // Every release measured loads four hops of imports.
        assert_eq!(at((2, 1, 59)).max_import_hops, 4);
    }

    #[test]
    fn older_releases_are_refused() {
        let refused = Rules::of(Some(ClaudeVersion(2, 1, 58))).unwrap_err();
        assert!(refused
            .to_string()
            .contains("older than the first release simulated (2.1.59)"));
        assert!(Rules::of(Some(FIRST_SIMULATED)).is_ok());
        assert!(Rules::of(None).is_ok());
    }

    #[test]
    fn the_published_list_is_sorted_and_holds_the_pin() {
        assert!(PUBLISHED_RELEASES.windows(2).all(|w| w[0] < w[1]));
        assert!(PINNED.is_published());
        assert!(ClaudeVersion(2, 1, 328).is_published());
        assert!(!ClaudeVersion(2, 1, 82).is_published());
    }

    #[test]
    fn own_text_rows_are_in_order() {
        assert!(OWN_TEXT.windows(2).all(|w| w[0].since < w[1].since));
        assert_eq!(OWN_TEXT[0].since, FIRST_SIMULATED);
        assert!(EMPTY_AGENT_INDEX.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(LISTING_BUDGETS.windows(2).all(|w| w[0].since < w[1].since));
        assert_eq!(LISTING_BUDGETS[0].since, FIRST_SIMULATED);
        assert_eq!(Rules::at(None).listing_budget.since, PINNED);
        assert_eq!(EMPTY_AGENT_INDEX[0].0, FIRST_SIMULATED);
        assert!(SKILL_ORDERS.windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!(SKILL_ORDERS[0].0, FIRST_SIMULATED);
        assert_eq!(Rules::at(None).skill_order, SkillOrder::ByName);
        assert!(AGENT_LISTINGS.windows(2).all(|w| w[0].since < w[1].since));
        assert_eq!(AGENT_LISTINGS[0].since, FIRST_SIMULATED);
    }

    #[test]
    fn each_fitted_row_changes_something() {
        // What the fit writes (`version/fitted.rs`): a row only where a figure changes, so a
        // row equal to the one before it is a row the fit would not write.
        let same = |what: &str, at: ClaudeVersion| panic!("{what} {at} repeats the row before");
        for w in OWN_TEXT.windows(2) {
            let moved = OwnText {
                since: w[0].since,
                ..w[1]
            };
            if moved == w[0] {
                same("OWN_TEXT", w[1].since);
            }
        }
        for w in LISTING_BUDGETS.windows(2) {
            let moved = ListingBudget {
                since: w[0].since,
                ..w[1]
            };
            if moved == w[0] {
                same("LISTING_BUDGETS", w[1].since);
            }
        }
        for w in AGENT_LISTINGS.windows(2) {
            let moved = AgentListing {
                since: w[0].since,
                ..w[1]
            };
            if moved == w[0] {
                same("AGENT_LISTINGS", w[1].since);
            }
        }
        for w in EMPTY_AGENT_INDEX.windows(2) {
            if w[0].1 == w[1].1 {
                same("EMPTY_AGENT_INDEX", w[1].0);
            }
        }
        for w in SKILL_ORDERS.windows(2) {
            if w[0].1 == w[1].1 {
                same("SKILL_ORDERS", w[1].0);
            }
        }
        for w in SKILL_ANNOUNCEMENTS.windows(2) {
            if w[0].1 == w[1].1 {
                same("SKILL_ANNOUNCEMENTS", w[1].0);
            }
        }
    }

    #[test]
    fn no_release_is_the_pinned_one_even_with_newer_rows() {
        // Rows of a release recorded after the pin (2.1.337's, while the pin was 2.1.328)
        // must not reach the pin's rules: no release asked for is the pinned one.
        let (none, pinned) = (Rules::at(None), Rules::at(Some(PINNED)));
        assert_eq!(none.own_text, pinned.own_text);
        assert_eq!(none.listing_budget.since, pinned.listing_budget.since);
        assert_eq!(none.agent_listing, pinned.agent_listing);
        assert_eq!(
            none.has(Behaviour::MemoryIndexQuoted),
            pinned.has(Behaviour::MemoryIndexQuoted)
        );
        for change in RULE_CHANGES {
            assert_eq!(
                none.has(change.behaviour),
                change.version <= PINNED,
                "{change:?}"
            );
        }
        assert!(Rules::at(Some(ClaudeVersion(2, 1, 337))).has(Behaviour::MemoryIndexQuoted));
        // The pin before it still replays under its own rules.
        assert!(!Rules::at(Some(ClaudeVersion(2, 1, 328))).has(Behaviour::MemoryIndexQuoted));
    }
}
