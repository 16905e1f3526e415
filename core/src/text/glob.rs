//! Glob patterns for rule `paths` and `claudeMdExcludes`, without a regex engine.

/// Brace expansion beyond this many patterns is refused: a pattern such as
/// `{a,b}{a,b}{a,b}…` doubles with every group, and the matcher tries each expansion.
const MAX_EXPANSIONS: usize = 1024;
/// Longest pattern compiled, in characters: with the expansion cap this bounds what one
/// glob costs to compile and to match.
const MAX_PATTERN_CHARS: usize = 4096;
/// Most characters brace expansion may copy in all (each step copies one pattern): 1,024
/// expansions that each walk through a thousand more groups would copy billions.
const MAX_EXPANSION_WORK: usize = 1 << 24;

/// A compiled glob: `*` (any run within a segment), `**` (any number of segments), `?`,
/// `[abc]`, `[a-z]`, `[!x]`, and `{a,b}` brace alternatives (nesting allowed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Glob {
    pattern: String,
    /// The brace expansions, each split into segments, for whole-path matching.
    whole: Vec<Vec<Segment>>,
    /// The same expansions rewritten for gitignore-style relative matching.
    relative: Vec<RelativePattern>,
}

impl Glob {
    /// Compiles `pattern`.
    ///
    /// # Errors
    /// An unclosed `[` or `{`, or an empty pattern, with a message for a person.
    pub(crate) fn new(pattern: &str) -> Result<Glob, String> {
        if pattern.is_empty() {
            return Err("empty pattern".to_owned());
        }
        if pattern.chars().count() > MAX_PATTERN_CHARS {
            return Err(format!(
                "pattern longer than {MAX_PATTERN_CHARS} characters"
            ));
        }
        let expansions = expand_braces(pattern)?;
        let whole = expansions
            .iter()
            .map(|p| compile(p))
            .collect::<Result<_, _>>()?;
        let relative = expansions
            .iter()
            .map(|p| RelativePattern::new(p))
            .collect::<Result<_, _>>()?;
        Ok(Glob {
            pattern: pattern.to_owned(),
            whole,
            relative,
        })
    }

    /// True when the whole of `path` matches (segments split on `/`).
    pub(crate) fn matches(&self, path: &str) -> bool {
        let segments = split_path(path);
        self.whole
            .iter()
            .any(|pattern| match_segments(pattern, &segments))
    }

    /// Gitignore-style match of a path relative to a base folder: a pattern without a `/`
    /// (other than a trailing one) matches the file name at any depth; a leading `/` anchors.
    pub(crate) fn matches_relative(&self, relative: &str) -> bool {
        let mut relative = relative;
        while let Some(rest) = relative.strip_prefix("./") {
            relative = rest;
        }
        let segments = split_path(relative);
        self.relative
            .iter()
            .any(|pattern| pattern.matches(&segments))
    }

    /// Text that every path [`Glob::matches_relative`] accepts contains, one string per brace
    /// expansion: the literal characters that end its last segment (`src/**/*.ts` gives
    /// `.ts`), since that segment must match a whole segment of the path. `None` when an
    /// expansion ends in a wildcard or `**`, so nothing is required. A test that rules most
    /// of a project's files out before the match itself (which splits the path) runs.
    pub(crate) fn required_tails(&self) -> Option<Vec<String>> {
        self.relative
            .iter()
            .map(|pattern| match pattern.segments.last()? {
                Segment::GlobStar => None,
                Segment::Tokens(tokens) => {
                    let tail: Vec<char> = tokens
                        .iter()
                        .rev()
                        .map_while(|token| match token {
                            Token::Literal(c) => Some(*c),
                            _ => None,
                        })
                        .collect();
                    (!tail.is_empty()).then(|| tail.into_iter().rev().collect())
                }
            })
            .collect()
    }

