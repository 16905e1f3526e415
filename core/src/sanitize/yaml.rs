//! Frontmatter: a small YAML lexer, and the rewriting that keeps only the words the
//! analysis reads (keys, anchors, tags, numbers and values).

use super::*;

impl Builder<'_> {
    // ----- frontmatter -------------------------------------------------------------------

    /// The shared YAML of a frontmatter block (between its `---` lines).
    ///
    /// Values are rewritten piece by piece; the result is parsed and compared with the
    /// original key by key. A key whose value changed shape (a number that became a string)
    /// is rewritten again with YAML numbers, booleans and nulls kept as written.
    pub(super) fn frontmatter(&mut self, yaml: &str, kind: FileKind, shown: &str) -> String {
        let lexed = lex_yaml(yaml);
        let policies: Vec<Policy> = lexed
            .keys
            .iter()
            .map(|key| policy(key.as_deref(), kind))
            .collect();
        let mut careful = vec![false; lexed.keys.len()];
        let original = parse_yaml(yaml);
        let names = YamlNames::new(yaml, &lexed, self.options.keep_text);
        let mut shared = String::new();
        for round in 0..2 {
            shared = self.rewrite_yaml(yaml, &lexed, &policies, &careful, &names);
            if self.namer.collecting() {
                return shared;
            }
            let failing =
                self.yaml_differences(&original, &parse_yaml(&shared), &lexed, kind, &names);
            if failing.is_empty() {
                return shared;
            }
            if round == 1 {
                self.warnings.push(format!(
                    "the frontmatter of {shown} could not be kept exactly; its fields may \
                     differ in the shared report"
                ));
                break;
            }
            for index in failing {
                careful[index] = true;
            }
        }
        shared
    }

    pub(super) fn rewrite_yaml(
        &mut self,
        yaml: &str,
        lexed: &Lexed,
        policies: &[Policy],
        careful: &[bool],
        names: &YamlNames,
    ) -> String {
        let keep_text = self.options.keep_text;
        let mut out = yaml.to_owned();
        // Renamed values of another length than the original (`paths`, a skill's `name`).
        let mut renamed = Vec::new();
        for (index, piece) in lexed.pieces.iter().enumerate() {
            let source = &yaml[piece.range.clone()];
            if matches!(
                piece.kind,
                PieceKind::Key { .. } | PieceKind::Anchor | PieceKind::Tag
            ) {
                if let Some(shared) = names.pieces.get(&index) {
                    if shared.len() == source.len() {
                        out.replace_range(piece.range.clone(), shared);
                    }
                }
                continue;
            }
            let mut policy = policies[piece.key];
            if policy == Policy::Keep {
                // Only the words the analysis reads stay; anything else a kept key holds
                // (a secret written as a `type`) is text.
                let key = lexed.keys[piece.key].as_deref().unwrap_or_default();
                let word = source.trim_matches(['"', '\'']);
                if piece.kind == PieceKind::Comment || !in_vocabulary(key, word) {
                    policy = Policy::Text;
                }
                if piece.kind != PieceKind::Comment && key == "modified" {
                    if let Some(kept) = date_then_placeholder(source, keep_text) {
                        if kept.len() == source.len() {
                            out.replace_range(piece.range.clone(), &kept);
                        }
                        continue;
                    }
                }
            }
            let shared = match (piece.kind, policy) {
                (PieceKind::Comment, _) => text_placeholder(source, keep_text),
                (PieceKind::Escape, Policy::Text) if !keep_text => escape_placeholder(source),
                (PieceKind::Escape, _) | (_, Policy::Keep) => source.to_owned(),
                (_, Policy::Name) => self.namer.name(source),
                (PieceKind::Atom, Policy::Text) => {
                    if keep_text {
                        source.to_owned()
                    } else if careful[piece.key] && is_yaml_special(source) {
                        // A number stays a number of the same shown length; a boolean or a
                        // null tells nothing and stays.
                        number_placeholder(source).unwrap_or_else(|| source.to_owned())
                    } else {
                        source
                            .chars()
                            .map(|c| match c {
                                '0'..='9' => '1',
                                c => placeholder(c, false),
                            })
                            .collect()
                    }
                }
                (PieceKind::Quoted | PieceKind::Block, Policy::Text) => {
                    text_placeholder(source, keep_text)
                }
                (PieceKind::Key { .. } | PieceKind::Anchor | PieceKind::Tag, _) => {
                    unreachable!("names are rewritten above")
                }
            };
            if shared.len() == source.len() {
                out.replace_range(piece.range.clone(), &shared);
            } else if policy == Policy::Name {
                renamed.push((piece.range.clone(), shared));
            }
        }
        keep_yaml_lines(&mut out, renamed, &lexed.pieces);
        out
    }

    /// The lexer's key indices whose values do not have the shape they should.
    pub(super) fn yaml_differences(
        &self,
        original: &Frontmatter,
        shared: &Frontmatter,
        lexed: &Lexed,
        kind: FileKind,
        names: &YamlNames,
    ) -> Vec<usize> {
        let all: Vec<usize> = (0..lexed.keys.len()).collect();
        if original.error.is_some() {
            return if shared.error.is_some() {
                Vec::new()
            } else {
                all
            };
        }
        if shared.error.is_some() || shared.fields.len() != original.fields.len() {
            return all;
        }
        let mut failing = BTreeSet::new();
        // Each key's first index, looked up in a map: a search per field would be quadratic
        // in a frontmatter of many keys.
        let mut first_index: BTreeMap<&str, usize> = BTreeMap::new();
        for (index, key) in lexed.keys.iter().enumerate() {
            if let Some(key) = key {
                first_index.entry(key.as_str()).or_insert(index);
            }
        }
        for ((key, before), (shared_key, after)) in original.fields.iter().zip(&shared.fields) {
            let index = first_index.get(key.as_str()).copied().unwrap_or(0);
            let expected_key = names.keys.get(key).unwrap_or(key);
            let ok = expected_key == shared_key
                && match policy(Some(key), kind) {
                    Policy::Keep if key == "modified" => same_day(before, after),
                    Policy::Keep => before == after || !value_in_vocabulary(key, before),
                    Policy::Name if key == "paths" => {
                        let expected: Vec<String> = frontmatter::parse_paths(before)
                            .iter()
                            .map(|glob| self.namer.name(glob))
                            .collect();
                        // Renamed globs have their pseudonyms' lengths: the same globs in
                        // the same form (one, or a list) is what counts.
                        frontmatter::parse_paths(after) == expected && same_form(before, after)
                    }
                    Policy::Name => {
                        let expected = original.string(key).map(|name| self.namer.name(&name));
                        shared.string(key) == expected && same_form(before, after)
                    }
                    Policy::Text => same_shape(before, after),
                };
            if !ok {
                failing.insert(index);
            }
        }
        failing.into_iter().collect()
    }
}

