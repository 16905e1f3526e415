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
/// Names over 200 characters are cut to 200, then `-` and the base-36 absolute value of
/// Claude Code's 32-bit string hash of the full path are appended. The name
/// is deterministic (measured on 2.1.328: the documentation's "differs by install method"
/// does not hold).
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
    format!("{}-{}", &encoded[..MAX_NAME_CHARS], path_hash(path))
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

/// Claude Code's name hash: the Java-style 32-bit string hash (`h = (h << 5) - h + unit`,
/// wrapping, over UTF-16 units), then JavaScript's `Math.abs(h).toString(36)`.
fn path_hash(path: &str) -> String {
    let hash = path.encode_utf16().fold(0i32, |h, unit| {
        h.wrapping_shl(5)
            .wrapping_sub(h)
            .wrapping_add(i32::from(unit))
    });
    // `Math.abs` of i32::MIN is 2^31 in JavaScript, which `unsigned_abs` gives too.
    let mut value = hash.unsigned_abs();
    let mut digits = Vec::new();
    loop {
        let digit = (value % 36) as u8;
        digits.push(if digit < 10 {
            b'0' + digit
        } else {
            b'a' + digit - 10
        });
        value /= 36;
        if value == 0 {
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
    }

    #[test]
    fn the_hash_is_javascripts() {
        // Values of `Math.abs(h).toString(36)` computed in Node for the same strings.
        assert_eq!(path_hash(""), "0");
        assert_eq!(path_hash("a"), "2p");
        assert_eq!(path_hash("hello"), "1n1e4y");
        assert_eq!(path_hash(&format!("/tmp/{}", "a".repeat(300))), "w6az8n");
        // Hashed over UTF-16 units: the emoji counts as its two surrogates.
        assert_eq!(path_hash("/p/😀"), "swt8x");
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
