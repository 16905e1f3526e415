//! YAML frontmatter: the block between a first line `---` and the next `---` line.
//!
//! This is the one module that knows the YAML crate (`serde_norway`, the maintained fork of
//! `serde_yaml`: the same libyaml reading, which the conformance captures agree with). Its
//! values are read into this module's own [`Value`] under explicit bounds, so that hostile
//! frontmatter costs time and memory in proportion to its length:
//! - flow nesting (`[[[[…`, `{a:{a:…`) deeper than [`MAX_FLOW_DEPTH`] is refused before
//!   libyaml sees it: libyaml rescans every open flow level at each token, which is
//!   quadratic in the depth;
//! - more than [`MAX_ALIASES`] aliases (`*name`) are refused, as JavaScript's `yaml` package
//!   refuses them by default;
//! - reading stops with an error past [`MAX_VALUES`] values, aliases counted as expanded
//!   (an alias bomb), and past [`MAX_DEPTH`] levels of nesting;
//! - a block over [`MAX_YAML_BYTES`] is not parsed at all.

use std::collections::HashSet;
use std::fmt;
use std::ops::Range;

use serde::de::{self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, Visitor};

mod spans;
pub(crate) use spans::{spans, Span, SpanKind, Spans};

/// Deepest flow nesting (`[` and `{` inside one another) read.
pub(crate) const MAX_FLOW_DEPTH: usize = 64;
/// Deepest nesting of any collections read (serde_yaml's own limit was 128).
pub(crate) const MAX_DEPTH: usize = 128;
/// Most aliases a block may hold.
pub(crate) const MAX_ALIASES: usize = 100;
/// Most values (scalars and collections, aliases expanded) a block may hold.
pub(crate) const MAX_VALUES: usize = 200_000;
/// Largest block read, in bytes: libyaml holds every event of a document before the first
/// value is read, so the size bounds the memory (real frontmatter is a few hundred bytes).
pub(crate) const MAX_YAML_BYTES: usize = 1024 * 1024;

/// A YAML value as frontmatter uses it. Mapping keys keep file order.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    Null,
    Bool(bool),
    /// A number, as YAML writes it back (`42`, `1.5`, `.inf`).
    Number(String),
    String(String),
    Sequence(Vec<Value>),
    Mapping(Vec<(Value, Value)>),
    /// A value with a `!tag`; the tag is written with its `!`.
    Tagged(String, Box<Value>),
}

impl Value {
    /// True for a list (through any tag).
    pub(crate) fn is_sequence(&self) -> bool {
        matches!(untag(self), Value::Sequence(_))
    }
}

impl From<i64> for Value {
    fn from(n: i64) -> Value {
        Value::Number(n.to_string())
    }
}

/// A parsed frontmatter block.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Frontmatter {
    /// Top-level keys in file order, each with its value. Empty when the YAML did not parse.
    pub(crate) fields: Vec<(String, Value)>,
    /// Byte offset in the text where the body starts: just after the closing `---` line and
    /// its line break.
    pub(crate) body_offset: usize,
    /// How many raw lines the block occupies, both `---` lines included.
    pub(crate) line_count: usize,
    /// The YAML error, when the block is not a valid YAML mapping (an empty block is valid).
    pub(crate) error: Option<String>,
}

impl Frontmatter {
    /// Replaces every string value (in lists, mappings and tags too) for which `replace`
    /// gives another: a shared snapshot's stand-ins by what they stand for.
    pub(crate) fn map_strings(&mut self, replace: &dyn Fn(&str) -> Option<String>) {
        fn walk(value: &mut Value, replace: &dyn Fn(&str) -> Option<String>) {
            match value {
                Value::String(s) => {
                    if let Some(other) = replace(s) {
                        *s = other;
                    }
                }
                Value::Sequence(items) => items.iter_mut().for_each(|v| walk(v, replace)),
                Value::Mapping(pairs) => pairs.iter_mut().for_each(|(_, v)| walk(v, replace)),
                Value::Tagged(_, inner) => walk(inner, replace),
                Value::Null | Value::Bool(_) | Value::Number(_) => {}
            }
        }
        for (_, value) in &mut self.fields {
            walk(value, replace);
        }
    }
}

/// Finds and parses the frontmatter block as the pinned release reads it; `None` when the
/// text has none (no `---` first line, or no closing `---` line). `\r\n` line ends are
/// accepted.
pub(crate) fn parse(text: &str) -> Option<Frontmatter> {
    parse_with(text, true)
}

/// [`parse`], with or without the retry on LF line ends ([`lf_retry`]: 2.1.337 on,
/// `version::Behaviour::FrontmatterLfRetry`).
pub(crate) fn parse_with(text: &str, lf_retry: bool) -> Option<Frontmatter> {
    let block = locate(text)?;
    let yaml = &text[block.yaml.clone()];
    let (fields, error) = match parse_value(yaml) {
        Ok(value) => fields_of(value),
        // A bound is a refusal, not a YAML error the lenient reading could rescue.
        Err(ParseError::Bound(error)) => (Vec::new(), Some(error)),
        // Claude Code quotes the values YAML stumbles on and tries again (measured on
        // 2.1.328: `skills-listing-edge-invalid-yaml`); when that fails too, no field counts,
        // unless (2.1.337) the block's CRLF line ends made LF read safely.
        Err(ParseError::Yaml(error)) => match parse_value(&quote_lossy_values(yaml)) {
            Ok(value) => fields_of(value),
            Err(_) => match lf_retry.then(|| self::lf_retry(yaml)).flatten() {
                Some(value) => fields_of(value),
                None => (Vec::new(), Some(error)),
            },
        },
    };
    Some(Frontmatter {
        fields,
        body_offset: block.body_offset,
        line_count: block.line_count,
        error,
    })
}

/// Why a YAML text gave no value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ParseError {
    /// Not valid YAML (or a duplicate key), with libyaml's message.
    Yaml(String),
    /// Over one of this module's bounds.
    Bound(String),
}

