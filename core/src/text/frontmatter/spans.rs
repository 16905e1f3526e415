//! Where each key, value, comment, anchor and tag of a frontmatter block sits, by byte
//! range: what a rewrite that keeps the block's shape (the share's placeholders) needs, and
//! what the YAML crate does not give. `serde_norway` keeps its libyaml event parser, the only
//! part that knows positions, private, and the workspace forbids `unsafe`, so this is a
//! scanner of the YAML that frontmatter uses (keys, quotes, escapes, comments, flow brackets,
//! block scalars), not a second parser: whoever rewrites through it parses the result with
//! [`super::parse_block`] and compares it with the original's reading, field by field.
//! It is linear in the text: one pass, no nesting kept but a flow depth counter.

use std::ops::Range;

/// What a span holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SpanKind {
    /// A plain scalar word.
    Atom,
    /// The text of a quoted scalar between its quotes and escapes.
    Quoted,
    /// A `\…` escape in a double-quoted scalar.
    Escape,
    /// A line of a block scalar (`|` or `>`).
    Block,
    /// A comment, `#` included.
    Comment,
    /// A mapping key as written (quotes included). [`Span::key`] names the top-level key
    /// it is, or the one whose value holds it.
    Key {
        /// True for a top-level key itself.
        top: bool,
    },
    /// The name of an anchor (`&name`) or alias (`*name`), after its sigil.
    Anchor,
    /// A tag (`!name`, `!!str`), sigils included.
    Tag,
}

/// A stretch of the YAML that holds a word; everything between spans (indicators,
/// indentation, quotes, sigils) is syntax.
#[derive(Debug, Clone)]
pub(crate) struct Span {
    pub(crate) range: Range<usize>,
    pub(crate) kind: SpanKind,
    /// The index in [`Spans::keys`] of the top-level key whose value holds it.
    pub(crate) key: usize,
}

/// Every span of a block, in order, and its top-level keys.
#[derive(Debug, Clone)]
pub(crate) struct Spans {
    pub(crate) spans: Vec<Span>,
    /// Top-level keys in order; index 0 stands for what comes before the first key.
    pub(crate) keys: Vec<Option<String>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Plain,
    Double,
    Single,
    /// Inside a block scalar whose parent node starts at this column.
    Block(usize),
}

/// Splits frontmatter YAML (between its `---` lines) into the spans that hold words. It
/// knows keys, quotes, escapes, comments, flow brackets and block scalars, which is what
/// frontmatter uses; the caller checks what it does with them by parsing the result.
pub(crate) fn spans(yaml: &str) -> Spans {
    let mut lexed = Spans {
        spans: Vec::new(),
        keys: vec![None],
    };
    let mut mode = Mode::Plain;
    let mut flow = 0usize;
    let mut top_indent: Option<usize> = None;
    let mut key = 0;
    let mut offset = 0;
    for line in yaml.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let body = line.trim_end_matches(['\n', '\r']);
        let end = start + body.len();
        let indent = body.len() - body.trim_start_matches(' ').len();
        if let Mode::Block(parent) = mode {
            if body.trim().is_empty() {
                continue;
            }
            if indent > parent {
                lexed.spans.push(Span {
                    range: start + indent..end,
                    kind: SpanKind::Block,
                    key,
                });
                continue;
            }
            mode = Mode::Plain;
        }
        let mut i = 0;
        if mode == Mode::Plain && flow == 0 {
            i = indent;
            if body[i..].starts_with('#') {
                lexed.spans.push(Span {
                    range: start + i..end,
                    kind: SpanKind::Comment,
                    key,
                });
                continue;
            }
            let mut listed = false;
            while body[i..].starts_with("- ") || &body[i..] == "-" {
                listed = true;
                i += 1;
                i += body[i..].len() - body[i..].trim_start_matches(' ').len();
            }
            if let Some(len) = key_length(&body[i..]) {
                let top = !listed && top_indent.is_none_or(|top| top == indent);
                lexed.spans.push(Span {
                    range: start + i..start + i + len,
                    kind: SpanKind::Key { top },
                    key: if top { lexed.keys.len() } else { key },
                });
                if top {
                    top_indent = Some(indent);
                    let written = &body[i..i + len];
                    let name = written
                        .strip_prefix(['"', '\''])
                        .and_then(|k| k.strip_suffix(['"', '\'']))
                        .unwrap_or(written);
                    lexed.keys.push(Some(name.to_owned()));
                    key = lexed.keys.len() - 1;
                }
                let column = i;
                i += len + 1;
                mode = lex_value(body, start, i, column, key, &mut flow, &mut lexed.spans);
                continue;
            }
            mode = lex_value(body, start, i, indent, key, &mut flow, &mut lexed.spans);
            continue;
        }
        mode = lex_value_in(
            body,
            start,
            i,
            indent,
            key,
            &mut flow,
            &mut lexed.spans,
            mode,
        );
    }
    lexed
}

