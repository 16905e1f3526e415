//! A bounded reader of JavaScript regular expressions, enough to decide what Claude Code
//! decides with `new RegExp(matcher).test(name)` (a hook's matcher, no flags) on a short
//! name such as a session's source (`startup`).
//!
//! Measured on 2.1.337 (`edges-hooks-session-start-lookaround-backrefs`; the bundled code
//! tests the matcher with `new RegExp` and treats a `SyntaxError` as "does not run"). It
//! reads JavaScript's web-compatible syntax without the `u` flag (Annex B): literals, `.`,
//! classes (`[a-z]`, `[^…]`, `\d`, `\w`, `\s` and their negations, `[\w-z]` as a union),
//! groups (capturing, named, `(?:…)`, the modifiers `(?i:…)`, `(?-i:…)`), alternation,
//! the quantifiers `*`, `+`, `?`, `{n,m}` (lazy or not; a `{` that is no quantifier is
//! itself), the anchors `^`, `$`, `\b`, `\B`, look-ahead `(?=…)` and `(?!…)` (quantifiable),
//! look-behind `(?<=…)` and `(?<!…)`, back-references (`\1`, `\k<name>`, to a group not
//! taken or not reached: empty), and the escapes (`\x73`, `\u0073`, `\cS`, `\t`, legacy
//! octal `\12` where no group 12 exists, `\8` as `8`, `\p` as `p`).
//!
//! Bounded: a pattern of more than [`MAX_PATTERN_CHARS`] characters or nested deeper than
//! [`MAX_GROUP_DEPTH`] is not read, and a search gives up after [`MAX_STEPS`] steps (a
//! pattern built to backtrack): the caller says it could not decide. Not read either:
//! duplicate group names (JavaScript accepts some, in different alternatives) and a
//! back-reference inside a look-behind (which JavaScript matches right to left).

use std::ops::Range;

/// The longest pattern read, in characters.
pub(crate) const MAX_PATTERN_CHARS: usize = 512;
/// The deepest nesting of groups read.
pub(crate) const MAX_GROUP_DEPTH: usize = 16;
/// Steps a search may take before it gives up.
pub(crate) const MAX_STEPS: u32 = 10_000;
/// The largest count a `{n,m}` quantifier is read with (the subject is a word).
const MAX_REPEAT: u32 = 1_000;

/// What JavaScript's `new RegExp(pattern).test(subject)` answers, as far as this reader can
/// tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Test {
    /// It matches somewhere in the subject.
    Matches,
    /// It does not.
    NoMatch,
    /// JavaScript rejects the pattern (`new RegExp` throws a `SyntaxError`).
    Invalid,
    /// The reader cannot tell: the pattern is too long or too deep, uses what it does not
    /// read, or the search took more than [`MAX_STEPS`] steps.
    Undecided,
}

/// `new RegExp(pattern).test(subject)`, bounded (see the module's documentation).
pub(crate) fn test(pattern: &str, subject: &str) -> Test {
    match Regex::parse(pattern) {
        Err(Unread::Invalid) => Test::Invalid,
        Err(Unread::Unsupported) => Test::Undecided,
        Ok(regex) => match regex.is_match(subject) {
            Some(true) => Test::Matches,
            Some(false) => Test::NoMatch,
            None => Test::Undecided,
        },
    }
}

#[derive(Debug)]
struct Regex {
    alternatives: Vec<Vec<Item>>,
    groups: usize,
}

#[derive(Debug)]
struct Item {
    atom: Atom,
    min: u32,
    /// At most this many times; `None`: no bound.
    max: Option<u32>,
    /// Lazy: as few times as it may.
    lazy: bool,
}

