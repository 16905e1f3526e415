//! The `MEMORY.md` caps: 200 lines, then 25,000 UTF-16 units.

use crate::report::{CutBy, Truncation};

use super::measure::{is_js_space, strip_for_loading, Stripped};

/// Lines of a memory index that load.
pub const MAX_LINES: u64 = 200;
/// UTF-16 code units of a memory index that load (a JavaScript string length, not bytes).
pub const MAX_UTF16: u64 = 25_000;
/// Index lines at which Claude Code reminds the model to compact: 80 % of [`MAX_LINES`].
pub const REMINDER_LINES: u64 = MAX_LINES * 8 / 10;

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
#[cfg(test)]
pub(crate) fn cut(raw: &str) -> IndexCut {
    cut_with(raw, Caps::CURRENT)
}

/// Which of the caps' rules a Claude Code release applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Caps {
    /// The 25,000-unit cap (since 2.1.83; before, only lines were cut).
    pub(crate) size_cap: bool,
    /// Frontmatter and block comments stripped before measuring (since 2.1.211).
    pub(crate) strip_first: bool,
}

impl Caps {
    /// The rules of current releases.
    #[cfg(test)]
    pub(crate) const CURRENT: Caps = Caps {
        size_cap: true,
        strip_first: true,
    };
}

/// [`cut`] with the rules of a given release.
pub(crate) fn cut_with(raw: &str, caps: Caps) -> IndexCut {
    let stripped = if caps.strip_first {
        strip_for_loading(raw)
    } else {
        Stripped {
            text: raw.to_owned(),
            raw_line_of: (1..=raw.split('\n').count() as u64).collect(),
        }
    };
    let trimmed_start = stripped.text.len() - stripped.text.trim_start_matches(is_js_space).len();
    let trimmed = stripped.text.trim_matches(is_js_space);

    let total_lines = line_count(trimmed);
    let line_capped = match nth_newline(trimmed, MAX_LINES as usize) {
        Some(end) => &trimmed[..end],
        None => trimmed,
    };
    let size_cut = if caps.size_cap {
        size_cut(line_capped)
    } else {
        None
    };
    let loaded = size_cut.unwrap_or(line_capped);
    let cut_by = if size_cut.is_some() {
        Some(CutBy::Size)
    } else if loaded.len() < trimmed.len() {
        Some(CutBy::Lines)
    } else {
        None
    };

    let loaded_lines = line_count(loaded);
    let first_dropped_line = cut_by.map(|_| {
        // The first line that does not load in full: the line after the last loaded one
        // when the cut fell on a line break, the partly loaded line otherwise.
        let whole_lines = trimmed.as_bytes().get(loaded.len()) == Some(&b'\n');
        let dropped_index = if whole_lines || loaded.is_empty() {
            loaded_lines
        } else {
            loaded_lines - 1
        };
        // Lines the leading trim removed still count in the stripped text's numbering.
        let skipped = stripped.text[..trimmed_start].matches('\n').count() as u64;
        let stripped_index = (skipped + dropped_index) as usize;
        stripped
            .raw_line_of
            .get(stripped_index)
            .copied()
            .unwrap_or_else(|| stripped.raw_line_of.last().copied().unwrap_or(1))
    });

    IndexCut {
        truncation: Truncation {
            total_lines,
            loaded_lines,
            total_utf16: utf16_len(trimmed),
            loaded_utf16: utf16_len(loaded),
            cut_by,
            first_dropped_line,
        },
        loaded: loaded.to_owned(),
    }
}

/// Claude Code's load-time warning for a cut index, in its own words, e.g.
/// `WARNING: MEMORY.md is 210 lines (limit: 200). Only part of it was loaded.` or
/// `WARNING: MEMORY.md is 26KB (limit: 24.4KB) — index entries are too long. Only part of it
/// was loaded. Keep index entries to one line under ~150 chars; move detail into topics.`
/// (KB = units / 1024 with one decimal, a trailing `.0` dropped). `None` when nothing was cut.
pub(crate) fn truncated_warning(truncation: &Truncation) -> Option<String> {
    match truncation.cut_by? {
        CutBy::Lines => Some(format!(
            "WARNING: MEMORY.md is {} lines (limit: {MAX_LINES}). Only part of it was loaded.",
            truncation.total_lines
        )),
        CutBy::Size => Some(format!(
            "WARNING: MEMORY.md is {}KB (limit: {}KB) — index entries are too long. Only part \
             of it was loaded. Keep index entries to one line under ~150 chars; move detail \
             into topics.",
            kilobytes(truncation.total_utf16),
            kilobytes(MAX_UTF16)
        )),
    }
}

