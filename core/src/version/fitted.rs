//! The per-release tables fitted to the recorded captures: Claude Code's own text and the
//! figures that vary from release to release rather than switching once (a behaviour that
//! switches once is an entry of `behaviours.rs`). Each table is oldest first, each row
//! holding from its release until the next row's; a release between two recorded ones takes
//! the older one's. The types are in `version.rs`; this file holds only their rows.
//!
//! Where each comes from, and why it is written down rather than computed when the crate
//! builds. The captures in the repository (`fixtures/conformance/*/capture.json`,
//! `releases/*.json`) keep what the user's files made a release send and the totals of
//! Claude Code's own text, never that text itself, so a table is fitted outside the build:
//! - [`OWN_TEXT`]: what a release sends around the user's text is the captured total minus
//!   the user's part, which only the core computes. `tests/conformance/fit-tables.py own`
//!   writes the rows from the replay's differences (`MEMDIAG_FIT=1`,
//!   `fixtures/conformance/README.md`, "Fitting"; `--write` rewrites this table in place).
//!   The fit keeps a row where a capture's figure agrees and writes one only where a figure
//!   changes, so the table is what it would write exactly when the replay
//!   (`every_recorded_release_replays_against_the_core`) passes and no row repeats the one
//!   before (`version::tests::each_fitted_row_changes_something`); the test command runs the
//!   fit itself on every run and fails when this table is not what it writes
//!   (`the_fitted_own_text_is_what_the_fit_writes`).
//! - [`LISTING_BUDGETS`] and [`AGENT_LISTINGS`]: each built-in skill's and agent's length
//!   is read from the full requests (`listing-rows.py`, `agent-rows.py` over
//!   `releases.mjs record`'s kept requests, which hold Claude Code's text and are not
//!   committed); the captures hold only their sum, which the replay checks.
//! - [`EMPTY_AGENT_INDEX`], [`SKILL_ORDERS`] and [`SKILL_ANNOUNCEMENTS`]: bisected by hand
//!   on the cases their docs name, each step a pair of recorded releases.

use super::{
    built_in, named, AgentListing, BuiltInSkill, ClaudeVersion, ListingBudget, OwnText,
    SkillAnnouncement, SkillOrder,
};