/// Parses one YAML document into a [`Value`], within the bounds above; an empty document is
/// [`Value::Null`].
pub(crate) fn parse_value(yaml: &str) -> Result<Value, ParseError> {
    check_bounds(yaml).map_err(ParseError::Bound)?;
    let budget = Budget {
        values: std::cell::Cell::new(MAX_VALUES),
    };
    let seed = ValueSeed {
        budget: &budget,
        depth: 0,
    };
    match seed.deserialize(serde_norway::Deserializer::from_str(yaml)) {
        Ok(value) => Ok(value),
        // serde_norway puts the path of the value first (`a[0][8]: bound: …`).
        Err(error) if error.to_string().contains(BOUND_MARK) => {
            let message = error.to_string();
            let at = message
                .find(BOUND_MARK)
                .map_or(0, |at| at + BOUND_MARK.len());
            Err(ParseError::Bound(message[at..].to_owned()))
        }
        // serde_norway's own bounds: 128 levels, and alias jumps past 100 per event.
        Err(error)
            if ["recursion limit exceeded", "repetition limit exceeded"]
                .iter()
                .any(|limit| error.to_string().contains(limit)) =>
        {
            Err(ParseError::Bound(error.to_string()))
        }
        Err(error) => Err(ParseError::Yaml(error.to_string())),
    }
}

/// Parses a frontmatter block's YAML (what lies between its `---` lines) as [`parse`]
/// reads it in a file: for a rewrite of the block to be read back the way discovery reads.
pub(crate) fn parse_block(yaml: &str) -> Frontmatter {
    parse(&format!("---\n{yaml}---\n")).unwrap_or(Frontmatter {
        fields: Vec::new(),
        body_offset: 0,
        line_count: 0,
        error: Some("no frontmatter".to_owned()),
    })
}

/// True for a plain scalar that YAML reads as something other than a string (a number, a
/// boolean, a null): the sanitizer keeps those as written.
pub(crate) fn is_special_scalar(atom: &str) -> bool {
    matches!(parse_value(atom), Ok(value) if !matches!(untag(&value), Value::String(_)))
}

/// Looks through `!tag`s: the tag carries no meaning for Claude Code, so every reader
/// looks through it.
pub(crate) fn untag(mut value: &Value) -> &Value {
    while let Value::Tagged(_, inner) = value {
        value = inner;
    }
    value
}

fn into_untagged(mut value: Value) -> Value {
    while let Value::Tagged(_, inner) = value {
        value = *inner;
    }
    value
}

/// Starts the message of an error that a bound, not the YAML, caused.
const BOUND_MARK: &str = "bound: ";

/// The checks made on the text before libyaml reads it, in one pass: flow depth and
/// aliases. The scan knows quotes and comments; a `[` or `{` inside a plain scalar may be
/// counted as an opening, which only makes the bound a little stricter than YAML's reading.
fn check_bounds(yaml: &str) -> Result<(), String> {
    if yaml.len() > MAX_YAML_BYTES {
        return Err(format!(
            "frontmatter of {} bytes, over the {MAX_YAML_BYTES} read",
            yaml.len()
        ));
    }
    let bytes = yaml.as_bytes();
    let (mut depth, mut aliases) = (0usize, 0usize);
    let mut token_start = true;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'\n' | b' ' | b'\t' | b'\r' => token_start = true,
            b'#' if token_start => {
                // A comment runs to the end of its line.
                i = memchr_newline(bytes, i);
                continue;
            }
            b'"' | b'\'' if token_start => {
                i = quoted_end(bytes, i);
                token_start = false;
                continue;
            }
            b'[' | b'{' if token_start || depth > 0 => {
                depth += 1;
                if depth > MAX_FLOW_DEPTH {
                    return Err(format!(
                        "flow collections nest deeper than {MAX_FLOW_DEPTH} levels"
                    ));
                }
                token_start = true;
            }
            b']' | b'}' if depth > 0 => {
                depth -= 1;
                token_start = false;
            }
            b',' | b':' if depth > 0 => token_start = true,
            b'*' if token_start => {
                aliases += 1;
                if aliases > MAX_ALIASES {
                    return Err(format!("more than {MAX_ALIASES} aliases (`*name`)"));
                }
                token_start = false;
            }
            _ => token_start = false,
        }
        i += 1;
    }
    Ok(())
}

fn memchr_newline(bytes: &[u8], from: usize) -> usize {
    bytes[from..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |at| from + at)
}

/// The index after the quoted scalar opening at `open` (or the end of the text).
fn quoted_end(bytes: &[u8], open: usize) -> usize {
    let quote = bytes[open];
    let mut i = open + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if quote == b'"' => i += 2,
            b'\'' if quote == b'\'' && bytes.get(i + 1) == Some(&b'\'') => i += 2,
            b if b == quote => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

/// What is left to read of one block.
struct Budget {
    values: std::cell::Cell<usize>,
}

impl Budget {
    fn take<E: de::Error>(&self) -> Result<(), E> {
        match self.values.get() {
            0 => Err(E::custom(format_args!(
                "{BOUND_MARK}more than {MAX_VALUES} values, aliases expanded"
            ))),
            n => {
                self.values.set(n - 1);
                Ok(())
            }
        }
    }
}

/// Reads one value, counting it against the budget.
#[derive(Clone, Copy)]
struct ValueSeed<'b> {
    budget: &'b Budget,
    depth: usize,
}

impl<'de> DeserializeSeed<'de> for ValueSeed<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        self.budget.take()?;
        deserializer.deserialize_any(self)
    }
}

impl ValueSeed<'_> {
    fn inner<E: de::Error>(self) -> Result<Self, E> {
        if self.depth >= MAX_DEPTH {
            return Err(E::custom(format_args!(
                "{BOUND_MARK}collections nest deeper than {MAX_DEPTH} levels"
            )));
        }
        Ok(ValueSeed {
            budget: self.budget,
            depth: self.depth + 1,
        })
    }
}