#[derive(Debug)]
enum Atom {
    /// A character; `true`: ASCII letters in either case (the `i` modifier).
    Char(char, bool),
    Any,
    /// Ranges, negated, either case.
    Class(Vec<(char, char)>, bool, bool),
    Group {
        alternatives: Vec<Vec<Item>>,
        /// Its own capture index, when it captures.
        capture: Option<usize>,
        /// The capture indices inside it (its own too), cleared at each repetition.
        inner: Range<usize>,
    },
    Look {
        alternatives: Vec<Vec<Item>>,
        ahead: bool,
        negated: bool,
    },
    /// A back-reference to a capture index, either case.
    Backref(usize, bool),
    Start,
    End,
    /// `\b` (true) or `\B` (false).
    Boundary(bool),
}

#[derive(Debug)]
enum Unread {
    Invalid,
    Unsupported,
}

struct Parser<'a> {
    chars: &'a [char],
    at: usize,
    /// Capturing groups in the whole pattern (a `\N` beyond it is an octal escape).
    total_groups: usize,
    /// Every group name, in order: index `i` names capture `i + 1`… (see `named`).
    named: Vec<(String, usize)>,
    /// Capturing groups opened so far.
    opened: usize,
    /// Inside a look-behind (back-references there are not read).
    behind: bool,
}

impl Regex {
    fn parse(pattern: &str) -> Result<Regex, Unread> {
        if pattern.chars().count() > MAX_PATTERN_CHARS {
            return Err(Unread::Unsupported);
        }
        let chars: Vec<char> = pattern.chars().collect();
        let (total_groups, named) = scan_groups(&chars)?;
        let mut parser = Parser {
            chars: &chars,
            at: 0,
            total_groups,
            named,
            opened: 0,
            behind: false,
        };
        let alternatives = parser.alternatives(0, false)?;
        if parser.at != chars.len() {
            // A `)` with no group open.
            return Err(Unread::Invalid);
        }
        Ok(Regex {
            alternatives,
            groups: total_groups,
        })
    }

    /// Whether the expression matches somewhere in `subject`; `None` past [`MAX_STEPS`].
    fn is_match(&self, subject: &str) -> Option<bool> {
        let text: Vec<char> = subject.chars().collect();
        let mut state = State {
            steps: 0,
            caps: vec![None; self.groups + 1],
        };
        for start in 0..=text.len() {
            let found =
                match_alternatives(&self.alternatives, &text, start, &mut state, &mut |_, _| {
                    true
                });
            if state.steps > MAX_STEPS {
                return None;
            }
            if found {
                return Some(true);
            }
            state.caps.iter_mut().for_each(|c| *c = None);
        }
        Some(false)
    }
}

/// The number of capturing groups and the names of the named ones, with their indices.
/// A duplicate name is not read.
fn scan_groups(chars: &[char]) -> Result<(usize, Vec<(String, usize)>), Unread> {
    let mut count = 0;
    let mut named: Vec<(String, usize)> = Vec::new();
    let mut at = 0;
    let mut in_class = false;
    while at < chars.len() {
        match chars[at] {
            '\\' => at += 1,
            '[' if !in_class => in_class = true,
            ']' if in_class => in_class = false,
            '(' if !in_class => {
                if chars.get(at + 1) != Some(&'?') {
                    count += 1;
                } else if chars.get(at + 2) == Some(&'<')
                    && !matches!(chars.get(at + 3), Some('=' | '!'))
                {
                    count += 1;
                    let name: String = chars[at + 3..].iter().take_while(|c| **c != '>').collect();
                    if named.iter().any(|(n, _)| *n == name) {
                        return Err(Unread::Unsupported);
                    }
                    named.push((name, count));
                }
            }
            _ => {}
        }
        at += 1;
    }
    Ok((count, named))
}

