//! Measuring text, and the content Claude Code actually injects.

use crate::report::Measure;

use super::frontmatter;

/// Bytes, chars, UTF-16 units and lines (as `str::lines` counts them) of `text`.
pub(crate) fn measure(text: &str) -> Measure {
    let (chars, utf16) = text.chars().fold((0u64, 0u64), |(chars, utf16), c| {
        (chars + 1, utf16 + c.len_utf16() as u64)
    });
    Measure {
        bytes: text.len() as u64,
        chars,
        utf16,
        lines: text.lines().count() as u64,
    }
}

/// The loaded content of a file and where each of its lines came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Stripped {
    /// The text with frontmatter and block-level HTML comments removed.
    pub(crate) text: String,
    /// For each line of `text` (split on `\n`), the 1-based line number in the raw text
    /// where that line starts. Always at least one entry.
    pub(crate) raw_line_of: Vec<u64>,
    /// True when a comment block was stripped; false when the text is below its frontmatter
    /// as written but for the lexer's line ends (a `<!--` in a fence or inline only).
    pub(crate) stripped: bool,
}

/// Removes what Claude Code removes before injecting a file (measured on 2.1.328 and 2.1.337:
/// `text-frontmatter-and-block-comments-stripped`,
/// `text-comments-follow-the-programs-markdown-reader`):
/// - the YAML frontmatter, from the first line `---` through the closing `---` line and its
///   line break (only when both lines exist);
/// - when the text holds a `<!--` at all, it goes through the program's Markdown lexer (a
///   reworked `marked`), which makes every CRLF and every lone CR a LF first, comment
///   stripped or not;
/// - HTML comments in every top-level HTML block that starts with `<!--` (the Markdown
///   block structure decides: a comment inside a list item, a block quote, an HTML `<div>`
///   block, a fence or an indented code block stays). Unlike CommonMark, the lexer lets a
///   comment interrupt a paragraph only when it is not indented: `para\n   <!-- c -->` keeps
///   the comment as a line of the paragraph, `para\n<!-- c -->` loses it. When nothing but
///   white space is left of such a block it goes whole, with the blank lines after it;
///   otherwise what stands outside its comments stays (`<!-- c --> tail` leaves ` tail`).
///   An unclosed `<!--` stays.
///
/// Nothing else changes: no trimming, and without a `<!--` line ends are kept as they are.
pub(crate) fn strip_for_loading(text: &str) -> Stripped {
    if !text.contains("<!--") {
        // The program lexes nothing: the text below the frontmatter, as written.
        let mut out = Output::new(text);
        out.keep(
            frontmatter::locate(text).map_or(0, |block| block.body_offset),
            text.len(),
        );
        return out.finish(false);
    }
    let normalised = text.replace("\r\n", "\n").replace('\r', "\n");
    let mut stripped = strip_lexed(&normalised);
    if normalised.len() != text.len() {
        // Lines of the lexed text back to the raw lines they stand on: a lone CR made a
        // line of its own that the raw text (split on LF) does not have.
        let mut raw_line = vec![1u64];
        let mut line = 1u64;
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\r' if chars.peek() == Some(&'\n') => {}
                '\r' => raw_line.push(line),
                '\n' => {
                    line += 1;
                    raw_line.push(line);
                }
                _ => {}
            }
        }
        for at in &mut stripped.raw_line_of {
            let index = usize::try_from(at.saturating_sub(1)).unwrap_or(usize::MAX);
            *at = raw_line.get(index).copied().unwrap_or(line);
        }
    }
    stripped
}

