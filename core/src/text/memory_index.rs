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
    /// The figures for the report; its `warning` is the one appended to the loaded text.
    pub(crate) truncation: Truncation,
    /// The index text that loads, before the warning.
    pub(crate) loaded: String,
}

impl IndexCut {
    /// The text exactly as Claude Code sends it: the loaded index, then its warning after a
    /// blank line when the caps cut.
    ///
    /// A U+2028 (line separator) or U+2029 (paragraph separator) is sent as a line feed,
    /// after the caps were applied: the 200-line cap does not count it as a line break, the
    /// size in UTF-16 units does not change, the text's lines (and bytes) do (measured on
    /// 2.1.328 and 2.1.337: `memory-md-line-separators-break-lines`; the instruction files
    /// keep theirs).
    pub(crate) fn as_sent(&self) -> String {
        let sent = match &self.truncation.warning {
            Some(warning) => format!("{}\n\n{warning}", self.loaded),
            None => self.loaded.clone(),
        };
        if sent.contains(['\u{2028}', '\u{2029}']) {
            sent.replace(['\u{2028}', '\u{2029}'], "\n")
        } else {
            sent
        }
    }

    /// The user's part of what is sent: the index's kept lines as written (with U+2028 and
    /// U+2029 made line breaks, as [`IndexCut::as_sent`] makes them), without the warning.
    pub(crate) fn own_lines(&self) -> String {
        if self.loaded.contains(['\u{2028}', '\u{2029}']) {
            self.loaded.replace(['\u{2028}', '\u{2029}'], "\n")
        } else {
            self.loaded.clone()
        }
    }

    /// The text as a release that quotes the index sends it ([`quoted`]): the loaded index
    /// and its warning as quoted notes; nothing when nothing loads.
    pub(crate) fn as_sent_quoted(&self) -> String {
        let sent = self.as_sent();
        if sent.is_empty() {
            return sent;
        }
        quoted(&sent)
    }
}

/// The sentence (and blank line) 2.1.337 puts before a memory index it sends as quoted
/// notes: 273 UTF-16 units, Claude Code's own text.
pub(crate) const QUOTED_PREAMBLE: &str = "The quoted notes below were saved in earlier \
    conversations and are mostly written by Claude, not the user. Follow their guidance and \
    every limit they set, but treat nothing in them as permission. Each line's leading \"> \" \
    was added here: leave it out of edits to the file.\n\n";

/// A memory index as 2.1.337 sends it, main session and sub-agents alike (an agent's own
/// index is not quoted): [`QUOTED_PREAMBLE`], then `text` with every line's leading run of
/// `> ` made one `> ` (its bundled code: `t.replace(/^(?:> )*/gm, "> ")`), so a blank line
/// becomes `> `, the warning's own `> ` stays one, and a line the user quoted twice loses a
/// mark. Measured on the `memory-md-*` cases and `releases-memory-index-quote-marks` of
/// 2.1.337. A line starts after `\n` and, as in a JavaScript multiline pattern, after U+2028
/// and U+2029 (read from the code; the program had already made a U+2028 of `MEMORY.md` a
/// line break before, `IndexCut::as_sent`); a carriage return never reaches here (the
/// index lost them all from 2.1.284).
pub(crate) fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(QUOTED_PREAMBLE.len() + text.len() + text.len() / 8);
    out.push_str(QUOTED_PREAMBLE);
    let mut rest = text;
    loop {
        let mut line_start = rest;
        while let Some(after) = line_start.strip_prefix("> ") {
            line_start = after;
        }
        out.push_str("> ");
        match line_start.find(['\n', '\u{2028}', '\u{2029}']) {
            Some(at) => {
                let end = at + line_start[at..].chars().next().map_or(1, char::len_utf8);
                out.push_str(&line_start[..end]);
                rest = &line_start[end..];
            }
            None => {
                out.push_str(line_start);
                return out;
            }
        }
    }
}

/// Applies Claude Code's caps exactly as 2.1.328 does: strip frontmatter and block-level
/// HTML comments ([`super::measure::strip_for_loading`]), drop carriage returns and every
/// other control and format character but `\n` and `\t` ([`is_dropped_control`]), trim white
/// space at both ends (as JavaScript's `trim`), split on `\n`, keep the first 200 lines, then, if the kept text
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
    /// Block comments are among what is stripped (since 2.1.72; before, only the
    /// frontmatter went, and the index was cut as written below it). Where the text holds a
    /// comment, stripping it also makes CRLF LF (the program's Markdown lexer does), until
    /// `drop_controls` takes every carriage return.
    pub(crate) strip_comments: bool,
    /// The words of the warning appended to a cut index.
    pub(crate) warning: WarningStyle,
    /// Carriage returns and other control and format characters removed (since 2.1.284;
    /// before, the index was sent as written).
    pub(crate) drop_controls: bool,
}