/// Claude Code's own text, by release, oldest first.
pub(crate) const OWN_TEXT: &[OwnText] = &[
    OwnText {
        since: ClaudeVersion(2, 1, 59),
        block_wrap: 193,
        skills_listing: 0,
        memory_section: 1_682,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 63),
        block_wrap: 193,
        skills_listing: 159,
        memory_section: 1_682,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 69),
        block_wrap: 193,
        skills_listing: 467,
        memory_section: 1_944,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 72),
        block_wrap: 193,
        skills_listing: 782,
        memory_section: 1_944,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 74),
        block_wrap: 193,
        skills_listing: 782,
        memory_section: 2_064,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 77),
        block_wrap: 193,
        skills_listing: 1_478,
        memory_section: 2_064,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 83),
        block_wrap: 193,
        skills_listing: 1_478,
        memory_section: 12_499,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 86),
        block_wrap: 193,
        skills_listing: 951,
        memory_section: 12_499,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 94),
        block_wrap: 193,
        skills_listing: 951,
        memory_section: 12_463,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 101),
        block_wrap: 193,
        skills_listing: 1_200,
        memory_section: 12_463,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 105),
        block_wrap: 193,
        skills_listing: 2_313,
        memory_section: 12_463,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 108),
        block_wrap: 193,
        skills_listing: 2_438,
        memory_section: 12_463,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 110),
        block_wrap: 193,
        skills_listing: 2_239,
        memory_section: 12_463,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 111),
        block_wrap: 193,
        skills_listing: 2_560,
        memory_section: 12_463,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 113),
        block_wrap: 193,
        skills_listing: 2_561,
        memory_section: 12_463,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 118),
        block_wrap: 193,
        skills_listing: 2_573,
        memory_section: 12_463,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 139),
        block_wrap: 193,
        skills_listing: 2_573,
        memory_section: 12_765,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 145),
        block_wrap: 193,
        skills_listing: 3_203,
        memory_section: 12_765,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 146),
        block_wrap: 193,
        skills_listing: 3_206,
        memory_section: 12_765,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 147),
        block_wrap: 193,
        skills_listing: 3_356,
        memory_section: 12_765,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 152),
        block_wrap: 193,
        skills_listing: 3_562,
        memory_section: 12_765,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 154),
        block_wrap: 193,
        skills_listing: 4_147,
        memory_section: 2_025,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 163),
        block_wrap: 193,
        skills_listing: 4_464,
        memory_section: 2_025,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 170),
        block_wrap: 193,
        skills_listing: 4_471,
        memory_section: 2_025,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 186),
        block_wrap: 193,
        skills_listing: 4_518,
        memory_section: 2_025,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 198),
        block_wrap: 193,
        skills_listing: 5_803,
        memory_section: 2_025,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 200),
        block_wrap: 193,
        skills_listing: 5_867,
        memory_section: 2_025,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 216),
        block_wrap: 193,
        skills_listing: 5_042,
        memory_section: 2_025,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 218),
        block_wrap: 193,
        skills_listing: 4_554,
        memory_section: 2_025,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 224),
        block_wrap: 193,
        skills_listing: 4_475,
        memory_section: 2_025,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 227),
        block_wrap: 193,
        skills_listing: 4_475,
        memory_section: 2_018,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 246),
        block_wrap: 193,
        skills_listing: 4_930,
        memory_section: 2_018,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 252),
        block_wrap: 193,
        skills_listing: 5_514,
        memory_section: 2_018,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 268),
        block_wrap: 230,
        skills_listing: 5_514,
        memory_section: 2_018,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 277),
        block_wrap: 230,
        skills_listing: 5_561,
        memory_section: 2_018,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 286),
        block_wrap: 230,
        skills_listing: 5_811,
        memory_section: 2_018,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 289),
        block_wrap: 230,
        skills_listing: 5_960,
        memory_section: 2_018,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 290),
        block_wrap: 230,
        skills_listing: 5_952,
        memory_section: 2_018,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 295),
        block_wrap: 230,
        skills_listing: 5_971,
        memory_section: 2_018,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 305),
        block_wrap: 230,
        skills_listing: 5_969,
        memory_section: 2_018,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 311),
        block_wrap: 230,
        skills_listing: 6_167,
        memory_section: 2_018,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 328),
        block_wrap: 230,
        skills_listing: 6_275,
        memory_section: 2_018,
    },
    OwnText {
        since: ClaudeVersion(2, 1, 337),
        block_wrap: 230,
        skills_listing: 6_288,
        memory_section: 2_018,
    },
];

