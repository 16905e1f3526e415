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
    "commands",
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
    // `.mcp.json`, `managed-mcp.json`: MCP configurations discovery looks for.
    "mcp",
    // The plugin files discovery looks for: `plugins/installed_plugins.json`,
    // `known_marketplaces.json`, `.claude-plugin/plugin.json` and `marketplace.json`, a
    // plugin's `commands/` and `hooks/hooks.json`.
    "plugins",
    "plugin",
    "installed",
    "known",
    "marketplaces",
    "marketplace",
    "commands",
    "hooks",
    // A `SessionStart` hook's matcher decides when it runs.
    "startup",
    "resume",
    "clear",
    "compact",
];

/// Names the first pass met, to be placed in the table.
#[derive(Debug, Clone, Default)]
pub(super) struct Collected {
    /// ASCII letter-and-digit runs, lower-cased.
    pub(super) runs: BTreeSet<String>,
    /// Non-ASCII characters that are not white space.
    pub(super) chars: BTreeSet<char>,
    /// Runs of file extensions, lower-cased: they stay.
    pub(super) extensions: BTreeSet<String>,
    /// Drive letters of Windows paths, lower-cased: they stay.
    pub(super) drives: BTreeSet<String>,
    /// ASCII runs as written, case kept.
    pub(super) spellings: BTreeSet<String>,
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
                            collected.spellings.insert(run.to_owned());
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

/// The pseudonym table. Each run of ASCII letters and digits that is not kept becomes a
/// counter: the runs are numbered in sorted order within their class (led by a digit, led by
/// a letter), every counter of a class has the same width, the fewest characters that
/// number them all, and none starts as its run does. So a pseudonym shows its run's rank
/// and class, not its letters or its length. Where a kept name sorts among renamed ones the
/// counters do not keep the names' order; the snapshot carries it instead
/// ([`carried_order`]). Spellings of one run that differ in case keep differing in case only
/// (`Docs`, `DOCS` → `Bc`, `BC`), so lookups that ignore case still hit.
#[derive(Debug, Clone, Default)]
pub(super) struct Pseudonyms {
    /// Every kept run, lower-cased.
    pub(super) kept: BTreeSet<String>,
    /// Every renamed run as written → its pseudonym.
    pub(super) runs: BTreeMap<String, String>,
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
        // A run that holds the user name (`alice2` for `alice`) is the user's too.
        let whole_user = user.to_ascii_lowercase();
        let is_user = |run: &str| {
            user_runs.contains(run) || (whole_user.len() >= 3 && run.contains(&whole_user))
        };
        let mut kept = BTreeSet::new();
        let mut free = BTreeSet::new();
        for run in &collected.runs {
            let fixed = WELL_KNOWN.contains(&run.as_str())
                || collected.extensions.contains(run)
                || collected.drives.contains(run)
                || if is_user(run) {
                    options.keep_user_name
                } else {
                    options.keep_file_names
                };
            if fixed {
                kept.insert(run.clone());
            } else {
                free.insert(run.clone());
            }
        }
        let mut forbidden: BTreeSet<String> = kept.clone();
        forbidden.extend(WELL_KNOWN.iter().map(|w| (*w).to_owned()));
        let mut spellings: BTreeMap<String, Vec<&str>> = BTreeMap::new();
        for spelling in &collected.spellings {
            let lower = spelling.to_ascii_lowercase();
            if free.contains(&lower) {
                spellings.entry(lower).or_default().push(spelling);
            }
        }
        let codes = assign_codes(&free, &spellings, &forbidden);
        let mut runs = BTreeMap::new();
        for (lower, written) in &spellings {
            let Some(code) = codes.get(lower) else {
                continue;
            };
            for (spelling, cased) in written.iter().zip(apply_case(code, written)) {
                runs.insert((*spelling).to_owned(), cased);
            }
        }
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
            kept,
            runs,
            chars: allocate_chars(&chars),
        }
    }

    pub(super) fn name(&self, s: &str) -> String {
        let mut out = String::with_capacity(s.len());
        for piece in split_name(s) {
            match piece {
                NamePiece::Run(run) if self.kept.contains(&run.to_ascii_lowercase()) => {
                    out.push_str(run);
                }
                NamePiece::Run(run) => match self.runs.get(run) {
                    Some(code) => out.push_str(code),
                    // A run the snapshot never held: placeholders of its length.
                    None => out.push_str(&text_placeholder(run, false)),
                },
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

/// The alphabet of a class's counters: digits for runs led by a digit, lower-case letters
/// for the others.
fn alphabet(digits: bool) -> (u8, u8) {
    if digits {
        (b'0', b'9')
    } else {
        (b'a', b'z')
    }
}

/// The counter of every renamed run (lower-cased), class by class: in sorted order, each the
/// next allowed one, all of one width per class, the least for which every run has one.
fn assign_codes(
    free: &BTreeSet<String>,
    spellings: &BTreeMap<String, Vec<&str>>,
    forbidden: &BTreeSet<String>,
) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for digits in [true, false] {
        let led = |run: &String| run.as_bytes().first().is_some_and(u8::is_ascii_digit) == digits;
        let class: Vec<&String> = free.iter().filter(|r| led(r)).collect();
        if class.is_empty() {
            continue;
        }
        // Spellings that differ in case past their first letter need room for that.
        let variants = class
            .iter()
            .filter_map(|run| spellings.get(*run))
            .map(|written| {
                let upper = written
                    .iter()
                    .filter(|w| w.as_bytes()[0].is_ascii_uppercase())
                    .count();
                upper.max(written.len() - upper)
            })
            .max()
            .unwrap_or(1);
        let mut width = 1;
        while !digits && (1usize << (width - 1).min(20)) < variants {
            width += 1;
        }
        loop {
            if let Some(codes) = codes_of_width(&class, forbidden, width, digits) {
                out.extend(codes);
                break;
            }
            width += 1;
        }
    }
    out
}

fn codes_of_width(
    class: &[&String],
    forbidden: &BTreeSet<String>,
    width: usize,
    digits: bool,
) -> Option<BTreeMap<String, String>> {
    let (first, last) = alphabet(digits);
    let mut previous: Option<Vec<u8>> = None;
    let mut out = BTreeMap::new();
    for run in class {
        // Never a kept name, and a lettered one never a YAML word (`no`, `null`), and never
        // starting as the run does: a pseudonym never tells a name's first letter.
        let allowed = |code: &[u8]| {
            let text = std::str::from_utf8(code).expect("ASCII");
            !forbidden.contains(text)
                && code.first() != run.as_bytes().first()
                && (digits || !frontmatter::is_special_scalar(text))
        };
        // Every counter of the class has the one width: a pseudonym tells a run's rank and
        // class, never its length (a text that writes it gets a stand-in of its own).
        let mut code = match &previous {
            None => Some(vec![first; width]),
            Some(previous) => smallest_above(previous, first, last, width),
        };
        while let Some(c) = code.as_ref().filter(|c| !allowed(c)) {
            code = if c.first() == run.as_bytes().first() && c[0] < last {
                // Past every counter that starts as the run does, in one step.
                let mut next = vec![first; c.len()];
                next[0] = c[0] + 1;
                Some(next)
            } else {
                increment(c, first, last)
            };
        }
        let code = code?;
        out.insert(
            (*run).clone(),
            String::from_utf8(code.clone()).expect("ASCII"),
        );
        previous = Some(code);
    }
    Some(out)
}

/// The next counter of the same width, or `None` past the last.
fn increment(code: &[u8], first: u8, last: u8) -> Option<Vec<u8>> {
    let mut out = code.to_vec();
    for at in (0..out.len()).rev() {
        if out[at] < last {
            out[at] += 1;
            return Some(out);
        }
        out[at] = first;
    }
    None
}

/// The smallest counter of `width` characters in `first..=last` that sorts after `kept`.
fn smallest_above(kept: &[u8], first: u8, last: u8, width: usize) -> Option<Vec<u8>> {
    let inside = |b: u8| (first..=last).contains(&b);
    // The longest prefix of `kept` a counter can share, then one character above.
    for shared in (0..=kept.len().min(width)).rev() {
        if shared == width || !kept[..shared].iter().all(|&b| inside(b)) {
            continue;
        }
        let mut code = kept[..shared].to_vec();
        if shared == kept.len() {
            // `kept` is a prefix of the counter, which is longer: it sorts after.
            code.resize(width, first);
            return Some(code);
        }
        let above = kept[shared].max(first.saturating_sub(1)).saturating_add(1);
        if above < first || above > last {
            continue;
        }
        code.push(above);
        code.resize(width, first);
        return Some(code);
    }
    None
}

/// A counter spelled in each case the run was written in: its first letter in the case of
/// the run's first letter; the rest lower-case when the run's rest is, upper-case when it is
/// all capitals, else the first pattern of that kind not yet taken.
fn apply_case(code: &str, written: &[&str]) -> Vec<String> {
    let bytes = code.as_bytes();
    let lettered = bytes.iter().any(u8::is_ascii_alphabetic);
    let mut taken = BTreeSet::new();
    let mut out = Vec::with_capacity(written.len());
    for spelling in written {
        if !lettered {
            out.push(code.to_owned());
            continue;
        }
        let letters: Vec<bool> = spelling
            .bytes()
            .filter(u8::is_ascii_alphabetic)
            .map(|b| b.is_ascii_uppercase())
            .collect();
        let first = letters.first().copied().unwrap_or(false);
        let rest = &letters[letters.len().min(1)..];
        let all_upper = !rest.is_empty() && rest.iter().all(|&u| u);
        let mut mask: Vec<bool> = (0..bytes.len())
            .map(|at| if at == 0 { first } else { all_upper })
            .collect();
        if rest.iter().any(|&u| u) && !all_upper && mask.len() > 1 {
            mask[1] = true;
        }
        if taken.contains(&mask) {
            // Another spelling took this pattern: the first free one that keeps the first
            // letter's case.
            let count = 1u64 << (bytes.len() - 1).min(20);
            for n in 0..count {
                let candidate: Vec<bool> = (0..bytes.len())
                    .map(|at| {
                        if at == 0 {
                            first
                        } else {
                            n >> (at - 1) & 1 == 1
                        }
                    })
                    .collect();
                if !taken.contains(&candidate) {
                    mask = candidate;
                    break;
                }
            }
        }
        taken.insert(mask.clone());
        out.push(
            bytes
                .iter()
                .zip(&mask)
                .map(|(&b, &upper)| {
                    if upper {
                        b.to_ascii_uppercase() as char
                    } else {
                        b as char
                    }
                })
                .collect(),
        );
    }
    out
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

/// Each original path with its shared one, for every kept file and folder and the folders
/// above them: renaming keeps every `/`, so their parents pair up level by level.
fn paired_paths(paths: &BTreeMap<String, String>) -> impl Iterator<Item = (VPath, VPath)> {
    let mut pairs: BTreeMap<VPath, VPath> = BTreeMap::new();
    for (from, to) in paths {
        let (Ok(mut from), Ok(mut to)) = (VPath::new(from), VPath::new(to)) else {
            continue;
        };
        loop {
            if pairs.insert(from.clone(), to.clone()).is_some() {
                break;
            }
            match (from.parent(), to.parent()) {
                (Some(a), Some(b)) => (from, to) = (a, b),
                _ => break,
            }
        }
    }
    pairs.into_iter()
}

/// The order the source listed each kept folder's entries in, where it recorded one
/// ([`Tree::set_listing_order`]: a skills folder, which releases 2.1.113 to 2.1.153 list as
/// the file system does): for each shared folder, the positions of its entries in the
/// shared tree's order ([`Tree::entry_names`], after [`Tree::set_order`]), in the source's
/// order. Entries the shared tree does not keep are left out; the receiver lists them, as
/// the analysis does, after the recorded ones.
pub(super) fn carried_listing_orders(
    original: &Tree,
    shared: &Tree,
    paths: &BTreeMap<String, String>,
) -> BTreeMap<VPath, Vec<usize>> {
    if original.listing_orders().next().is_none() {
        return BTreeMap::new();
    }
    let shared_of: BTreeMap<VPath, VPath> = paired_paths(paths).collect();
    let mut out = BTreeMap::new();
    for (dir, listed) in original.listing_orders() {
        let Some(folder) = shared_of.get(dir) else {
            continue;
        };
        let entries = shared.entry_names(folder);
        let at: BTreeMap<&str, usize> = entries
            .iter()
            .enumerate()
            .map(|(at, (name, _))| (name.as_str(), at))
            .collect();
        let positions: Vec<usize> = listed
            .iter()
            .filter_map(|name| {
                at.get(shared_of.get(&dir.child(name))?.file_name())
                    .copied()
            })
            .collect();
        if !positions.is_empty() {
            out.insert(folder.clone(), positions);
        }
    }
    out
}

/// The order the original listed the entries of each shared folder in, where the shared
/// names' byte order differs: for each such folder, the positions of its entries in byte
/// order, listed in the original's order ([`Tree::set_order`] on the receiving side). The
/// pseudonyms are counters that keep no order of their own where a kept name sorts among
/// renamed ones (`memo.md` between `md` and `memory`), so the order travels as this table.
pub(super) fn carried_order(
    original: &Tree,
    shared: &Tree,
    paths: &BTreeMap<String, String>,
) -> BTreeMap<VPath, Vec<usize>> {
    let original_of: BTreeMap<VPath, VPath> = paired_paths(paths)
        .map(|(original, shared)| (shared, original))
        .collect();
    let mut out = BTreeMap::new();
    for (folder, original_folder) in &original_of {
        let entries = shared.entry_names(folder);
        if entries.len() < 2 {
            continue;
        }
        let mut listed = original.entry_names(original_folder);
        // A skills folder's skills are listed in `localeCompare`'s order of their folders'
        // names (`discover::skills`), which the pseudonyms need not keep: that order travels,
        // the folders first, and always, so that the receiver does not sort again.
        let skills = original_folder.file_name() == "skills";
        if skills && !original.has_order(original_folder) {
            let (mut dirs, files): (Vec<_>, Vec<_>) = listed.into_iter().partition(|e| e.1);
            dirs.sort_by(|a, b| crate::discover::compare_locale(&a.0, &b.0));
            dirs.extend(files);
            listed = dirs;
        }
        let rank: BTreeMap<(&str, bool), usize> = listed
            .iter()
            .enumerate()
            .map(|(rank, (name, dir))| ((name.as_str(), *dir), rank))
            .collect();
        let mut positions: Vec<(usize, usize)> = entries
            .iter()
            .enumerate()
            .map(|(at, (name, dir))| {
                let original_rank = original_of
                    .get(&folder.child(name))
                    .and_then(|p| rank.get(&(p.file_name(), *dir)).copied())
                    .unwrap_or(usize::MAX);
                (original_rank, at)
            })
            .collect();
        // Stable: entries the original does not list keep their byte order, last.
        positions.sort_by_key(|(rank, _)| *rank);
        let order: Vec<usize> = positions.into_iter().map(|(_, at)| at).collect();
        if skills || order.iter().enumerate().any(|(i, at)| i != *at) {
            out.insert(folder.clone(), order);
        }
    }
    out
}