impl<'de> Visitor<'de> for ValueSeed<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any YAML value")
    }

    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }

    fn visit_i64<E: de::Error>(self, n: i64) -> Result<Value, E> {
        Ok(Value::Number(serde_norway::Number::from(n).to_string()))
    }

    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Value, E> {
        Ok(Value::Number(serde_norway::Number::from(n).to_string()))
    }

    fn visit_i128<E: de::Error>(self, n: i128) -> Result<Value, E> {
        Ok(Value::Number(n.to_string()))
    }

    fn visit_u128<E: de::Error>(self, n: u128) -> Result<Value, E> {
        Ok(Value::Number(n.to_string()))
    }

    fn visit_f64<E: de::Error>(self, n: f64) -> Result<Value, E> {
        Ok(Value::Number(serde_norway::Number::from(n).to_string()))
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.to_owned()))
    }

    fn visit_string<E: de::Error>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let inner = self.inner()?;
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(inner)? {
            items.push(item);
        }
        Ok(Value::Sequence(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let inner = self.inner()?;
        let mut entries: Vec<(Value, Value)> = Vec::new();
        // Keys seen, as their debug text: enough to tell `1` from `"1"`, in linear time.
        let mut seen = HashSet::new();
        while let Some(key) = map.next_key_seed(inner)? {
            if !seen.insert(format!("{key:?}")) {
                return Err(de::Error::custom(duplicate_key(&key)));
            }
            let value = map.next_value_seed(inner)?;
            entries.push((key, value));
        }
        Ok(Value::Mapping(entries))
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Value, A::Error> {
        // A `!tag value`: the variant name is the tag.
        let (tag, contents) = data.variant::<String>()?;
        let value = de::VariantAccess::newtype_variant_seed(contents, self.inner()?)?;
        let tag = match tag.strip_prefix('!') {
            Some(rest) if !rest.is_empty() => rest.to_owned(),
            _ => tag,
        };
        Ok(Value::Tagged(format!("!{tag}"), Box::new(value)))
    }
}

/// serde_yaml's message for a repeated key, word for word.
fn duplicate_key(key: &Value) -> String {
    match key {
        Value::Null => "duplicate entry with null key".to_owned(),
        Value::Bool(b) => format!("duplicate entry with key `{b}`"),
        Value::Number(n) => format!("duplicate entry with key {n}"),
        Value::String(s) => format!("duplicate entry with key {s:?}"),
        _ => "duplicate entry in YAML map".to_owned(),
    }
}

/// The fields of a parsed block, or why it has none.
fn fields_of(value: Value) -> (Vec<(String, Value)>, Option<String>) {
    match into_untagged(value) {
        Value::Mapping(map) => (
            map.into_iter()
                .map(|(key, value)| (key_text(&key), value))
                .collect(),
            None,
        ),
        Value::Null => (Vec::new(), None),
        _ => (
            Vec::new(),
            Some("frontmatter is not a mapping of keys to values".to_owned()),
        ),
    }
}

/// Claude Code's second reading of a block YAML rejects (2.1.328's bundled code, measured
/// by `skills-listing-edge-invalid-yaml`): each line `key: value` whose key is letters, `_`
/// and `-` and whose value holds a YAML indicator (`{}[]*&#!|>%@` and backtick, or `: `) is
/// rewritten as `key: "value"` (`\` and `"` escaped), unless the value is already quoted
/// or is a flow list YAML reads; then leading tabs become two spaces each.
pub(crate) fn quote_lossy_values(yaml: &str) -> String {
    let mut out = String::with_capacity(yaml.len() + 16);
    for (i, line) in yaml.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let quoted = lossy_value(line).map(|(key, value)| {
            let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
            format!("{key}: \"{escaped}\"")
        });
        let line = quoted.as_deref().unwrap_or(line);
        let tabs = line.len() - line.trim_start_matches('\t').len();
        out.push_str(&"  ".repeat(tabs));
        out.push_str(&line[tabs..]);
    }
    out
}

/// Claude Code's third reading (2.1.337's bundled code, `irr`; measured by
/// `skills-listing-edge-invalid-yaml`): a block with CRLF line ends whose second reading
/// failed (its `\r` keeps a line from being quoted) is read again with LF line ends, and
/// the result is kept unless a line that reading quoted looks unsafe to quote. Offered only
/// to a block with no lone CR, of at most 65,536 units, with at most 256 `[`, `{` and
/// free-standing `-` or `?`, and no merge key, escaped `<` or anchor used as an alias (see
/// [`anchor_used_as_alias`]; measured by `edges-frontmatter-lf-retry-anchors-aliases`). A
/// quoted line is unsafe when more than eight are, when its
/// value starts like YAML syntax or holds a ` #` comment, or when YAML reads the line as
/// written (alone, or in the block) as another value.
pub(crate) fn lf_retry(yaml: &str) -> Option<Value> {
    const MAX_UNITS: usize = 65_536;
    const MAX_QUOTED: usize = 8;
    let units = yaml.encode_utf16().count();
    if !yaml.contains("\r\n")
        || yaml.replace("\r\n", "").contains('\r')
        || units > MAX_UNITS
        || flow_indicators_over(yaml, 256)
        || merge_key_or_escaped_angle(yaml)
        || anchor_used_as_alias(yaml)
    {
        return None;
    }
    let lf = yaml.replace("\r\n", "\n");
    let quoted = quote_lossy_values(&lf);
    let value = parse_value(&quoted).ok()?;
    let rewritten: Vec<&str> = quoted.split('\n').collect();
    let mut count = 0;
    let mut size = units;
    for (h, line) in lf.split('\n').enumerate() {
        let Some((key, value)) = key_value(line) else {
            continue;
        };
        if rewritten.get(h) == Some(&line) {
            continue;
        }
        count += 1;
        size += quoted.encode_utf16().count();
        let value = value.trim_end_matches(is_js_space);
        if count > MAX_QUOTED || size > MAX_UNITS || starts_like_syntax(value) {
            return None;
        }
        let restored: Vec<&str> = rewritten
            .iter()
            .enumerate()
            .map(|(g, y)| if g == h { line } else { y })
            .collect();
        let reads_otherwise =
            [line.to_owned(), restored.join("\n")]
                .iter()
                .any(|doc| match parse_value(doc) {
                    Ok(parsed) => !matches!(
                        fields_of(parsed).0.iter().find(|(k, _)| k == key).map(|(_, v)| untag(v)),
                        Some(Value::String(s)) if s == value
                    ),
                    Err(_) => false,
                });
        if reads_otherwise {
            return None;
        }
    }
    Some(value)
}