/// The skills listings, by release, oldest first: the built-in skills as lengths, measured
/// from each release's own listing (`skills-listing-line-forms`, where every line fits), and
/// the budget its captures show. 2.1.328's default model gives 30,000 columns at 0.01 (found
/// by moving the budget until one more description fits; the thresholds are conformance
/// cases).
pub(crate) const LISTING_BUDGETS: &[ListingBudget] = &[
    ListingBudget {
        since: ClaudeVersion(2, 1, 59),
        context_tokens: 200_000,
        fraction_percent: 2,
        built_ins: &[],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 63),
        context_tokens: 200_000,
        fraction_percent: 2,
        built_ins: &[built_in(8, 82, true)],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 69),
        context_tokens: 200_000,
        fraction_percent: 2,
        built_ins: &[
            built_in(8, 82, true),
            BuiltInSkill {
                line_breaks: &[48, 189],
                ..built_in(10, 293, true)
            },
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 72),
        context_tokens: 200_000,
        fraction_percent: 2,
        built_ins: &[
            built_in(8, 82, true),
            built_in(4, 306, true),
            BuiltInSkill {
                line_breaks: &[48, 189],
                ..built_in(10, 293, true)
            },
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 77),
        context_tokens: 200_000,
        fraction_percent: 2,
        built_ins: &[
            built_in(13, 678, true),
            built_in(8, 82, true),
            built_in(4, 306, true),
            BuiltInSkill {
                line_breaks: &[48, 189],
                ..built_in(10, 293, true)
            },
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 86),
        context_tokens: 200_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(13, 250, true),
            built_in(8, 82, true),
            built_in(4, 250, true),
            BuiltInSkill {
                line_breaks: &[48, 189],
                ..built_in(10, 250, true)
            },
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 101),
        context_tokens: 200_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(13, 250, true),
            built_in(16, 228, true),
            built_in(8, 82, true),
            built_in(4, 250, true),
            BuiltInSkill {
                line_breaks: &[117],
                ..built_in(10, 250, true)
            },
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 105),
        context_tokens: 200_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(13, 678, true),
            built_in(16, 228, true),
            built_in(8, 82, true),
            built_in(4, 306, true),
            BuiltInSkill {
                line_breaks: &[117, 685],
                ..built_in(10, 879, true)
            },
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 108),
        context_tokens: 200_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(13, 678, true),
            built_in(16, 228, true),
            built_in(8, 82, true),
            built_in(4, 306, true),
            BuiltInSkill {
                line_breaks: &[117, 475],
                ..built_in(10, 614, true)
            },
            built_in(4, 59, false),
            built_in(10, 35, false),
            built_in(6, 21, false),
            built_in(15, 71, false),
            built_in(8, 53, false),
            built_in(15, 63, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 110),
        context_tokens: 200_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(13, 678, true),
            built_in(16, 228, true),
            built_in(8, 82, true),
            built_in(4, 306, true),
            BuiltInSkill {
                line_breaks: &[117, 475],
                ..built_in(10, 614, true)
            },
            built_in(4, 59, false),
            built_in(6, 21, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 111),
        context_tokens: 200_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(13, 678, true),
            built_in(16, 228, true),
            built_in(8, 82, true),
            built_in(23, 163, true),
            built_in(4, 306, true),
            BuiltInSkill {
                line_breaks: &[247, 605],
                ..built_in(10, 744, true)
            },
            built_in(4, 59, false),
            built_in(6, 21, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 113),
        context_tokens: 200_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(13, 678, true),
            built_in(16, 228, true),
            built_in(8, 82, true),
            built_in(24, 163, true),
            built_in(4, 306, true),
            BuiltInSkill {
                line_breaks: &[247, 605],
                ..built_in(10, 744, true)
            },
            built_in(4, 59, false),
            built_in(6, 21, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 118),
        context_tokens: 200_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(8, 82, true),
            built_in(24, 163, true),
            built_in(4, 306, true),
            BuiltInSkill {
                line_breaks: &[247, 605],
                ..built_in(10, 744, true)
            },
            built_in(4, 59, false),
            built_in(6, 21, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 129),
        context_tokens: 1_000_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(8, 82, true),
            built_in(24, 163, true),
            built_in(4, 306, true),
            BuiltInSkill {
                line_breaks: &[247, 605],
                ..built_in(10, 744, true)
            },
            built_in(4, 59, false),
            built_in(6, 21, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 139),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(8, 82, true),
            built_in(24, 163, true),
            built_in(4, 306, true),
            BuiltInSkill {
                line_breaks: &[247, 605],
                ..built_in(10, 744, true)
            },
            built_in(4, 59, false),
            built_in(6, 21, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 145),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(6, 250, true),
            built_in(8, 82, true),
            built_in(24, 163, true),
            built_in(4, 306, true),
            BuiltInSkill {
                line_breaks: &[247, 605],
                ..built_in(10, 744, true)
            },
            built_in(3, 361, true),
            built_in(4, 59, false),
            built_in(6, 21, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 146),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(6, 250, true),
            built_in(11, 82, true),
            built_in(24, 163, true),
            built_in(4, 306, true),
            BuiltInSkill {
                line_breaks: &[247, 605],
                ..built_in(10, 744, true)
            },
            built_in(3, 361, true),
            built_in(4, 59, false),
            built_in(6, 21, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 147),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(6, 250, true),
            built_in(11, 232, true),
            built_in(24, 163, true),
            built_in(4, 306, true),
            BuiltInSkill {
                line_breaks: &[247, 605],
                ..built_in(10, 744, true)
            },
            built_in(3, 361, true),
            built_in(4, 59, false),
            built_in(6, 21, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 152),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(6, 250, true),
            built_in(11, 346, true),
            built_in(8, 79, true),
            built_in(24, 163, true),
            built_in(4, 306, true),
            BuiltInSkill {
                line_breaks: &[247, 605],
                ..built_in(10, 744, true)
            },
            built_in(3, 361, true),
            built_in(4, 59, false),
            built_in(6, 21, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 154),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(13, 470, true),
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(6, 250, true),
            built_in(11, 346, true),
            built_in(8, 176, true),
            built_in(24, 163, true),
            built_in(4, 306, true),
            BuiltInSkill {
                line_breaks: &[247, 605],
                ..built_in(10, 744, true)
            },
            built_in(3, 361, true),
            built_in(4, 59, false),
            built_in(6, 21, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 163),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(13, 470, true),
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(6, 250, true),
            built_in(11, 346, true),
            built_in(8, 176, true),
            built_in(24, 163, true),
            built_in(4, 306, true),
            BuiltInSkill {
                line_breaks: &[150, 740],
                ..built_in(10, 1_061, true)
            },
            built_in(3, 361, true),
            built_in(4, 59, false),
            built_in(6, 21, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 173),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(13, 470, true),
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(6, 250, true),
            built_in(11, 346, true),
            built_in(8, 176, true),
            built_in(24, 163, true),
            built_in(4, 306, true),
            BuiltInSkill {
                line_breaks: &[150, 747],
                ..built_in(10, 1_068, true)
            },
            built_in(3, 361, true),
            built_in(4, 59, false),
            built_in(6, 21, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 186),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(13, 470, true),
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(6, 250, true),
            built_in(11, 346, true),
            built_in(8, 176, true),
            built_in(24, 163, true),
            built_in(4, 306, true),
            BuiltInSkill {
                line_breaks: &[150, 747],
                ..built_in(10, 1_068, true)
            },
            built_in(3, 361, true),
            built_in(4, 59, false),
            built_in(6, 68, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 198),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(13, 470, true),
            built_in(7, 1_135, true),
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(6, 388, true),
            built_in(11, 346, true),
            built_in(8, 176, true),
            built_in(24, 163, true),
            built_in(4, 306, true),
            BuiltInSkill {
                line_breaks: &[150, 747],
                ..built_in(10, 1_068, true)
            },
            built_in(3, 361, true),
            built_in(4, 59, false),
            built_in(6, 68, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 200),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(13, 470, true),
            built_in(7, 1_135, true),
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(6, 452, true),
            built_in(11, 346, true),
            built_in(8, 176, true),
            built_in(24, 163, true),
            built_in(4, 306, true),
            BuiltInSkill {
                line_breaks: &[150, 747],
                ..built_in(10, 1_068, true)
            },
            built_in(3, 361, true),
            built_in(4, 59, false),
            built_in(6, 68, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 224),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(7, 1_135, true),
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(8, 176, true),
            built_in(24, 163, true),
            built_in(4, 306, true),
            BuiltInSkill {
                line_breaks: &[150, 747],
                ..built_in(10, 1_068, true)
            },
            built_in(3, 361, true),
            built_in(4, 59, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 246),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(7, 1_135, true),
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(11, 439, true),
            built_in(8, 176, true),
            built_in(24, 163, true),
            built_in(4, 306, true),
            BuiltInSkill {
                line_breaks: &[150, 747],
                ..built_in(10, 1_068, true)
            },
            built_in(3, 361, true),
            built_in(4, 59, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 252),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(7, 1_436, true),
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(11, 439, true),
            built_in(8, 176, true),
            built_in(24, 163, true),
            built_in(4, 336, true),
            BuiltInSkill {
                line_breaks: &[150, 747],
                ..built_in(10, 1_068, true)
            },
            built_in(18, 230, true),
            built_in(3, 361, true),
            built_in(4, 59, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 277),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(7, 1_436, true),
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(11, 486, true),
            built_in(8, 176, true),
            built_in(24, 163, true),
            built_in(4, 336, true),
            BuiltInSkill {
                line_breaks: &[150, 747],
                ..built_in(10, 1_068, true)
            },
            built_in(18, 230, true),
            built_in(3, 361, true),
            built_in(4, 59, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 286),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(7, 1_436, true),
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(11, 486, true),
            built_in(8, 176, true),
            built_in(24, 163, true),
            built_in(4, 336, true),
            BuiltInSkill {
                line_breaks: &[150, 747],
                ..built_in(10, 1_068, true)
            },
            built_in(18, 230, true),
            built_in(3, 361, true),
            built_in(16, 229, true),
            built_in(4, 59, false),
            BuiltInSkill {
                line_breaks: &[71, 72, 99, 100],
                ..built_in(15, 552, false)
            },
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 289),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(7, 1_436, true),
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(11, 635, true),
            built_in(8, 176, true),
            built_in(24, 163, true),
            built_in(4, 336, true),
            BuiltInSkill {
                line_breaks: &[150, 747],
                ..built_in(10, 1_068, true)
            },
            built_in(18, 230, true),
            built_in(3, 361, true),
            built_in(16, 229, true),
            built_in(4, 59, false),
            BuiltInSkill {
                line_breaks: &[71, 72, 99, 100],
                ..built_in(15, 552, false)
            },
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 290),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(7, 1_436, true),
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(11, 627, true),
            built_in(8, 176, true),
            built_in(24, 163, true),
            built_in(4, 336, true),
            BuiltInSkill {
                line_breaks: &[150, 747],
                ..built_in(10, 1_068, true)
            },
            built_in(18, 230, true),
            built_in(3, 361, true),
            built_in(16, 229, true),
            built_in(4, 59, false),
            BuiltInSkill {
                line_breaks: &[71, 72, 99, 100],
                ..built_in(15, 552, false)
            },
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 295),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(7, 1_436, true),
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(11, 627, true),
            built_in(8, 176, true),
            built_in(24, 163, true),
            built_in(4, 336, true),
            BuiltInSkill {
                line_breaks: &[150, 747],
                ..built_in(10, 1_068, true)
            },
            built_in(18, 230, true),
            built_in(3, 361, true),
            built_in(16, 248, true),
            built_in(4, 59, false),
            BuiltInSkill {
                line_breaks: &[71, 72, 99, 100],
                ..built_in(15, 552, false)
            },
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 303),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(7, 1_436, true),
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(11, 627, true),
            built_in(8, 176, true),
            built_in(24, 163, true),
            built_in(4, 336, true),
            BuiltInSkill {
                line_breaks: &[150, 747],
                ..built_in(10, 1_068, true)
            },
            built_in(18, 230, true),
            built_in(3, 361, true),
            built_in(16, 248, true),
            built_in(4, 59, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 305),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(7, 1_436, true),
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(11, 627, true),
            built_in(8, 176, true),
            built_in(24, 163, true),
            built_in(4, 336, true),
            BuiltInSkill {
                line_breaks: &[150, 747],
                ..built_in(10, 1_068, true)
            },
            built_in(18, 230, true),
            built_in(3, 361, true),
            built_in(16, 246, true),
            built_in(4, 59, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 311),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(7, 1_436, true),
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(11, 825, true),
            built_in(8, 176, true),
            built_in(24, 163, true),
            built_in(4, 336, true),
            BuiltInSkill {
                line_breaks: &[150, 747],
                ..built_in(10, 1_068, true)
            },
            built_in(18, 230, true),
            built_in(3, 361, true),
            built_in(16, 246, true),
            built_in(4, 59, false),
            built_in(15, 71, false),
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 315),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            built_in(7, 1_436, true),
            built_in(13, 690, true),
            built_in(16, 228, true),
            built_in(11, 825, true),
            built_in(8, 176, true),
            built_in(24, 163, true),
            built_in(4, 336, true),
            BuiltInSkill {
                line_breaks: &[150, 747],
                ..built_in(10, 1_068, true)
            },
            built_in(18, 230, true),
            built_in(3, 361, true),
            built_in(16, 246, true),
            built_in(4, 59, false),
            BuiltInSkill {
                line_breaks: &[71, 72],
                ..built_in(15, 100, false)
            },
        ],
    },
    ListingBudget {
        since: ClaudeVersion(2, 1, 328),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            named("dataviz", 1_436, true),
            named("update-config", 690, true),
            named("keybindings-help", 228, true),
            named("code-review", 835, true),
            named("simplify", 176, true),
            named("fewer-permission-prompts", 163, true),
            named("loop", 336, true),
            BuiltInSkill {
                line_breaks: &[150, 802],
                ..named("claude-api", 1_157, true)
            },
            named("workflow-authoring", 230, true),
            named("run", 361, true),
            named("plugin-authoring", 255, true),
            named("init", 59, false),
            named("security-review", 71, false),
        ],
    },
    // 2.1.337 (the pin): one bundled skill's description grows by 13 units (`listing-rows.py`
    // on its `skills-listing-line-forms` requests); the rest is 2.1.328's row.
    ListingBudget {
        since: ClaudeVersion(2, 1, 337),
        context_tokens: 750_000,
        fraction_percent: 1,
        built_ins: &[
            named("dataviz", 1_436, true),
            named("update-config", 690, true),
            named("keybindings-help", 228, true),
            named("code-review", 835, true),
            named("simplify", 176, true),
            named("fewer-permission-prompts", 163, true),
            named("loop", 336, true),
            BuiltInSkill {
                line_breaks: &[150, 815],
                ..named("claude-api", 1_170, true)
            },
            named("workflow-authoring", 230, true),
            named("run", 361, true),
            named("plugin-authoring", 255, true),
            named("init", 59, false),
            named("security-review", 71, false),
        ],
    },
];