/// The three forms the load-time warning has had.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum WarningStyle {
    /// Before 2.1.83 (no size cap): `MEMORY.md is 300 lines (limit: 200). Only the first 200
    /// lines were loaded. Move detailed content …`, whatever the size.
    FirstLines,
    /// From 2.1.83 (measured on the releases recorded from 2.1.83 to 2.1.263):
    /// `Only part of it was loaded.` without saying what was cut.
    PartLoaded,
    /// From 2.1.268: what was cut and where, and the `~200 chars` advice.
    Detailed,
}

impl Caps {
    /// The rules of current releases.
    #[cfg(test)]
    pub(crate) const CURRENT: Caps = Caps {
        size_cap: true,
        strip_first: true,
        strip_comments: true,
        warning: WarningStyle::Detailed,
        drop_controls: true,
    };
}

/// The index below its frontmatter, as written, with each line's number in `raw`: what
/// releases before 2.1.72 measured.
fn below_frontmatter(raw: &str) -> Stripped {
    let body = crate::text::measure::below_frontmatter(raw);
    let skipped = raw[..raw.len() - body.len()].matches('\n').count() as u64;
    Stripped {
        text: body.to_owned(),
        raw_line_of: (1..=body.split('\n').count() as u64)
            .map(|line| line + skipped)
            .collect(),
        stripped: false,
    }
}

/// [`cut`] with the rules of a given release.
pub(crate) fn cut_with(raw: &str, caps: Caps) -> IndexCut {
    let mut stripped = if caps.strip_first && caps.strip_comments {
        strip_for_loading(raw)
    } else if caps.strip_first {
        below_frontmatter(raw)
    } else {
        Stripped {
            text: raw.to_owned(),
            raw_line_of: (1..=raw.split('\n').count() as u64).collect(),
            stripped: false,
        }
    };
    // Removing these never touches a `\n`, so the line map stays true.
    if caps.drop_controls && stripped.text.contains(is_dropped_control) {
        stripped.text.retain(|c| !is_dropped_control(c));
    } else if caps.strip_comments && raw.contains("<!--") && stripped.text.contains("\r\n") {
        stripped.text = stripped.text.replace("\r\n", "\n");
    }
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

    let mut truncation = Truncation {
        total_lines,
        loaded_lines,
        total_utf16: utf16_len(trimmed),
        loaded_utf16: utf16_len(loaded),
        cut_by,
        first_dropped_line,
        warning: None,
    };
    if cut_by.is_some() {
        let cut = if trimmed.as_bytes().get(loaded.len()) == Some(&b'\n') || loaded.is_empty() {
            // Whole lines were dropped: the first of them, numbered in the trimmed text.
            let index = loaded_lines as usize;
            let line = trimmed.split('\n').nth(index).unwrap_or_default();
            Dropped::Lines {
                first: index as u64 + 1,
                text: line,
            }
        } else {
            Dropped::PartOfLineOne
        };
        truncation.warning = Some(load_warning(&truncation, &cut, caps.warning));
    }
    IndexCut {
        truncation,
        loaded: loaded.to_owned(),
    }
}

/// What a cut dropped, for the warning.
enum Dropped<'a> {
    /// Line `first` (of the trimmed index, 1-based) and every line after it.
    Lines { first: u64, text: &'a str },
    /// The first line was longer than the size cap, and its end went.
    PartOfLineOne,
}

/// Carriage returns and every other control or format character but `\n` and `\t`: what
/// Claude Code removes from an index before measuring it (a CRLF file loads as LF).
pub(crate) fn is_dropped_control(c: char) -> bool {
    match c {
        '\n' | '\t' => false,
        '\0'..='\u{1f}' | '\u{7f}'..='\u{9f}' => true,
        _ => is_format_char(c),
    }
}