/// A range of the YAML and what replaces it.
type Edit = (Range<usize>, String);

/// Puts renamed values of another length in place, each line padded with spaces (or
/// trimmed of spaces) where YAML ignores them: before the line's comment, else at its end.
/// Lines with no room keep their new length; the caller's check then tells.
pub(super) fn keep_yaml_lines(
    out: &mut String,
    mut renamed: Vec<(Range<usize>, String)>,
    pieces: &[Piece],
) {
    renamed.sort_by_key(|(range, _)| range.start);
    // Line by line from the end, so that earlier offsets hold.
    let mut lines: Vec<(Range<usize>, Vec<Edit>)> = Vec::new();
    for (range, shared) in renamed {
        let start = out[..range.start].rfind('\n').map_or(0, |i| i + 1);
        let end = out[range.start..]
            .find('\n')
            .map_or(out.len(), |i| range.start + i);
        match lines.last_mut() {
            Some((line, edits)) if line.start == start => edits.push((range, shared)),
            _ => lines.push((start..end, vec![(range, shared)])),
        }
    }
    for (line, edits) in lines.into_iter().rev() {
        let body_end = if out[..line.end].ends_with('\r') {
            line.end - 1
        } else {
            line.end
        };
        let pad_at = pieces
            .iter()
            .find(|p| {
                p.kind == PieceKind::Comment
                    && line.start <= p.range.start
                    && p.range.start < line.end
            })
            .map_or(body_end, |p| p.range.start);
        let change: i64 = edits
            .iter()
            .map(|(r, s)| r.len() as i64 - s.len() as i64)
            .sum();
        if change > 0 {
            out.insert_str(pad_at, &" ".repeat(change as usize));
        } else if change < 0 {
            let spaces =
                out[line.start..pad_at].len() - out[line.start..pad_at].trim_end_matches(' ').len();
            let take = spaces.min(change.unsigned_abs() as usize);
            out.replace_range(pad_at - take..pad_at, "");
        }
        for (range, shared) in edits.into_iter().rev() {
            out.replace_range(range, &shared);
        }
    }
}

