//! `@` imports and Markdown links in a file's text.

use std::collections::BTreeSet;
use std::ops::Range;

use crate::report::ReferenceKind;

use super::frontmatter;
use super::measure::{is_js_space, FenceTracker};

/// A reference as written in a file, before it is resolved against the tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RawReference {
    /// Import or link.
    pub(crate) kind: ReferenceKind,
    /// The path the reference names, decoded from what is written at [`RawReference::span`]:
    /// for an import, with each `\ ` unescaped to a space and cut before the first `#`; for a
    /// link, with backslash escapes of ASCII punctuation resolved, cut before the first `#`,
    /// then percent-decoded (left percent-encoded when the decoded bytes are not UTF-8).
    pub(crate) target: String,
    /// The byte range of the scanned text where the target is written, undecoded, on `char`
    /// boundaries. For an import: from just after the `@` to the white space, code span or
    /// end of text that ends the path, so it holds every `\ ` escape, any `#fragment` and
    /// any trailing punctuation. For a link: the destination inside the parentheses, inside
    /// the angle brackets when wrapped in `<…>` (the brackets excluded), with its backslash
    /// and percent escapes and any `#fragment`; never the white space around it or a title.
    /// Spans can overlap: an import inside a link's text can run on over the link's
    /// destination (`[see @a.md](b.md)`).
    pub(crate) span: Range<usize>,
    /// The 1-based line in the text.
    pub(crate) line: u64,
    /// True when the import's path ends in punctuation that Claude Code keeps as part of the
    /// path (`:` `,` `;` `.` `)` `!` `?`), so that `@a.md,` fails to resolve.
    pub(crate) trailing_punctuation: bool,
}

/// Every import and link in `text`, in order of appearance.
///
/// An import is `@` at the start of a line or after white space, then a path up to the next
/// white space or lone backslash (`\ ` escapes a space): Claude Code's
/// `(?:^|\s)@((?:[^\s\\]|\\ )+)`. The path is taken when it starts with `./`, `~/` or `/`
/// (not `/` alone) or with an ASCII letter, digit, `.`, `_` or `-`; no extension is needed
/// (`@biomejs/biome` is an import when that file exists; whether it does is the caller's
/// business). Indented code blocks are skipped like fenced ones.
/// A link is `[text](target)` whose target is not `http:`, `https:`, `mailto:` (any scheme
/// `x:` with two or more letters) and not a bare `#anchor`; a `<…>`-wrapped target and a
/// `"title"` after the target are handled as Markdown does. The frontmatter block, fenced
/// code blocks (``` and ~~~) and inline code spans are never scanned. Each reference carries
/// the byte range where its target is written ([`RawReference::span`]), so that a caller can
/// rewrite it in place.
pub(crate) fn scan(text: &str) -> Vec<RawReference> {
    scan_with(text, true)
}

/// [`scan`], where `comments_stripped` says whether the release strips block comments before
/// it scans (2.1.72 on): before, a top-level HTML block that starts with a comment is HTML
/// like any other, and nothing in it is an import.
pub(crate) fn scan_with(text: &str, comments_stripped: bool) -> Vec<RawReference> {
    let skip_lines = frontmatter::locate(text).map_or(0, |block| block.line_count);
    let body_start = frontmatter::locate(text).map_or(0, |block| block.body_offset);
    let regions = import_regions(text, body_start, comments_stripped);
    let mut found = Vec::new();
    let mut fence = FenceTracker::default();
    // Code spans cannot cross a blank line or a fence, so the text is scanned one paragraph
    // (a run of non-blank lines outside fences) at a time.
    let mut paragraph: Option<usize> = None;
    let mut offset = 0;
    for (index, line) in text.split_inclusive('\n').enumerate() {
        let start = offset;
        offset += line.len();
        if index < skip_lines {
            continue;
        }
        // A line indented four or more columns outside a paragraph is indented code.
        let indented_code = paragraph.is_none() && super::measure::strip_indent(line).is_none();
        if fence.step(line) || line.trim().is_empty() || indented_code {
            if let Some(paragraph_start) = paragraph.take() {
                scan_paragraph(text, paragraph_start..start, &regions, &mut found);
            }
        } else if paragraph.is_none() {
            paragraph = Some(start);
        }
    }
    if let Some(paragraph_start) = paragraph {
        scan_paragraph(text, paragraph_start..text.len(), &regions, &mut found);
    }

    // A link's text can hold an import, so the two scans interleave.
    found.sort_by_key(|(position, _)| *position);
    let newlines: Vec<usize> = text.match_indices('\n').map(|(i, _)| i).collect();
    found
        .into_iter()
        .map(|(position, mut reference)| {
            reference.line = newlines.partition_point(|&n| n < position) as u64 + 1;
            reference
        })
        .collect()
}