    /// Text that every path [`Glob::matches_relative`] accepts starts with, one string per
    /// brace expansion: its leading segments that are all literal characters, joined with
    /// `/` (and a `/` after them when the pattern goes on: `src/m5/**/*.ts` gives `src/m5/`),
    /// since each must match a whole segment of the path from its start. `None` when an
    /// expansion starts with a wildcard, or matches at any depth (no `/` in it). Lets a
    /// check over many files look only at those under the lead ([`Glob::required_tails`]
    /// rules them out by their end).
    pub(crate) fn required_leads(&self) -> Option<Vec<String>> {
        self.relative
            .iter()
            .map(|pattern| {
                let mut lead = String::new();
                let mut literal = 0;
                for segment in &pattern.segments {
                    let Segment::Tokens(tokens) = segment else {
                        break;
                    };
                    if tokens.is_empty() || !tokens.iter().all(|t| matches!(t, Token::Literal(_))) {
                        break;
                    }
                    if literal > 0 {
                        lead.push('/');
                    }
                    lead.extend(tokens.iter().filter_map(|token| match token {
                        Token::Literal(c) => Some(*c),
                        _ => None,
                    }));
                    literal += 1;
                }
                if literal == 0 {
                    return None;
                }
                if literal < pattern.segments.len() {
                    lead.push('/');
                }
                Some(lead)
            })
            .collect()
    }
}

/// One brace expansion in its gitignore reading.
#[derive(Debug, Clone, PartialEq, Eq)]
struct RelativePattern {
    segments: Vec<Segment>,
    /// A trailing `/`: the pattern names a folder, so only the path's folders can match.
    dir_only: bool,
}

impl RelativePattern {
    fn new(pattern: &str) -> Result<RelativePattern, String> {
        let mut p = pattern;
        while let Some(rest) = p.strip_prefix("./") {
            p = rest;
        }
        let dir_only = p.len() > 1 && p.ends_with('/');
        let p = if dir_only { p.trim_end_matches('/') } else { p };
        let segments = if let Some(anchored) = p.strip_prefix('/') {
            compile(anchored)?
        } else if p.contains('/') {
            // gitignore anchors a pattern with a slash in the middle to the base folder.
            compile(p)?
        } else {
            let mut segments = vec![Segment::GlobStar];
            segments.extend(compile(p)?);
            segments
        };
        Ok(RelativePattern { segments, dir_only })
    }

    /// As gitignore does, a pattern that matches a folder matches everything inside it, so
    /// each ancestor folder of the path is tried as well as the path itself.
    ///
    /// One pass gives every prefix at once: `reach[len]` says whether the pattern matches
    /// the first `len` segments, so a 2,000-segment path costs one match, not 2,000.
    fn matches(&self, path: &[Vec<char>]) -> bool {
        let reach = reach_segments(&self.segments, path);
        (!self.dir_only && reach[path.len()]) || reach[1..path.len().max(1)].contains(&true)
    }
}

/// One `/`-separated piece of a pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Segment {
    /// `**` standing alone: zero or more whole path segments.
    GlobStar,
    /// Anything else, matched within one path segment.
    Tokens(Vec<Token>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Literal(char),
    /// `*`, and `**` inside a segment: any run of characters.
    Star,
    /// `?`: one character.
    One,
    /// `[…]`: one character in (or, negated, not in) the ranges.
    Class {
        negated: bool,
        ranges: Vec<(char, char)>,
    },
}

impl Token {
    fn matches_one(&self, c: char) -> bool {
        match self {
            Token::Literal(l) => *l == c,
            Token::Star => false,
            Token::One => true,
            Token::Class { negated, ranges } => {
                ranges.iter().any(|&(lo, hi)| lo <= c && c <= hi) != *negated
            }
        }
    }
}

/// A path as segments of chars; an empty path is one empty segment.
fn split_path(path: &str) -> Vec<Vec<char>> {
    path.split('/').map(|s| s.chars().collect()).collect()
}

/// Compiles one brace-free pattern into segments.
fn compile(pattern: &str) -> Result<Vec<Segment>, String> {
    pattern
        .split('/')
        .map(|segment| {
            if segment == "**" {
                Ok(Segment::GlobStar)
            } else {
                compile_segment(segment).map(Segment::Tokens)
            }
        })
        .collect()
}