/// [`strip_for_loading`] of a text whose line ends are LF.
fn strip_lexed(text: &str) -> Stripped {
    use pulldown_cmark::{Event, Parser, Tag};

    let body_start = frontmatter::locate(text).map_or(0, |block| block.body_offset);
    let mut out = Output::new(text);
    let mut pos = body_start;
    let mut depth = 0usize;
    let mut blocks = Vec::new();
    let mut stripped = false;
    // Where a paragraph's text stands (a tight list item's too), to tell which lines a
    // following indented comment would continue.
    let mut paragraph_text = Vec::new();
    let mut open: Vec<bool> = Vec::new();
    for (event, range) in Parser::new(&text[body_start..]).into_offset_iter() {
        let range = body_start + range.start..body_start + range.end;
        match event {
            Event::Start(tag) => {
                if depth == 0 && matches!(tag, Tag::HtmlBlock) {
                    blocks.push(range);
                }
                open.push(matches!(tag, Tag::Paragraph | Tag::Item));
                depth += 1;
            }
            Event::End(_) => {
                open.pop();
                depth = depth.saturating_sub(1);
            }
            _ => {
                if open.last().copied().unwrap_or(false) {
                    paragraph_text.push(range);
                }
            }
        }
    }
    for mut block in blocks {
        // The block starts where its line does: the indentation goes with it.
        let line_start = text[..block.start].rfind('\n').map_or(0, |i| i + 1);
        let indent = &text[line_start..block.start];
        let indented = !indent.is_empty() && indent.bytes().all(|b| b == b' ');
        if indented && continues_paragraph(text, line_start, &paragraph_text) {
            // The program's lexer reads the line as the paragraph's: nothing is stripped.
            continue;
        }
        if indent.bytes().all(|b| b == b' ') {
            block.start = line_start.max(pos);
        }
        let raw = &text[block.clone()];
        if !raw.trim_start().starts_with("<!--") {
            continue;
        }
        let comments = comment_ranges(raw);
        if comments.is_empty() {
            continue;
        }
        let mut residue = Vec::new();
        let mut at = 0;
        for comment in &comments {
            residue.push(at..comment.start);
            at = comment.end;
        }
        residue.push(at..raw.len());
        let left_is_blank = residue.iter().all(|r| raw[r.clone()].trim().is_empty());
        stripped = true;
        out.keep(pos, block.start);
        if left_is_blank {
            // The block goes with the blank lines after it.
            let mut end = block.end;
            while let Some(line_end) = text[end..].find('\n') {
                if text[end..end + line_end].trim().is_empty() {
                    end += line_end + 1;
                } else {
                    break;
                }
            }
            pos = end;
        } else {
            for r in residue {
                out.keep(block.start + r.start, block.start + r.end);
            }
            pos = block.end;
        }
    }
    out.keep(pos, text.len());
    out.finish(stripped)
}

/// True when the line before the one starting at `line_start` holds a paragraph's text
/// (`paragraph_text`, in order), so that a line starting at `line_start` would continue it.
fn continues_paragraph(
    text: &str,
    line_start: usize,
    paragraph_text: &[std::ops::Range<usize>],
) -> bool {
    let Some(before) = line_start.checked_sub(1) else {
        return false;
    };
    let previous = text[..before].rfind('\n').map_or(0, |i| i + 1)..before;
    if text[previous.clone()].trim().is_empty() {
        return false;
    }
    let first = paragraph_text.partition_point(|r| r.end <= previous.start);
    paragraph_text[first..]
        .iter()
        .take_while(|r| r.start < previous.end)
        .any(|r| r.start < r.end)
}

/// The byte ranges of the closed `<!-- … -->` comments in `text`.
fn comment_ranges(text: &str) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(open) = text[from..].find("<!--") {
        let open = from + open;
        let Some(close) = text[open + 4..].find("-->") else {
            break;
        };
        let end = open + 4 + close + 3;
        out.push(open..end);
        from = end;
    }
    out
}

/// A file's text exactly as the pinned release sends it: [`strip_for_loading`], trimmed as
/// JavaScript's `trim` does (which takes a byte order mark too). Empty means the program
/// sends nothing for the file.
pub(crate) fn as_sent(text: &str) -> String {
    trimmed_for_block(&as_attached(text, false))
}