/// Claude Code's reminder when either dimension reaches 80 % of its cap (160 lines or
/// 20,000 units) and nothing is cut yet, e.g. `The memory index at MEMORY.md is 161 lines,
/// approaching the 200-line read limit. Compact it to under 140 lines now: keep one line per
/// entry, move detail into topic files, and merge or drop stale entries.` (the size variant
/// names KB and asks for under 17.1KB, 70 % of the cap). `None` below 80 %.
pub(crate) fn near_limit_warning(truncation: &Truncation) -> Option<String> {
    if truncation.cut_by.is_some() {
        return None;
    }
    const ADVICE: &str = "keep one line per entry, move detail into topic files, and merge or \
                          drop stale entries.";
    // The thresholds are 0.8 and 0.7 of the caps; integer arithmetic keeps them exact.
    if truncation.total_lines >= REMINDER_LINES {
        Some(format!(
            "The memory index at MEMORY.md is {} lines, approaching the {MAX_LINES}-line read \
             limit. Compact it to under {} lines now: {ADVICE}",
            truncation.total_lines,
            MAX_LINES * 7 / 10
        ))
    } else if truncation.total_utf16 * 10 >= MAX_UTF16 * 8 {
        Some(format!(
            "The memory index at MEMORY.md is {}KB, approaching the {}KB read limit. Compact \
             it to under {}KB now: {ADVICE}",
            kilobytes(truncation.total_utf16),
            kilobytes(MAX_UTF16),
            kilobytes(MAX_UTF16 * 7 / 10)
        ))
    } else {
        None
    }
}

/// `units / 1024` as JavaScript's `toFixed(1)` gives it, with a trailing `.0` dropped.
/// Integer arithmetic rounds halves up as `toFixed` does for these exact binary fractions,
/// where Rust's float formatting would round them to even.
fn kilobytes(units: u64) -> String {
    let tenths = (units * 10 + 512) / 1024;
    if tenths.is_multiple_of(10) {
        format!("{}", tenths / 10)
    } else {
        format!("{}.{}", tenths / 10, tenths % 10)
    }
}

/// Pieces of `text` split on `\n`, with an empty text counting as no lines.
fn line_count(text: &str) -> u64 {
    if text.is_empty() {
        0
    } else {
        text.matches('\n').count() as u64 + 1
    }
}

/// Byte offset of the `n`th `\n` (1-based), if the text has that many.
fn nth_newline(text: &str, n: usize) -> Option<usize> {
    text.match_indices('\n')
        .nth(n.checked_sub(1)?)
        .map(|(i, _)| i)
}

fn utf16_len(text: &str) -> u64 {
    text.chars().map(|c| c.len_utf16() as u64).sum()
}