fn compile_segment(segment: &str) -> Result<Vec<Token>, String> {
    let chars: Vec<char> = segment.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' if i + 1 < chars.len() => {
                tokens.push(Token::Literal(chars[i + 1]));
                i += 2;
            }
            '*' => {
                // Consecutive stars mean the same as one inside a segment.
                if tokens.last() != Some(&Token::Star) {
                    tokens.push(Token::Star);
                }
                i += 1;
            }
            '?' => {
                tokens.push(Token::One);
                i += 1;
            }
            '[' => {
                let (token, end) = parse_class(&chars, i).ok_or("unclosed `[`")?;
                tokens.push(token);
                i = end;
            }
            c => {
                tokens.push(Token::Literal(c));
                i += 1;
            }
        }
    }
    Ok(tokens)
}

/// Parses the class opening at `chars[open]`; returns it and the index after its `]`, or
/// `None` when it never closes.
fn parse_class(chars: &[char], open: usize) -> Option<(Token, usize)> {
    let mut i = open + 1;
    let negated = matches!(chars.get(i), Some('!' | '^'));
    if negated {
        i += 1;
    }
    let mut ranges = Vec::new();
    let mut first = true;
    loop {
        let mut c = *chars.get(i)?;
        // A `]` right after the opening bracket is a member, as POSIX and gitignore read it.
        if c == ']' && !first {
            return Some((Token::Class { negated, ranges }, i + 1));
        }
        first = false;
        if c == '\\' {
            i += 1;
            c = *chars.get(i)?;
        }
        i += 1;
        if chars.get(i) == Some(&'-') && chars.get(i + 1).is_some_and(|&n| n != ']') {
            let mut hi = chars[i + 1];
            i += 2;
            if hi == '\\' {
                hi = *chars.get(i)?;
                i += 1;
            }
            ranges.push((c, hi));
        } else {
            ranges.push((c, c));
        }
    }
}

/// Index after the `]` closing the class at `open`, if it closes; brace scanning skips
/// classes so that `[{]` is not a brace.
fn class_end(chars: &[char], open: usize) -> Option<usize> {
    parse_class(chars, open).map(|(_, end)| end)
}

/// Expands `{a,b}` alternatives, nested ones included, into brace-free patterns.
fn expand_braces(pattern: &str) -> Result<Vec<String>, String> {
    let mut done = Vec::new();
    let mut pending = vec![pattern.to_owned()];
    // A work list rather than recursion, so that deeply nested braces cannot exhaust the
    // stack (the browser's WebAssembly stack is small).
    let mut work = 0usize;
    while let Some(p) = pending.pop() {
        let chars: Vec<char> = p.chars().collect();
        work += chars.len() + 1;
        if work > MAX_EXPANSION_WORK {
            return Err("braces too complex to expand".to_owned());
        }
        match find_group(&chars)? {
            None => done.push(p),
            Some(group) => {
                let prefix: String = chars[..group.open].iter().collect();
                let suffix: String = chars[group.close + 1..].iter().collect();
                // Pushed in reverse so that the expansions come out left to right.
                for alternative in group.alternatives.iter().rev() {
                    let middle: String = chars[alternative.clone()].iter().collect();
                    pending.push(format!("{prefix}{middle}{suffix}"));
                }
            }
        }
        // Every pending pattern yields at least one expansion, so the total is already
        // known to exceed the cap.
        if done.len() + pending.len() > MAX_EXPANSIONS {
            return Err(format!(
                "braces expand to more than {MAX_EXPANSIONS} patterns"
            ));
        }
    }
    Ok(done)
}

/// The first top-level brace group of a pattern.
struct Group {
    open: usize,
    close: usize,
    alternatives: Vec<std::ops::Range<usize>>,
}