/// Whether `yaml` may use an anchor as an alias, by 2.1.337's own scan (its bundled code,
/// `B` and `v`; measured by `edges-frontmatter-lf-retry-anchors-aliases`), which keeps a
/// block from the LF retry. Only a block holding both `&` and `*` is scanned. The scan reads
/// the block followed by each of its lines with a `key: value` value put in double quotes
/// (`\` written `"`), and answers yes when [`may_hold_anchor`] does and some `*` is followed
/// by the name of some `&`: a run of word characters (`&a-b` and `*a-c` both name `a`), else
/// the one character after it (`&&` names `&`). So `x: &a 1` with `y: *a` is not retried,
/// `Tom & Jerry *stars*` and `a&b and *b` are, and `&a` with `*b` is (YAML then rejects the
/// unknown alias). The names are compared as UTF-16 units, as the program compares them.
fn anchor_used_as_alias(yaml: &str) -> bool {
    if !yaml.contains('&') || !yaml.contains('*') {
        return false;
    }
    let mut scanned = yaml.to_owned();
    for line in yaml.split('\n') {
        scanned.push('\n');
        let bare = line.strip_suffix('\r').unwrap_or(line);
        match key_value(bare) {
            Some((key, value)) => {
                scanned.push_str(key);
                scanned.push_str(": \"");
                scanned.push_str(value);
                scanned.push('"');
            }
            None => scanned.push_str(line),
        }
    }
    let scanned: Vec<char> = scanned
        .chars()
        .map(|c| if c == '\\' { '"' } else { c })
        .collect();
    if !may_hold_anchor(&scanned) {
        return false;
    }
    // `&(?=(\w+|[^ \t\r\n]))&*` and `\*(?=(\w+|[^ \t\r\n]))`, searched left to right.
    let name_at = |at: usize| -> Option<Vec<u16>> {
        let word: Vec<u16> = scanned[at..]
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric() || **c == '_')
            .map(|c| *c as u16)
            .collect();
        if !word.is_empty() {
            return Some(word);
        }
        let c = *scanned.get(at)?;
        (!matches!(c, ' ' | '\t' | '\r' | '\n')).then(|| vec![c.encode_utf16(&mut [0; 2])[0]])
    };
    let mut anchors = Vec::new();
    let mut at = 0;
    while at < scanned.len() {
        if scanned[at] == '&' {
            if let Some(name) = name_at(at + 1) {
                anchors.push(name);
                at += 1;
                while scanned.get(at) == Some(&'&') {
                    at += 1;
                }
                continue;
            }
        }
        at += 1;
    }
    (0..scanned.len())
        .filter(|&at| scanned[at] == '*')
        .filter_map(|at| name_at(at + 1))
        .any(|name| anchors.contains(&name))
}

/// The program's `v`: whether some `&` in `text` may start an anchor. An `&` does not when
/// white space or the end follows it, or a letter, digit or `&` comes right before it, or
/// white space and then a letter or digit come before it and the word before ends in
/// something else than a flow or key indicator. Past 256 characters of one word, or a `!`
/// or U+FEFF in it, the answer is yes.
fn may_hold_anchor(text: &[char]) -> bool {
    const MAX_WORD: usize = 256;
    let letter_or_digit = |c: char| c.is_alphabetic() || c.is_numeric();
    let space = |c: char| matches!(c, ' ' | '\t' | '\r' | '\n');
    for (e, _) in text.iter().enumerate().filter(|(_, c)| **c == '&') {
        if text.get(e + 1).copied().is_none_or(space) {
            continue;
        }
        let before = e.checked_sub(1).map(|i| text[i]);
        if before.is_some_and(|c| letter_or_digit(c) || c == '&') {
            continue;
        }
        let end = if matches!(before, Some(' ' | '\t')) {
            let mut a = e - 1;
            while a > 0 && matches!(text[a], ' ' | '\t') {
                a -= 1;
            }
            if matches!(text[a], ' ' | '\t') || !letter_or_digit(text[a]) {
                return true;
            }
            a + 1
        } else {
            e
        };
        let mut start = end;
        while start > 0 && !space(text[start - 1]) {
            if end - (start - 1) > MAX_WORD {
                return true;
            }
            start -= 1;
        }
        let word = &text[start..end];
        if word.iter().any(|c| matches!(c, '!' | '\u{feff}')) {
            return true;
        }
        let mut cut = word.iter().rposition(|c| matches!(c, '[' | '{' | ','));
        for (a, _) in word.iter().enumerate().filter(|(_, c)| **c == ':') {
            if a == 0 || matches!(word[a - 1], '"' | '\'' | ']' | '}' | '[' | '{' | ',') {
                cut = Some(cut.map_or(a, |l| l.max(a)));
            }
        }
        let rest = &word[cut.map_or(0, |l| l + 1)..];
        if rest.first().is_none_or(|c| matches!(c, '!' | '&' | '*')) {
            return true;
        }
    }
    false
}

/// `^([a-zA-Z_-]+):\s+(\S.*)$` on one line: its key and value.
fn key_value(line: &str) -> Option<(&str, &str)> {
    let (key, rest) = line.split_once(':')?;
    if key.is_empty()
        || !key
            .chars()
            .all(|c| c.is_ascii_alphabetic() || c == '_' || c == '-')
    {
        return None;
    }
    let value = rest.trim_start_matches(is_js_space);
    if value.len() == rest.len()
        || value.is_empty()
        || value.contains(['\r', '\u{2028}', '\u{2029}'])
    {
        return None;
    }
    Some((key, value))
}

