//! A text's references: each import path and link destination written as the shared path
//! it points to, at the length the original was written at, or as a stand-in of that
//! length whose target the shared tree carries (`Tree::set_stand_ins`).

use super::*;
use crate::text::references;

impl Builder<'_> {
    /// The shared form of every import path and local link destination of the text, where
    /// the scanner found it written (the path of what it points to, at the length written),
    /// and the stand-ins among them with the shared targets they stand for.
    pub(super) fn references(
        &mut self,
        text: &str,
        original: &VPath,
    ) -> (Vec<Edit>, BTreeMap<String, String>) {
        let counted = self.counted_references(text, original);
        let mut edits = Vec::new();
        // What each reference is written as when its pseudonym keeps the length; the rest
        // get stand-ins that must differ from every target written in the file.
        let mut pending = Vec::new();
        let mut taken: BTreeSet<String> = BTreeSet::new();
        for (reference, target) in &counted {
            let written = &text[reference.span.clone()];
            let shared_target = self.namer.file(target);
            let stands_in = target != &reference.target;
            let shared = match reference.kind {
                _ if stands_in => None,
                ReferenceKind::Import => Some(self.import_path(written)),
                ReferenceKind::Link => Some(self.link_destination(written)),
            };
            match shared.filter(|shared| length_of(shared) == length_of(written)) {
                Some(shared) => {
                    taken.insert(shared_target);
                    edits.push((reference.span.clone(), shared));
                }
                None => pending.push((reference, shared_target)),
            }
        }
        // A reference the analysis does not count is written as placeholders (or as it
        // is, with the text kept): no stand-in may read as one.
        for reference in references::scan(text) {
            taken.insert(text_placeholder(&reference.target, self.options.keep_text));
            taken.insert(reference.target);
        }
        // The frontmatter's stand-ins come first; the references' differ from them.
        let mut stand_ins = std::mem::take(&mut self.file_stand_ins);
        for (reference, shared_target) in pending {
            let written = &text[reference.span.clone()];
            // An import whose path ends in punctuation never loads: its stand-in ends so.
            let last = (reference.kind == ReferenceKind::Import)
                .then(|| reference.target.chars().next_back())
                .flatten()
                .filter(|_| reference.trailing_punctuation);
            let reused = stand_ins.iter().find(|(stand_in, target)| {
                **target == shared_target && length_of(stand_in) == length_of(written)
            });
            let stand_in = match reused {
                Some((stand_in, _)) => Some(stand_in.clone()),
                None => (1..)
                    .map_while(|n| stand_in(written, last, n))
                    .find(|s| !taken.contains(s) && !stand_ins.contains_key(s)),
            };
            match stand_in {
                Some(stand_in) => {
                    stand_ins.insert(stand_in.clone(), shared_target);
                    edits.push((reference.span.clone(), stand_in));
                }
                // (A path too short to number its stand-in: `check_references` tells.)
                None => edits.push((reference.span.clone(), text_placeholder(written, false))),
            }
        }
        (edits, stand_ins)
    }

    /// The references of a text the analysis counts, each with the target it names (a
    /// stand-in's, when the text is a shared snapshot's). An `@word` without an extension
    /// that names no file is no import to the analysis (a handle, a package name): it is
    /// text like any other, and becomes placeholders.
    pub(super) fn counted_references(
        &self,
        text: &str,
        original: &VPath,
    ) -> Vec<(references::RawReference, String)> {
        let existing: BTreeSet<&str> = self
            .report
            .files
            .iter()
            .flat_map(|row| &row.references)
            .filter(|r| r.exists)
            .map(|r| r.target.as_str())
            .collect();
        references::scan(text)
            .into_iter()
            .map(|r| {
                let target = self.tree.stand_in_target(original, &r.target);
                let target = target.unwrap_or(&r.target).to_owned();
                (r, target)
            })
            .filter(|(r, target)| {
                r.kind == ReferenceKind::Link
                    || references::has_extension(target)
                    || existing.contains(target.as_str())
            })
            .collect()
    }

    /// Checks that the shared text scans to the renamed references, on the same lines.
    pub(super) fn check_references(
        &mut self,
        text: &str,
        out: &str,
        original: &VPath,
        stand_ins: &BTreeMap<String, String>,
        shown: &str,
    ) {
        if self.namer.collecting() {
            return;
        }
        let expected = self.counted_references(text, original);
        let renamed: BTreeSet<String> = expected
            .iter()
            .map(|(_, target)| self.namer.file(target))
            .collect();
        let shared: Vec<_> = references::scan(out)
            .into_iter()
            .map(|mut r| {
                if let Some(target) = stand_ins.get(&r.target) {
                    r.target = target.clone();
                }
                r
            })
            .filter(|r| {
                r.kind == ReferenceKind::Link
                    || references::has_extension(&r.target)
                    || renamed.contains(&r.target)
            })
            .collect();
        let same = shared.len() == expected.len()
            && shared.iter().zip(&expected).all(|(s, (e, target))| {
                s.kind == e.kind
                    && s.line == e.line
                    && s.span == e.span
                    && s.trailing_punctuation == e.trailing_punctuation
                    && s.target == self.namer.file(target)
            });
        if !same {
            self.warnings.push(format!(
                "a reference in {shown} could not be rewritten exactly; it may resolve \
                 differently in the shared report"
            ));
        }
    }
    /// The shared form of an import path as written (after its `@`): the path renamed, an
    /// escaped space kept escaped, a `#fragment` replaced like text.
    pub(super) fn import_path(&mut self, written: &str) -> String {
        let (decoded, cut) = unescaped(written, |c| c == ' ');
        let target: String = decoded[..cut].iter().map(|&(c, _)| c).collect();
        let shared = self.namer.file(&target);
        // The pseudonyms keep every space, so the n-th space of the shared path is the n-th
        // of the original, escaped where that one was.
        let mut escapes = decoded[..cut]
            .iter()
            .filter(|(c, _)| *c == ' ')
            .map(|&(_, escaped)| escaped);
        let mut out = String::with_capacity(written.len());
        for c in shared.chars() {
            if c == ' ' && escapes.next().unwrap_or(false) {
                out.push('\\');
            }
            out.push(c);
        }
        push_fragment(&decoded[cut..], self.options.keep_text, &mut out);
        out
    }

    /// The shared form of a local link destination as written (inside its parentheses or
    /// angle brackets): each renamed run as its pseudonym, everything else written as it
    /// was (a backslash or percent escape stays an escape), a `#fragment` replaced like text.
    pub(super) fn link_destination(&mut self, written: &str) -> String {
        // The destination as Markdown reads it: a backslash before ASCII punctuation escapes it.
        let (decoded, cut) = unescaped(written, |c| c.is_ascii_punctuation());
        let before: Vec<char> = decoded[..cut].iter().map(|&(c, _)| c).collect();
        // How each written unit decodes: a character as it is, or a `%XX` byte.
        let (units, target) = percent_units(&before).unwrap_or_else(|| {
            (
                (0..before.len()).map(Unit::Literal).collect(),
                before.iter().collect(),
            )
        });
        self.namer.file(&target);
        let written_unit = |unit: &Unit, out: &mut String| match *unit {
            Unit::Literal(index) => {
                if decoded[index].1 {
                    out.push('\\');
                }
                out.push(before[index]);
            }
            Unit::Escape(index) => out.extend(&before[index..index + 3]),
        };
        let mut out = String::with_capacity(written.len());
        let mut units = units.iter();
        for piece in split_name(&target) {
            match piece {
                NamePiece::Run(run) => {
                    // Every character of a run is ASCII: one unit each.
                    units.by_ref().take(run.len()).for_each(drop);
                    out.push_str(&self.namer.name(run));
                }
                NamePiece::Char(c) => {
                    let mut taken = Vec::new();
                    let mut bytes = 0;
                    while bytes < c.len_utf8() {
                        let Some(unit) = units.next() else { break };
                        bytes += match *unit {
                            Unit::Literal(index) => before[index].len_utf8(),
                            Unit::Escape(_) => 1,
                        };
                        taken.push(unit);
                    }
                    let shared = self.namer.name(&c.to_string());
                    match taken.first() {
                        Some(Unit::Escape(index)) if shared != c.to_string() => {
                            // An escaped character renamed: the new one, escaped alike.
                            let upper = !before[index + 1..=index + 2]
                                .iter()
                                .any(char::is_ascii_lowercase);
                            for byte in shared.bytes() {
                                out.push('%');
                                out.push(hex_digit(byte >> 4, upper));
                                out.push(hex_digit(byte & 0xf, upper));
                            }
                        }
                        _ if shared != c.to_string() => out.push_str(&shared),
                        _ => taken
                            .into_iter()
                            .for_each(|unit| written_unit(unit, &mut out)),
                    }
                }
            }
        }
        push_fragment(&decoded[cut..], self.options.keep_text, &mut out);
        out
    }
}