fn find_group(chars: &[char]) -> Result<Option<Group>, String> {
    let mut i = 0;
    let mut group: Option<(usize, usize, Vec<std::ops::Range<usize>>)> = None;
    while i < chars.len() {
        match chars[i] {
            '\\' => {
                i += 2;
                continue;
            }
            '[' => {
                if let Some(end) = class_end(chars, i) {
                    i = end;
                    continue;
                }
            }
            '{' => match &mut group {
                None => group = Some((i, 1, Vec::new())),
                Some((_, depth, _)) => *depth += 1,
            },
            ',' => {
                if let Some((open, 1, alternatives)) = &mut group {
                    let start = alternatives.last().map_or(*open + 1, |r| r.end + 1);
                    alternatives.push(start..i);
                }
            }
            '}' => {
                if let Some((open, depth, alternatives)) = &mut group {
                    *depth -= 1;
                    if *depth == 0 {
                        let start = alternatives.last().map_or(*open + 1, |r| r.end + 1);
                        alternatives.push(start..i);
                        return Ok(Some(Group {
                            open: *open,
                            close: i,
                            alternatives: std::mem::take(alternatives),
                        }));
                    }
                }
                // A `}` with no open group is an ordinary character.
            }
            _ => {}
        }
        i += 1;
    }
    match group {
        Some(_) => Err("unclosed `{`".to_owned()),
        None => Ok(None),
    }
}

/// Whole-path match by dynamic programming over segments: `reach[j]` says whether the
/// pattern so far can consume the first `j` path segments. No backtracking, so `**/**/…`
/// cannot blow up.
fn match_segments(pattern: &[Segment], path: &[Vec<char>]) -> bool {
    reach_segments(pattern, path)[path.len()]
}

/// For each `j`, whether the whole pattern can consume exactly the first `j` path segments.
fn reach_segments(pattern: &[Segment], path: &[Vec<char>]) -> Vec<bool> {
    let mut reach = vec![false; path.len() + 1];
    reach[0] = true;
    for segment in pattern {
        let mut next = vec![false; path.len() + 1];
        match segment {
            Segment::GlobStar => {
                let mut any = false;
                for j in 0..=path.len() {
                    any |= reach[j];
                    next[j] = any;
                }
            }
            Segment::Tokens(tokens) => {
                for j in 0..path.len() {
                    next[j + 1] = reach[j] && match_tokens(tokens, &path[j]);
                }
            }
        }
        reach = next;
        if !reach.contains(&true) {
            break;
        }
    }
    reach
}