/// [`as_sent`] of a text already stripped ([`as_attached`]): trimmed. Line ends stay as the
/// strip left them: CRLF and a lone CR arrive as written unless the Markdown lexer ran
/// (measured on 2.1.328: `text-comments-follow-the-programs-markdown-reader`).
pub(crate) fn trimmed_for_block(stripped: &str) -> String {
    stripped.trim_matches(is_js_space).to_owned()
}

/// A file's text as a Read attaches it: [`strip_for_loading`] and nothing more. Unlike the
/// instruction block's files it is not trimmed, and CRLF stays (measured on 2.1.328:
/// `nested-read-attachment-whitespace`). With `as_written_unless_stripped` (from 2.1.330), a
/// text none of whose comments the strip removed is the text below its frontmatter as
/// written, its line ends too.
pub(crate) fn as_attached(text: &str, as_written_unless_stripped: bool) -> String {
    let stripped = strip_for_loading(text);
    if as_written_unless_stripped && !stripped.stripped {
        below_frontmatter(text).to_owned()
    } else {
        stripped.text
    }
}

/// A file's text below its frontmatter, as written: what releases before 2.1.72 sent.
pub(crate) fn below_frontmatter(text: &str) -> &str {
    &text[frontmatter::locate(text).map_or(0, |block| block.body_offset)..]
}

/// What JavaScript's `String.prototype.trim` removes: the ECMAScript WhiteSpace (tab, vertical
/// tab, form feed, U+FEFF and every space separator) and LineTerminator code points. Unlike
/// Rust's `char::is_whitespace` this excludes U+0085, which JavaScript keeps.
pub(crate) fn is_js_space(c: char) -> bool {
    match c {
        // Tab, line feed, vertical tab, form feed and carriage return.
        '\t'..='\r' => true,
        // The space separators of Unicode (category Zs).
        ' ' | '\u{00A0}' | '\u{1680}' | '\u{2000}'..='\u{200A}' => true,
        '\u{202F}' | '\u{205F}' | '\u{3000}' => true,
        // Line and paragraph separators, and the byte order mark.
        '\u{2028}' | '\u{2029}' | '\u{FEFF}' => true,
        _ => false,
    }
}

/// Tracks fenced code blocks line by line, as CommonMark opens and closes them.
#[derive(Debug, Clone, Default)]
pub(crate) struct FenceTracker {
    /// The fence character and run length of the open fence, if one is open.
    open: Option<(u8, usize)>,
}

impl FenceTracker {
    /// Feeds the next line (with or without its line end); true when the line belongs to a
    /// fenced block, opening and closing fence lines included.
    pub(crate) fn step(&mut self, line: &str) -> bool {
        let line = line.trim_end_matches(['\n', '\r']);
        match self.open {
            Some((fence_char, len)) => {
                if let Some((c, run, rest)) = fence_run(line) {
                    if c == fence_char && run >= len && rest.trim().is_empty() {
                        self.open = None;
                    }
                }
                true
            }
            None => {
                let Some((c, run, rest)) = fence_run(line) else {
                    return false;
                };
                // CommonMark: a backtick fence's info string cannot hold a backtick, so
                // "```x```" on one line is an inline code span, not a fence.
                if c == b'`' && rest.contains('`') {
                    return false;
                }
                self.open = Some((c, run));
                true
            }
        }
    }
}

/// A run of three or more backticks or tildes after at most three spaces: the fence
/// character, the run length and what follows the run.
fn fence_run(line: &str) -> Option<(u8, usize, &str)> {
    let body = strip_indent(line)?;
    let c = *body.as_bytes().first()?;
    if c != b'`' && c != b'~' {
        return None;
    }
    let run = body.bytes().take_while(|&b| b == c).count();
    (run >= 3).then(|| (c, run, &body[run..]))
}