impl Parser<'_> {
    fn peek(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.at + ahead).copied()
    }

    fn alternatives(&mut self, depth: usize, fold: bool) -> Result<Vec<Vec<Item>>, Unread> {
        if depth > MAX_GROUP_DEPTH {
            return Err(Unread::Unsupported);
        }
        let mut alternatives = vec![Vec::new()];
        while let Some(c) = self.peek(0) {
            self.at += 1;
            let atom = match c {
                '|' => {
                    alternatives.push(Vec::new());
                    continue;
                }
                ')' => {
                    self.at -= 1;
                    break;
                }
                '(' => self.group(depth, fold)?,
                '[' => self.class(fold)?,
                '\\' => self.escape(fold)?,
                '.' => Atom::Any,
                '^' => Atom::Start,
                '$' => Atom::End,
                '*' | '+' | '?' => return Err(Unread::Invalid),
                // A `{` that is no quantifier is itself (JavaScript's web reading); one that
                // is has nothing to repeat.
                '{' if braces(self.chars, self.at - 1).is_some() => return Err(Unread::Invalid),
                c => Atom::Char(c, fold),
            };
            let (min, max, width) = match self.peek(0) {
                Some('*') => (0, None, 1),
                Some('+') => (1, None, 1),
                Some('?') => (0, Some(1), 1),
                Some('{') => match braces(self.chars, self.at) {
                    Some((min, max, width)) if max.is_none_or(|max| min <= max) => {
                        (min, max, width)
                    }
                    Some(_) => return Err(Unread::Invalid),
                    None => (1, Some(1), 0),
                },
                _ => (1, Some(1), 0),
            };
            let mut lazy = false;
            if width > 0 {
                self.at += width;
                if self.peek(0) == Some('?') {
                    self.at += 1;
                    lazy = true;
                }
                // Only a look-ahead among the assertions may be repeated.
                if matches!(
                    atom,
                    Atom::Start | Atom::End | Atom::Boundary(_) | Atom::Look { ahead: false, .. }
                ) {
                    return Err(Unread::Invalid);
                }
            }
            alternatives
                .last_mut()
                .expect("one alternative at least")
                .push(Item {
                    atom,
                    min,
                    max,
                    lazy,
                });
        }
        Ok(alternatives)
    }

    /// After `(`: a group, a look-around or a modifier group, through its `)`.
    fn group(&mut self, depth: usize, fold: bool) -> Result<Atom, Unread> {
        let mut look = None;
        let mut capture = None;
        let mut inner_fold = fold;
        if self.peek(0) == Some('?') {
            match (self.peek(1), self.peek(2)) {
                (Some(':'), _) => self.at += 2,
                (Some('='), _) => {
                    look = Some((true, false));
                    self.at += 2;
                }
                (Some('!'), _) => {
                    look = Some((true, true));
                    self.at += 2;
                }
                (Some('<'), Some('=')) => {
                    look = Some((false, false));
                    self.at += 3;
                }
                (Some('<'), Some('!')) => {
                    look = Some((false, true));
                    self.at += 3;
                }
                (Some('<'), _) => {
                    self.at += 2;
                    let name: String = self.chars[self.at..]
                        .iter()
                        .take_while(|c| **c != '>')
                        .collect();
                    let ascii_identifier = name.chars().enumerate().all(|(i, c)| {
                        c == '_'
                            || c == '$'
                            || c.is_ascii_alphabetic()
                            || (i > 0 && c.is_ascii_digit())
                    });
                    if name.is_empty() || self.at + name.chars().count() >= self.chars.len() {
                        return Err(Unread::Invalid);
                    }
                    if !ascii_identifier {
                        // Unicode identifiers are allowed; which ones, this reader does not
                        // say.
                        return Err(if name.chars().all(char::is_alphanumeric) {
                            Unread::Unsupported
                        } else {
                            Unread::Invalid
                        });
                    }
                    self.at += name.chars().count() + 1;
                    self.opened += 1;
                    capture = Some(self.opened);
                }
                _ => {
                    inner_fold = self.modifiers(fold)?;
                }
            }
        } else {
            self.opened += 1;
            capture = Some(self.opened);
        }
        let first_inner = capture.unwrap_or(self.opened + 1);
        let outer_behind = self.behind;
        if look.is_some_and(|(ahead, _)| !ahead) {
            self.behind = true;
        }
        let alternatives = self.alternatives(depth + 1, inner_fold)?;
        self.behind = outer_behind;
        if self.peek(0) != Some(')') {
            return Err(Unread::Invalid);
        }
        self.at += 1;
        Ok(match look {
            Some((ahead, negated)) => Atom::Look {
                alternatives,
                ahead,
                negated,
            },
            None => Atom::Group {
                alternatives,
                capture,
                inner: first_inner..self.opened + 1,
            },
        })
    }

    /// After `(?`: the modifiers `ims` to add, `-`, those to remove, then `:`; whether the
    /// group matches either case. `(?i)` and unknown or repeated flags are rejected.
    fn modifiers(&mut self, fold: bool) -> Result<bool, Unread> {
        let start = self.at + 1;
        let end = start
            + self.chars[start..]
                .iter()
                .position(|c| !matches!(c, 'i' | 'm' | 's' | '-'))
                .unwrap_or(self.chars.len() - start);
        if self.chars.get(end) != Some(&':') {
            return Err(Unread::Invalid);
        }
        let spec: String = self.chars[start..end].iter().collect();
        let (add, remove) = spec.split_once('-').unwrap_or((&spec, ""));
        let all = format!("{add}{remove}");
        let repeated = all.chars().enumerate().any(|(i, c)| all[..i].contains(c));
        if all.is_empty() || remove.contains('-') || repeated {
            return Err(Unread::Invalid);
        }
        self.at = end + 1;
        Ok(if add.contains('i') {
            true
        } else if remove.contains('i') {
            false
        } else {
            fold
        })
    }

    /// After `[`: a class, through its `]`.
    fn class(&mut self, fold: bool) -> Result<Atom, Unread> {
        let negated = self.peek(0) == Some('^');
        if negated {
            self.at += 1;
        }
        let mut ranges = Vec::new();
        loop {
            let Some(c) = self.peek(0) else {
                return Err(Unread::Invalid);
            };
            if c == ']' {
                // `[]` matches nothing in JavaScript, `[^]` anything.
                self.at += 1;
                break;
            }
            let low = self.class_atom()?;
            if self.peek(0) == Some('-') && self.peek(1).is_some_and(|c| c != ']') {
                self.at += 1;
                let high = self.class_atom()?;
                match (low, high) {
                    (ClassAtom::Char(low), ClassAtom::Char(high)) => {
                        if high < low {
                            return Err(Unread::Invalid);
                        }
                        ranges.push((low, high));
                    }
                    // `[\w-z]`: a union, `-` included (the web reading).
                    (low, high) => {
                        for atom in [low, high] {
                            atom.add_to(&mut ranges);
                        }
                        ranges.push(('-', '-'));
                    }
                }
            } else {
                low.add_to(&mut ranges);
            }
        }
        Ok(Atom::Class(ranges, negated, fold))
    }

    fn class_atom(&mut self) -> Result<ClassAtom, Unread> {
        let c = self.peek(0).ok_or(Unread::Invalid)?;
        self.at += 1;
        if c != '\\' {
            return Ok(ClassAtom::Char(c));
        }
        let e = self.peek(0).ok_or(Unread::Invalid)?;
        self.at += 1;
        if let Some((set, negated)) = escape_class(e) {
            return Ok(ClassAtom::Set(set, negated));
        }
        Ok(match e {
            'b' => ClassAtom::Char('\u{8}'),
            '-' => ClassAtom::Char('-'),
            'c' => match self.peek(0) {
                Some(x) if x.is_ascii_alphanumeric() || x == '_' => {
                    self.at += 1;
                    ClassAtom::Char(char::from(x as u8 % 32))
                }
                _ => {
                    // `\c` alone is a backslash, and the `c` is read next.
                    self.at -= 1;
                    ClassAtom::Char('\\')
                }
            },
            'k' if !self.named.is_empty() => return Err(Unread::Invalid),
            e => match self.char_escape(e) {
                Some(c) => ClassAtom::Char(c),
                None => ClassAtom::Set(Vec::new(), false),
            },
        })
    }

    /// After `\` outside a class.
    fn escape(&mut self, fold: bool) -> Result<Atom, Unread> {
        let e = self.peek(0).ok_or(Unread::Invalid)?;
        self.at += 1;
        if let Some((set, negated)) = escape_class(e) {
            return Ok(Atom::Class(set, negated, fold));
        }
        Ok(match e {
            'b' | 'B' => Atom::Boundary(e == 'b'),
            '1'..='9' => {
                let digits: String = std::iter::once(e)
                    .chain(
                        self.chars[self.at..]
                            .iter()
                            .copied()
                            .take_while(char::is_ascii_digit),
                    )
                    .collect();
                match digits.parse::<usize>() {
                    Ok(n) if n <= self.total_groups => {
                        self.at += digits.len() - 1;
                        if self.behind {
                            return Err(Unread::Unsupported);
                        }
                        Atom::Backref(n, fold)
                    }
                    _ => match self.char_escape(e) {
                        Some(c) => Atom::Char(c, fold),
                        None => Atom::Class(Vec::new(), false, false),
                    },
                }
            }
            'k' if !self.named.is_empty() => {
                if self.peek(0) != Some('<') {
                    return Err(Unread::Invalid);
                }
                let name: String = self.chars[self.at + 1..]
                    .iter()
                    .take_while(|c| **c != '>')
                    .collect();
                let Some(&(_, index)) = self.named.iter().find(|(n, _)| *n == name) else {
                    return Err(Unread::Invalid);
                };
                self.at += name.chars().count() + 2;
                if self.behind {
                    return Err(Unread::Unsupported);
                }
                Atom::Backref(index, fold)
            }
            'c' => match self.peek(0) {
                Some(x) if x.is_ascii_alphabetic() => {
                    self.at += 1;
                    Atom::Char(char::from(x as u8 % 32), fold)
                }
                _ => {
                    self.at -= 1;
                    Atom::Char('\\', fold)
                }
            },
            e => match self.char_escape(e) {
                Some(c) => Atom::Char(c, fold),
                // A lone surrogate: no subject here holds one.
                None => Atom::Class(Vec::new(), false, false),
            },
        })
    }

    /// A character escape after `\` (its first character `e` read): controls, `\x`, `\u`,
    /// legacy octal, else the character itself. `None` for a lone surrogate.
    fn char_escape(&mut self, e: char) -> Option<char> {
        let hex = |parser: &mut Self, n: usize| -> Option<u32> {
            let digits: String = parser.chars.get(parser.at..parser.at + n)?.iter().collect();
            let value = u32::from_str_radix(&digits, 16).ok()?;
            digits.chars().all(|c| c.is_ascii_hexdigit()).then(|| {
                parser.at += n;
                value
            })
        };
        Some(match e {
            't' => '\t',
            'n' => '\n',
            'v' => '\u{b}',
            'f' => '\u{c}',
            'r' => '\r',
            'x' => match hex(self, 2) {
                Some(v) => char::from_u32(v)?,
                None => 'x',
            },
            'u' => match hex(self, 4) {
                Some(v) => char::from_u32(v)?,
                None => 'u',
            },
            '0'..='7' => {
                // Legacy octal: up to three digits, at most 0o377.
                let mut value = e.to_digit(8)?;
                let most = if e <= '3' { 2 } else { 1 };
                for _ in 0..most {
                    match self.peek(0).and_then(|c| c.to_digit(8)) {
                        Some(d) => {
                            value = value * 8 + d;
                            self.at += 1;
                        }
                        None => break,
                    }
                }
                char::from_u32(value)?
            }
            e => e,
        })
    }
}