/// The length of a mapping key at the start of `s` (up to its `:`), if `s` starts with one.
fn key_length(s: &str) -> Option<usize> {
    let bytes = s.as_bytes();
    let first = *bytes.first()?;
    let close = match first {
        b'"' | b'\'' => {
            let mut i = 1;
            loop {
                match *bytes.get(i)? {
                    b'\\' if first == b'"' => i += 2,
                    b'\'' if first == b'\'' && bytes.get(i + 1) == Some(&b'\'') => i += 2,
                    b if b == first => break i + 1,
                    _ => i += 1,
                }
            }
        }
        b'[' | b']' | b'{' | b'}' | b',' | b'#' | b'&' | b'*' | b'!' | b'|' | b'>' | b'%'
        | b'@' | b'`' | b'?' | b':' | b'-' | b' ' | b'\t' => return None,
        _ => {
            let mut i = 0;
            loop {
                match bytes.get(i) {
                    None => return None,
                    Some(b':') if matches!(bytes.get(i + 1), None | Some(b' ' | b'\t')) => break i,
                    Some(b'#') if i > 0 && matches!(bytes[i - 1], b' ' | b'\t') => return None,
                    _ => i += 1,
                }
            }
        }
    };
    (bytes.get(close) == Some(&b':') && matches!(bytes.get(close + 1), None | Some(b' ' | b'\t')))
        .then_some(close)
}

fn lex_value(
    body: &str,
    start: usize,
    i: usize,
    column: usize,
    key: usize,
    flow: &mut usize,
    spans: &mut Vec<Span>,
) -> Mode {
    lex_value_in(body, start, i, column, key, flow, spans, Mode::Plain)
}