/// Characters that Claude Code keeps at the end of an import path, where a reader meant
/// them as sentence punctuation.
const TRAILING_PUNCTUATION: &[char] = &[':', ',', ';', '.', ')', '!', '?'];

/// Finds the references in one paragraph; positions are byte offsets in the whole text.
fn scan_paragraph(
    text: &str,
    range: Range<usize>,
    regions: &[Range<usize>],
    found: &mut Vec<(usize, RawReference)>,
) {
    let base = range.start;
    let paragraph = &text[range];
    let code = code_span_mask(paragraph);
    let shift = |span: Range<usize>| base + span.start..base + span.end;
    for (position, span, target) in imports(paragraph, base, regions, &code) {
        found.push((base + position, import(target, shift(span))));
    }
    for (position, span, target) in links(paragraph, &code) {
        found.push((base + position, link(target, shift(span))));
    }
}

fn import(target: String, span: Range<usize>) -> RawReference {
    let trailing_punctuation = target.ends_with(TRAILING_PUNCTUATION);
    RawReference {
        kind: ReferenceKind::Import,
        target,
        span,
        line: 0,
        trailing_punctuation,
    }
}

fn link(target: String, span: Range<usize>) -> RawReference {
    RawReference {
        kind: ReferenceKind::Link,
        target,
        span,
        line: 0,
        trailing_punctuation: false,
    }
}

/// Marks the bytes inside inline code spans, backticks included. A run of backticks opens a
/// span that the next run of exactly the same length closes, as CommonMark reads them; a run
/// with no partner is literal text.
fn code_span_mask(paragraph: &str) -> Vec<bool> {
    let bytes = paragraph.as_bytes();
    let mut mask = vec![false; bytes.len()];
    let run_at = |i: usize| bytes[i..].iter().take_while(|&&b| b == b'`').count();
    // Run lengths already known to have no closing run further on, so that a paragraph
    // full of unmatched backticks is not rescanned for each of them.
    let mut unclosed = BTreeSet::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'`' => {
                let run = run_at(i);
                let mut end = None;
                if !unclosed.contains(&run) {
                    let mut j = i + run;
                    while j < bytes.len() {
                        if bytes[j] == b'`' {
                            let closing = run_at(j);
                            if closing == run {
                                end = Some(j + closing);
                                break;
                            }
                            j += closing;
                        } else {
                            j += 1;
                        }
                    }
                }
                match end {
                    Some(end) => {
                        mask[i..end].fill(true);
                        i = end;
                    }
                    None => {
                        unclosed.insert(run);
                        i += run;
                    }
                }
            }
            _ => i += 1,
        }
    }
    mask
}

/// Every `@path` of the paragraph that Claude Code takes as an import: the offset of its
/// `@`, the range of the path as written and the path.
fn imports(
    paragraph: &str,
    base: usize,
    regions: &[Range<usize>],
    code: &[bool],
) -> Vec<(usize, Range<usize>, String)> {
    let mut out = Vec::new();
    let mut previous: Option<char> = None;
    for (at, c) in paragraph.char_indices() {
        let prev = previous;
        previous = Some(c);
        if c != '@' || code[at] {
            continue;
        }
        // Only Markdown text counts: not HTML, not code, not a link's destination.
        let Some(region) = region_of(regions, base + at) else {
            continue;
        };
        let starts_word = prev.is_none_or(is_js_space) || region.start == base + at;
        if !starts_word {
            continue;
        }
        let region_end = region.end.saturating_sub(base).min(paragraph.len());
        let mut path = String::new();
        let mut end = region_end;
        let mut chars = paragraph[at + 1..region_end.max(at + 1)]
            .char_indices()
            .peekable();
        while let Some((i, c)) = chars.next() {
            if code[at + 1 + i] || is_js_space(c) {
                end = at + 1 + i;
                break;
            }
            if c == '\\' {
                if chars.peek().is_some_and(|&(_, next)| next == ' ') {
                    path.push(' ');
                    chars.next();
                    continue;
                }
                // A backslash not before a space ends the path.
                end = at + 1 + i;
                break;
            }
            path.push(c);
        }
        let target = without_fragment(&path);
        if accepts_import(target) {
            out.push((at, at + 1..end, target.to_owned()));
        }
    }
    out
}