/// The `n`-th stand-in (from 1) for a reference written as `written`: every ASCII character
/// an `x`, every other its placeholder (so it measures as `written` does in bytes,
/// characters, UTF-16 units and columns), `last` kept at the end (an import's trailing
/// punctuation), and `n` written in letters over the last `x`s so that stand-ins differ.
/// `None` when `written` has too few ASCII characters to number `n`.
pub(in crate::sanitize) fn stand_in(written: &str, last: Option<char>, n: usize) -> Option<String> {
    let mut chars: Vec<char> = written
        .chars()
        .map(|c| {
            if c.is_ascii() {
                'x'
            } else {
                placeholder(c, false)
            }
        })
        .collect();
    let mut end = chars.len();
    if let Some(last) = last.filter(char::is_ascii) {
        if chars.last() == Some(&'x') {
            *chars.last_mut()? = last;
            end -= 1;
        }
    }
    // The letters but `x`, counting from `a`: 25 values a place.
    const DIGITS: &[u8; 25] = b"abcdefghijklmnopqrstuvwyz";
    let mut rest = n;
    let mut at = end;
    while rest > 0 {
        at = chars[..at].iter().rposition(|&c| c == 'x')?;
        chars[at] = char::from(DIGITS[(rest - 1) % 25]);
        rest = (rest - 1) / 25;
    }
    Some(chars.into_iter().collect())
}