/// The size cap: `None` when the text fits, otherwise the loaded prefix.
fn size_cut(text: &str) -> Option<&str> {
    let mut units = 0u64;
    let mut last_newline = None;
    // The char boundary at or before unit 25,000, for a text with no usable line break. A
    // surrogate pair straddling the cap is left out whole rather than split.
    let mut boundary = 0;
    for (i, c) in text.char_indices() {
        if units > MAX_UTF16 {
            break;
        }
        if c == '\n' {
            last_newline = Some(i);
        }
        units += c.len_utf16() as u64;
        if units <= MAX_UTF16 {
            boundary = i + c.len_utf8();
        }
    }
    if units <= MAX_UTF16 {
        return None;
    }
    Some(&text[..last_newline.unwrap_or(boundary)])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks `cut` as `total_lines/total_utf16 -> loaded_lines/loaded_utf16 by <cut_by>
    /// from <first_dropped_line>`.
    fn check(raw: &str, expected: &str) {
        let result = cut(raw);
        let t = &result.truncation;
        let cut_by = match t.cut_by {
            None => "-",
            Some(CutBy::Lines) => "lines",
            Some(CutBy::Size) => "size",
        };
        let dropped = t
            .first_dropped_line
            .map_or("-".to_owned(), |n| n.to_string());
        let actual = format!(
            "{}/{} -> {}/{} by {cut_by} from {dropped}",
            t.total_lines, t.total_utf16, t.loaded_lines, t.loaded_utf16
        );
        assert_eq!(actual, expected);
        assert_eq!(t.loaded_utf16, utf16_len(&result.loaded));
        assert_eq!(t.loaded_lines, line_count(&result.loaded));
    }

    /// `count` lines of `width` copies of `c`, each ended by `\n`.
    fn lines_of(c: char, width: usize, count: usize) -> String {
        let line: String = std::iter::repeat_n(c, width).collect();
        std::iter::repeat_n(line + "\n", count).collect()
    }

    /// `count` short numbered lines, `- entry N`, each ended by `\n`.
    fn entries(count: usize) -> String {
        (1..=count).map(|n| format!("- entry {n}\n")).collect()
    }

    #[test]
    fn small_indexes_load_whole() {
        check("", "0/0 -> 0/0 by - from -");
        check("   \n\n\t", "0/0 -> 0/0 by - from -");
        check("a", "1/1 -> 1/1 by - from -");
        check("a\nb\n", "2/3 -> 2/3 by - from -");
        check("\n\n  a\n\n", "1/1 -> 1/1 by - from -");
        check("a\r\nb\r\n", "2/4 -> 2/4 by - from -");
        check(
            "---\ntype: x\n---\n<!-- note -->\na\n",
            "1/1 -> 1/1 by - from -",
        );
        check("\u{feff}\u{3000}a\u{2029}", "1/1 -> 1/1 by - from -");
        check("\u{85}a\u{85}", "1/3 -> 1/3 by - from -");
        check(&entries(200), "200/2291 -> 200/2291 by - from -");
    }

    #[test]
    fn line_cap() {
        check(&entries(201), "201/2303 -> 200/2291 by lines from 201");
        check(&entries(210), "210/2411 -> 200/2291 by lines from 201");
        // Three frontmatter lines and two blank lines come before entry 1, which is raw
        // line 6, so entry 201 is raw line 206.
        let text = format!("---\ntype: index\n---\n\n\n{}", entries(210));
        check(&text, "210/2411 -> 200/2291 by lines from 206");
        // A removed two-line comment between entries 100 and 101 shifts the raw numbers.
        let all = entries(210);
        let (head, tail) = all.split_at(entries(100).len());
        let text = format!("{head}<!-- a\nb -->\n{tail}");
        check(&text, "210/2411 -> 200/2291 by lines from 203");
        check(&"\n".repeat(300), "0/0 -> 0/0 by - from -");
        check(
            &format!("{}x", "a\n\n".repeat(150)),
            "301/451 -> 200/299 by lines from 201",
        );
    }

    #[test]
    fn size_cap_counts_utf16_units_not_bytes() {
        // 100 lines of 203 syllables: 61 KB on disk but 20,399 units, so all of it loads.
        let text = lines_of('가', 203, 100);
        assert_eq!(text.len(), 61_000);
        check(&text, "100/20399 -> 100/20399 by - from -");
        // 130 such lines are 26,519 units; the last line break at or before unit 25,000
        // ends line 122.
        check(
            &lines_of('가', 203, 130),
            "130/26519 -> 122/24887 by size from 123",
        );
        // The same in ASCII is the same number of units.
        check(
            &lines_of('a', 203, 130),
            "130/26519 -> 122/24887 by size from 123",
        );
    }

    #[test]
    fn size_cap_edges() {
        check(&"a".repeat(25_000), "1/25000 -> 1/25000 by - from -");
        check(&"a".repeat(25_001), "1/25001 -> 1/25000 by size from 1");
        // A line break at unit 25,000 exactly is still at or before the cap.
        check(
            &format!("{}\n{}", "a".repeat(25_000), "b"),
            "2/25002 -> 1/25000 by size from 2",
        );
        check(
            &format!("{}\n{}", "a".repeat(25_001), "b"),
            "2/25003 -> 1/25000 by size from 1",
        );
        check(
            &format!("a\n{}", "b".repeat(30_000)),
            "2/30002 -> 1/1 by size from 2",
        );
        // An emoji is two units; one straddling unit 25,000 is left out whole.
        check(
            &format!("{}😀", "a".repeat(24_999)),
            "1/25001 -> 1/24999 by size from 1",
        );
        check(
            &format!("{}😀b", "a".repeat(24_998)),
            "1/25001 -> 1/25000 by size from 1",
        );
        check(&"😀".repeat(20_000), "1/40000 -> 1/25000 by size from 1");
        // Both caps apply: 250 lines of 150 units; the size cap cuts the first 200 lines.
        check(
            &lines_of('x', 150, 250),
            "250/37749 -> 165/24914 by size from 166",
        );
        // After the line cap the text fits, so only the line cap counts.
        check(
            &lines_of('x', 120, 250),
            "250/30249 -> 200/24199 by lines from 201",
        );
        let text = format!("---\na: 1\n---\n\n{}", lines_of('x', 150, 250));
        check(&text, "250/37749 -> 165/24914 by size from 170");
    }

    /// Checks both warnings for a truncation built from its four figures and `cut_by`.
    fn check_warning(lines: u64, utf16: u64, cut_by: Option<CutBy>, expected: Option<&str>) {
        let truncation = Truncation {
            total_lines: lines,
            loaded_lines: lines.min(MAX_LINES),
            total_utf16: utf16,
            loaded_utf16: utf16.min(MAX_UTF16),
            cut_by,
            first_dropped_line: None,
        };
        let actual = truncated_warning(&truncation).or_else(|| near_limit_warning(&truncation));
        assert_eq!(actual.as_deref(), expected, "{lines} lines, {utf16} units");
        if cut_by.is_some() {
            assert_eq!(near_limit_warning(&truncation), None);
        } else {
            assert_eq!(truncated_warning(&truncation), None);
        }
    }

    #[test]
    fn warnings() {
        check_warning(
            210,
            2411,
            Some(CutBy::Lines),
            Some("WARNING: MEMORY.md is 210 lines (limit: 200). Only part of it was loaded."),
        );
        check_warning(130, 26_586, Some(CutBy::Size), Some("WARNING: MEMORY.md is 26KB (limit: 24.4KB) — index entries are too long. Only part of it was loaded. Keep index entries to one line under ~150 chars; move detail into topics."));
        check_warning(250, 37_749, Some(CutBy::Size), Some("WARNING: MEMORY.md is 36.9KB (limit: 24.4KB) — index entries are too long. Only part of it was loaded. Keep index entries to one line under ~150 chars; move detail into topics."));
        check_warning(161, 3000, None, Some("The memory index at MEMORY.md is 161 lines, approaching the 200-line read limit. Compact it to under 140 lines now: keep one line per entry, move detail into topic files, and merge or drop stale entries."));
        check_warning(160, 3000, None, Some("The memory index at MEMORY.md is 160 lines, approaching the 200-line read limit. Compact it to under 140 lines now: keep one line per entry, move detail into topic files, and merge or drop stale entries."));
        check_warning(200, 24_000, None, Some("The memory index at MEMORY.md is 200 lines, approaching the 200-line read limit. Compact it to under 140 lines now: keep one line per entry, move detail into topic files, and merge or drop stale entries."));
        check_warning(100, 20_399, None, Some("The memory index at MEMORY.md is 19.9KB, approaching the 24.4KB read limit. Compact it to under 17.1KB now: keep one line per entry, move detail into topic files, and merge or drop stale entries."));
        check_warning(100, 20_000, None, Some("The memory index at MEMORY.md is 19.5KB, approaching the 24.4KB read limit. Compact it to under 17.1KB now: keep one line per entry, move detail into topic files, and merge or drop stale entries."));
        check_warning(159, 19_999, None, None);
        check_warning(0, 0, None, None);
    }

    #[test]
    fn kilobytes_round_like_to_fixed() {
        let cases = [
            (0, "0"),
            (256, "0.3"),
            (1024, "1"),
            (1536, "1.5"),
            (17_500, "17.1"),
            (20_000, "19.5"),
            (25_000, "24.4"),
            (26_519, "25.9"),
            (26_586, "26"),
        ];
        for (units, expected) in cases {
            assert_eq!(kilobytes(units), expected, "{units} units");
        }
    }
}