enum ClassAtom {
    Char(char),
    Set(Vec<(char, char)>, bool),
}

impl ClassAtom {
    fn add_to(self, ranges: &mut Vec<(char, char)>) {
        match self {
            ClassAtom::Char(c) => ranges.push((c, c)),
            ClassAtom::Set(set, false) => ranges.extend(set),
            // A negated set inside a class: its complement, as ranges.
            ClassAtom::Set(mut set, true) => {
                set.sort();
                let mut from = 0u32;
                for (low, high) in set {
                    if low as u32 > from {
                        if let (Some(a), Some(b)) =
                            (char::from_u32(from), char::from_u32(low as u32 - 1))
                        {
                            ranges.push((a, b));
                        }
                    }
                    from = from.max(high as u32 + 1);
                }
                if let Some(a) = char::from_u32(from) {
                    ranges.push((a, char::MAX));
                }
            }
        }
    }
}

/// The quantifier `{n}`, `{n,}` or `{n,m}` at `at` (its `{`): its bounds (each at most
/// [`MAX_REPEAT`]) and its width in characters; `None` when the text there is no quantifier.
fn braces(chars: &[char], at: usize) -> Option<(u32, Option<u32>, usize)> {
    let close = at + chars.get(at..)?.iter().position(|c| *c == '}')?;
    let inside: String = chars[at + 1..close].iter().collect();
    let number = |s: &str| -> Option<u32> {
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<u32>().unwrap_or(u32::MAX).min(MAX_REPEAT))
    };
    let (min, max) = match inside.split_once(',') {
        None => {
            let n = number(&inside)?;
            (n, Some(n))
        }
        Some((low, "")) => (number(low)?, None),
        Some((low, high)) => (number(low)?, Some(number(high)?)),
    };
    Some((min, max, close - at + 1))
}