/// Matches one segment. An empty path segment (the root of an absolute path, or a doubled
/// `/`) is matched only by an empty pattern segment, never by `*`.
fn match_tokens(tokens: &[Token], text: &[char]) -> bool {
    if text.is_empty() {
        return tokens.is_empty();
    }
    let (mut t, mut s) = (0, 0);
    // The last `*` seen and the text position it currently stands for; single-star
    // backtracking is enough because a star never has to give back across another star.
    let mut star: Option<(usize, usize)> = None;
    while s < text.len() {
        match tokens.get(t) {
            Some(Token::Star) => {
                star = Some((t, s));
                t += 1;
                continue;
            }
            Some(token) if token.matches_one(text[s]) => {
                t += 1;
                s += 1;
                continue;
            }
            _ => {}
        }
        match star {
            Some((star_t, star_s)) => {
                t = star_t + 1;
                s = star_s + 1;
                star = Some((star_t, star_s + 1));
            }
            None => return false,
        }
    }
    tokens[t..].iter().all(|token| *token == Token::Star)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks `matches` of `pattern` against `path`.
    fn check(pattern: &str, path: &str, expected: bool) {
        let glob = Glob::new(pattern).expect("a valid test pattern");
        assert_eq!(glob.matches(path), expected, "{pattern:?} against {path:?}");
    }

    /// Checks `matches_relative` of `pattern` against `path`.
    fn check_relative(pattern: &str, path: &str, expected: bool) {
        let glob = Glob::new(pattern).expect("a valid test pattern");
        assert_eq!(
            glob.matches_relative(path),
            expected,
            "{pattern:?} against relative {path:?}"
        );
    }

    /// Checks the error `Glob::new` gives.
    fn check_error(pattern: &str, expected: &str) {
        assert_eq!(
            Glob::new(pattern).err().as_deref(),
            Some(expected),
            "{pattern:?}"
        );
    }

    #[test]
    fn stars() {
        check("*", "a", true);
        check("*", "", false);
        check("*", "a/b", false);
        check("*.md", "CLAUDE.md", true);
        check("*.md", "a/CLAUDE.md", false);
        check("a*b", "ab", true);
        check("a*b", "axxb", true);
        check("a*b", "axxbc", false);
        check("a*b*c", "abxbc", true);
        check("*a*", "bab", true);
        check("a/*/c", "a/b/c", true);
        check("a/*/c", "a//c", false);
        check("a/*/c", "a/b/d/c", false);
        check("a**b", "axb", true);
        check("a**b", "ax/yb", false);
        check("**.md", "a.md", true);
        check("**.md", "x/a.md", false);
        check("*", ".hidden", true);
    }

    #[test]
    fn globstars() {
        check("**", "a", true);
        check("**", "a/b/c", true);
        check("**/x.md", "x.md", true);
        check("**/x.md", "a/b/x.md", true);
        check("**/x.md", "a/b/y.md", false);
        check("a/**/b", "a/b", true);
        check("a/**/b", "a/x/y/b", true);
        check("a/**/b", "a/x/y/c", false);
        check("a/**", "a/x/y", true);
        check("**/**/**/x", "x", true);
        check("**/x/CLAUDE.md", "/home/a/x/CLAUDE.md", true);
        check("**/x/CLAUDE.md", "/home/a/y/CLAUDE.md", false);
        check("/home/*/x/CLAUDE.md", "/home/a/x/CLAUDE.md", true);
        check("/home/*/x/CLAUDE.md", "/home/a/b/x/CLAUDE.md", false);
        check("/home/**/CLAUDE.md", "/home/CLAUDE.md", true);
        check("x/CLAUDE.md", "/home/x/CLAUDE.md", false);
        check("*/x", "/x", false);
    }

    #[test]
    fn single_characters_and_classes() {
        check("a?c", "abc", true);
        check("a?c", "ac", false);
        check("a?c", "a/c", false);
        check("[abc].md", "b.md", true);
        check("[abc].md", "d.md", false);
        check("[a-c].md", "b.md", true);
        check("[a-c].md", "B.md", false);
        check("[!a-c].md", "d.md", true);
        check("[!a-c].md", "a.md", false);
        check("[^a].md", "b.md", true);
        check("[]a].md", "].md", true);
        check("[!]].md", "].md", false);
        check("[a-].md", "-.md", true);
        check("[{]", "{", true);
        check("[가-나]", "각", true);
        check("\\*", "*", true);
        check("\\*", "a", false);
        check("a\\", "a\\", true);
    }

    #[test]
    fn braces() {
        check("*.{md,txt}", "a.txt", true);
        check("*.{md,txt}", "a.rs", false);
        check("{a,b/c}/x", "b/c/x", true);
        check("{a,{b,c}d}", "cd", true);
        check("{a,{b,c}d}", "c", false);
        check("{,a}x", "x", true);
        check("{a}", "a", true);
        check("{}x", "x", true);
        check("a}", "a}", true);
        check("\\{a,b}", "{a,b}", true);
        check("\\{a,b}", "a", false);
        check("src/**/*.{ts,tsx}", "src/a/b.tsx", true);
        check("{a,b}{c,d}{e,f}", "bde", true);
    }

    #[test]
    fn relative_gitignore_style() {
        check_relative("*.ts", "a.ts", true);
        check_relative("*.ts", "src/deep/a.ts", true);
        check_relative("*.ts", "a.tsx", false);
        check_relative("src/*.ts", "src/a.ts", true);
        check_relative("src/*.ts", "lib/src/a.ts", false);
        check_relative("src/**/*.ts", "src/a/b/c.ts", true);
        check_relative("src/**/*.ts", "src/c.ts", true);
        check_relative("/a.ts", "a.ts", true);
        check_relative("/a.ts", "src/a.ts", false);
        check_relative("./src/*.ts", "src/a.ts", true);
        check_relative("././src/*.ts", "./src/a.ts", true);
        check_relative("**/test/**", "a/test/b.ts", true);
        check_relative("docs/", "docs/a.md", true);
        check_relative("docs/", "x/docs/a.md", true);
        check_relative("docs/", "docs", false);
        check_relative("docs/", "docsy/a.md", false);
        check_relative("src/api/", "src/api/v1/x.ts", true);
        check_relative("src/api/", "lib/src/api/x.ts", false);
        check_relative("docs", "docs/a.md", true);
        check_relative("docs", "x/docs/deep/a.md", true);
        check_relative("src/api", "src/api/x.ts", true);
        check_relative("{src,lib}/*.ts", "lib/a.ts", true);
        check_relative("{*.md,src/}", "x/y.md", true);
        check_relative("{*.md,src/}", "src/y.ts", true);
        check_relative("{*.md,src/}", "x/src.ts", false);
        check_relative("/", "a", false);
    }

    #[test]
    fn required_tails_are_in_every_match() {
        let tails = |p: &str| Glob::new(p).unwrap().required_tails();
        assert_eq!(tails("src/**/*.ts"), Some(vec![".ts".to_owned()]));
        assert_eq!(
            tails("*.{ts,tsx}"),
            Some(vec![".ts".to_owned(), ".tsx".to_owned()])
        );
        assert_eq!(tails("docs/a\\*"), Some(vec!["a*".to_owned()]));
        assert_eq!(tails("src/**"), None);
        assert_eq!(tails("{*.md,src/*}"), None);
        assert_eq!(tails("file-[0-9]"), None);
        // A folder that matches takes its files along: the tail is in the path, not its end.
        let glob = Glob::new("*.ts").unwrap();
        assert!(glob.matches_relative("lib/x.ts/index.js"));
        assert!("lib/x.ts/index.js".contains(".ts"));
    }

    #[test]
    fn required_leads_start_every_match() {
        let leads = |p: &str| Glob::new(p).unwrap().required_leads();
        assert_eq!(leads("src/m5/**/*.ts"), Some(vec!["src/m5/".to_owned()]));
        assert_eq!(leads("/docs/a.md"), Some(vec!["docs/a.md".to_owned()]));
        assert_eq!(
            leads("{a,b/c}/*.md"),
            Some(vec!["a/".to_owned(), "b/c/".to_owned()])
        );
        assert_eq!(leads("*.ts"), None);
        assert_eq!(leads("a.ts"), None, "no slash: any depth");
        assert_eq!(leads("**/x/*.ts"), None);
        assert_eq!(leads("s*c/x.ts"), None);
        assert_eq!(leads("{src/*,*.md}"), None);
        // A folder that matches takes its files along: still under the lead.
        let glob = Glob::new("src/m5").unwrap();
        assert!(glob.matches_relative("src/m5/deep/x.js"));
        assert!(!glob.matches_relative("src/m50/x.js"));
    }

    #[test]
    fn errors() {
        check_error("", "empty pattern");
        check_error(&"a".repeat(4097), "pattern longer than 4096 characters");
        assert!(Glob::new(&"a".repeat(4096)).is_ok());
        // 1,024 expansions, each then expanded through 1,300 one-choice groups.
        check_error(
            &format!("{}{}", "{a,b}".repeat(10), "{c}".repeat(1300)),
            "braces too complex to expand",
        );
        check_error("[abc", "unclosed `[`");
        check_error("[", "unclosed `[`");
        check_error("[!]", "unclosed `[`");
        check_error("a/[b/c]", "unclosed `[`");
        check_error("{a,b", "unclosed `{`");
        check_error("{a,{b}", "unclosed `{`");
        check_error("}{", "unclosed `{`");
        check_error(
            &"{a,b}".repeat(11),
            "braces expand to more than 1024 patterns",
        );
        assert!(Glob::new(&"{a,b}".repeat(10)).is_ok());
    }

    #[test]
    fn hostile_patterns_finish() {
        let start = std::time::Instant::now();
        let nested = format!("{}a{}", "{".repeat(2000), "}".repeat(2000));
        check(&nested, "a", true);
        // Relative matching tries every folder of the path: one pass, not one per folder.
        let deep = "a/".repeat(2000) + "b";
        check_relative(&("**/".repeat(1300) + "c"), &deep, false);
        check_relative(&("**/".repeat(1300) + "a"), &deep, true);
        assert!(start.elapsed().as_secs() < 30, "{:?}", start.elapsed());
        let stars = "*a".repeat(200);
        check(&stars, &"a".repeat(150), false);
        let globstars = "**/".repeat(100) + "x";
        check(&globstars, &"a/".repeat(100), false);
    }
}