/// How a top-level frontmatter key's value is shared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Policy {
    /// Kept as written: discovery or the health view reads it.
    Keep,
    /// Renamed like a file name: a skill's or agent's `name`, a rule's `paths`.
    Name,
    /// Replaced like text.
    Text,
}

/// Frontmatter values that stay as written.
pub(super) const KEPT_KEYS: [&str; 4] = ["type", "modified", "memory", "disable-model-invocation"];

/// True when `word` (a value as written, quotes stripped) belongs to the vocabulary the
/// analysis reads for `key`: the four memory types, the three agent-memory scopes, a
/// boolean, or a date-time (digits and its punctuation only). Any other value of a kept key
/// is replaced like text: the analysis reads it as unknown either way.
pub(super) fn in_vocabulary(key: &str, word: &str) -> bool {
    match key {
        "type" => MEMORY_TYPES.contains(&word),
        "memory" => AGENT_MEMORY_SCOPES.contains(&word),
        "disable-model-invocation" => {
            ["true", "false", "True", "False", "TRUE", "FALSE"].contains(&word)
        }
        "modified" => {
            !word.is_empty()
                && word
                    .bytes()
                    .all(|b| b.is_ascii_digit() || b"-:.+TZ ".contains(&b))
        }
        _ => false,
    }
}

/// A `modified` value that starts with a date: the growth chart reads only its first ten
/// characters, the day ([`crate::date::parse_day`]), so those stay; the time after it keeps
/// its form with every digit `0` (`2026-11-02T09:41:07Z` → `2026-11-02T00:00:00Z`), and
/// anything else becomes text placeholders.
pub(super) fn date_then_placeholder(source: &str, keep_text: bool) -> Option<String> {
    let quote = source.len() - source.trim_start_matches(['"', '\'']).len();
    let word = &source[quote..];
    crate::date::parse_day(word.get(..10)?)?;
    let (day, rest) = source.split_at(quote + 10);
    if keep_text {
        return Some(source.to_owned());
    }
    let rest: String = rest
        .chars()
        .map(|c| match c {
            '0'..='9' => '0',
            c if "-:.+TZ '\"".contains(c) => c,
            c => placeholder(c, false),
        })
        .collect();
    Some(format!("{day}{rest}"))
}

/// True when two `modified` values name the same day (or neither names one) and measure
/// the same: what the analysis reads of them.
pub(super) fn same_day(a: &Yaml, b: &Yaml) -> bool {
    let day = |v: &Yaml| match untag(v) {
        Yaml::String(s) | Yaml::Number(s) => crate::date::parse_day(s),
        _ => None,
    };
    day(a) == day(b) && same_shape(a, b)
}

/// [`in_vocabulary`] for a parsed value.
pub(super) fn value_in_vocabulary(key: &str, value: &Yaml) -> bool {
    match untag(value) {
        Yaml::String(word) | Yaml::Number(word) => in_vocabulary(key, word),
        Yaml::Bool(b) => in_vocabulary(key, if *b { "true" } else { "false" }),
        _ => false,
    }
}