/// The class `\d`, `\w`, `\s` (or a capital: negated) stands for, as ranges; `None` for
/// any other escape.
fn escape_class(e: char) -> Option<(Vec<(char, char)>, bool)> {
    let set = match e.to_ascii_lowercase() {
        'd' => vec![('0', '9')],
        'w' => vec![('a', 'z'), ('A', 'Z'), ('0', '9'), ('_', '_')],
        's' => vec![
            ('\t', '\r'),
            (' ', ' '),
            ('\u{a0}', '\u{a0}'),
            ('\u{1680}', '\u{1680}'),
            ('\u{2000}', '\u{200a}'),
            ('\u{2028}', '\u{2029}'),
            ('\u{202f}', '\u{202f}'),
            ('\u{205f}', '\u{205f}'),
            ('\u{3000}', '\u{3000}'),
            ('\u{feff}', '\u{feff}'),
        ],
        _ => return None,
    };
    Some((set, e.is_ascii_uppercase()))
}

struct State {
    steps: u32,
    /// Each capture's span, index 0 unused.
    caps: Vec<Option<(usize, usize)>>,
}

type Next<'a> = &'a mut dyn FnMut(usize, &mut State) -> bool;

/// Whether one of `alternatives` matches at `at`, then `next` accepts where it ends.
fn match_alternatives(
    alternatives: &[Vec<Item>],
    text: &[char],
    at: usize,
    state: &mut State,
    next: Next<'_>,
) -> bool {
    alternatives
        .iter()
        .any(|items| match_items(items, text, at, state, next))
}

