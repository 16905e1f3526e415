//! The tags Claude Code reserves for its own messages, and how a Read's attachment escapes
//! them.
//!
//! A file that a Read attaches could otherwise close the program's `<system-reminder>` or
//! open a message of its own, so the program neutralises every opening of a reserved tag in
//! it: the `<` becomes `<\` (`<system-reminder>` → `<\system-reminder>`, `</command-name>` →
//! `<\/command-name>`). Files sent at startup are not escaped. Measured on 2.1.328 and 2.1.337
//! (`text-read-reserved-tags-escaped`); read from 2.1.328's bundled code too (the list
//! `Lye`, the matcher `Au`/`Ert`, applied by `Ng`).
//!
//! The program's matcher is also hardened against lookalike spellings (a fullwidth `＜`,
//! letters that only look Latin, invisible characters between the letters beyond the few
//! handled here); the core matches the ASCII spellings, which is what real files hold.

use std::borrow::Cow;

/// The reserved tag names, lower case, `_` written as `-` (the program takes either for
/// the other). `channel` and `antml` are reserved only with their tails (see
/// [`escape_reserved_tags`]).
const RESERVED: &[&str] = &[
    "bash-input",
    "bash-stdout",
    "bash-stderr",
    "bash-exit-code",
    "local-command-stdout",
    "local-command-stderr",
    "local-command-caveat",
    "command-name",
    "command-message",
    "command-args",
    "task-notification",
    "agent-message",
    "teammate-message",
    "cross-session-message",
    "remote-review",
    "slack-ping",
    "slack-tag-message",
    "tick",
    "fetched-web-content",
    "untrusted-widget-state",
    "coordinator-relay",
    "artifact-type-instructions",
    "cowritten-artifact-html",
    "artifact-file-content",
    "artifact-origin-notes",
    "artifact-stored-declaration",
    "system-reminder",
    "function-results",
    "tool-use-error",
    "sandbox-violations",
    "persisted-output",
    "total-tokens",
    "user-prompt-submit-hook",
];

/// How far after `<channel` the program looks for `source=` (its `{0,120}`).
const CHANNEL_SPAN: usize = 120;

/// `text` with every reserved tag's `<` written `<\`, as a Read attaches it.
///
/// A `<` not already followed by `\` opens a reserved tag when, after any run of characters
/// that are neither name characters (`A-Za-z0-9_-`) nor `<` or `>` (so `/`, spaces, `!`), a
/// reserved name follows, in any case, `-` and `_` alike, and is not continued by a name
/// character: `<system-reminder>`, `</SYSTEM-REMINDER>`, `<system_reminder/>`,
/// `< /tick >` but not `<system-reminders>` or `<foo>`. `channel` counts only when a
/// `source` followed by `=` comes within 120 characters before any `>`
/// (`<channel source="x">`), and `antml` only when followed by `:`.
pub(crate) fn escape_reserved_tags(text: &str) -> Cow<'_, str> {
    if !text.contains('<') {
        return Cow::Borrowed(text);
    }
    let mut out = String::new();
    let mut kept = 0;
    for (at, _) in text.match_indices('<') {
        if opens_reserved(&text[at + 1..]) {
            out.push_str(&text[kept..at]);
            out.push_str("<\\");
            kept = at + 1;
        }
    }
    if kept == 0 {
        return Cow::Borrowed(text);
    }
    out.push_str(&text[kept..]);
    Cow::Owned(out)
}

/// True when `after`, the text right after a `<`, makes that `<` open a reserved tag.
fn opens_reserved(after: &str) -> bool {
    if after.starts_with('\\') {
        return false;
    }
    // The filler stops at the first name character, `<` or `>`: the name can only start
    // there.
    let start = after
        .find(|c: char| is_name_char(c) || c == '<' || c == '>')
        .unwrap_or(after.len());
    let rest = &after[start..];
    if RESERVED
        .iter()
        .any(|name| spelled(rest, name).is_some_and(|end| !rest[end..].starts_with(is_name_char)))
    {
        return true;
    }
    if let Some(end) = spelled(rest, "antml") {
        return rest[skip_gap(rest, end)..].starts_with(':');
    }
    if let Some(end) = spelled(rest, "channel") {
        return channel_source_follows(&rest[end..]);
    }
    false
}

/// The end of `name` spelled at the start of `text` (ASCII letters in any case, `-` and `_`
/// alike, invisible characters allowed between the letters), or `None`.
fn spelled(text: &str, name: &str) -> Option<usize> {
    let mut at = 0;
    for (i, want) in name.bytes().enumerate() {
        if i > 0 {
            at = skip_gap(text, at);
        }
        let got = *text.as_bytes().get(at)?;
        let same = if want == b'-' {
            got == b'-' || got == b'_'
        } else {
            got.eq_ignore_ascii_case(&want)
        };
        if !same {
            return None;
        }
        at += 1;
    }
    Some(at)
}