/// True when the last path segment has a `.` that is neither its first nor its last
/// character (`notes.md`, not `biome` or `.hidden`).
pub(crate) fn has_extension(path: &str) -> bool {
    let segment = path.rsplit('/').next().unwrap_or(path);
    segment
        .char_indices()
        .any(|(i, c)| c == '.' && i > 0 && i + 1 < segment.len())
}

/// The text region holding byte `pos`, if any.
fn region_of(regions: &[Range<usize>], pos: usize) -> Option<&Range<usize>> {
    let index = regions.partition_point(|r| r.end <= pos);
    regions.get(index).filter(|r| r.start <= pos)
}

/// Where `text` holds Markdown text, the only place Claude Code looks for imports (it scans
/// its Markdown lexer's text tokens): not code, not HTML (blocks or inline), not a link's
/// destination. A top-level HTML block that starts with a comment gives back what stands
/// outside its comments, since the program strips those before it scans. Adjacent pieces
/// are merged, so a region is a run of text as a token would hold it.
fn import_regions(text: &str, body_start: usize, comments_stripped: bool) -> Vec<Range<usize>> {
    use pulldown_cmark::{Event, Parser, Tag, TagEnd};

    let mut regions: Vec<Range<usize>> = Vec::new();
    let mut push = |range: Range<usize>| match regions.last_mut() {
        Some(last) if last.end == range.start => last.end = range.end,
        _ => regions.push(range),
    };
    let mut hidden = 0usize;
    let mut depth = 0usize;
    for (event, range) in Parser::new(&text[body_start..]).into_offset_iter() {
        let range = body_start + range.start..body_start + range.end;
        match event {
            Event::Start(tag) => {
                if depth == 0 && comments_stripped && matches!(tag, Tag::HtmlBlock) {
                    let block = &text[range.clone()];
                    if block.trim_start().starts_with("<!--") {
                        let mut at = range.start;
                        let mut from = 0;
                        while let Some(open) = block[from..].find("<!--") {
                            let open = from + open;
                            let Some(close) = block[open + 4..].find("-->") else {
                                break;
                            };
                            push(at..range.start + open);
                            from = open + 4 + close + 3;
                            at = range.start + from;
                        }
                        if from > 0 {
                            push(at..range.end);
                        }
                    }
                }
                if matches!(tag, Tag::CodeBlock(_) | Tag::HtmlBlock) {
                    hidden += 1;
                }
                depth += 1;
            }
            Event::End(end) => {
                if matches!(end, TagEnd::CodeBlock | TagEnd::HtmlBlock) {
                    hidden = hidden.saturating_sub(1);
                }
                depth = depth.saturating_sub(1);
            }
            Event::Text(_) if hidden == 0 => push(range),
            _ => {}
        }
    }
    regions
}

/// Claude Code's accept rule for an import target: `./`, `~/` or `/` followed by more, or a
/// first character that is an ASCII letter, digit, `.`, `_` or `-` (so not `@`, `#`, `%`,
/// `^`, `&`, `*`, `(` or `)`).
fn accepts_import(path: &str) -> bool {
    if path.starts_with("./") || path.starts_with("~/") {
        return true;
    }
    if let Some(rest) = path.strip_prefix('/') {
        return !rest.is_empty();
    }
    path.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
}

fn without_fragment(target: &str) -> &str {
    target.split('#').next().unwrap_or(target)
}