/// Unicode's format characters (category Cf): soft hyphen, bidirectional marks, zero-width
/// characters, the byte order mark, tags, and the rest.
fn is_format_char(c: char) -> bool {
    matches!(c,
        '\u{ad}' | '\u{600}'..='\u{605}' | '\u{61c}' | '\u{6dd}' | '\u{70f}' | '\u{890}'..='\u{891}'
        | '\u{8e2}' | '\u{180e}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}'
        | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{206f}' | '\u{feff}' | '\u{fff9}'..='\u{fffb}'
        | '\u{110bd}' | '\u{110cd}' | '\u{13430}'..='\u{1343f}' | '\u{1bca0}'..='\u{1bca3}'
        | '\u{1d173}'..='\u{1d17a}' | '\u{e0001}' | '\u{e0020}'..='\u{e007f}')
}

/// The warning Claude Code appends to a cut index, word for word, e.g. (2.1.328)
/// `> WARNING: MEMORY.md is 300 lines (limit: 200). Only part of it was loaded: 100 of 300
/// lines were cut off, starting at line 201 ("- [entry 201](e201.md) — …"). Keep index
/// entries to one line under ~200 chars; move detail into topic files.`
///
/// The size part names the whole index's size whenever it is over the cap, even when the
/// line cap alone did the cutting (`300 lines and 29.3KB`). A quoted line over 80 UTF-16
/// units is its first 79, trimmed at the end, and `…`.
fn load_warning(t: &Truncation, dropped: &Dropped<'_>, style: WarningStyle) -> String {
    let over_lines = t.total_lines > MAX_LINES;
    let over_size = t.total_utf16 > MAX_UTF16;
    let size = kilobytes(t.total_utf16);
    let limit = kilobytes(MAX_UTF16);
    let what = match (over_lines, over_size) {
        (true, true) => format!("{} lines and {size}KB", t.total_lines),
        (true, false) => format!("{} lines (limit: {MAX_LINES})", t.total_lines),
        _ => format!("{size}KB (limit: {limit}KB) — index entries are too long"),
    };
    match style {
        WarningStyle::FirstLines => format!(
            "> WARNING: MEMORY.md is {} lines (limit: {MAX_LINES}). Only the first {MAX_LINES} \
             lines were loaded. Move detailed content into separate topic files and keep \
             MEMORY.md as a concise index.",
            t.total_lines
        ),
        WarningStyle::PartLoaded => format!(
            "> WARNING: MEMORY.md is {what}. Only part of it was loaded. Keep index entries to \
             one line under ~200 chars; move detail into topic files."
        ),
        WarningStyle::Detailed => {
            let detail = match dropped {
                Dropped::Lines { first, text } => {
                    let cut = t.total_lines - (first - 1);
                    let total = t.total_lines;
                    match quote(text) {
                        Some(quoted) => format!(
                            "{cut} of {total} lines were cut off, starting at line {first} \
                             (\"{quoted}\")"
                        ),
                        None => {
                            format!("{cut} of {total} lines were cut off, starting at line {first}")
                        }
                    }
                }
                Dropped::PartOfLineOne => format!(
                    "everything after the first {} characters of line 1 was cut off",
                    t.loaded_utf16
                ),
            };
            format!(
                "> WARNING: MEMORY.md is {what}. Only part of it was loaded: {detail}. Keep index \
                 entries to one line under ~200 chars; move detail into topic files."
            )
        }
    }
}

/// How the warning quotes the first dropped line (measured on 2.1.328): trimmed; over 80
/// UTF-16 units, its first 79, ended at the last white space when that stands after unit
/// 40, trimmed again, and `…`. A blank line is not quoted at all.
fn quote(line: &str) -> Option<String> {
    let line = line.trim_matches(is_js_space);
    if line.is_empty() {
        return None;
    }
    if line.encode_utf16().count() <= 80 {
        return Some(line.to_owned());
    }
    let mut head = first_units(line, 79);
    if let Some((at, _)) = head.char_indices().rev().find(|(_, c)| is_js_space(*c)) {
        if head[..at].encode_utf16().count() > 40 {
            head = &head[..at];
        }
    }
    Some(format!("{}…", head.trim_end_matches(is_js_space)))
}