fn match_items(
    items: &[Item],
    text: &[char],
    at: usize,
    state: &mut State,
    next: Next<'_>,
) -> bool {
    state.steps += 1;
    if state.steps > MAX_STEPS {
        return false;
    }
    let Some((item, rest)) = items.split_first() else {
        return next(at, state);
    };
    match_repeated(item, 0, rest, text, at, state, next)
}

/// `item` matched `count` times so far, ending at `at`: tries once more (greedy) while it
/// may, then the rest; a lazy item tries the rest first.
fn match_repeated(
    item: &Item,
    count: u32,
    rest: &[Item],
    text: &[char],
    at: usize,
    state: &mut State,
    next: Next<'_>,
) -> bool {
    if state.steps > MAX_STEPS {
        return false;
    }
    let may_stop = count >= item.min;
    if item.lazy && may_stop && match_items(rest, text, at, state, next) {
        return true;
    }
    if item.max.is_none_or(|max| count < max) {
        // Each repetition starts with the captures inside it cleared.
        let inner = match &item.atom {
            Atom::Group { inner, .. } => inner.clone(),
            _ => 0..0,
        };
        let saved: Vec<_> = state.caps[inner.clone()].to_vec();
        state.caps[inner.clone()].iter_mut().for_each(|c| *c = None);
        let mut after = |end: usize, state: &mut State| {
            // A repetition past the minimum that consumed nothing stops repeating.
            (end != at || count < item.min)
                && match_repeated(item, count + 1, rest, text, end, state, next)
        };
        if match_atom(&item.atom, text, at, state, &mut after) {
            return true;
        }
        state.caps[inner].copy_from_slice(&saved);
    }
    !item.lazy && may_stop && match_items(rest, text, at, state, next)
}

