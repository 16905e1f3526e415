//! Pseudonyms for names: the runs of every name, mapped through one table for the snapshot.

use super::*;

/// Runs that stay in every name: what discovery looks for, the folders it skips or never
/// reads, and the fixed paths of managed policy and home folders.
pub(super) const WELL_KNOWN: &[&str] = &[
    "claude",
    "managed",
    "md",
    "local",
    "memory",
    "skill",
    "skills",
    "rules",
    "agents",
    "agent",
    "projects",
    "settings",
    "json",
    "jsonl",
    "git",
    "head",
    "gitdir",
    "worktrees",
    "home",
    "users",
    "root",
    "etc",
    "code",
    "library",
    "application",
    "support",
    "claudecode",
    "program",
    "files",
    "node",
    "modules",
    "dist",
    "build",
    "out",
    "next",
    "nuxt",
    "vendor",
    "pycache",
    "venv",
    "hg",
    "svn",
    "file",
    "history",
    "todos",
    "shell",
    "snapshots",
    "debug",
    "statsig",
    "telemetry",
    "cache",
    "ide",
    "session",
    "env",
];

/// Names the first pass met, to be placed in the table.
#[derive(Debug, Default)]
pub(super) struct Collected {
    /// ASCII letter-and-digit runs, lower-cased.
    pub(super) runs: BTreeSet<String>,
    /// Non-ASCII characters that are not white space.
    pub(super) chars: BTreeSet<char>,
    /// Runs of file extensions, lower-cased: they stay.
    pub(super) extensions: BTreeSet<String>,
    /// Drive letters of Windows paths, lower-cased: they stay.
    pub(super) drives: BTreeSet<String>,
}

/// Renames paths: in the first pass it only records what it sees and renames nothing.
pub(super) enum Namer<'a> {
    Collect(RefCell<Collected>),
    Apply(&'a Pseudonyms),
}

impl Namer<'_> {
    pub(super) fn collecting(&self) -> bool {
        matches!(self, Namer::Collect(_))
    }

    /// The shared form of a path, name or glob.
    pub(super) fn name(&self, s: &str) -> String {
        match self {
            Namer::Apply(pseudonyms) => pseudonyms.name(s),
            Namer::Collect(collected) => {
                let mut collected = collected.borrow_mut();
                for piece in split_name(s) {
                    match piece {
                        NamePiece::Run(run) => {
                            collected.runs.insert(run.to_ascii_lowercase());
                        }
                        NamePiece::Char(c) if !c.is_ascii() && !is_space(c) => {
                            collected.chars.insert(c);
                        }
                        NamePiece::Char(_) => {}
                    }
                }
                let bytes = s.as_bytes();
                if bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':' {
                    collected
                        .drives
                        .insert((bytes[0] as char).to_ascii_lowercase().to_string());
                }
                s.to_owned()
            }
        }
    }

    /// The shared form of a file's path; its extension stays.
    pub(super) fn file(&self, path: &str) -> String {
        if let Namer::Collect(collected) = self {
            let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
            if let Some(dot) = name.rfind('.').filter(|&i| i > 0) {
                for piece in split_name(&name[dot + 1..]) {
                    if let NamePiece::Run(run) = piece {
                        collected
                            .borrow_mut()
                            .extensions
                            .insert(run.to_ascii_lowercase());
                    }
                }
            }
        }
        self.name(path)
    }
}

pub(super) enum NamePiece<'s> {
    Run(&'s str),
    Char(char),
}

/// A name as runs of ASCII letters and digits and single other characters.
pub(super) fn split_name(s: &str) -> Vec<NamePiece<'_>> {
    let mut pieces = Vec::new();
    let mut run: Option<usize> = None;
    for (i, c) in s.char_indices() {
        if c.is_ascii_alphanumeric() {
            run.get_or_insert(i);
            continue;
        }
        if let Some(start) = run.take() {
            pieces.push(NamePiece::Run(&s[start..i]));
        }
        pieces.push(NamePiece::Char(c));
    }
    if let Some(start) = run {
        pieces.push(NamePiece::Run(&s[start..]));
    }
    pieces
}

/// The pseudonym table: an order-keeping trie for ASCII runs, and a map for other
/// characters.
#[derive(Debug, Clone, Default)]
pub(super) struct Pseudonyms {
    pub(super) runs: Trie,
    pub(super) chars: BTreeMap<char, char>,
}

impl Pseudonyms {
    pub(super) fn new(
        collected: Collected,
        input: &Input,
        options: &SanitizeOptions,
    ) -> Pseudonyms {
        let user = VPath::new(&input.home)
            .map(|home| home.file_name().to_owned())
            .unwrap_or_default();
        let mut user_runs = BTreeSet::new();
        let mut user_chars = BTreeSet::new();
        for piece in split_name(&user) {
            match piece {
                NamePiece::Run(run) => {
                    user_runs.insert(run.to_ascii_lowercase());
                }
                NamePiece::Char(c) => {
                    user_chars.insert(c);
                }
            }
        }
        let mut runs = Trie::new();
        for run in &collected.runs {
            let fixed = WELL_KNOWN.contains(&run.as_str())
                || collected.extensions.contains(run)
                || collected.drives.contains(run)
                || if user_runs.contains(run) {
                    options.keep_user_name
                } else {
                    options.keep_file_names
                };
            runs.insert(run.as_bytes(), fixed);
        }
        runs.allocate();
        let chars = collected
            .chars
            .iter()
            .map(|&c| {
                // U+FFFD stands for bytes that were not UTF-8; the shared file keeps them
                // invalid, so the receiver reads U+FFFD there too, and it tells nothing.
                let fixed = if c == char::REPLACEMENT_CHARACTER {
                    true
                } else if user_chars.contains(&c) {
                    options.keep_user_name
                } else {
                    options.keep_file_names
                };
                (c, fixed)
            })
            .collect();
        Pseudonyms {
            runs,
            chars: allocate_chars(&chars),
        }
    }