/// More than `limit` of `[`, `{`, and `-` or `?` between white space (the program's `N`).
fn flow_indicators_over(yaml: &str, limit: usize) -> bool {
    let chars: Vec<char> = yaml.chars().collect();
    let mut count = 0;
    for (i, &c) in chars.iter().enumerate() {
        let before = if i == 0 { ' ' } else { chars[i - 1] };
        let after = chars.get(i + 1).copied().unwrap_or(' ');
        let free = (c == '-' || c == '?')
            && matches!(before, ' ' | '\t' | '\r' | '\n' | '\u{feff}')
            && matches!(after, ' ' | '\t' | '\r' | '\n');
        if c == '[' || c == '{' || free {
            count += 1;
            if count > limit {
                return true;
            }
        }
    }
    false
}

/// `/<<["']?\s*[:#]|<\\(?:[\r\n]|(?:x|u00|U000000)3c)|\\(?:x|u00|U000000)3c[<\\]/i`: a
/// merge key, or a `<` written as an escape.
fn merge_key_or_escaped_angle(yaml: &str) -> bool {
    let lower = yaml.to_ascii_lowercase();
    let escapes = ["x3c", "u003c", "u000000003c"];
    let merge = lower.match_indices("<<").any(|(at, _)| {
        let rest = &lower[at + 2..];
        let rest = rest.strip_prefix(['"', '\'']).unwrap_or(rest);
        rest.trim_start_matches(is_js_space).starts_with([':', '#'])
    });
    let after_backslash = |at: usize| {
        let rest = &lower[at + 1..];
        escapes.iter().find_map(|e| rest.strip_prefix(e))
    };
    let escaped = lower.match_indices('\\').any(|(at, _)| {
        let angle_then_escape = at > 0
            && lower.as_bytes()[at - 1] == b'<'
            && (lower[at + 1..].starts_with(['\r', '\n']) || after_backslash(at).is_some());
        let escape_then = after_backslash(at).is_some_and(|rest| rest.starts_with(['<', '\\']));
        angle_then_escape || escape_then
    });
    merge || escaped
}

/// The program's `P`: a value that starts like YAML syntax (`&!|>`, an alias, an unclosed
/// `[`, `{`, `"` or `'`) or holds a comment.
fn starts_like_syntax(value: &str) -> bool {
    let alias = value.strip_prefix('*').is_some_and(|rest| {
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
            .collect();
        !name.is_empty()
            && rest[name.len()..]
                .chars()
                .next()
                .is_none_or(|c| c.is_whitespace() || c == ',')
    });
    let unclosed = |open: char, close: char| {
        value.starts_with(open) && !(value.len() > 1 && value[1..].ends_with(close))
    };
    value.starts_with(['&', '!', '|', '>'])
        || alias
        || value.starts_with('#')
        || value
            .char_indices()
            .any(|(at, c)| is_js_space(c) && value[at + c.len_utf8()..].starts_with('#'))
        || unclosed('[', ']')
        || (value.starts_with('{') && !value[1..].contains('}'))
        || unclosed('"', '"')
        || unclosed('\'', '\'')
}

/// The key and value of a line [`quote_lossy_values`] quotes.
fn lossy_value(line: &str) -> Option<(&str, &str)> {
    let (key, value) = key_value(line)?;
    let quoted = |q: char| value.starts_with(q) && value.ends_with(q);
    if quoted('"') || quoted('\'') {
        return None;
    }
    if value.starts_with('[')
        && value.ends_with(']')
        && matches!(
            parse_value(value).map(into_untagged),
            Ok(Value::Sequence(_))
        )
    {
        return None;
    }
    let indicator = value.contains([
        '{', '}', '[', ']', '*', '&', '#', '!', '|', '>', '%', '@', '`',
    ]) || value.contains(": ");
    indicator.then_some((key, value))
}

/// White space as JavaScript's `\s` reads it.
fn is_js_space(c: char) -> bool {
    c.is_whitespace() || c == '\u{feff}'
}

impl Frontmatter {
    /// A string field (a YAML string, number or bool rendered as text); `None` when absent
    /// or null.
    pub(crate) fn string(&self, key: &str) -> Option<String> {
        match untag(self.value(key)?) {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            Value::Bool(b) => Some(b.to_string()),
            _ => None,
        }
    }

    /// A boolean field: YAML `true`/`false`, or the strings "true"/"false".
    pub(crate) fn boolean(&self, key: &str) -> Option<bool> {
        match untag(self.value(key)?) {
            Value::Bool(b) => Some(*b),
            Value::String(s) if s == "true" => Some(true),
            Value::String(s) if s == "false" => Some(false),
            _ => None,
        }
    }

    /// The raw value of a field.
    pub(crate) fn value(&self, key: &str) -> Option<&Value> {
        self.fields
            .iter()
            .find(|(name, _)| name == key)
            .map(|(_, value)| value)
    }

    /// Every field as display text, values rendered on one line (a list as `a, b`).
    pub(crate) fn display_fields(&self) -> Vec<(String, String)> {
        self.fields
            .iter()
            .map(|(key, value)| (key.clone(), render(value, true)))
            .collect()
    }
}

/// A rule's `paths` field as globs: a YAML list of strings, or one string split on commas
/// that are not inside `{…}` braces; entries trimmed, empty ones dropped.
pub(crate) fn parse_paths(value: &Value) -> Vec<String> {
    match untag(value) {
        // Numbers and booleans in the list are kept as text, because a YAML author writing
        // `- 2024` means the folder name, not a number.
        Value::Sequence(items) => items
            .iter()
            .filter_map(|item| match untag(item) {
                Value::String(s) => Some(s.trim().to_owned()),
                Value::Number(n) => Some(n.to_string()),
                Value::Bool(b) => Some(b.to_string()),
                _ => None,
            })
            .filter(|entry| !entry.is_empty())
            .collect(),
        Value::String(s) => split_outside_braces(s),
        _ => Vec::new(),
    }
}

/// Where a frontmatter block lies in a text, before its YAML is parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Block {
    /// The YAML between the two `---` lines.
    pub(crate) yaml: Range<usize>,
    /// Byte offset just after the closing `---` line and its line break.
    pub(crate) body_offset: usize,
    /// Raw lines of the block, both `---` lines included.
    pub(crate) line_count: usize,
}