/// Every inline link or image target of the paragraph that names a local file: the offset of
/// its `[`, the range of its destination as written and the target.
fn links(paragraph: &str, code: &[bool]) -> Vec<(usize, Range<usize>, String)> {
    // Each `[` is tried in turn, not only the first of a link, so that an image inside a
    // link's text (a badge) is found too.
    bracket_pairs(paragraph.as_bytes(), code)
        .into_iter()
        .filter_map(|(open, close)| {
            let (span, destination) = inline_link(paragraph, close)?;
            Some((open, span, local_target(&destination)?))
        })
        .collect()
}

/// The `[`/`]` pairs of the paragraph, nested ones included, in order of their `[`. Brackets
/// inside code spans and escaped ones do not count. Pairing in one pass keeps a paragraph
/// full of unclosed `[` linear.
fn bracket_pairs(bytes: &[u8], code: &[bool]) -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    let mut open = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if !code[i] {
            match bytes[i] {
                b'\\' => i += 1,
                b'[' => open.push(i),
                b']' => {
                    if let Some(start) = open.pop() {
                        pairs.push((start, i));
                    }
                }
                _ => {}
            }
        }
        i += 1;
    }
    pairs.sort_unstable();
    pairs
}

/// Markdown sets no limit on a link destination, but no file system takes a path longer
/// than this; the cap keeps a hostile line from being rescanned for every `[`.
const MAX_DESTINATION: usize = 4096;

/// The destination of the inline link whose text closes at `close`: the range where it is
/// written (inside the angle brackets, if any) and its text with backslash escapes resolved;
/// `None` when the brackets are not followed by a well-formed `(…)`.
fn inline_link(paragraph: &str, close: usize) -> Option<(Range<usize>, String)> {
    let bytes = paragraph.as_bytes();
    if bytes.get(close + 1) != Some(&b'(') {
        return None;
    }
    let mut i = skip_space(bytes, close + 2);
    let span;
    let destination = if bytes.get(i) == Some(&b'<') {
        let mut destination = Vec::new();
        i += 1;
        let start = i;
        loop {
            match *bytes.get(i)? {
                b'>' => break,
                b'<' | b'\n' => return None,
                b'\\' if bytes.get(i + 1).is_some_and(u8::is_ascii_punctuation) => {
                    destination.push(bytes[i + 1]);
                    i += 1;
                }
                b => destination.push(b),
            }
            if destination.len() > MAX_DESTINATION {
                return None;
            }
            i += 1;
        }
        span = start..i;
        i += 1;
        destination
    } else {
        let start = i;
        let mut destination = Vec::new();
        let mut parens = 0usize;
        while let Some(&b) = bytes.get(i) {
            match b {
                b if b.is_ascii_whitespace() || b.is_ascii_control() => break,
                b'\\' if bytes.get(i + 1).is_some_and(u8::is_ascii_punctuation) => {
                    destination.push(bytes[i + 1]);
                    i += 1;
                }
                b'(' => {
                    parens += 1;
                    destination.push(b);
                }
                b')' if parens == 0 => break,
                b')' => {
                    parens -= 1;
                    destination.push(b);
                }
                b => destination.push(b),
            }
            if destination.len() > MAX_DESTINATION {
                return None;
            }
            i += 1;
        }
        if parens > 0 {
            return None;
        }
        span = start..i;
        destination
    };
    let after_destination = i;
    i = skip_space(bytes, i);
    if i > after_destination {
        if let Some(&quote) = bytes.get(i).filter(|b| matches!(b, b'"' | b'\'' | b'(')) {
            let closing = if quote == b'(' { b')' } else { quote };
            i += 1;
            loop {
                match *bytes.get(i)? {
                    b'\\' => i += 1,
                    b if b == closing => break,
                    _ => {}
                }
                i += 1;
            }
            i = skip_space(bytes, i + 1);
        }
    }
    if bytes.get(i) != Some(&b')') {
        return None;
    }
    // Every byte pushed came whole from the text or is ASCII punctuation standing in for an
    // escape, so the bytes are valid UTF-8; the lossy conversion never replaces anything.
    Some((span, String::from_utf8_lossy(&destination).into_owned()))
}