/// [`AgentListing`] by release, oldest first.
pub(crate) const AGENT_LISTINGS: &[AgentListing] = &[
    AgentListing {
        since: ClaudeVersion(2, 1, 59),
        units: 1_353,
        built_ins: &[
            ("general-purpose", 310),
            ("statusline-setup", 112),
            ("Explore", 568),
            ("Plan", 307),
        ],
    },
    AgentListing {
        since: ClaudeVersion(2, 1, 67),
        units: 1_355,
        built_ins: &[
            ("general-purpose", 310),
            ("statusline-setup", 112),
            ("Explore", 569),
            ("Plan", 308),
        ],
    },
    AgentListing {
        since: ClaudeVersion(2, 1, 138),
        units: 1_476,
        built_ins: &[
            ("Explore", 690),
            ("general-purpose", 310),
            ("Plan", 308),
            ("statusline-setup", 112),
        ],
    },
    AgentListing {
        since: ClaudeVersion(2, 1, 161),
        units: 1_402,
        built_ins: &[
            ("claude", 133),
            ("Explore", 483),
            ("general-purpose", 310),
            ("Plan", 308),
            ("statusline-setup", 112),
        ],
    },
    AgentListing {
        since: ClaudeVersion(2, 1, 178),
        units: 1_522,
        built_ins: &[
            ("claude", 133),
            ("Explore", 483),
            ("general-purpose", 310),
            ("Plan", 308),
            ("statusline-setup", 112),
        ],
    },
    AgentListing {
        since: ClaudeVersion(2, 1, 206),
        units: 1_542,
        built_ins: &[
            ("claude", 133),
            ("Explore", 493),
            ("general-purpose", 310),
            ("Plan", 318),
            ("statusline-setup", 112),
        ],
    },
    AgentListing {
        since: ClaudeVersion(2, 1, 222),
        units: 1_407,
        built_ins: &[
            ("claude", 133),
            ("Explore", 493),
            ("general-purpose", 310),
            ("Plan", 318),
            ("statusline-setup", 112),
        ],
    },
    AgentListing {
        since: ClaudeVersion(2, 1, 263),
        units: 1_501,
        built_ins: &[
            ("claude", 133),
            ("Explore", 540),
            ("general-purpose", 310),
            ("Plan", 365),
            ("statusline-setup", 112),
        ],
    },
    AgentListing {
        since: ClaudeVersion(2, 1, 289),
        units: 1_636,
        built_ins: &[
            ("claude", 133),
            ("Explore", 540),
            ("general-purpose", 310),
            ("Plan", 365),
            ("statusline-setup", 112),
        ],
    },
];

