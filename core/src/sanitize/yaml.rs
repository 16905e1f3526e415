//! Frontmatter: the rewriting that keeps only the words the analysis reads (keys, anchors,
//! tags, numbers and values), span by span as `text::frontmatter::spans` locates them, each
//! rewrite checked by parsing it as discovery does.

use super::*;

impl Builder<'_> {
    // ----- frontmatter -------------------------------------------------------------------

    /// The shared YAML of a frontmatter block (between its `---` lines).
    ///
    /// Values are rewritten piece by piece; the result is parsed and compared with the
    /// original key by key. A key whose value changed shape (a number that became a string)
    /// is rewritten again with YAML numbers, booleans and nulls kept as written.
    pub(super) fn frontmatter(&mut self, yaml: &str, kind: FileKind, shown: &str) -> String {
        let located = frontmatter::spans(yaml);
        let policies: Vec<Policy> = located
            .keys
            .iter()
            .map(|key| policy(key.as_deref(), kind))
            .collect();
        let mut careful = vec![false; located.keys.len()];
        let original = frontmatter::parse_block(yaml);
        let names = YamlNames::new(yaml, &located, self.options.keep_text);
        let mut shared = String::new();
        for round in 0..2 {
            let mut stand_ins;
            (shared, stand_ins) =
                self.rewrite_yaml(yaml, &located, &policies, &careful, &names, kind);
            if original.error.is_some() {
                // Discovery reads no value of a block that does not parse: the stand-ins
                // only keep the length, and name nothing.
                stand_ins.clear();
            }
            // The file's stand-ins are the ones of the rewrite that is kept: the last.
            self.file_stand_ins.clone_from(&stand_ins);
            if self.namer.collecting() {
                return shared;
            }
            let mut read = frontmatter::parse_block(&shared);
            read.map_strings(&|value| stand_ins.get(value).cloned());
            let failing = self.yaml_differences(&original, &read, &located, kind, &names);
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
        located: &Spans,
        policies: &[Policy],
        careful: &[bool],
        names: &YamlNames,
        kind: FileKind,
    ) -> (String, BTreeMap<String, String>) {
        let keep_text = self.options.keep_text;
        let mut out = yaml.to_owned();
        // Renamed values of another length than the original (`paths`, a skill's `name`)
        // that are no whole one-line scalar, and the stand-ins of those that are.
        let mut renamed = Vec::new();
        let mut stand_ins: BTreeMap<String, String> = BTreeMap::new();
        for (index, piece) in located.spans.iter().enumerate() {
            let source = &yaml[piece.range.clone()];
            if matches!(
                piece.kind,
                SpanKind::Key { .. } | SpanKind::Anchor | SpanKind::Tag
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
                let key = located.keys[piece.key].as_deref().unwrap_or_default();
                let word = source.trim_matches(['"', '\'']);
                if piece.kind == SpanKind::Comment || !in_vocabulary(key, word) {
                    policy = Policy::Text;
                }
                if piece.kind != SpanKind::Comment && key == "modified" {
                    if let Some(kept) = date_then_placeholder(source, keep_text) {
                        if kept.len() == source.len() {
                            out.replace_range(piece.range.clone(), &kept);
                        }
                        continue;
                    }
                }
            }
            let shared = match (piece.kind, policy) {
                (SpanKind::Comment, _) => text_placeholder(source, keep_text),
                (SpanKind::Escape, Policy::Text) if !keep_text => escape_placeholder(source),
                (SpanKind::Escape, _) | (_, Policy::Keep) => source.to_owned(),
                (_, Policy::Name) => self.namer.name(source),
                (SpanKind::Atom, Policy::Text) => {
                    if keep_text {
                        source.to_owned()
                    } else if careful[piece.key] && frontmatter::is_special_scalar(source) {
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
                (SpanKind::Quoted | SpanKind::Block, Policy::Text) => {
                    text_placeholder(source, keep_text)
                }
                (SpanKind::Key { .. } | SpanKind::Anchor | SpanKind::Tag, _) => {
                    unreachable!("names are rewritten above")
                }
            };
            // A sub-agent's description is listed with each written `\n` a line break: those
            // stay, so that its line in the listing of agent types measures the same.
            let description = located.keys[piece.key].as_deref() == Some("description");
            let shared = if kind == FileKind::Agent && description && policy == Policy::Text {
                keep_written_newlines(source, shared)
            } else {
                shared
            };
            if shared.len() == source.len() {
                out.replace_range(piece.range.clone(), &shared);
            } else if policy == Policy::Name {
                // A whole scalar is written as a stand-in of its length, which discovery
                // reads as the pseudonym (`Tree::set_stand_ins`); the parse below checks it.
                let numbered = whole_scalar(yaml, piece)
                    .then(|| {
                        (1..)
                            .map_while(|n| stand_in(source, None, n))
                            .find(|s| !stand_ins.contains_key(s))
                    })
                    .flatten();
                match numbered {
                    Some(stand_in) => {
                        out.replace_range(piece.range.clone(), &stand_in);
                        stand_ins.insert(stand_in, shared);
                    }
                    None => renamed.push((piece.range.clone(), shared)),
                }
            }
        }
        keep_yaml_lines(&mut out, renamed, &located.spans);
        (out, stand_ins)
    }

    /// The lexer's key indices whose values do not have the shape they should.
    pub(super) fn yaml_differences(
        &self,
        original: &Frontmatter,
        shared: &Frontmatter,
        located: &Spans,
        kind: FileKind,
        names: &YamlNames,
    ) -> Vec<usize> {
        let all: Vec<usize> = (0..located.keys.len()).collect();
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
        for (index, key) in located.keys.iter().enumerate() {
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

/// True when `piece` is a whole scalar on one line, as the parser reads it: the text
/// between a pair of quotes (with no escape, which would be a piece of its own), or a plain
/// word that a value indicator, list item or flow bracket opens and the line's end, a
/// comment or a flow separator closes. (A plain scalar continued on the next line reads as
/// more than the word: the caller's parse tells, and the value is not kept.)
fn whole_scalar(yaml: &str, piece: &Span) -> bool {
    let source = &yaml[piece.range.clone()];
    if source.contains(['\n', '\r', '\'']) {
        return false;
    }
    let before = yaml[..piece.range.start].trim_end_matches(' ');
    let after = &yaml[piece.range.end..];
    match piece.kind {
        SpanKind::Quoted => {
            let quote = yaml[..piece.range.start].chars().next_back();
            quote.is_some_and(|q| matches!(q, '"' | '\'') && after.starts_with(q))
        }
        SpanKind::Atom => {
            let opened = before.ends_with([':', '-', '[', '{', ',']);
            let rest = after.trim_start_matches(' ');
            let closed = rest.is_empty()
                || rest.starts_with(['\n', '\r', ',', ']', '}'])
                || (rest.starts_with('#') && rest.len() < after.len());
            opened && closed
        }
        _ => false,
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
    spans: &[Span],
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
        let pad_at = spans
            .iter()
            .find(|p| {
                p.kind == SpanKind::Comment
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

/// `shared` (a placeholder of `source`, character for character) with the `n` of every `\n`
/// written in `source` kept.
fn keep_written_newlines(source: &str, shared: String) -> String {
    if shared.len() != source.len() || !source.contains("\\n") {
        return shared;
    }
    let mut bytes = shared.into_bytes();
    for (at, _) in source.match_indices("\\n") {
        if bytes.get(at) == Some(&b'\\') {
            bytes[at + 1] = b'n';
        }
    }
    String::from_utf8(bytes).unwrap_or_default()
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
    /// Span index → its shared text.
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
    pub(super) fn new(yaml: &str, located: &Spans, keep_text: bool) -> YamlNames {
        let mut names = YamlNames::default();
        if keep_text {
            return names;
        }
        // One namespace per kind, each mapping a name as written to its placeholder.
        let mut spaces: [Namespace<'_>; 3] = Default::default();
        for (index, piece) in located.spans.iter().enumerate() {
            let source = &yaml[piece.range.clone()];
            let space = match piece.kind {
                SpanKind::Key { top } => {
                    let name = located.keys.get(piece.key).cloned().flatten();
                    if top
                        && name
                            .as_deref()
                            .is_some_and(|n| FRONTMATTER_KEYS.contains(&n))
                    {
                        continue;
                    }
                    0
                }
                SpanKind::Anchor => 1,
                SpanKind::Tag if source == "!" || STANDARD_TAGS.contains(&source) => continue,
                SpanKind::Tag => 2,
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
            if let SpanKind::Key { top: true } = piece.kind {
                if let Some(Some(name)) = located.keys.get(piece.key) {
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
            && !frontmatter::is_special_scalar(candidate)
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
