//! Placeholders: each character of text replaced by one of the same UTF-8 and UTF-16 length.

use super::*;

/// The placeholders of non-ASCII characters, by UTF-8 length: a letter or digit becomes a
/// letter (`ø`, `ㅁ`, `𝑥`), anything else a symbol (`·`, `□`, `🔲`), so that word boundaries
/// (`char::is_alphanumeric`) fall where they fell. Four-byte ones are two UTF-16 units, like
/// every four-byte character.
pub(super) const LETTER_PLACEHOLDERS: [char; 3] = ['\u{f8}', '\u{3141}', '\u{1d465}'];
pub(super) const SYMBOL_PLACEHOLDERS: [char; 3] = ['\u{b7}', '\u{25a1}', '\u{1f532}'];

/// White space by Rust's definition or JavaScript's: the parsers use both, so both stay.
pub(super) fn is_space(c: char) -> bool {
    c.is_whitespace() || is_js_space(c)
}

/// The placeholder of one character of text (itself when `keep` is set).
pub(super) fn placeholder(c: char, keep: bool) -> char {
    if keep {
        return c;
    }
    match c {
        'a'..='z' | 'A'..='Z' => 'x',
        '0'..='9' => '0',
        c if c.is_ascii() || is_space(c) => c,
        c if c.is_alphanumeric() => LETTER_PLACEHOLDERS[c.len_utf8() - 2],
        c => SYMBOL_PLACEHOLDERS[c.len_utf8() - 2],
    }
}

pub(super) fn text_placeholder(text: &str, keep: bool) -> String {
    text.chars().map(|c| placeholder(c, keep)).collect()
}

/// A YAML `\x..`, `\u....` or `\U........` escape rewritten to name the placeholder of the
/// character it names, at the same width; other escapes stay.
pub(super) fn escape_placeholder(escape: &str) -> String {
    // `get`, not slicing: an escape such as `\é` has no character boundary at 2.
    let digits = escape.get(2..).unwrap_or_default();
    let parsed = u32::from_str_radix(digits, 16)
        .ok()
        .and_then(char::from_u32)
        .filter(|_| escape.len() > 2 && matches!(escape.get(1..2), Some("x" | "u" | "U")));
    let Some(c) = parsed else {
        return escape.to_owned();
    };
    let shared = placeholder(c, false) as u32;
    let width = digits.len();
    let hex = if digits.bytes().any(|b| b.is_ascii_uppercase()) {
        format!("{shared:0width$X}")
    } else {
        format!("{shared:0width$x}")
    };
    if hex.len() == width {
        format!("{}{hex}", &escape[..2])
    } else {
        escape.to_owned()
    }
}
