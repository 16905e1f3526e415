//! The footprint: what can load in a session without Claude reading it on purpose.
//!
//! Counted: files whose load type is always, startup or conditional, and what they import
//! (up to the import-depth limit), each path once; a `MEMORY.md` with only its loaded part;
//! each skill's listing (name, description, `when_to_use`). Not counted: skill bodies, link
//! targets, nested (tree) files and their imports, on-demand topic files, and every row whose
//! status is not ok. The footprint is the user's text: what Claude Code writes into a file as
//! it sends it (`FileRow::claude_code`: a `MEMORY.md`'s sentence on quoted notes, its `> `
//! marks, the warning after a cut) is left out, as the session cost counts it as Claude
//! Code's own.

use crate::report::{FileRow, Footprint, Group, GroupFootprint, LoadType, Measure};

/// Decides `counted` for every row and adds up the footprint.
///
/// Skill rows arrive with `counted` saying whether their listing is in context (false for
/// `disable-model-invocation: true`); every other row's flag is decided here.
pub(crate) fn apply(rows: &[FileRow]) -> Footprint {
    let mut footprint = Footprint {
        groups: Group::ALL
            .iter()
            .map(|g| (g.name().to_owned(), GroupFootprint::default()))
            .collect(),
        ..Footprint::default()
    };
    // Discovery marks as counted exactly what every session sends (the instruction block's
    // files and the listed skills), each once.
    for row in rows.iter().filter(|r| r.counted) {
        if matches!(row.group, Group::Skills | Group::Commands) {
            let listing = row.skill_listing.unwrap_or_default();
            add(&mut footprint, row.group, listing, false, false);
        } else {
            let always = matches!(row.load, LoadType::Always | LoadType::Startup);
            let loaded = row.loaded.unwrap_or_default();
            let own = row.claude_code.unwrap_or_default();
            let users = Measure {
                bytes: loaded.bytes.saturating_sub(own.bytes),
                chars: loaded.chars.saturating_sub(own.chars),
                utf16: loaded.utf16.saturating_sub(own.utf16),
                lines: loaded.lines.saturating_sub(own.lines),
            };
            add(&mut footprint, row.group, users, true, always);
        }
    }
    footprint.tokens_estimate = estimate_tokens(footprint.utf16);
    for group in footprint.groups.values_mut() {
        group.tokens_estimate = estimate_tokens(group.utf16);
    }
    footprint
}

pub(crate) fn estimate_tokens(utf16: u64) -> u64 {
    (utf16 + 2) / 4
}

fn add(footprint: &mut Footprint, group: Group, measure: Measure, file: bool, always: bool) {
    let entry = footprint.groups.entry(group.name().to_owned()).or_default();
    for (total, part) in [
        (&mut footprint.chars, measure.chars),
        (&mut footprint.bytes, measure.bytes),
        (&mut footprint.utf16, measure.utf16),
        (&mut entry.chars, measure.chars),
        (&mut entry.bytes, measure.bytes),
        (&mut entry.utf16, measure.utf16),
    ] {
        *total += part;
    }
    if file {
        footprint.files += 1;
        entry.files += 1;
    }
    if always {
        footprint.always_loaded += 1;
        entry.always_loaded += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_round_half_up() {
        for (utf16, tokens) in [
            (0, 0),
            (1, 0),
            (2, 1),
            (4, 1),
            (5, 1),
            (6, 2),
            (9_170, 2_293),
        ] {
            assert_eq!(estimate_tokens(utf16), tokens, "{utf16}");
        }
    }
}