/// `at` moved past the characters the program lets stand between a name's letters:
/// controls (but tab, line feed and carriage return), U+2028, U+2029, combining marks and
/// the zero-width format characters.
fn skip_gap(text: &str, at: usize) -> usize {
    let gap = text[at..]
        .find(|c: char| !is_gap(c))
        .unwrap_or(text.len() - at);
    at + gap
}

fn is_gap(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}' | '\u{7f}'..='\u{9f}'
        | '\u{2028}' | '\u{2029}' | '\u{300}'..='\u{36f}' | '\u{200b}'..='\u{200f}'
        | '\u{2060}'..='\u{2064}' | '\u{feff}' | '\u{ad}')
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

/// After `channel`: not continued by a name character, then within 120 characters (none
/// of them `>`) a `source` not preceded by a word character or `-`, white space, `=`.
fn channel_source_follows(tail: &str) -> bool {
    if tail.starts_with(is_name_char) {
        return false;
    }
    let window: Vec<(usize, char)> = tail
        .char_indices()
        .take_while(|&(_, c)| c != '>')
        .take(CHANNEL_SPAN + "source".len() + 1)
        .collect();
    for (n, &(at, _)) in window.iter().enumerate() {
        if n > CHANNEL_SPAN {
            break;
        }
        let before_ok = n == 0 || !is_name_char(window[n - 1].1);
        if !before_ok {
            continue;
        }
        if let Some(end) = spelled(&tail[at..], "source") {
            let rest = tail[at + end..].trim_start_matches(char::is_whitespace);
            if rest.starts_with('=') {
                return true;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, expected: &str) {
        assert_eq!(escape_reserved_tags(text), expected, "input: {text:?}");
    }

    #[test]
    fn reserved_tags_are_escaped() {
        check(
            "<system-reminder>x</system-reminder>",
            "<\\system-reminder>x<\\/system-reminder>",
        );
        check(
            "<command-name>/x</command-name>",
            "<\\command-name>/x<\\/command-name>",
        );
        check("<user-prompt-submit-hook>", "<\\user-prompt-submit-hook>");
        check(
            "<SYSTEM-REMINDER></System-Reminder>",
            "<\\SYSTEM-REMINDER><\\/System-Reminder>",
        );
        check(
            "<system-reminder/> <system-reminder id=\"1\">",
            "<\\system-reminder/> <\\system-reminder id=\"1\">",
        );
        check(
            "<system_reminder> <function-results> <tick>",
            "<\\system_reminder> <\\function-results> <\\tick>",
        );
        check("< / system-reminder >", "<\\ / system-reminder >");
        check("<sys\u{200b}tem-reminder>", "<\\sys\u{200b}tem-reminder>");
    }

    #[test]
    fn other_tags_stay() {
        check(
            "<foo>z</foo> <b>bold</b> <br/> </div>",
            "<foo>z</foo> <b>bold</b> <br/> </div>",
        );
        check(
            "<system-reminders> <system-reminder2>",
            "<system-reminders> <system-reminder2>",
        );
        check("a < b > c and a</b <>x</> <", "a < b > c and a</b <>x</> <");
        check("<\\system-reminder> already", "<\\system-reminder> already");
        check("<<system-reminder>", "<<\\system-reminder>");
        check("<a system-reminder>", "<a system-reminder>");
    }

    #[test]
    fn channel_and_antml_need_their_tails() {
        check("<channel>x</channel>", "<channel>x</channel>");
        check("<channel source=\"x\">", "<\\channel source=\"x\">");
        check(
            "<channel id=1 source = \"x\">",
            "<\\channel id=1 source = \"x\">",
        );
        check("<channel resource=\"x\">", "<channel resource=\"x\">");
        check("<channel> source=", "<channel> source=");
        check(
            concat!("<", "antml", ":invoke> <antml>"),
            "<\\antml:invoke> <antml>",
        );
    }

    /// The live case's file, escaped, is what the program attached (the capture's text).
    #[test]
    fn the_live_case_escapes_as_the_program_did() {
        // Compiled in, so that the core's tests read no file either.
        let file = include_str!(
            "../../../fixtures/conformance/text-read-reserved-tags-escaped/tree/home/u/proj/a/CLAUDE.md"
        );
        let capture = include_str!(
            "../../../fixtures/conformance/text-read-reserved-tags-escaped/capture.json"
        );
        let capture: serde_json::Value = serde_json::from_str(capture).unwrap_or_default();
        let sent = capture["reads"][0]["files"][0]["text"].as_str();
        assert_eq!(Some(escape_reserved_tags(file).as_ref()), sent);
    }

    #[test]
    fn long_and_hostile_text_is_linear() {
        let text = "<".repeat(200_000) + &"< /".repeat(50_000);
        assert_eq!(escape_reserved_tags(&text), text);
        let many = "<tick>".repeat(50_000);
        assert_eq!(escape_reserved_tags(&many).len(), many.len() + 50_000);
        let channel = "<channel ".to_owned() + &"x".repeat(100_000);
        assert_eq!(escape_reserved_tags(&channel), channel);
    }
}