fn match_atom(atom: &Atom, text: &[char], at: usize, state: &mut State, next: Next<'_>) -> bool {
    let same = |a: char, b: char, fold: bool| a == b || (fold && a.eq_ignore_ascii_case(&b));
    let one = |ok: bool, state: &mut State, next: Next<'_>| ok && next(at + 1, state);
    match atom {
        Atom::Char(c, fold) => one(
            text.get(at).is_some_and(|t| same(*c, *t, *fold)),
            state,
            next,
        ),
        Atom::Any => one(
            text.get(at)
                .is_some_and(|c| !matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}')),
            state,
            next,
        ),
        Atom::Class(ranges, negated, fold) => one(
            text.get(at).is_some_and(|c| {
                let hit = |c: char| ranges.iter().any(|(l, h)| *l <= c && c <= *h);
                let found = hit(*c)
                    || (*fold && (hit(c.to_ascii_uppercase()) || hit(c.to_ascii_lowercase())));
                found != *negated
            }),
            state,
            next,
        ),
        Atom::Group {
            alternatives,
            capture,
            ..
        } => match capture {
            None => match_alternatives(alternatives, text, at, state, next),
            Some(index) => {
                let index = *index;
                match_alternatives(alternatives, text, at, state, &mut |end, state| {
                    let before = state.caps[index];
                    state.caps[index] = Some((at, end));
                    if next(end, state) {
                        return true;
                    }
                    state.caps[index] = before;
                    false
                })
            }
        },
        Atom::Look {
            alternatives,
            ahead,
            negated,
        } => {
            // Atomic: the first way the look-around matches is kept, with its captures.
            let saved = state.caps.clone();
            let mut found = None;
            let starts = if *ahead { at..at + 1 } else { 0..at + 1 };
            for start in starts {
                let matched =
                    match_alternatives(alternatives, text, start, state, &mut |end, state| {
                        if !*ahead && end != at {
                            return false;
                        }
                        found = Some(state.caps.clone());
                        true
                    });
                if matched || state.steps > MAX_STEPS {
                    break;
                }
            }
            state.caps.clone_from(&saved);
            match (found, *negated) {
                (Some(_), true) | (None, false) => false,
                (None, true) => next(at, state),
                (Some(caps), false) => {
                    state.caps = caps;
                    if next(at, state) {
                        return true;
                    }
                    state.caps = saved;
                    false
                }
            }
        }
        Atom::Backref(index, fold) => match state.caps.get(*index).copied().flatten() {
            None => next(at, state),
            Some((from, to)) => {
                let len = to - from;
                let matches = at + len <= text.len()
                    && (0..len).all(|i| same(text[from + i], text[at + i], *fold));
                matches && next(at + len, state)
            }
        },
        Atom::Start => at == 0 && next(at, state),
        Atom::Boundary(wanted) => {
            let word = |c: Option<&char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || *c == '_');
            let before = at.checked_sub(1).and_then(|i| text.get(i));
            (word(before) != word(text.get(at))) == *wanted && next(at, state)
        }
        Atom::End => at == text.len() && next(at, state),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measured_on_2_1_337() {
        // `edges-hooks-session-start-lookaround-backrefs`: these ran on a new session…
        for runs in [
            r"(?=start)s.*",
            r"(?!resume)start",
            r"start(?=up)",
            r"(t)ar\1",
            r"(?<n>t)ar\k<n>",
            r"(?<=s)tartup",
            r"(x)?\1startup",
            r"(?=(s))\1tartup",
            r"(?!(x))\1startup",
            r"^(?!.*resume).*$",
            r"(?=.*u)(?=.*p)^s",
            r"x*(?=startup)",
            r"(?:(?=resume)|s)tartup",
            r"\x73tartup",
            r"\u0073tartup",
            r"(?i:S)tartup",
            r"(s|st)\1?tartup",
            r"(?=(a+)+$)|startup",
            r"\2(s)(t)",
            r"(?<!^)tartup",
            r"\cStartup|startup",
            r"(?:)startup",
            r"s(?=t)(?=ta)(?!tx)tartup",
            r"(?<x>s)\k<x>?tartup",
            r"[\b]|startup",
            r"(?=t)",
        ] {
            assert_eq!(test(runs, "startup"), Test::Matches, "{runs}");
        }
        // …these did not: no match…
        for never in [
            r"(?!startup)s.*",
            r"start(?!up)",
            r"(u)p\1",
            r"(?<!s)tartup",
            r"\1startup",
            r"(?!)",
            r"\p{L}tartup",
            r"\k<x>startup",
            r"((s)|x)+\2tartup",
            r"\8startup",
            r"\12startup",
            r"(s)\01tartup",
        ] {
            assert_eq!(test(never, "startup"), Test::NoMatch, "{never}");
        }
        // …and JavaScript rejects these.
        for invalid in [
            r"(?i)startup",
            r"*startup",
            r"(?=startup",
            r"(?<a>s)\k<b>tartup",
            r"a{2,1}|startup",
            r"[z-a]|startup",
            r"[",
            r"^*",
            r"(?<=s)*x",
        ] {
            assert_eq!(test(invalid, "startup"), Test::Invalid, "{invalid}");
        }
        // Duplicate names: not read.
        assert_eq!(test(r"(?<a>s)(?<a>t)", "startup"), Test::Undecided);
    }

    #[test]
    fn bounded() {
        let hostile = format!("{}!", "(a*)*".repeat(15));
        assert_eq!(
            test(&hostile, "aaaaaaaaaaaaaaaaaaaaaaaaaaaa"),
            Test::Undecided
        );
        let deep = format!("{}startup{}", "(".repeat(5_000), ")".repeat(5_000));
        assert_eq!(test(&deep, "startup"), Test::Undecided);
        let nested = format!("{}s{}", "(?:".repeat(20), ")".repeat(20));
        assert_eq!(test(&nested, "startup"), Test::Undecided);
        let looks = format!("{}startup", "(?=(?:a|a)*(?:a|a)*(?:a|a)*b)?".repeat(40));
        let _ = test(
            &looks,
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        );
        let backrefs = format!("{}x", r"(a*)\1".repeat(30));
        assert_eq!(
            test(&backrefs, "aaaaaaaaaaaaaaaaaaaaaaaaaaaa"),
            Test::Undecided
        );
        assert_eq!(
            test(&"a".repeat(MAX_PATTERN_CHARS + 1), "a"),
            Test::Undecided
        );
    }
}