/// Finds the frontmatter block without parsing its YAML, for callers that only need to skip
/// it (loading and reference scanning must not pay for a YAML parse).
pub(crate) fn locate(text: &str) -> Option<Block> {
    let mut lines = text.split_inclusive('\n');
    let first = lines.next()?;
    if !is_delimiter(first) {
        return None;
    }
    let yaml_start = first.len();
    let mut offset = yaml_start;
    for (index, line) in lines.enumerate() {
        if is_delimiter(line) {
            return Some(Block {
                yaml: yaml_start..offset,
                body_offset: offset + line.len(),
                line_count: index + 2,
            });
        }
        offset += line.len();
    }
    None
}

/// A `---` line: trailing spaces, tabs and a `\r` are tolerated, leading ones are not,
/// because Claude Code anchors the marker at the start of the line.
fn is_delimiter(line: &str) -> bool {
    line.trim_end_matches('\n')
        .trim_end_matches([' ', '\t', '\r'])
        == "---"
}

/// Keys are usually strings, but YAML allows `1:` or `true:` as keys too.
fn key_text(key: &Value) -> String {
    match untag(key) {
        Value::String(s) => s.clone(),
        other => render(other, false),
    }
}

/// One-line text of a value. At the top level a null shows as nothing and a list as `a, b`;
/// nested inside another collection they keep flow-style markers so the structure stays
/// readable.
fn render(value: &Value, top: bool) -> String {
    match value {
        Value::Null if top => String::new(),
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => one_line(s),
        Value::Sequence(items) => {
            let inner: Vec<String> = items.iter().map(|item| render(item, false)).collect();
            if top {
                inner.join(", ")
            } else {
                format!("[{}]", inner.join(", "))
            }
        }
        Value::Mapping(map) => {
            let inner: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{}: {}", key_text(k), render(v, false)))
                .collect();
            format!("{{{}}}", inner.join(", "))
        }
        Value::Tagged(tag, inner) => format!("{tag} {}", render(inner, top)),
    }
}