/// Skips spaces and tabs and at most one line break, the white space Markdown allows
/// around a link destination.
fn skip_space(bytes: &[u8], mut i: usize) -> usize {
    let mut line_breaks = 0;
    while let Some(&b) = bytes.get(i) {
        match b {
            b' ' | b'\t' | b'\r' => {}
            b'\n' if line_breaks == 0 => line_breaks += 1,
            _ => break,
        }
        i += 1;
    }
    i
}

/// The local path a link destination names, percent-decoded and without its fragment;
/// `None` for a URL with a scheme, a bare `#anchor` or an empty target.
fn local_target(destination: &str) -> Option<String> {
    if has_scheme(destination) {
        return None;
    }
    let target = without_fragment(destination);
    if target.is_empty() {
        return None;
    }
    Some(percent_decode(target))
}

/// A URL scheme of two or more characters (`http:`, `mailto:`, `vscode:`); one letter
/// before a colon is a Windows drive, not a scheme.
fn has_scheme(destination: &str) -> bool {
    let scheme_len = destination
        .bytes()
        .enumerate()
        .take_while(|&(i, b)| {
            b.is_ascii_alphabetic() || (i > 0 && (b.is_ascii_digit() || b"+-.".contains(&b)))
        })
        .count();
    scheme_len >= 2 && destination.as_bytes().get(scheme_len) == Some(&b':')
}