/// One step of percent-decoding: a character kept as it is, or a `%XX` escape starting at
/// that index.
pub(super) enum Unit {
    Literal(usize),
    Escape(usize),
}

/// Percent-decodes a destination (as a list of characters): the steps taken and the decoded
/// text, or `None` when the decoded bytes are not UTF-8 (then the scanner keeps the target as
/// written).
pub(super) fn percent_units(chars: &[char]) -> Option<(Vec<Unit>, String)> {
    let mut units = Vec::new();
    let mut bytes = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let hex = |c: Option<&char>| c.and_then(|c| c.to_digit(16));
        if chars[i] == '%' {
            if let (Some(hi), Some(lo)) = (hex(chars.get(i + 1)), hex(chars.get(i + 2))) {
                units.push(Unit::Escape(i));
                bytes.push((hi * 16 + lo) as u8);
                i += 3;
                continue;
            }
        }
        units.push(Unit::Literal(i));
        let mut buffer = [0; 4];
        bytes.extend_from_slice(chars[i].encode_utf8(&mut buffer).as_bytes());
        i += 1;
    }
    String::from_utf8(bytes).ok().map(|text| (units, text))
}

/// A hex digit for `nibble`, upper-case when `upper`.
pub(super) fn hex_digit(nibble: u8, upper: bool) -> char {
    let digit = char::from_digit(u32::from(nibble), 16).expect("a nibble is a hex digit");
    if upper {
        digit.to_ascii_uppercase()
    } else {
        digit
    }
}

/// A reference as written, decoded: each character, and whether a backslash escaped it (a
/// backslash escapes a character `escapable` accepts); and where its `#fragment` starts
/// (its length when it has none).
fn unescaped(written: &str, escapable: impl Fn(char) -> bool) -> (Vec<(char, bool)>, usize) {
    let mut decoded: Vec<(char, bool)> = Vec::new();
    let mut chars = written.chars().peekable();
    while let Some(c) = chars.next() {
        match chars.peek() {
            Some(&next) if c == '\\' && escapable(next) => {
                chars.next();
                decoded.push((next, true));
            }
            _ => decoded.push((c, false)),
        }
    }
    let cut = decoded
        .iter()
        .position(|&(c, _)| c == '#')
        .unwrap_or(decoded.len());
    (decoded, cut)
}

/// Writes a reference's `#fragment` (decoded, from its `#`) replaced like text, each escape
/// kept in place.
fn push_fragment(fragment: &[(char, bool)], keep_text: bool, out: &mut String) {
    for &(c, escaped) in fragment {
        if escaped {
            out.push('\\');
        }
        out.push(placeholder(c, keep_text));
    }
}