/// "Your MEMORY.md is currently empty. …": what a sub-agent's memory section holds when its
/// declared folder has no index, by its measured length (UTF-16 units) from each release on.
/// Before 2.1.83 the sentence went on to say what to save and when it comes back.
pub(crate) const EMPTY_AGENT_INDEX: &[(ClaudeVersion, u64)] = &[
    (ClaudeVersion(2, 1, 59), 180),
    (ClaudeVersion(2, 1, 83), 85),
];

/// [`SkillOrder`] by release, each row holding from its release until the next: the
/// captures of `skills-listing-order-user-and-project-folders` (and, for the user's folder,
/// `skills-listing-line-forms` and `skills-listing-over-budget`) list each folder's skills
/// by name on 2.1.112, in the order the file system listed them on 2.1.113 (the order each
/// capture records in `dir_order`) through 2.1.153, and by name again on 2.1.154. It turns
/// on and off, which a [`RuleChange`] cannot say.
pub(crate) const SKILL_ORDERS: &[(ClaudeVersion, SkillOrder)] = &[
    (ClaudeVersion(2, 1, 59), SkillOrder::ByName),
    (ClaudeVersion(2, 1, 113), SkillOrder::AsListed),
    (ClaudeVersion(2, 1, 154), SkillOrder::ByName),
];

/// [`SkillAnnouncement`] by release, each row holding from its release until the next:
/// bisected on `skills-in-subdirectory-announced-after-read`, whose captures on 2.1.197 and
/// 2.1.198, 2.1.228 and 2.1.229, 2.1.229 and 2.1.231 (2.1.230 was not published), 2.1.232
/// and 2.1.233, 2.1.252 and 2.1.257 show each step. It turns on, off and on again, which a
/// [`RuleChange`] (a behaviour from one release on) cannot say; the 2.1.257 step is also
/// the `subfolder-skills-announced` row the page lists.
pub(crate) const SKILL_ANNOUNCEMENTS: &[(ClaudeVersion, SkillAnnouncement)] = &[
    (ClaudeVersion(2, 1, 59), SkillAnnouncement::Never),
    (ClaudeVersion(2, 1, 198), SkillAnnouncement::OnNextRead),
    (ClaudeVersion(2, 1, 229), SkillAnnouncement::OnRead),
    (ClaudeVersion(2, 1, 231), SkillAnnouncement::OnNextRead),
    (ClaudeVersion(2, 1, 233), SkillAnnouncement::Never),
    (ClaudeVersion(2, 1, 257), SkillAnnouncement::OnRead),
];
