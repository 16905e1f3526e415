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
//! The program's matcher is hardened against lookalike spellings, and so is this one
//! (measured on 2.1.337 by `edges-read-reserved-tag-lookalikes`, read from its bundled code:
//! `QX`, `Gbl`, `D`): a `<` written as one of its lookalikes (`＜`, `﹤`, `‹`, `〈`, …) is
//! replaced by `<\`; a name's letters may be written in other scripts or styles (`ѕ`, `𝐭`,
//! `ｓ`, `ſ`, the Kelvin sign; [`confusables::LETTERS`]); any dash or connector stands for
//! `-` and `_` (`‐`, `–`, `−`, `ー`, `‿`); and invisible characters may stand between the
//! letters (zero-width characters, U+2060 to U+206F, the soft hyphen, bidirectional
//! controls, variation selectors, Hangul fillers, tags, most combining marks: [`is_gap`]).

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::OnceLock;

mod confusables;

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
/// A `<` (or one of its lookalikes, which is replaced) not followed by `\` opens a reserved
/// tag when, after any run of characters that are neither name characters (`A-Za-z0-9_-`,
/// their lookalike letters) nor `<` or `>` (or theirs), so `/`, spaces, `!`, invisible
/// characters, a reserved name follows, spelled as [`spelled`] says, and is not continued
/// by an ASCII name character: `<system-reminder>`, `</SYSTEM-REMINDER>`,
/// `<system_reminder/>`, `< /tick >`, `＜ѕystem‐reminder>` but not `<system-reminders>` or
/// `<foo>`. `channel` counts only when a `source` followed by `=` comes within 120
/// characters before any `>` (`<channel source="x">`), and `antml` only when followed by
/// `:`.
pub(crate) fn escape_reserved_tags(text: &str) -> Cow<'_, str> {
    if !text.contains(is_open) {
        return Cow::Borrowed(text);
    }
    let mut out = String::new();
    let mut kept = 0;
    for (at, open) in text.match_indices(is_open) {
        if opens_reserved(&text[at + open.len()..]) {
            out.push_str(&text[kept..at]);
            out.push_str("<\\");
            kept = at + open.len();
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
    // The filler stops where a name could start, and at a `<` or `>`.
    let start = after
        .find(|c: char| is_name_char(c) || is_letter_lookalike(c) || is_open(c) || is_close(c))
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

/// The end of `name` spelled at the start of `text`, or `None`: each ASCII letter in either
/// case or as one of its lookalikes, `-` as any dash or connector (`_` too), invisible
/// characters ([`is_gap`]) allowed between the characters.
fn spelled(text: &str, name: &str) -> Option<usize> {
    let mut at = 0;
    for (i, want) in name.chars().enumerate() {
        if i > 0 {
            at = skip_gap(text, at);
        }
        let got = text[at..].chars().next()?;
        let same = if want == '-' {
            is_dash(got)
        } else if want.is_ascii_lowercase() {
            spells_letter(want, got)
        } else {
            got == want
        };
        if !same {
            return None;
        }
        at += got.len_utf8();
    }
    Some(at)
}

/// `at` moved past the characters the program lets stand between a name's letters.
fn skip_gap(text: &str, at: usize) -> usize {
    let gap = text[at..]
        .find(|c: char| !is_gap(c))
        .unwrap_or(text.len() - at);
    at + gap
}

/// The program's class of what may stand between a name's letters (`lHt`): controls but
/// tab, line feed and carriage return; U+2028, U+2029; combining marks (U+0345 excepted);
/// format and invisible characters (zero-width ones, U+2060 to U+206F, the soft hyphen,
/// bidirectional controls, variation selectors, Hangul fillers, tags).
fn is_gap(c: char) -> bool {
    matches!(c,
        // Controls.
        '\u{0}'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}' | '\u{7f}'..='\u{9f}'
        | '\u{2028}' | '\u{2029}'
        // Combining marks (`Y`).
        | '\u{300}'..='\u{344}' | '\u{346}'..='\u{36f}' | '\u{483}'..='\u{489}'
        | '\u{591}'..='\u{5bd}' | '\u{5bf}' | '\u{5c1}' | '\u{5c2}' | '\u{5c4}' | '\u{5c5}'
        | '\u{5c7}' | '\u{610}'..='\u{61a}' | '\u{64b}'..='\u{65f}' | '\u{670}'
        | '\u{6d6}'..='\u{6dc}' | '\u{6df}'..='\u{6e4}' | '\u{6e7}' | '\u{6e8}'
        | '\u{6ea}'..='\u{6ed}' | '\u{1ab0}'..='\u{1aff}' | '\u{1dc0}'..='\u{1dff}'
        | '\u{20d0}'..='\u{20ff}' | '\u{3099}' | '\u{309a}' | '\u{fe20}'..='\u{fe2f}'
        // Prepended format characters (`f5n`).
        | '\u{600}'..='\u{605}' | '\u{6dd}' | '\u{70f}' | '\u{890}' | '\u{891}' | '\u{8e2}'
        | '\u{110bd}' | '\u{110cd}'
        // Invisible characters (`Yoe`).
        | '\u{ad}' | '\u{61c}' | '\u{115f}' | '\u{1160}' | '\u{17b4}' | '\u{17b5}'
        | '\u{180b}'..='\u{180f}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}'
        | '\u{2060}'..='\u{206f}' | '\u{3164}' | '\u{fe00}'..='\u{fe0f}' | '\u{feff}'
        | '\u{ffa0}' | '\u{fff0}'..='\u{fffb}' | '\u{1107f}' | '\u{13430}'..='\u{1343f}'
        | '\u{16fe4}' | '\u{1bca0}'..='\u{1bca3}' | '\u{1d173}'..='\u{1d17a}'
        | '\u{e0000}'..='\u{e0fff}')
}

/// `<` and what the program takes for it (`Gbl`, `Oq`).
fn is_open(c: char) -> bool {
    matches!(
        c,
        '<' | '\u{2c2}'
            | '\u{1438}'
            | '\u{16b2}'
            | '\u{2039}'
            | '\u{226e}'
            | '\u{227a}'
            | '\u{2280}'
            | '\u{22d6}'
            | '\u{2329}'
            | '\u{276c}'
            | '\u{276e}'
            | '\u{2770}'
            | '\u{27e8}'
            | '\u{2991}'
            | '\u{2993}'
            | '\u{29fc}'
            | '\u{2a79}'
            | '\u{2aa6}'
            | '\u{3008}'
            | '\u{fe3f}'
            | '\u{fe64}'
            | '\u{ff1c}'
            | '\u{1d236}'
            | '\u{226a}'
            | '\u{22d8}'
            | '\u{2aa1}'
            | '\u{2af7}'
            | '\u{27ea}'
            | '\u{fe3d}'
    )
}

/// `>` and what the program takes for it (the doubled ones, `≫`, and four others it
/// leaves out).
fn is_close(c: char) -> bool {
    matches!(
        c,
        '>' | '\u{2c3}'
            | '\u{1433}'
            | '\u{203a}'
            | '\u{226f}'
            | '\u{227b}'
            | '\u{2281}'
            | '\u{22d7}'
            | '\u{232a}'
            | '\u{276d}'
            | '\u{276f}'
            | '\u{2771}'
            | '\u{27e9}'
            | '\u{29fd}'
            | '\u{3009}'
            | '\u{fe40}'
            | '\u{fe65}'
            | '\u{ff1e}'
            | '\u{16f3f}'
            | '\u{1d237}'
    )
}

/// A dash or connector, which the program takes for `-` and `_` (`J`: `\p{Pc}`, `\p{Pd}`
/// and a few more).
fn is_dash(c: char) -> bool {
    matches!(c,
        // Connector punctuation.
        '_' | '\u{203f}' | '\u{2040}' | '\u{2054}' | '\u{fe33}' | '\u{fe34}'
        | '\u{fe4d}'..='\u{fe4f}' | '\u{ff3f}'
        // Dash punctuation.
        | '-' | '\u{58a}' | '\u{5be}' | '\u{1400}' | '\u{1806}' | '\u{2010}'..='\u{2015}'
        | '\u{2e17}' | '\u{2e1a}' | '\u{2e3a}' | '\u{2e3b}' | '\u{2e40}' | '\u{2e5d}'
        | '\u{301c}' | '\u{3030}' | '\u{30a0}' | '\u{fe31}' | '\u{fe32}' | '\u{fe58}'
        | '\u{fe63}' | '\u{ff0d}' | '\u{10ead}'
        // The program's additions.
        | '\u{2017}' | '\u{2cd}' | '\u{7fa}' | '\u{640}' | '\u{2212}' | '\u{207b}'
        | '\u{208b}' | '\u{2d7}' | '\u{2796}' | '\u{2043}' | '\u{30fc}' | '\u{ff70}')
}

/// Whether `c` spells the ASCII letter `letter` (lower case): one of its lookalikes, in
/// either case (the program's classes are case-insensitive).
fn spells_letter(letter: char, c: char) -> bool {
    if c.is_ascii() {
        return c.to_ascii_lowercase() == letter;
    }
    lookalike_letters(c) & (1 << (letter as u32 - 'a' as u32)) != 0
}

/// A letter that spells some ASCII letter (the filler stops at it).
fn is_letter_lookalike(c: char) -> bool {
    !c.is_ascii() && lookalike_letters(c) != 0
}

/// The ASCII letters a non-ASCII `c` spells, one bit each (`a` the lowest): those whose
/// lookalikes hold it, or its other case.
fn lookalike_letters(c: char) -> u32 {
    static LETTERS: OnceLock<BTreeMap<char, u32>> = OnceLock::new();
    let letters = LETTERS.get_or_init(|| {
        let mut map = BTreeMap::new();
        for (bit, set) in confusables::LETTERS.iter().enumerate() {
            for member in set.chars() {
                for c in std::iter::once(member).chain(case_variants(member)) {
                    *map.entry(c).or_insert(0) |= 1 << bit;
                }
            }
        }
        map
    });
    letters.get(&c).copied().unwrap_or(0)
}

/// `c` in its other case, when that is one character.
fn case_variants(c: char) -> impl Iterator<Item = char> {
    let lower = c.to_lowercase();
    let upper = c.to_uppercase();
    let lower = (lower.len() == 1).then_some(lower).into_iter().flatten();
    let upper = (upper.len() == 1).then_some(upper).into_iter().flatten();
    lower.chain(upper)
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
    fn lookalikes_escape_as_the_program_did() {
        // Measured on 2.1.337 (`edges-read-reserved-tag-lookalikes`), one spelling a line.
        let file = include_str!(
            "../../../fixtures/conformance/edges-read-reserved-tag-lookalikes/tree/home/u/proj/a/CLAUDE.md"
        );
        let capture = include_str!(
            "../../../fixtures/conformance/edges-read-reserved-tag-lookalikes/capture.json"
        );
        let capture: serde_json::Value = serde_json::from_str(capture).unwrap_or_default();
        let sent = capture["reads"][0]["files"][0]["text"]
            .as_str()
            .unwrap_or_default();
        for (line, sent) in file.split('\n').zip(sent.split('\n')) {
            assert_eq!(escape_reserved_tags(line), sent, "{line:?}");
        }
        // Invisible characters between the letters.
        for gap in [
            '\u{200b}', '\u{200c}', '\u{200d}', '\u{2060}', '\u{feff}', '\u{ad}',
        ] {
            check(
                &format!("<sys{gap}tem-reminder>"),
                &format!("<\\sys{gap}tem-reminder>"),
            );
        }
        // Not a gap: U+0345, a no-break space, a space, U+2800.
        for kept in [
            "<sys\u{345}tem-reminder>",
            "<sys\u{a0}tem-reminder>",
            "<sys tem-reminder>",
        ] {
            check(kept, kept);
        }
        check("<sys\u{2800}tem-reminder>", "<sys\u{2800}tem-reminder>");
        // Lookalikes of `<` are replaced; dashes and lookalike letters spell the name.
        check("\u{ff1c}system-reminder>", "<\\system-reminder>");
        check("<system\u{2013}reminder>", "<\\system\u{2013}reminder>");
        check("<\u{455}ystem-reminder>", "<\\\u{455}ystem-reminder>");
        check(
            "<\u{17f}ystem-reminder> <tic\u{212a}>",
            "<\\\u{17f}ystem-reminder> <\\tic\u{212a}>",
        );
        // Case, spaces and attributes.
        check(
            "<SyStEm-ReMiNdEr   a=\"1\">",
            "<\\SyStEm-ReMiNdEr   a=\"1\">",
        );
    }

    #[test]
    fn long_and_hostile_text_is_linear() {
        let start = std::time::Instant::now();
        let lookalikes = "\u{ff1c}\u{4e00}".repeat(50_000) + &"<\u{200b}".repeat(50_000);
        assert_eq!(escape_reserved_tags(&lookalikes), lookalikes);
        let filler = "<".to_owned() + &"\u{4e00}".repeat(200_000);
        assert_eq!(escape_reserved_tags(&filler), filler);
        assert!(start.elapsed() < std::time::Duration::from_secs(20));
        let text = "<".repeat(200_000) + &"< /".repeat(50_000);
        assert_eq!(escape_reserved_tags(&text), text);
        let many = "<tick>".repeat(50_000);
        assert_eq!(escape_reserved_tags(&many).len(), many.len() + 50_000);
        let channel = "<channel ".to_owned() + &"x".repeat(100_000);
        assert_eq!(escape_reserved_tags(&channel), channel);
    }
}