/// Decodes `%XX` escapes; a malformed escape stays as written, and so does the whole
/// target when the decoded bytes are not UTF-8.
fn percent_decode(target: &str) -> String {
    percent_encoding::percent_decode_str(target)
        .decode_utf8()
        .map_or_else(|_| target.to_owned(), std::borrow::Cow::into_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks `scan`: each reference as `<line>:@<target>` for an import (with `!` after it
    /// when flagged for trailing punctuation) or `<line>:[<target>]` for a link, space-separated.
    /// Also checks that each target decodes from its span as `RawReference` documents.
    fn check(text: &str, expected: &str) {
        let found = scan(text);
        for reference in &found {
            assert_eq!(
                decoded(text, reference),
                reference.target,
                "span {:?} of input: {text:?}",
                reference.span
            );
        }
        let actual: Vec<String> = found
            .iter()
            .map(|r| match r.kind {
                ReferenceKind::Import => {
                    let flag = if r.trailing_punctuation { "!" } else { "" };
                    format!("{}:@{}{flag}", r.line, r.target)
                }
                ReferenceKind::Link => format!("{}:[{}]", r.line, r.target),
            })
            .collect();
        assert_eq!(actual.join(" "), expected, "input: {text:?}");
    }

    /// The target as `RawReference::target` documents it, decoded from the text at the span.
    fn decoded(text: &str, reference: &RawReference) -> String {
        let written = &text[reference.span.clone()];
        match reference.kind {
            ReferenceKind::Import => without_fragment(&written.replace("\\ ", " ")).to_owned(),
            ReferenceKind::Link => {
                let mut unescaped = String::new();
                let mut chars = written.chars().peekable();
                while let Some(c) = chars.next() {
                    match chars.peek() {
                        Some(&next) if c == '\\' && next.is_ascii_punctuation() => {
                            unescaped.push(next);
                            chars.next();
                        }
                        _ => unescaped.push(c),
                    }
                }
                percent_decode(without_fragment(&unescaped))
            }
        }
    }

    /// Checks what each reference's span covers in `text`, in order of appearance.
    fn check_spans(text: &str, expected: &[&str]) {
        let written: Vec<&str> = scan(text).iter().map(|r| &text[r.span.clone()]).collect();
        assert_eq!(written, expected, "input: {text:?}");
    }

    /// Each reference's span in `text` as `(start, end)`, in order of appearance.
    fn spans(text: &str) -> Vec<(usize, usize)> {
        scan(text)
            .into_iter()
            .map(|r| (r.span.start, r.span.end))
            .collect()
    }

    #[test]
    fn imports_need_no_extension_but_a_plain_first_character() {
        // Claude Code's accept rule (2.1.328): `./`, `~/`, `/` and more, or an ASCII letter,
        // digit, `.`, `_` or `-` first. Whether the file exists is decided later.
        check("@docs/a.md", "1:@docs/a.md");
        check("@./x.md", "1:@./x.md");
        check("@../y.txt", "1:@../y.txt");
        check("@~/notes.md", "1:@~/notes.md");
        check("@/abs/x.md", "1:@/abs/x.md");
        check("@name.md", "1:@name.md");
        check("@a.b.c", "1:@a.b.c");
        check("@dir.d/file", "1:@dir.d/file");
        check("@name", "1:@name");
        check("@biomejs/biome", "1:@biomejs/biome");
        check("@.hidden", "1:@.hidden");
        check("@_x", "1:@_x");
        check("@-x", "1:@-x");
        check("@/", "");
        check("@#x", "");
        check("@(x)", "");
        check("@*x", "");
        check("@노트.md", "");
        check("@", "");
        check("@ a.md", "");
    }

    #[test]
    fn imports_stand_at_line_start_or_after_white_space() {
        check("see @a.md and @b.md", "1:@a.md 1:@b.md");
        check("a@b.com", "");
        check("(@a.md)", "");
        check("- @a.md", "1:@a.md");
        check("  @a.md", "1:@a.md");
        check("x\t@a.md", "1:@a.md");
        check("x\u{a0}@a.md", "1:@a.md");
        check("x\u{3000}@a.md", "1:@a.md");
        check("@a.md@b.md", "1:@a.md@b.md");
        check("@@a.md", "");
        check("line\n@a.md", "2:@a.md");
        check("a\r\n@b.md\r\n", "2:@b.md");
        check("가@a.md 나 @b.md", "1:@b.md");
    }

    #[test]
    fn import_paths() {
        check("@my\\ file.md", "1:@my file.md");
        // A backslash not before a space ends the path.
        check("@a\\b.md", "1:@a");
        check("@a.md#section", "1:@a.md");
        check("@a#b.md", "1:@a");
        check("@#x.md", "");
        check("@a.md,", "1:@a.md,!");
        check("@a.md:", "1:@a.md:!");
        check("@a.md.", "1:@a.md.!");
        check("@a.md)", "1:@a.md)!");
        check("@a.md;", "1:@a.md;!");
        check("@a.md!", "1:@a.md!!");
        check("@a.md?", "1:@a.md?!");
        check("@a.md#x,", "1:@a.md");
        check("@user,", "1:@user,!");
        check("@user.,", "1:@user.,!");
        check("@노트.md", "");
        check("@a.md`code`", "1:@a.md");
    }

    #[test]
    fn links() {
        check("[a](b.md)", "1:[b.md]");
        check("![alt](img.png)", "1:[img.png]");
        check("[a](b.md \"title\")", "1:[b.md]");
        check("[a](b.md 'title')", "1:[b.md]");
        check("[a](b.md (title))", "1:[b.md]");
        check("[a](<with space.md> \"t\")", "1:[with space.md]");
        check("[a](<b.md>)", "1:[b.md]");
        check("[a](with%20space.md)", "1:[with space.md]");
        check("[a](%EA%B0%80.md)", "1:[가.md]");
        check("[a](%zz.md)", "1:[%zz.md]");
        check("[a](%FF.md)", "1:[%FF.md]");
        check("[a](%23.md)", "1:[#.md]");
        check("[a](b.md#part)", "1:[b.md]");
        check("[a](#anchor)", "");
        check("[a]()", "");
        check("[a](<>)", "");
        check("[a]( b.md )", "1:[b.md]");
        check("[a](dir/b)", "1:[dir/b]");
        check("[a](b_(1).md)", "1:[b_(1).md]");
        check("[a](b\\).md)", "1:[b).md]");
        check("[a [nested]](b.md)", "1:[b.md]");
        check("[[![badge](i.svg)](t.md)", "1:[t.md] 1:[i.svg]");
        check("[![badge](i.svg)](t.md)", "1:[t.md] 1:[i.svg]");
        check("[a][ref]", "");
        check("[a] (b.md)", "");
        check("[a](b.md", "");
        check("[a](<b.md)", "");
        check("[a](b.md \"open)", "");
        check("[a](b.md x)", "");
        check("\\[a](b.md)", "");
        check("[a\nb](c.md)", "1:[c.md]");
        check("[a](\nc.md)", "1:[c.md]");
        check("[a](C:/x.md)", "1:[C:/x.md]");
    }

    #[test]
    fn links_with_schemes_are_skipped() {
        check("[a](http://x.com/a.md)", "");
        check("[a](https://x.com)", "");
        check("[a](mailto:me@x.com)", "");
        check("[a](file:///x.md)", "");
        check("[a](vscode://file/x.md)", "");
        check("[a](git+ssh://host/x)", "");
        check("[a](HTTPS://X)", "");
    }

    #[test]
    fn code_is_never_scanned() {
        check("`@a.md`", "");
        check("`` @a.md ` ``", "");
        check("``@a.md`", "");
        check("x ``@a.md` @b.md``", "");
        check("`x` @a.md", "1:@a.md");
        check("\\`@a.md`", "");
        check("\\` @a.md`", "1:@a.md`");
        check("`[a](b.md)`", "");
        check("[a `]`](b.md)", "1:[b.md]");
        check("[a `](b.md)`", "");
        check("`a\n@b.md`", "");
        check("`a\n\n@b.md`", "3:@b.md`");
        check("```\n@a.md\n```\n@b.md", "4:@b.md");
        check("~~~\n[a](b.md)\n~~~", "");
        check("```\n@a.md", "");
        check("````\n```\n@a.md\n````\n@b.md", "5:@b.md");
        check("```x```\n@a.md", "2:@a.md");
        check("    ```\n@a.md", "2:@a.md");
    }

    #[test]
    fn frontmatter_is_skipped_but_counted() {
        check("---\nsee: @a.md\n---\n@b.md", "4:@b.md");
        check("---\r\nx: \"[a](b.md)\"\r\n---\r\n[c](d.md)", "4:[d.md]");
        check("---\n@a.md\n", "2:@a.md");
        check("\n---\n@a.md\n---\n", "3:@a.md");
    }

    #[test]
    fn order_of_appearance() {
        check(
            "[a](x.md) @y.md\n@z.md [b](w.md)",
            "1:[x.md] 1:@y.md 2:@z.md 2:[w.md]",
        );
        // Imports are read from Markdown text only: a link's text ends the path, and HTML,
        // comments included, is not text (measured on 2.1.328).
        check("[see @a.md](b.md)", "1:[b.md] 1:@a.md");
        check("[see\n@a.md](b.md)", "1:[b.md] 2:@a.md");
        check("<!-- @a.md -->", "");
        check("<!-- x --> @a.md", "1:@a.md");
        check("x <!-- @a.md --> y", "");
        check("<div>\n@a.md\n</div>", "");
        check("x <span>@a.md</span>", "1:@a.md");
        check("**@a.md**", "1:@a.md");
    }

    #[test]
    fn import_spans_hold_the_path_as_written() {
        check_spans("@a.md", &["a.md"]);
        check_spans("see @a.md and @b.md", &["a.md", "b.md"]);
        check_spans("@my\\ file.md", &["my\\ file.md"]);
        // Markdown text ends at the paragraph's last non-space character.
        check_spans("@my\\ file.md\\ ", &["my\\ file.md"]);
        check_spans("@a\\b.md", &["a"]);
        check_spans("@a.md#section", &["a.md#section"]);
        check_spans("@my\\ file.md#a\\ b x", &["my\\ file.md#a\\ b"]);
        check_spans("@a.md, then", &["a.md,"]);
        check_spans("(@a.md) @b.md)", &["b.md)"]);
        check_spans("@a.md`code`", &["a.md"]);
        check_spans("@a.md\u{a0}x", &["a.md"]);
        check_spans("@노트.md", &[]);
        check_spans("[see @a.md](b.md)", &["b.md", "a.md"]);
    }

    #[test]
    fn link_spans_hold_the_destination_as_written() {
        check_spans("[a](b.md)", &["b.md"]);
        check_spans("![alt](img.png)", &["img.png"]);
        check_spans("[a](<b.md>)", &["b.md"]);
        check_spans("[a](<with space.md> \"t\")", &["with space.md"]);
        check_spans("[a](<b\\>.md>)", &["b\\>.md"]);
        check_spans("[a](b.md \"title\")", &["b.md"]);
        check_spans("[a](b.md 'title')", &["b.md"]);
        check_spans("[a](b.md (title))", &["b.md"]);
        check_spans("[a](b.md\n\"title\")", &["b.md"]);
        check_spans("[a]( b.md )", &["b.md"]);
        check_spans("[a](\nc.md)", &["c.md"]);
        check_spans("[a](b.md#part)", &["b.md#part"]);
        check_spans("[a](<b c.md#part>)", &["b c.md#part"]);
        check_spans("[a](with%20space.md)", &["with%20space.md"]);
        check_spans("[a](%EA%B0%80.md#y)", &["%EA%B0%80.md#y"]);
        check_spans("[a](%FF.md)", &["%FF.md"]);
        check_spans("[a](b\\).md)", &["b\\).md"]);
        check_spans("[a](b_(1).md)", &["b_(1).md"]);
        check_spans("[😀](😀.md)", &["😀.md"]);
        check_spans("[![badge](i.svg)](t.md)", &["t.md", "i.svg"]);
    }

    #[test]
    fn spans_are_byte_offsets_in_the_whole_text() {
        // Multibyte text before the references.
        assert_eq!(spans("가나 😀 @note.md [é](b.md)"), [(13, 20), (26, 30)]);
        // Line breaks, CRLF ones included, and a reference on a last line without one.
        assert_eq!(spans("a\r\n@b.md\r\n[c](d.md)\r\n"), [(4, 8), (14, 18)]);
        assert_eq!(spans("x\n\n@a.md"), [(4, 8)]);
        assert_eq!(spans("x\n[a](b.md)"), [(6, 10)]);
        assert_eq!(spans("x\r\n\r\n[a](<b.md>)"), [(10, 14)]);
        // Frontmatter and fenced code before them.
        assert_eq!(spans("---\nsee: @a.md\n---\n@b.md"), [(20, 24)]);
        assert_eq!(
            spans("---\r\nx: \"[a](b.md)\"\r\n---\r\n[c](d.md)"),
            [(30, 34)]
        );
        assert_eq!(spans("```\n@x.md\n```\n@b.md\n"), [(15, 19)]);
        // The same target twice: each at its own place.
        assert_eq!(spans("@a.md @a.md"), [(1, 5), (7, 11)]);
    }

    #[test]
    fn spans_in_a_mixed_text() {
        let text = "---\nname: x\n---\n@a.md and `@b.md` [c](<d e.md> \"t\") @f\\ g.md#h\n\
                    [x](%EA%B0%80.md#y) [u](https://x.y) [see @i.md](j.md)\n";
        check(
            text,
            "4:@a.md 4:[d e.md] 4:@f g.md 5:[가.md] 5:[j.md] 5:@i.md",
        );
        check_spans(
            text,
            &[
                "a.md",
                "d e.md",
                "f\\ g.md#h",
                "%EA%B0%80.md#y",
                "j.md",
                "i.md",
            ],
        );
    }

    #[test]
    fn hostile_input_stays_linear() {
        let brackets = "[".repeat(200_000) + "](a.md)";
        assert_eq!(scan(&brackets).len(), 1);
        let destinations = "[a](<".repeat(50_000);
        assert!(scan(&destinations).is_empty());
        let backticks: String = (1..400).map(|n| "`".repeat(n) + "x").collect();
        assert!(scan(&backticks).is_empty());
        check(&format!("[a]({}.md)", "x".repeat(5000)), "");
    }

    #[test]
    fn odd_input_does_not_panic() {
        for text in [
            "",
            "[",
            "]",
            "[](",
            "`",
            "\\",
            "@\\",
            "[a](\\",
            "[a](<\\",
            "[a](b \"\\",
            "😀@😀.😀",
            "[😀](😀.md)",
        ] {
            scan(text);
        }
        check("[😀](😀.md)", "1:[😀.md]");
        check("😀 @😀.😀", "");
        check("😀 @a😀.😀", "1:@a😀.😀");
    }
}