/// Lexes the rest of a line from `i` in `mode`; returns the mode the next line starts in.
#[allow(clippy::too_many_arguments)]
fn lex_value_in(
    body: &str,
    start: usize,
    mut i: usize,
    column: usize,
    key: usize,
    flow: &mut usize,
    spans: &mut Vec<Span>,
    mut mode: Mode,
) -> Mode {
    let bytes = body.as_bytes();
    let mut push = |range: Range<usize>, kind: SpanKind| {
        if !range.is_empty() {
            spans.push(Span {
                range: start + range.start..start + range.end,
                kind,
                key,
            });
        }
    };
    let mut token_start = true;
    let mut next_mode = None;
    while i < bytes.len() {
        match mode {
            Mode::Double => match bytes[i] {
                b'\\' => {
                    let escape = bytes.get(i + 1).copied();
                    let width = match escape {
                        Some(b'x') => 2,
                        Some(b'u') => 4,
                        Some(b'U') => 8,
                        _ => 0,
                    };
                    let hex_end = i + 2 + width;
                    let end = if width > 0
                        && body
                            .get(i + 2..hex_end)
                            .is_some_and(|h| h.bytes().all(|b| b.is_ascii_hexdigit()))
                    {
                        hex_end
                    } else {
                        let next = body[i + 1..].chars().next().map_or(0, char::len_utf8);
                        i + 1 + next
                    };
                    push(i..end, SpanKind::Escape);
                    i = end;
                }
                b'"' => {
                    mode = Mode::Plain;
                    token_start = false;
                    i += 1;
                }
                _ => {
                    let end = body[i..].find(['\\', '"']).map_or(bytes.len(), |at| i + at);
                    push(i..end, SpanKind::Quoted);
                    i = end;
                }
            },
            Mode::Single => {
                if bytes[i] == b'\'' {
                    if bytes.get(i + 1) == Some(&b'\'') {
                        i += 2;
                    } else {
                        mode = Mode::Plain;
                        token_start = false;
                        i += 1;
                    }
                } else {
                    let end = body[i..].find('\'').map_or(bytes.len(), |at| i + at);
                    push(i..end, SpanKind::Quoted);
                    i = end;
                }
            }
            Mode::Plain | Mode::Block(_) => {
                let b = bytes[i];
                match b {
                    b' ' | b'\t' => {
                        token_start = true;
                        i += 1;
                    }
                    b'#' if token_start => {
                        push(i..bytes.len(), SpanKind::Comment);
                        i = bytes.len();
                    }
                    b'"' if token_start => {
                        mode = Mode::Double;
                        i += 1;
                    }
                    b'\'' if token_start => {
                        mode = Mode::Single;
                        i += 1;
                    }
                    b'[' | b'{' => {
                        *flow += 1;
                        token_start = true;
                        i += 1;
                    }
                    b']' | b'}' => {
                        *flow = flow.saturating_sub(1);
                        token_start = false;
                        i += 1;
                    }
                    b',' if *flow > 0 => {
                        token_start = true;
                        i += 1;
                    }
                    b'|' | b'>' if token_start && *flow == 0 => {
                        i += 1;
                        while i < bytes.len() && matches!(bytes[i], b'0'..=b'9' | b'+' | b'-') {
                            i += 1;
                        }
                        next_mode = Some(Mode::Block(column));
                        token_start = false;
                    }
                    b'&' | b'*' | b'!' if token_start => {
                        let sigil = i;
                        while i < bytes.len()
                            && !matches!(bytes[i], b' ' | b'\t')
                            && !(*flow > 0 && matches!(bytes[i], b',' | b'[' | b']' | b'{' | b'}'))
                        {
                            i += 1;
                        }
                        if b == b'!' {
                            push(sigil..i, SpanKind::Tag);
                        } else {
                            push(sigil + 1..i, SpanKind::Anchor);
                        }
                        token_start = false;
                    }
                    b'-' | b'?' | b':'
                        if token_start && matches!(bytes.get(i + 1), None | Some(b' ' | b'\t')) =>
                    {
                        i += 1;
                    }
                    _ => {
                        let begin = i;
                        while i < bytes.len() {
                            let c = bytes[i];
                            let ends_here = matches!(c, b' ' | b'\t')
                                || (*flow > 0 && matches!(c, b',' | b'[' | b']' | b'{' | b'}'))
                                || (c == b':'
                                    && matches!(
                                        bytes.get(i + 1),
                                        None | Some(b' ' | b'\t' | b',' | b']' | b'}')
                                    ));
                            if ends_here {
                                break;
                            }
                            i += 1;
                        }
                        let is_key = bytes.get(i) == Some(&b':');
                        if is_key {
                            // A key inside a flow mapping, after a list marker or nested.
                            push(begin..i, SpanKind::Key { top: false });
                            i += 1;
                        } else {
                            push(begin..i, SpanKind::Atom);
                        }
                        token_start = is_key;
                    }
                }
            }
        }
    }
    if let Some(block) = next_mode {
        return block;
    }
    match mode {
        Mode::Block(_) => Mode::Plain,
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lexer_finds_keys_and_values() {
        let yaml = "name: my-skill # why\ndescription: >-\n  Line one: 2\n  two\npaths: [\"src/**\", lib/*.ts]\ntype: user\nx: \"a\\u00e9\"\ny: &a !t {k: *a}\n";
        let lexed = spans(yaml);
        let keys: Vec<&str> = lexed.keys.iter().flatten().map(String::as_str).collect();
        assert_eq!(keys, ["name", "description", "paths", "type", "x", "y"]);
        let found: Vec<(&str, SpanKind, usize)> = lexed
            .spans
            .iter()
            .map(|p| (&yaml[p.range.clone()], p.kind, p.key))
            .collect();
        assert_eq!(
            found,
            [
                ("name", SpanKind::Key { top: true }, 1),
                ("my-skill", SpanKind::Atom, 1),
                ("# why", SpanKind::Comment, 1),
                ("description", SpanKind::Key { top: true }, 2),
                ("Line one: 2", SpanKind::Block, 2),
                ("two", SpanKind::Block, 2),
                ("paths", SpanKind::Key { top: true }, 3),
                ("src/**", SpanKind::Quoted, 3),
                ("lib/*.ts", SpanKind::Atom, 3),
                ("type", SpanKind::Key { top: true }, 4),
                ("user", SpanKind::Atom, 4),
                ("x", SpanKind::Key { top: true }, 5),
                ("a", SpanKind::Quoted, 5),
                ("\\u00e9", SpanKind::Escape, 5),
                ("y", SpanKind::Key { top: true }, 6),
                ("a", SpanKind::Anchor, 6),
                ("!t", SpanKind::Tag, 6),
                ("k", SpanKind::Key { top: false }, 6),
                ("a", SpanKind::Anchor, 6),
            ]
        );
    }

    /// The top-level keys the spans name are the fields the parser reads, in order.
    #[test]
    fn the_top_level_keys_are_the_parsers() {
        for yaml in [
            "name: a\ndescription: b # c\npaths:\n  - \"x/**\"\n  - y\n",
            "'quoted key': 1\n\"double\": [a, {b: c}]\nplain: |\n  block: not a key\n",
            "a: &x {k: v}\nb: *x\nc: !tag d\n# comment: no key\ne: 'it''s: f'\n",
            "list:\n- k: v\n  l: w\nafter: 2\n",
        ] {
            let parsed = super::super::parse_block(yaml);
            assert!(parsed.error.is_none(), "{yaml:?}: {:?}", parsed.error);
            let from_parser: Vec<&str> = parsed.fields.iter().map(|(k, _)| k.as_str()).collect();
            let located = spans(yaml);
            let from_spans: Vec<&str> = located.keys.iter().flatten().map(String::as_str).collect();
            assert_eq!(from_spans, from_parser, "{yaml:?}");
        }
    }
}