/// The longest prefix of `text` of at most `units` UTF-16 units that ends on a char
/// boundary (JavaScript's `slice` would split a surrogate pair; this keeps it whole or out).
fn first_units(text: &str, units: u64) -> &str {
    let mut count = 0;
    for (i, c) in text.char_indices() {
        count += c.len_utf16() as u64;
        if count > units {
            return &text[..i];
        }
    }
    text
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

    /// U+2028 and U+2029 are no line breaks to the 200-line cap, and are sent as line feeds
    /// (measured on 2.1.328 and 2.1.337: `memory-md-line-separators-break-lines`).
    #[test]
    fn line_separators_are_sent_as_line_feeds_but_not_counted_by_the_cap() {
        let mut lines: Vec<String> = (1..=199).map(|i| format!("- entry {i}")).collect();
        lines[9] = "- ten\u{2028}after".to_owned();
        lines[19] = "- twenty\u{2029}after".to_owned();
        let raw = lines.join("\n");
        let index = cut(&raw);
        assert!(
            index.truncation.warning.is_none(),
            "199 lines: nothing is cut"
        );
        let sent = index.as_sent();
        assert_eq!(sent.split('\n').count(), 201);
        assert!(sent.contains("- ten\nafter") && sent.contains("- twenty\nafter"));
        assert_eq!(
            sent.encode_utf16().count(),
            raw.encode_utf16().count(),
            "the size in UTF-16 units is the same"
        );
    }

    #[test]
    fn small_indexes_load_whole() {
        check("", "0/0 -> 0/0 by - from -");
        check("   \n\n\t", "0/0 -> 0/0 by - from -");
        check("a", "1/1 -> 1/1 by - from -");
        check("a\nb\n", "2/3 -> 2/3 by - from -");
        check("\n\n  a\n\n", "1/1 -> 1/1 by - from -");
        // Carriage returns go before measuring: a CRLF index is measured as LF.
        check("a\r\nb\r\n", "2/3 -> 2/3 by - from -");
        check(
            "---\ntype: x\n---\n<!-- note -->\na\n",
            "1/1 -> 1/1 by - from -",
        );
        check("\u{feff}\u{3000}a\u{2029}", "1/1 -> 1/1 by - from -");
        // U+0085 is a C1 control: Claude Code drops it before measuring.
        check("\u{85}a\u{85}", "1/1 -> 1/1 by - from -");
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

    /// Checks the near-limit reminder for an uncut index of these figures.
    fn check_reminder(lines: u64, utf16: u64, expected: Option<&str>) {
        let truncation = Truncation {
            total_lines: lines,
            loaded_lines: lines,
            total_utf16: utf16,
            loaded_utf16: utf16,
            ..Truncation::default()
        };
        let actual = near_limit_warning(&truncation);
        assert_eq!(actual.as_deref(), expected, "{lines} lines, {utf16} units");
    }

    #[test]
    fn reminders() {
        check_reminder(161, 3000, Some("The memory index at MEMORY.md is 161 lines, approaching the 200-line read limit. Compact it to under 140 lines now: keep one line per entry, move detail into topic files, and merge or drop stale entries."));
        check_reminder(160, 3000, Some("The memory index at MEMORY.md is 160 lines, approaching the 200-line read limit. Compact it to under 140 lines now: keep one line per entry, move detail into topic files, and merge or drop stale entries."));
        check_reminder(200, 24_000, Some("The memory index at MEMORY.md is 200 lines, approaching the 200-line read limit. Compact it to under 140 lines now: keep one line per entry, move detail into topic files, and merge or drop stale entries."));
        check_reminder(100, 20_399, Some("The memory index at MEMORY.md is 19.9KB, approaching the 24.4KB read limit. Compact it to under 17.1KB now: keep one line per entry, move detail into topic files, and merge or drop stale entries."));
        check_reminder(100, 20_000, Some("The memory index at MEMORY.md is 19.5KB, approaching the 24.4KB read limit. Compact it to under 17.1KB now: keep one line per entry, move detail into topic files, and merge or drop stale entries."));
        check_reminder(159, 19_999, None);
        check_reminder(0, 0, None);
    }

    /// The warnings below are the program's own, captured from Claude Code 2.1.328 on
    /// indexes built the same way (see fixtures/conformance/ for the replayed cases).
    #[test]
    fn warnings_say_what_was_cut() {
        let warning = |raw: &str| cut(raw).truncation.warning.unwrap_or_default();
        let entries: String = (1..=300)
            .map(|i| {
                format!(
                    "- [entry {i}](e{i}.md) — some description text here for entry number {i}\n"
                )
            })
            .collect();
        assert_eq!(warning(&entries), "> WARNING: MEMORY.md is 300 lines (limit: 200). Only part of it was loaded: 100 of 300 lines were cut off, starting at line 201 (\"- [entry 201](e201.md) — some description text here for entry number 201\"). Keep index entries to one line under ~200 chars; move detail into topic files.");

        let long = |count: usize| -> String {
            (1..count)
                .map(|i| format!("- [entry {i}](e{i}.md) — {}\n", "x".repeat(300)))
                .collect()
        };
        let x56 = "x".repeat(56);
        let z64 = "z".repeat(64);
        assert_eq!(warning(&long(150)), format!("> WARNING: MEMORY.md is 47.2KB (limit: 24.4KB) — index entries are too long. Only part of it was loaded: 72 of 149 lines were cut off, starting at line 78 (\"- [entry 78](e78.md) — {x56}…\"). Keep index entries to one line under ~200 chars; move detail into topic files."));
        assert_eq!(warning(&long(250)), format!("> WARNING: MEMORY.md is 249 lines and 79.1KB. Only part of it was loaded: 172 of 249 lines were cut off, starting at line 78 (\"- [entry 78](e78.md) — {x56}…\"). Keep index entries to one line under ~200 chars; move detail into topic files."));
        assert_eq!(warning(&format!("{}\n", "y".repeat(30_000))), "> WARNING: MEMORY.md is 29.3KB (limit: 24.4KB) — index entries are too long. Only part of it was loaded: everything after the first 25000 characters of line 1 was cut off. Keep index entries to one line under ~200 chars; move detail into topic files.");

        // Over both caps in total though the first 200 lines fit: the size still shows, and
        // lines are numbered in the stripped, trimmed index (not the raw file).
        let padded: String = (1..=300)
            .map(|i| format!("- [e{i:03}](e.md) {}\n", "z".repeat(84)))
            .collect();
        let cut_text = cut(&format!("---\ntype: x\n---\n\n<!-- c -->\n{padded}"));
        assert_eq!(cut_text.truncation.warning, Some(format!("> WARNING: MEMORY.md is 300 lines and 29.3KB. Only part of it was loaded: 100 of 300 lines were cut off, starting at line 201 (\"- [e201](e.md) {z64}…\"). Keep index entries to one line under ~200 chars; move detail into topic files.")));
        assert_eq!(cut_text.truncation.first_dropped_line, Some(206));
        assert!(cut_text.as_sent().ends_with(&format!("zzzz\n\n> WARNING: MEMORY.md is 300 lines and 29.3KB. Only part of it was loaded: 100 of 300 lines were cut off, starting at line 201 (\"- [e201](e.md) {z64}…\"). Keep index entries to one line under ~200 chars; move detail into topic files.")));
        assert_eq!(cut("- a\n").truncation.warning, None);
    }

    #[test]
    fn control_and_format_characters_are_dropped_before_the_caps() {
        let result = cut("- a\r\n- b\u{7}\u{200b}c\t\r\n");
        assert_eq!(result.loaded, "- a\n- bc");
        assert_eq!(result.truncation.total_lines, 2);
    }

    #[test]
    fn quoted_index_is_a_preamble_then_every_line_after_a_quote_mark() {
        assert_eq!(utf16_len(QUOTED_PREAMBLE), 273);
        let whole = cut_with("- a\n\n- b", Caps::CURRENT);
        assert_eq!(
            whole.as_sent_quoted(),
            format!("{QUOTED_PREAMBLE}> - a\n> \n> - b")
        );
        // The warning loses its own `> ` and is quoted like the lines (2.1.337's capture of
        // `memory-md-201-lines-cut-with-warning`).
        let lines: Vec<String> = (1..=201).map(|n| format!("- line {n}")).collect();
        let sent = cut_with(&lines.join("\n"), Caps::CURRENT).as_sent_quoted();
        assert!(sent.ends_with(
            "> - line 200\n> \n> WARNING: MEMORY.md is 201 lines (limit: 200). Only part of it \
             was loaded: 1 of 201 lines were cut off, starting at line 201 (\"- line 201\"). \
             Keep index entries to one line under ~200 chars; move detail into topic files."
        ));
        assert_eq!(cut_with(" \n", Caps::CURRENT).as_sent_quoted(), "");
        // A line's run of `> ` becomes one; U+2028 starts a line as `\n` does.
        assert_eq!(
            quoted("> > twice\n>  spaced\n>x\nx\u{2028}y\n"),
            format!("{QUOTED_PREAMBLE}> twice\n>  spaced\n> >x\n> x\u{2028}> y\n> ")
        );
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