    pub(super) fn name(&self, s: &str) -> String {
        let mut out = String::with_capacity(s.len());
        for piece in split_name(s) {
            match piece {
                NamePiece::Run(run) => out.push_str(&self.runs.map(run)),
                NamePiece::Char(c) if c.is_ascii() || is_space(c) => out.push(c),
                NamePiece::Char(c) => out.push(
                    self.chars
                        .get(&c)
                        .copied()
                        .unwrap_or_else(|| placeholder(c, false)),
                ),
            }
        }
        out
    }
}

/// A trie of lower-cased runs in which each node maps its character to an image of the same
/// class (letter or digit), keeping order among siblings. Nodes on the way to a kept run map
/// to themselves; the others take the lowest free images in the gaps between those, so a
/// pseudonym sorts exactly where its original did, and a prefix renames to a prefix.
#[derive(Debug, Clone)]
pub(super) struct Trie {
    pub(super) nodes: Vec<TrieNode>,
}

#[derive(Debug, Clone, Default)]
pub(super) struct TrieNode {
    pub(super) children: BTreeMap<u8, usize>,
    /// True when a kept run passes through this node.
    pub(super) fixed: bool,
    pub(super) image: u8,
}

impl Default for Trie {
    fn default() -> Trie {
        Trie::new()
    }
}

impl Trie {
    pub(super) fn new() -> Trie {
        Trie {
            nodes: vec![TrieNode::default()],
        }
    }

    pub(super) fn insert(&mut self, run: &[u8], fixed: bool) {
        let mut at = 0;
        for &byte in run {
            let next = match self.nodes[at].children.get(&byte) {
                Some(&next) => next,
                None => {
                    self.nodes.push(TrieNode::default());
                    let next = self.nodes.len() - 1;
                    self.nodes[at].children.insert(byte, next);
                    next
                }
            };
            self.nodes[next].fixed |= fixed;
            at = next;
        }
    }

    /// Assigns every node's image. Between two kept siblings there are at least as many
    /// free characters as free siblings (the originals themselves), so taking the lowest
    /// free image each time never runs past the next kept one.
    pub(super) fn allocate(&mut self) {
        for at in 0..self.nodes.len() {
            let children: Vec<(u8, usize)> = self.nodes[at]
                .children
                .iter()
                .map(|(&byte, &node)| (byte, node))
                .collect();
            for (first, last) in [(b'0', b'9'), (b'a', b'z')] {
                let mut previous: Option<u8> = None;
                for &(byte, node) in children.iter().filter(|(b, _)| (first..=last).contains(b)) {
                    let image = if self.nodes[node].fixed {
                        byte
                    } else {
                        previous.map_or(first, |p| p + 1)
                    };
                    self.nodes[node].image = image;
                    previous = Some(image);
                }
            }
        }
    }

    /// The pseudonym of a run, keeping the case of each letter; a run the table never saw
    /// becomes a placeholder from where it leaves the trie.
    pub(super) fn map(&self, run: &str) -> String {
        let mut out = String::with_capacity(run.len());
        let mut at = Some(0);
        for byte in run.bytes() {
            let next = at.and_then(|node| {
                self.nodes[node]
                    .children
                    .get(&byte.to_ascii_lowercase())
                    .copied()
            });
            let image = match next {
                Some(node) => self.nodes[node].image,
                None if byte.is_ascii_digit() => b'0',
                None => b'x',
            };
            let image = if byte.is_ascii_uppercase() {
                image.to_ascii_uppercase()
            } else {
                image
            };
            out.push(image as char);
            at = next;
        }
        out
    }
}

/// Maps non-ASCII characters of names to characters of the same UTF-8 length, keeping order
/// within each length and around the kept ones. With no kept character of that length, free
/// ones take letters in turn from a plain range (Latin Extended, Hangul syllables, CJK
/// Extension B). Otherwise each takes the lowest letter above the previous image and below
/// itself, or itself: an image never passes its original, so it never passes a kept one.
pub(super) fn allocate_chars(chars: &BTreeMap<char, bool>) -> BTreeMap<char, char> {
    let letter = |x: &char, len: usize| x.len_utf8() == len && x.is_alphabetic() && !is_space(*x);
    let mut out = BTreeMap::new();
    for len in 2..=4 {
        let class: Vec<(char, bool)> = chars
            .iter()
            .filter(|(c, _)| c.len_utf8() == len)
            .map(|(&c, &fixed)| (c, fixed))
            .collect();
        let (preferred, last) = match len {
            2 => (0x100, 0x7ff),
            3 => (0xac00, 0xffff),
            _ => (0x20000, 0x10_ffff),
        };
        let any_fixed = class.iter().any(|(_, fixed)| *fixed);
        let mut previous: Option<u32> = None;
        for &(c, fixed) in &class {
            let image = if fixed {
                c
            } else if any_fixed {
                let after = previous.map_or(0, |p| p + 1);
                (after..c as u32)
                    .filter_map(char::from_u32)
                    .find(|x| letter(x, len))
                    .unwrap_or(c)
            } else {
                let after = previous.map_or(preferred, |p| p + 1);
                (after..=last)
                    .filter_map(char::from_u32)
                    .find(|x| letter(x, len))
                    .unwrap_or(c)
            };
            out.insert(c, image);
            previous = Some(image as u32);
        }
    }
    out
}