/// Block scalars (`|`, `>`) hold several lines; the report shows one, so the lines are
/// joined with single spaces. Single-line strings are left exactly as written.
fn one_line(s: &str) -> String {
    if !s.contains(['\n', '\r']) {
        return s.to_owned();
    }
    s.split(['\n', '\r'])
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Splits on commas at brace depth zero, so that `src/{a,b}/*.ts, lib/**` stays two globs.
fn split_outside_braces(s: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                parts.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&s[start..]);
    parts
        .into_iter()
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Renders what `parse` found as one line: `none`, or the block's body offset, line
    /// count, each displayed field and the error.
    fn check(text: &str, expected: &str) {
        let actual = match parse(text) {
            None => "none".to_owned(),
            Some(fm) => {
                let mut out = format!("body={} lines={}", fm.body_offset, fm.line_count);
                for (key, value) in fm.display_fields() {
                    out.push_str(&format!(" {key}=[{value}]"));
                }
                if let Some(error) = &fm.error {
                    out.push_str(&format!(" error={}", error.lines().next().unwrap_or("")));
                }
                out
            }
        };
        assert_eq!(actual, expected, "input: {text:?}");
    }

    #[test]
    fn blocks() {
        check("", "none");
        check("---", "none");
        check("---\n", "none");
        check("---\n---", "body=7 lines=2");
        check("---\n---\n", "body=8 lines=2");
        check("---\n---\nbody", "body=8 lines=2");
        check("---\na: 1\n---\nbody\n", "body=13 lines=3 a=[1]");
        check("---\r\na: 1\r\n---\r\nbody", "body=16 lines=3 a=[1]");
        check("--- \t\na: 1\n---  \nx", "body=17 lines=3 a=[1]");
        check(" ---\na: 1\n---\n", "none");
        check("----\na: 1\n---\n", "none");
        check("---\na: 1\n", "none");
        check("---\na: 1\n--- x\n", "none");
        check("text\n---\na: 1\n---\n", "none");
        check("---\n\n\n---\n", "body=10 lines=4");
        check("---\n# only a comment\n---\n", "body=25 lines=3");
    }

    #[test]
    fn fields_keep_file_order_and_render_on_one_line() {
        check(
            "---\nz: 1\na: 2\nm: 3\n---\n",
            "body=23 lines=5 z=[1] a=[2] m=[3]",
        );
        check(
            "---\npaths:\n  - a\n  - b\n---\n",
            "body=27 lines=5 paths=[a, b]",
        );
        check(
            "---\nl: [a, [b, c]]\n---\n",
            "body=23 lines=3 l=[a, [b, c]]",
        );
        check(
            "---\nm: {k: v, n: 1}\n---\n",
            "body=24 lines=3 m=[{k: v, n: 1}]",
        );
        check(
            "---\nd: |\n  one\n  two\n---\n",
            "body=25 lines=5 d=[one two]",
        );
        check(
            "---\nempty:\nt: true\n---\n",
            "body=23 lines=4 empty=[] t=[true]",
        );
        check("---\nl: [a, ~]\n---\n", "body=18 lines=3 l=[a, null]");
        check("---\n1: one\n---\n", "body=15 lines=3 1=[one]");
        check("---\nx: !custom v\n---\n", "body=21 lines=3 x=[!custom v]");
        check("---\nname: 가나 \n---\n", "body=22 lines=3 name=[가나]");
    }

    #[test]
    fn errors() {
        check(
            "---\njust a string\n---\n",
            "body=22 lines=3 error=frontmatter is not a mapping of keys to values",
        );
        check(
            "---\n- a\n- b\n---\n",
            "body=16 lines=4 error=frontmatter is not a mapping of keys to values",
        );
        // Rescued by the second reading: the value is quoted.
        check("---\na: [1\n---\n", "body=14 lines=3 a=[[1]");
        check("---\na: [1\n  b: x\n---\n", "body=21 lines=4 error=did not find expected ',' or ']' at line 2 column 4, while parsing a flow sequence at line 1 column 4");
        check(
            "---\na: 1\na: 2\n---\n",
            "body=18 lines=4 error=duplicate entry with key \"a\"",
        );
        // Leading tabs become spaces in the second reading.
        check("---\n\ta: 1\n---\n", "body=14 lines=3 a=[1]");
    }

    #[test]
    fn values_yaml_rejects_are_quoted_and_read_again() {
        // Measured on 2.1.328 (`skills-listing-edge-invalid-yaml`).
        let second = |yaml: &str| quote_lossy_values(yaml);
        assert_eq!(
            second("description: Creates a branch\nargument-hint: [issue|branch] [--from-current]"),
            "description: Creates a branch\nargument-hint: \"[issue|branch] [--from-current]\""
        );
        assert_eq!(
            second("description: a\\b: c \"d\""),
            "description: \"a\\\\b: c \\\"d\\\"\""
        );
        // Already quoted, a flow list YAML reads, a key with a digit, an indented line, a
        // line ending in CR: as written.
        for kept in [
            "d: \"x: y\"",
            "tags: [a, b]",
            "x2: a: b",
            "  bad: x: y",
            "d: x: y\r",
        ] {
            assert_eq!(second(kept), kept);
        }
        check(
            "---\ndescription: Use when: asked\nargument-hint: [issue|branch]\n---\n",
            // `[issue|branch]` is a flow list YAML reads: it stays a list.
            "body=67 lines=4 description=[Use when: asked] argument-hint=[issue|branch]",
        );
    }

    #[test]
    fn crlf_blocks_are_read_again_with_lf_line_ends() {
        // Measured on 2.1.337 (`skills-listing-edge-invalid-yaml`); 2.1.332 had no third
        // reading.
        let description = |text: &str, retry: bool| {
            parse_with(text, retry).and_then(|fm| fm.string("description"))
        };
        let crlf = "---\r\ndescription: CRLF with: colon\r\n---\r\nCRLF body\r\n";
        assert_eq!(description(crlf, false), None);
        assert_eq!(description(crlf, true).as_deref(), Some("CRLF with: colon"));
        assert_eq!(
            parse(crlf)
                .and_then(|fm| fm.string("description"))
                .as_deref(),
            Some("CRLF with: colon")
        );
        // Not offered: a lone CR.
        assert_eq!(
            description("---\r\ndescription: a: b\r\nx: \r1\r\n---\r\n", true),
            None
        );
        // `&` after a word is no anchor: offered, and read.
        assert_eq!(
            description("---\r\ndescription: a: b &x *x\r\n---\r\n", true).as_deref(),
            Some("a: b &x *x")
        );
        // Refused: a quoted value holding a comment, or starting like YAML syntax.
        assert_eq!(
            description("---\r\ndescription: a: b #c\r\n---\r\n", true),
            None
        );
        assert_eq!(
            description("---\r\ndescription: |a: b\r\n---\r\n", true),
            None
        );
        // More than eight quoted lines.
        let nine: String = ["a", "b", "c", "d", "e", "f", "g", "h", "i"]
            .iter()
            .map(|k| format!("{k}: x: y\r\n"))
            .collect();
        assert_eq!(
            parse_with(&format!("---\r\n{nine}---\r\n"), true).map(|fm| fm.fields.len()),
            Some(0)
        );
        let eight: String = nine.split_inclusive("\r\n").take(8).collect();
        assert_eq!(
            parse_with(&format!("---\r\n{eight}---\r\n"), true).map(|fm| fm.fields.len()),
            Some(8)
        );
    }

    #[test]
    fn lf_retry_skips_only_an_anchor_used_as_an_alias() {
        // Measured on 2.1.337 (`edges-frontmatter-lf-retry-anchors-aliases`): the
        // description sent, or `None` where the body's first line was.
        let description = |block: &str| {
            parse_with(&format!("---\r\n{block}\r\n---\r\nbody\r\n"), true)
                .and_then(|fm| fm.string("description"))
        };
        for (block, sent) in [
            (
                "x: &a one\r\ny: *a\r\ndescription: alias used with: colon",
                None,
            ),
            (
                "description: Tom & Jerry *stars* with: colon",
                Some("Tom & Jerry *stars* with: colon"),
            ),
            // Retried, then refused: the quoted `&a one` starts like YAML syntax.
            ("x: &a one\r\ndescription: stars * and with: colon", None),
            // Retried, then rejected by YAML: `*b` names no anchor.
            (
                "x: &a one\r\ny: *b\r\ndescription: unknown alias with: colon",
                None,
            ),
            (
                "description: a&b and *b with: colon",
                Some("a&b and *b with: colon"),
            ),
            (
                "x: [&k 1]\r\ny: *k\r\ndescription: flow anchor with: colon",
                None,
            ),
            ("description: &v x *v with: colon", None),
            (
                "description: key:&z and *z with: colon",
                Some("key:&z and *z with: colon"),
            ),
            (
                "x: &a one\r\ny: *a\r\ndescription: \"quoted fine\"\r\nz: bad with: colon",
                None,
            ),
            ("x: !t &a one\r\ndescription: tag then *a with: colon", None),
            // `&a-b` and `*a-c` both name `a`.
            ("x: &a-b one\r\ndescription: star *a-c with: colon", None),
            // Retried, then refused: the quoted `&& *x` starts like YAML syntax.
            ("description: && *x with: colon", None),
        ] {
            assert_eq!(description(block).as_deref(), sent, "{block:?}");
        }
        assert!(anchor_used_as_alias("x: &a one\r\ny: *a"));
        assert!(!anchor_used_as_alias("x: &a one\r\ny: *b"));
        assert!(!anchor_used_as_alias("description: Tom & Jerry *stars*"));
        // A word past 256 characters before an `&` counts as an anchor.
        assert!(anchor_used_as_alias(&format!(
            "x: {} &a\r\nz: *a",
            "w".repeat(300)
        )));
    }

    #[test]
    fn lf_retry_keeps_alias_bombs_bounded() {
        // Anchors used as aliases are never retried; a bomb whose aliases name no anchor
        // the scan sees is retried and stops at the parser's bounds.
        let start = std::time::Instant::now();
        let mut bomb = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\r\n".to_owned();
        for level in 1..9 {
            let refs = vec![format!("*a{}", level - 1); 10].join(", ");
            bomb.push_str(&format!("a{level}: &a{level} [{refs}]\r\n"));
        }
        bomb.push_str("description: bomb with: colon");
        assert_eq!(lf_retry(&bomb), None);
        let text = format!("---\r\n{bomb}\r\n---\r\nbody\r\n");
        let _ = parse_with(&text, true);
        assert!(start.elapsed() < std::time::Duration::from_secs(5));
    }

    /// The error of a YAML text, for the bounds' tests.
    fn bound_error(yaml: &str) -> String {
        match parse_value(yaml) {
            Err(ParseError::Bound(error)) => error,
            other => panic!("no bound error for {} bytes: {other:?}", yaml.len()),
        }
    }

    #[test]
    fn bounds_refuse_hostile_yaml_quickly() {
        let start = std::time::Instant::now();
        // Deep flow nesting, which libyaml reads in quadratic time.
        let deep = format!("paths: {}", "[".repeat(100_000));
        assert_eq!(
            bound_error(&deep),
            "flow collections nest deeper than 64 levels"
        );
        assert_eq!(
            bound_error(&"{a: ".repeat(50_000)),
            "flow collections nest deeper than 64 levels"
        );
        // Brackets inside quotes and comments are text.
        let quoted = format!(
            "a: \"{}\"\nb: '{}' # {}\n",
            "[".repeat(500),
            "{".repeat(500),
            "[".repeat(500)
        );
        assert!(parse_value(&quoted).is_ok());
        assert!(parse_value(&format!("a: {}{}", "[".repeat(64), "]".repeat(64))).is_ok());
        // A billion laughs: nine levels of ten aliases each stop at libyaml's jump limit,
        // and eleven levels hold more aliases than are read at all.
        let laughs = |levels: usize| {
            let mut bomb = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n".to_owned();
            for level in 1..levels {
                let refs = vec![format!("*a{}", level - 1); 10].join(", ");
                bomb.push_str(&format!("a{level}: &a{level} [{refs}]\n"));
            }
            bomb
        };
        assert_eq!(bound_error(&laughs(10)), "repetition limit exceeded");
        assert_eq!(bound_error(&laughs(12)), "more than 100 aliases (`*name`)");
        // Fewer aliases that still expand past the value budget.
        let mut bomb = format!("a0: &a0 [{}]\n", vec!["x"; 1000].join(", "));
        for level in 1..4 {
            let refs = vec![format!("*a{}", level - 1); 10].join(", ");
            bomb.push_str(&format!("a{level}: &a{level} [{refs}]\n"));
        }
        assert!(
            bound_error(&bomb).starts_with("more than 200000 values, aliases expanded"),
            "{}",
            bound_error(&bomb)
        );
        // A million keys is over the size read.
        let keys: String = (0..1_000_000).map(|i| format!("k{i}: v\n")).collect();
        assert!(bound_error(&keys).starts_with("frontmatter of 10"));
        assert!(start.elapsed().as_secs() < 20, "{:?}", start.elapsed());
        // Under the bounds, a bounded error becomes the frontmatter's error.
        let fm = parse(&format!("---\n{deep}\n---\nbody")).expect("a block");
        assert!(fm.fields.is_empty());
        assert_eq!(
            fm.error.as_deref(),
            Some("flow collections nest deeper than 64 levels")
        );
    }

    /// Checks a typed accessor against the field `k` of a one-field frontmatter.
    fn check_field(yaml_value: &str, string: Option<&str>, boolean: Option<bool>) {
        let text = format!("---\nk: {yaml_value}\n---\n");
        let fm = parse(&text).expect("a block");
        assert_eq!(
            fm.string("k").as_deref(),
            string,
            "string of {yaml_value:?}"
        );
        assert_eq!(fm.boolean("k"), boolean, "boolean of {yaml_value:?}");
    }

    #[test]
    fn typed_accessors() {
        check_field("hello", Some("hello"), None);
        check_field("'true'", Some("true"), Some(true));
        check_field("\"false\"", Some("false"), Some(false));
        check_field("true", Some("true"), Some(true));
        check_field("false", Some("false"), Some(false));
        check_field("yes", Some("yes"), None);
        check_field("True", Some("true"), Some(true));
        check_field("42", Some("42"), None);
        check_field("1.5", Some("1.5"), None);
        check_field("", None, None);
        check_field("~", None, None);
        check_field("[a]", None, None);
        check_field("!t true", Some("true"), Some(true));
        let fm = parse("---\na: 1\n---\n").expect("a block");
        assert_eq!(fm.string("missing"), None);
        assert_eq!(fm.value("missing"), None);
        assert_eq!(fm.value("a"), Some(&Value::from(1)));
    }

    /// Parses `yaml` as the value of `paths` and joins the globs with ` | `.
    fn check_paths(yaml: &str, expected: &str) {
        let value = parse_value(yaml).expect("valid test YAML");
        assert_eq!(parse_paths(&value).join(" | "), expected, "paths: {yaml:?}");
    }

    #[test]
    fn paths() {
        check_paths("src/**/*.ts", "src/**/*.ts");
        check_paths("\"src/**/*.ts, lib/**\"", "src/**/*.ts | lib/**");
        check_paths("\"src/{a,b}/*.ts, lib/**\"", "src/{a,b}/*.ts | lib/**");
        check_paths("\"{a,{b,c}},d\"", "{a,{b,c}} | d");
        check_paths("\" , a ,, \"", "a");
        check_paths("\"a}, b\"", "a} | b");
        check_paths(
            "[\" a \", \"\", b, 2024, true, [x], {k: v}, ~]",
            "a | b | 2024 | true",
        );
        check_paths("[\"a,b\"]", "a,b");
        check_paths("~", "");
        check_paths("12", "");
        check_paths("{k: v}", "");
        check_paths("!t [a, b]", "a | b");
    }
}