pub(super) fn policy(key: Option<&str>, kind: FileKind) -> Policy {
    match key {
        Some(key) if KEPT_KEYS.contains(&key) => Policy::Keep,
        Some("paths") => Policy::Name,
        Some("name") if kind != FileKind::Other => Policy::Name,
        _ => Policy::Text,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum PieceKind {
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
    /// A mapping key as written (quotes included). [`Piece::key`] names the top-level key
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

/// A stretch of the YAML to rewrite; everything between pieces (keys, indicators,
/// indentation, anchors, tags) stays as written.
#[derive(Debug, Clone)]
pub(super) struct Piece {
    pub(super) range: Range<usize>,
    pub(super) kind: PieceKind,
    /// The index in [`Lexed::keys`] of the top-level key whose value holds it.
    pub(super) key: usize,
}

#[derive(Debug, Clone)]
pub(super) struct Lexed {
    pub(super) pieces: Vec<Piece>,
    /// Top-level keys in order; index 0 stands for what comes before the first key.
    pub(super) keys: Vec<Option<String>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Mode {
    Plain,
    Double,
    Single,
    /// Inside a block scalar whose parent node starts at this column.
    Block(usize),
}

/// Splits frontmatter YAML into the pieces that hold values. This is not a YAML parser: it
/// knows keys, quotes, escapes, comments, flow brackets and block scalars, which is what
/// frontmatter uses; the caller checks the result by parsing it.
pub(super) fn lex_yaml(yaml: &str) -> Lexed {
    let mut lexed = Lexed {
        pieces: Vec::new(),
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
                lexed.pieces.push(Piece {
                    range: start + indent..end,
                    kind: PieceKind::Block,
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
                lexed.pieces.push(Piece {
                    range: start + i..end,
                    kind: PieceKind::Comment,
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
                lexed.pieces.push(Piece {
                    range: start + i..start + i + len,
                    kind: PieceKind::Key { top },
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
                mode = lex_value(body, start, i, column, key, &mut flow, &mut lexed.pieces);
                continue;
            }
            mode = lex_value(body, start, i, indent, key, &mut flow, &mut lexed.pieces);
            continue;
        }
        mode = lex_value_in(
            body,
            start,
            i,
            indent,
            key,
            &mut flow,
            &mut lexed.pieces,
            mode,
        );
    }
    lexed
}

/// The length of a mapping key at the start of `s` (up to its `:`), if `s` starts with one.
pub(super) fn key_length(s: &str) -> Option<usize> {
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

pub(super) fn lex_value(
    body: &str,
    start: usize,
    i: usize,
    column: usize,
    key: usize,
    flow: &mut usize,
    pieces: &mut Vec<Piece>,
) -> Mode {
    lex_value_in(body, start, i, column, key, flow, pieces, Mode::Plain)
}

/// Lexes the rest of a line from `i` in `mode`; returns the mode the next line starts in.
#[allow(clippy::too_many_arguments)]
pub(super) fn lex_value_in(
    body: &str,
    start: usize,
    mut i: usize,
    column: usize,
    key: usize,
    flow: &mut usize,
    pieces: &mut Vec<Piece>,
    mut mode: Mode,
) -> Mode {
    let bytes = body.as_bytes();
    let mut push = |range: Range<usize>, kind: PieceKind| {
        if !range.is_empty() {
            pieces.push(Piece {
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
                    push(i..end, PieceKind::Escape);
                    i = end;
                }
                b'"' => {
                    mode = Mode::Plain;
                    token_start = false;
                    i += 1;
                }
                _ => {
                    let end = body[i..].find(['\\', '"']).map_or(bytes.len(), |at| i + at);
                    push(i..end, PieceKind::Quoted);
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
                    push(i..end, PieceKind::Quoted);
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
                        push(i..bytes.len(), PieceKind::Comment);
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
                            push(sigil..i, PieceKind::Tag);
                        } else {
                            push(sigil + 1..i, PieceKind::Anchor);
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
                            push(begin..i, PieceKind::Key { top: false });
                            i += 1;
                        } else {
                            push(begin..i, PieceKind::Atom);
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

/// Parses frontmatter YAML the way discovery does.
pub(super) fn parse_yaml(yaml: &str) -> Frontmatter {
    frontmatter::parse(&format!("---\n{yaml}---\n")).unwrap_or(Frontmatter {
        fields: Vec::new(),
        body_offset: 0,
        line_count: 0,
        error: Some("no frontmatter".to_owned()),
    })
}

/// True for a plain scalar that YAML reads as something other than a string.
pub(super) fn is_yaml_special(atom: &str) -> bool {
    frontmatter::is_special_scalar(atom)
}

/// True when two values have the same structure, whatever their scalars hold.
pub(super) fn same_form(a: &Yaml, b: &Yaml) -> bool {
    match (untag(a), untag(b)) {
        (Yaml::Sequence(x), Yaml::Sequence(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_form(x, y))
        }
        (Yaml::Mapping(x), Yaml::Mapping(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((kx, vx), (ky, vy))| same_form(kx, ky) && same_form(vx, vy))
        }
        (x, y) => std::mem::discriminant(x) == std::mem::discriminant(y),
    }
}

/// True when two values have the same structure and every scalar (mapping keys too: a key
/// the analysis never reads is replaced) the same measurements: what the report shows of a
/// replaced value.
pub(super) fn same_shape(a: &Yaml, b: &Yaml) -> bool {
    match (untag(a), untag(b)) {
        (Yaml::Null, Yaml::Null) => true,
        (Yaml::Bool(x), Yaml::Bool(y)) => x == y,
        (Yaml::Number(x), Yaml::Number(y)) => {
            x.to_string().chars().count() == y.to_string().chars().count()
        }
        (Yaml::String(x), Yaml::String(y)) => measure(x) == measure(y),
        (Yaml::Sequence(x), Yaml::Sequence(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_shape(x, y))
        }
        (Yaml::Mapping(x), Yaml::Mapping(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((kx, vx), (ky, vy))| same_shape(kx, ky) && same_shape(vx, vy))
        }
        _ => false,
    }
}

/// The shared form of every key, anchor and tag name in one frontmatter block: a key the
/// analysis reads ([`FRONTMATTER_KEYS`], at the top level) and a standard tag (`!!str`) stay;
/// every other becomes placeholders of its length, distinct from each other (two keys that
/// were different stay different, so no mapping gains a duplicate key), the same name always
/// the same placeholder (so an alias still names its anchor).
#[derive(Debug, Default)]
pub(super) struct YamlNames {
    /// Piece index → its shared text.
    pub(super) pieces: BTreeMap<usize, String>,
    /// Top-level key as parsed → its shared form.
    pub(super) keys: BTreeMap<String, String>,
}

/// The tags of YAML's core and failsafe schemas: they say how to read a value, nothing more.
pub(super) const STANDARD_TAGS: [&str; 9] = [
    "!!str",
    "!!int",
    "!!float",
    "!!bool",
    "!!null",
    "!!seq",
    "!!map",
    "!!binary",
    "!!timestamp",
];

impl YamlNames {
    pub(super) fn new(yaml: &str, lexed: &Lexed, keep_text: bool) -> YamlNames {
        let mut names = YamlNames::default();
        if keep_text {
            return names;
        }
        // One namespace per kind, each mapping a name as written to its placeholder.
        let mut spaces: [Namespace<'_>; 3] = Default::default();
        for (index, piece) in lexed.pieces.iter().enumerate() {
            let source = &yaml[piece.range.clone()];
            let space = match piece.kind {
                PieceKind::Key { top } => {
                    let name = lexed.keys.get(piece.key).cloned().flatten();
                    if top
                        && name
                            .as_deref()
                            .is_some_and(|n| FRONTMATTER_KEYS.contains(&n))
                    {
                        continue;
                    }
                    0
                }
                PieceKind::Anchor => 1,
                PieceKind::Tag if source == "!" || STANDARD_TAGS.contains(&source) => continue,
                PieceKind::Tag => 2,
                _ => continue,
            };
            let (assigned, taken, next) = &mut spaces[space];
            let shared = match assigned.get(source) {
                Some(shared) => shared.clone(),
                None => {
                    let shared = distinct_placeholder(source, taken, next);
                    taken.insert(shared.clone());
                    assigned.insert(source, shared.clone());
                    shared
                }
            };
            if let PieceKind::Key { top: true } = piece.kind {
                if let Some(Some(name)) = lexed.keys.get(piece.key) {
                    let unquoted = shared
                        .strip_prefix(['"', '\''])
                        .and_then(|k| k.strip_suffix(['"', '\'']))
                        .unwrap_or(&shared);
                    names.keys.insert(name.clone(), unquoted.to_owned());
                }
            }
            names.pieces.insert(index, shared);
        }
        names
    }
}

/// Names of one kind (keys, anchors or tags): each as written with its placeholder, the
/// placeholders taken, and where each shape's counter goes on.
type Namespace<'a> = (
    BTreeMap<&'a str, String>,
    BTreeSet<String>,
    BTreeMap<String, u64>,
);

/// The placeholder of a name, made different from every one in `taken` by writing a counter
/// into its letters (`xxxx`, `xxxb`, `xxxc`, …) and, when those run out, its digits too
/// (`x00`, `x01`, … for `k10`); never a key the analysis reads or a YAML word such as
/// `true`. With nothing to count in, the plain placeholder. `next` remembers, per plain
/// placeholder, where its counter goes on, so that many names of one shape cost linear time.
pub(super) fn distinct_placeholder(
    written: &str,
    taken: &BTreeSet<String>,
    next: &mut BTreeMap<String, u64>,
) -> String {
    let base = text_placeholder(written, false);
    // Each place the counter can write: a letter takes 26 values, a digit 10.
    let places: Vec<(usize, u64, u8)> = base
        .bytes()
        .enumerate()
        .filter_map(|(at, b)| match b {
            b'x' => Some((at, 26, b'a')),
            b'0'..=b'9' => Some((at, 10, b'0')),
            _ => None,
        })
        .collect();
    let usable = |candidate: &String| {
        !taken.contains(candidate)
            && !FRONTMATTER_KEYS.contains(&candidate.as_str())
            && !is_yaml_special(candidate)
    };
    if usable(&base) {
        return base;
    }
    let original = base.clone().into_bytes();
    let mut bytes = original.clone();
    let start = next.get(&base).copied().unwrap_or(1);
    for n in start..=start + taken.len() as u64 {
        let mut rest = n;
        for &(at, radix, first) in places.iter().rev() {
            if rest == 0 {
                bytes[at] = original[at];
                continue;
            }
            bytes[at] = first + (rest % radix) as u8;
            rest /= radix;
        }
        if rest > 0 {
            break;
        }
        let candidate = String::from_utf8(bytes.clone()).unwrap_or_default();
        if usable(&candidate) {
            next.insert(base, n + 1);
            return candidate;
        }
    }
    base
}

/// A YAML number replaced by one of the same form and the same shown length: every digit
/// `1` where that keeps the length, else the smallest number of that many digits written at
/// the original width (`0xFF` → `0x64`), else zeros kept (`2.50` → `1.10`). `None` when the
/// atom is not a number or no form fits.
pub(super) fn number_placeholder(atom: &str) -> Option<String> {
    let shown = |candidate: &str| match frontmatter::parse_value(candidate) {
        Ok(Yaml::Number(n)) => Some(n.chars().count()),
        _ => None,
    };
    let target = shown(atom)?;
    let (sign, unsigned) = match atom.strip_prefix(['-', '+']) {
        Some(rest) => (&atom[..1], rest),
        None => ("", atom),
    };
    let (prefix, radix) = match unsigned.get(..2) {
        Some("0x" | "0X") => (&unsigned[..2], 16),
        Some("0o" | "0O") => (&unsigned[..2], 8),
        _ => ("", 10),
    };
    let digits = &unsigned[prefix.len()..];
    let mut candidates = Vec::new();
    let ones: String = digits
        .chars()
        .map(|c| if c.is_digit(radix) { '1' } else { c })
        .collect();
    candidates.push(format!("{sign}{prefix}{ones}"));
    if digits.bytes().all(|b| (b as char).is_digit(radix)) && !digits.is_empty() {
        let decimal = target - usize::from(sign == "-");
        let smallest = 10u128.checked_pow(u32::try_from(decimal.saturating_sub(1)).ok()?)?;
        let width = digits.len();
        let written = match radix {
            16 if digits.bytes().any(|b| b.is_ascii_uppercase()) => {
                format!("{smallest:0width$X}")
            }
            16 => format!("{smallest:0width$x}"),
            8 => format!("{smallest:0width$o}"),
            _ => format!("{smallest:0width$}"),
        };
        if written.len() == width {
            candidates.push(format!("{sign}{prefix}{written}"));
        }
    }
    let zeros_kept: String = unsigned
        .chars()
        .map(|c| if matches!(c, '1'..='9') { '1' } else { c })
        .collect();
    candidates.push(format!("{sign}{zeros_kept}"));
    candidates
        .into_iter()
        .find(|c| c.len() == atom.len() && shown(c) == Some(target))
}
