//! Project path to memory-folder name, and back (lossily).
//!
//! Claude Code names a project's folder under `<config>/projects/` by replacing every
//! character of the key path that is not an ASCII letter or digit with `-`, one `-` per
//! UTF-16 code unit. The encoding is lossy (`/`, `.`, `_`, a space and `é` all become `-`),
//! so different projects can collide, and a name can only be decoded to a best guess.

/// Longest folder name Claude Code writes before it cuts and appends a hash.
pub(crate) const MAX_NAME_CHARS: usize = 200;

/// Encodes a project path the way Claude Code names its memory folder.
///
/// Names over 200 characters are cut to 200 and a hash of the full path is appended. Claude
/// Code's hash differs by install method, so the hash here is only a stand-in: look such
/// folders up by their first 200 characters.
pub fn encode_project_path(path: &str) -> String {
    let encoded: String = path
        .encode_utf16()
        .map(|unit| match char::from_u32(u32::from(unit)) {
            Some(c) if c.is_ascii_alphanumeric() => c,
            _ => '-',
        })
        .collect();
    if encoded.len() <= MAX_NAME_CHARS {
        return encoded;
    }
    format!("{}-{}", &encoded[..MAX_NAME_CHARS], stand_in_hash(path))
}

/// The part of an encoded name that identifies a folder: all of it, or the first 200
/// characters of a long one (whose hash suffix cannot be predicted).
pub(crate) fn name_prefix(encoded: &str) -> (&str, bool) {
    if encoded.len() > MAX_NAME_CHARS {
        (&encoded[..MAX_NAME_CHARS], true)
    } else {
        (encoded, false)
    }
}

/// The encoding of early Claude Code releases (and of the seed document): only `\`, `/`
/// and `:` become `-`.
pub(crate) fn seed_encode_project_path(path: &str) -> String {
    path.chars()
        .map(|c| {
            if matches!(c, '\\' | '/' | ':') {
                '-'
            } else {
                c
            }
        })
        .collect()
}

/// A best guess at the path a folder name encodes.
///
/// `C--Users-foo` reads as `C:/Users/foo`; elsewhere `--` most often stood for `/.` (a hidden
/// folder) and `-` for `/`. Any `-` may really have been `.`, `_`, a space or a non-ASCII
/// character: the guess is lossy.
pub fn decode_guess(name: &str) -> String {
    let bytes = name.as_bytes();
    let (root, rest) = if bytes.len() >= 3
        && bytes[0].is_ascii_alphabetic()
        && bytes[1] == b'-'
        && bytes[2] == b'-'
    {
        (format!("{}:/", bytes[0] as char), &name[3..])
    } else {
        ("/".to_owned(), name.strip_prefix('-').unwrap_or(name))
    };
    format!("{root}{}", rest.replace("--", "/.").replace('-', "/"))
}

/// A short, stable base-36 hash (FNV-1a over UTF-8), standing in for Claude Code's own.
fn stand_in_hash(path: &str) -> String {
    let mut hash: u32 = 0x811c_9dc5;
    for byte in path.bytes() {
        hash ^= u32::from(byte);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    let mut digits = Vec::new();
    loop {
        let digit = (hash % 36) as u8;
        digits.push(if digit < 10 {
            b'0' + digit
        } else {
            b'a' + digit - 10
        });
        hash /= 36;
        if hash == 0 {
            break;
        }
    }
    digits.reverse();
    String::from_utf8(digits).expect("base-36 digits are ASCII")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_like_claude_code() {
        let cases = [
            ("/home/alice/work/my.app", "-home-alice-work-my-app"),
            ("C:\\Users\\foo", "C--Users-foo"),
            ("C:/Users/foo", "C--Users-foo"),
            ("/Users/bob/my_project v2", "-Users-bob-my-project-v2"),
            // One '-' per UTF-16 unit: 'é' is one unit, '😀' is two.
            ("/p/é", "-p--"),
            ("/p/😀", "-p---"),
            ("/home/alice/.config", "-home-alice--config"),
        ];
        for (path, name) in cases {
            assert_eq!(encode_project_path(path), name, "{path}");
        }
    }

    #[test]
    fn long_names_are_cut_and_hashed() {
        let path = format!("/{}", "a".repeat(300));
        let name = encode_project_path(&path);
        assert!(name.len() > MAX_NAME_CHARS);
        assert_eq!(&name[..MAX_NAME_CHARS], &format!("-{}", "a".repeat(199)));
        assert_eq!(name.as_bytes()[MAX_NAME_CHARS], b'-');
        let (prefix, cut) = name_prefix(&name);
        assert!(cut);
        assert_eq!(prefix.len(), MAX_NAME_CHARS);
        assert_eq!(name_prefix("-short"), ("-short", false));
    }

    #[test]
    fn seed_encoding_keeps_dots_and_underscores() {
        assert_eq!(
            seed_encode_project_path("/home/alice/my.app_x"),
            "-home-alice-my.app_x"
        );
        assert_eq!(seed_encode_project_path("C:\\Users\\foo"), "C--Users-foo");
    }

    #[test]
    fn decodes_a_best_guess() {
        assert_eq!(decode_guess("-home-alice-work-app"), "/home/alice/work/app");
        assert_eq!(decode_guess("C--Users-foo-proj"), "C:/Users/foo/proj");
        assert_eq!(decode_guess("-home-alice--config"), "/home/alice/.config");
    }
}