/// The line without up to three leading spaces; `None` when it is indented further, which
/// makes it an indented code line in CommonMark rather than a block start.
pub(crate) fn strip_indent(line: &str) -> Option<&str> {
    let spaces = line.bytes().take_while(|&b| b == b' ').count();
    if spaces > 3 {
        return None;
    }
    let rest = &line[spaces..];
    (!rest.starts_with('\t')).then_some(rest)
}

/// Builds the stripped text from kept ranges of the raw text, recording for each output
/// line the raw line where its first kept character stands.
struct Output<'a> {
    raw: &'a str,
    /// Byte offsets where raw lines 2, 3, … start.
    raw_line_starts: Vec<usize>,
    text: String,
    raw_line_of: Vec<u64>,
    /// True when an output line has begun but no kept character has placed it yet: its raw
    /// line is only known once the next kept range (after any removal) arrives.
    pending: bool,
}

impl<'a> Output<'a> {
    fn new(raw: &'a str) -> Output<'a> {
        let raw_line_starts = raw.match_indices('\n').map(|(i, _)| i + 1).collect();
        Output {
            raw,
            raw_line_starts,
            text: String::with_capacity(raw.len()),
            raw_line_of: Vec::new(),
            pending: true,
        }
    }

    /// The 1-based raw line holding byte `pos`.
    fn line_at(&self, pos: usize) -> u64 {
        self.raw_line_starts.partition_point(|&start| start <= pos) as u64 + 1
    }

    fn keep(&mut self, start: usize, end: usize) {
        if start >= end {
            return;
        }
        if self.pending {
            self.raw_line_of.push(self.line_at(start));
            self.pending = false;
        }
        let piece = &self.raw[start..end];
        for (i, _) in piece.match_indices('\n') {
            if start + i + 1 < end {
                self.raw_line_of.push(self.line_at(start + i + 1));
            } else {
                self.pending = true;
            }
        }
        self.text.push_str(piece);
    }

    fn finish(mut self, stripped: bool) -> Stripped {
        if self.pending {
            self.raw_line_of.push(self.line_at(self.raw.len()));
        }
        Stripped {
            text: self.text,
            raw_line_of: self.raw_line_of,
            stripped,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks `measure` as `bytes chars utf16 lines`.
    fn check_measure(text: &str, expected: &str) {
        let m = measure(text);
        let actual = format!("{} {} {} {}", m.bytes, m.chars, m.utf16, m.lines);
        assert_eq!(actual, expected, "input: {text:?}");
    }

    #[test]
    fn measures() {
        check_measure("", "0 0 0 0");
        check_measure("a", "1 1 1 1");
        check_measure("a\n", "2 2 2 1");
        check_measure("a\nb", "3 3 3 2");
        check_measure("a\r\nb\r\n", "6 6 6 2");
        check_measure("\n\n", "2 2 2 2");
        check_measure("가", "3 1 1 1");
        check_measure("é", "2 1 1 1");
        check_measure("😀", "4 1 2 1");
        check_measure("a😀가\n", "9 4 5 1");
        check_measure("\u{feff}x", "4 2 2 1");
    }

    /// Checks `strip_for_loading`: the stripped text, then `|` and the raw line of each
    /// stripped line, comma-separated.
    fn check(text: &str, expected: &str) {
        let s = strip_for_loading(text);
        assert_eq!(
            s.raw_line_of.len(),
            s.text.split('\n').count(),
            "one raw line per stripped line for {text:?}"
        );
        let lines: Vec<String> = s.raw_line_of.iter().map(u64::to_string).collect();
        let actual = format!("{}|{}", s.text, lines.join(","));
        assert_eq!(actual, expected, "input: {text:?}");
    }

    #[test]
    fn plain_text_is_unchanged() {
        check("", "|1");
        check("a", "a|1");
        check("a\nb\n", "a\nb\n|1,2,3");
        check("a\r\n\r\nb", "a\r\n\r\nb|1,2,3");
        check("  lead and trail  \n\n", "  lead and trail  \n\n|1,2,3");
    }

    #[test]
    fn frontmatter_is_removed() {
        check("---\na: 1\n---\nbody\n", "body\n|4,5");
        check("---\r\na: 1\r\n---\r\nbody", "body|4");
        check("---\na: 1\n---", "|3");
        check("---\n---\n", "|3");
        check("---\na: 1\n", "---\na: 1\n|1,2,3");
        check("---", "---|1");
        check("\n---\na: 1\n---\n", "\n---\na: 1\n---\n|1,2,3,4,5");
        check("---\nbad: [\n---\nbody", "body|4");
    }

    #[test]
    fn whole_line_comments_are_removed() {
        check("<!-- c -->\nbody", "body|2");
        check("a\n<!-- c -->\nb", "a\nb|1,3");
        check("a\n<!-- c -->  \t\r\nb", "a\nb|1,3");
        check("a\n<!-- one\ntwo\nthree -->\nb", "a\nb|1,5");
        check("a\n<!-- c -->", "a\n|1,2");
        check("a\n<!-- c -->\n", "a\n|1,3");
        check("<!-- c -->", "|1");
        check("<!---->\nx", "x|2");
        check("<!-- a -->\n<!-- b -->\nx", "x|3");
        check("---\nk: v\n---\n<!-- c -->\nx\n", "x\n|5,6");
    }

    #[test]
    fn comments_with_text_after_keep_the_text() {
        check("<!-- c --> after\nb", " after\nb|1,2");
        check("  <!-- c -->after", "  after|1");
        check("<!-- one\ntwo --> tail\nb", " tail\nb|2,3");
        // Every comment of a block that starts with one goes (measured on 2.1.328).
        check("<!-- a --><!-- b -->\nx", "x|2");
        check("<!-- a --> mid <!-- b --> end", " mid  end|1");
        // Inside a list item, a block quote or an HTML block, a comment stays.
        check("- item\n  <!-- c -->", "- item\n  <!-- c -->|1,2");
        check("> q\n> <!-- c -->", "> q\n> <!-- c -->|1,2");
        check(
            "<div>\n<!-- c -->\n</div>",
            "<div>\n<!-- c -->\n</div>|1,2,3",
        );
        // A block left blank goes with the blank lines after it.
        check("a\n\n<!--\nb\n-->\n\nc", "a\n\nc|1,2,7");
    }

    /// The program's Markdown lexer lets a comment interrupt a paragraph only when it is not
    /// indented (measured on 2.1.328 and 2.1.337:
    /// `text-comments-follow-the-programs-markdown-reader`).
    #[test]
    fn an_indented_comment_continues_a_paragraph() {
        check("a\n   <!-- c -->\nb", "a\n   <!-- c -->\nb|1,2,3");
        check("a\n <!-- c -->\n", "a\n <!-- c -->\n|1,2,3");
        check("a\n  <!-- c --> tail\n", "a\n  <!-- c --> tail\n|1,2,3");
        check(
            "a\n   <!--\nmulti\n-->\nb\n",
            "a\n   <!--\nmulti\n-->\nb\n|1,2,3,4,5,6",
        );
        check(
            "a\n   <!-- c -->\n<!-- d -->\nb",
            "a\n   <!-- c -->\nb|1,2,4",
        );
        check("- item\n <!-- c -->\n", "- item\n <!-- c -->\n|1,2,3");
        // Not after a paragraph: stripped as before.
        check("\n   <!-- c -->\ntext\n", "\ntext\n|1,3,4");
        check("# H\n   <!-- c -->\nx\n", "# H\nx\n|1,3,4");
        check(
            "```\nx\n```\n  <!-- c -->\ny\n",
            "```\nx\n```\ny\n|1,2,3,5,6",
        );
        // Not indented: it interrupts the paragraph.
        check("para\n<!-- c -->\nmore\n", "para\nmore\n|1,3,4");
        check("para\n<!-- a --> mid <!-- b -->\n", "para\n mid \n|1,2,3");
        check("> quote\n<!-- c -->\n", "> quote\n|1,3");
        check("1. item\n<!-- c -->\n", "1. item\n|1,3");
    }

    /// A text holding `<!--` goes through the lexer, which makes every CRLF and lone CR a
    /// LF; one without keeps them.
    #[test]
    fn the_lexer_makes_line_ends_lf() {
        check(
            "text\r\nlone\rcr <!-- inline -->\r\n",
            "text\nlone\ncr <!-- inline -->\n|1,2,2,3",
        );
        check("\tindented\r\n<!-- c -->\r\n", "\tindented\n|1,3");
        check("<!-- a -->\r\ntext\r\nmore\r\n", "text\nmore\n|2,3,4");
        check("text\r\nlone\rcr\r\n", "text\r\nlone\rcr\r\n|1,2,3");
    }

    #[test]
    fn comments_that_stay() {
        check("text <!-- inline -->\n", "text <!-- inline -->\n|1,2");
        check(
            "    <!-- indented code -->\n",
            "    <!-- indented code -->\n|1,2",
        );
        check("\t<!-- tab -->\n", "\t<!-- tab -->\n|1,2");
        check("<!-- unclosed\nstill here", "<!-- unclosed\nstill here|1,2");
        check(
            "<!-- unclosed\n<!-- again\nx",
            "<!-- unclosed\n<!-- again\nx|1,2,3",
        );
        check("<!- not a comment -->", "<!- not a comment -->|1");
        check("<!--", "<!--|1");
        check("<!--->", "<!--->|1");
    }

    #[test]
    fn fenced_code_keeps_comments() {
        check(
            "```\n<!-- c -->\n```\n<!-- d -->\nx",
            "```\n<!-- c -->\n```\nx|1,2,3,5",
        );
        check("~~~\n<!-- c -->\n~~~\n", "~~~\n<!-- c -->\n~~~\n|1,2,3,4");
        check(
            "````md\n```\n<!-- c -->\n````\n",
            "````md\n```\n<!-- c -->\n````\n|1,2,3,4,5",
        );
        check(
            "```\n<!-- c -->\n~~~\n<!-- d -->",
            "```\n<!-- c -->\n~~~\n<!-- d -->|1,2,3,4",
        );
        check("```\n```x\n<!-- c -->\n", "```\n```x\n<!-- c -->\n|1,2,3,4");
        check(
            "```\nx\n   ```  \n<!-- c -->\ny",
            "```\nx\n   ```  \ny|1,2,3,5",
        );
        check(
            "```\r\n<!-- c -->\r\n```\r\n<!-- d -->\r\nx",
            "```\n<!-- c -->\n```\nx|1,2,3,5",
        );
        check("```x```\n<!-- c -->\ny", "```x```\ny|1,3");
        check("``\n<!-- c -->\n", "``\n|1,3");
        check("    ```\n<!-- c -->\n", "    ```\n|1,3");
        check(
            "```\nunclosed <!-- c -->\n<!-- d -->",
            "```\nunclosed <!-- c -->\n<!-- d -->|1,2,3",
        );
    }

    #[test]
    fn multibyte_text_next_to_cuts() {
        check("가<!-- c -->\n", "가<!-- c -->\n|1,2");
        check("<!-- 가 -->나\n다", "나\n다|1,2");
        check("😀\n<!-- 😀 -->\n😀", "😀\n😀|1,3");
    }

    #[test]
    fn fence_tracker() {
        let mut fence = FenceTracker::default();
        let seen: Vec<bool> = [
            "a", "```rust", "x", "``", "```", "b", "~~~~", "~~~", "~~~~~",
        ]
        .iter()
        .map(|line| fence.step(line))
        .collect();
        assert_eq!(
            seen,
            [false, true, true, true, true, false, true, true, true]
        );
    }
}
