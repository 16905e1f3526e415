//! Entry points for the fuzz targets in `fuzz/` and the hostile-input tests: each runs one
//! private parser over arbitrary input, the way discovery does, and returns something small
//! to compare. Nothing here is part of the crate's interface; the parsers stay private.

use crate::text::{frontmatter, glob, measure, memory_index, references, settings};

/// Parses a file's frontmatter as discovery does: the block, every field as display text,
/// and `paths` as globs. Returns the number of fields, or `None` without a block.
pub fn frontmatter(text: &str) -> Option<usize> {
    let fm = frontmatter::parse(text)?;
    let fields = fm.display_fields();
    if let Some(value) = fm.value("paths") {
        for glob in frontmatter::parse_paths(value) {
            let _ = glob::Glob::new(&glob);
        }
    }
    let _ = (fm.string("name"), fm.boolean("user-invocable"));
    Some(fields.len())
}

/// The error a YAML text gives (a bound or a YAML error), `None` when it parses.
pub fn yaml_error(yaml: &str) -> Option<String> {
    match frontmatter::parse_value(yaml) {
        Ok(_) => None,
        Err(frontmatter::ParseError::Yaml(e) | frontmatter::ParseError::Bound(e)) => Some(e),
    }
}

/// Scans a Markdown text for imports and links, and measures it as loaded and as sent.
/// Returns the number of references.
pub fn references(text: &str) -> usize {
    let found = references::scan(text);
    for reference in &found {
        // Every span must be a slice of the text on character boundaries.
        assert!(
            text.get(reference.span.clone()).is_some(),
            "a reference span is not a slice of the text"
        );
        let _ = references::has_extension(&reference.target);
    }
    let sent = measure::as_sent(text);
    let _ = (measure::measure(text), measure::measure(&sent));
    found.len()
}

/// Applies the `MEMORY.md` caps of every release's rules; returns the loaded length in bytes
/// under the current ones.
pub fn memory_index(text: &str) -> usize {
    use memory_index::{Caps, WarningStyle};
    let mut loaded = 0;
    for warning in [
        WarningStyle::FirstLines,
        WarningStyle::PartLoaded,
        WarningStyle::Detailed,
    ] {
        for (size_cap, strip_first, drop_controls) in [
            (false, false, false),
            (true, false, true),
            (true, true, true),
        ] {
            let cut = memory_index::cut_with(
                text,
                Caps {
                    size_cap,
                    strip_first,
                    strip_comments: strip_first,
                    warning,
                    drop_controls,
                },
            );
            let _ = memory_index::near_limit_warning(&cut.truncation);
            let _ = cut.as_sent();
            loaded = cut.loaded.len();
        }
    }
    loaded
}

/// Parses a settings file and `~/.claude.json`'s approval key; returns whether the settings
/// parsed.
pub fn settings(text: &str) -> bool {
    let _ = settings::external_includes_approved(text, "/home/a/p");
    match settings::parse(text) {
        Ok((parsed, _warnings)) => {
            for pattern in &parsed.claude_md_excludes {
                let _ = glob::Glob::new(pattern);
            }
            true
        }
        Err(_) => false,
    }
}

/// Compiles `pattern` and matches it against `path` whole and relative; `None` when the
/// pattern does not compile.
pub fn glob(pattern: &str, path: &str) -> Option<(bool, bool)> {
    let compiled = glob::Glob::new(pattern).ok()?;
    Some((compiled.matches(path), compiled.matches_relative(path)))
}

/// A source with nothing in it: every generated file is loaded already.
struct Nothing;

impl crate::ContentSource for Nothing {
    fn read(&mut self, _: &crate::VPath) -> Result<Vec<u8>, String> {
        Err("not in the generated tree".to_owned())
    }
}

/// Where the generated tree's files go: every source discovery reads, so that a few bytes
/// reach the rules that matter.
const PIPELINE_PATHS: [&str; 16] = [
    "/home/a/.claude/CLAUDE.md",
    "/home/a/.claude/settings.json",
    "/home/a/.claude/rules/r.md",
    "/home/a/.claude/skills/s/SKILL.md",
    "/home/a/.claude/agents/x.md",
    "/home/a/.claude/agent-memory/x/MEMORY.md",
    "/home/a/.claude/projects/-home-a-p/memory/MEMORY.md",
    "/home/a/.claude/projects/-home-a-p/memory/t.md",
    "/home/a/p/CLAUDE.md",
    "/home/a/p/CLAUDE.local.md",
    "/home/a/p/.claude/settings.json",
    "/home/a/p/.claude/rules/r.md",
    "/home/a/p/.claude/skills/d/SKILL.md",
    "/home/a/p/src/CLAUDE.md",
    "/home/a/p/src/a.ts",
    "/home/a/p/docs/x.md",
];

/// Runs the whole pipeline on a tree generated from `data`: analyse, sanitize, make a link,
/// read it back, analyse again. `data` is split on `0xff` bytes; each piece's first byte
/// picks a path (as the 16 sources above, or a name made of the piece when its top bit is
/// set) and the rest is the file's bytes.
///
/// # Errors
/// A sentence saying which promise broke: the link does not open, its snapshot asks for
/// contents, or its report differs from the sanitized snapshot's (exactly), or (when the
/// sanitizer gave no warning) from the original's (as [`crate::Sanitized::verify`] compares).
pub fn pipeline(data: &[u8]) -> Result<(), String> {
    use crate::{analyze, analyze_with, sanitize, share, Contents, Input, SanitizeOptions};
    use crate::{FileEntry, Step, Tree, VPath};

    let mut tree = Tree::new();
    tree.add_mount(VPath::new("/home/a").map_err(|e| e.to_string())?);
    for piece in data.split(|&b| b == 0xff).take(64) {
        let Some((&pick, bytes)) = piece.split_first() else {
            continue;
        };
        let path = if pick & 0x80 == 0 {
            PIPELINE_PATHS[usize::from(pick) % PIPELINE_PATHS.len()].to_owned()
        } else {
            // A generated name below the project, from the first bytes of the piece.
            let name: String = String::from_utf8_lossy(&bytes[..bytes.len().min(12)])
                .chars()
                .filter(|c| !c.is_control())
                .collect();
            format!("/home/a/p/{}/{name}.md", pick & 0x0f)
        };
        let Ok(path) = VPath::new(&path) else {
            continue;
        };
        tree.insert(
            path,
            FileEntry {
                size: bytes.len() as u64,
                contents: Contents::Loaded(bytes.to_vec()),
                modified: None,
            },
        );
    }
    let input = Input {
        home: "/home/a".to_owned(),
        project: Some("/home/a/p".to_owned()),
        today: Some("2026-11-30".to_owned()),
        ..Input::default()
    };
    let report = analyze_with(&mut tree, &input, &mut Nothing).map_err(|e| e.to_string())?;
    for options in [
        SanitizeOptions::default(),
        SanitizeOptions {
            keep_text: true,
            keep_file_names: true,
            keep_user_name: true,
            other_projects: true,
        },
    ] {
        let shared = sanitize(&tree, &input, &report, &options);
        let link = share::encode_link(&shared, "2026-11-30T09:12:00Z");
        let opened = match share::decode_link(&link) {
            // A snapshot too costly to analyse is refused on opening; its sender must have
            // been told so before sending.
            Err(share::ShareError::Refused(why)) => {
                if share::check_shareable(&shared).is_ok() {
                    return Err(format!(
                        "the link is refused, the sender was not told: {why}"
                    ));
                }
                continue;
            }
            other => other.map_err(|e| format!("the link: {e}"))?,
        };
        let of_link = match analyze(&opened.tree, &opened.input) {
            Ok(Step::Done(report)) => report,
            Ok(Step::Needs(needs)) => {
                return Err(format!("the link's snapshot asks for {needs:?}"))
            }
            Err(e) => return Err(format!("the link's snapshot: {e}")),
        };
        let of_shared = match analyze(&shared.tree, &shared.input) {
            Ok(Step::Done(report)) => report,
            other => return Err(format!("the sanitized snapshot: {other:?}")),
        };
        if of_link != of_shared {
            return Err("the link's report differs from the sanitized snapshot's".to_owned());
        }
        if shared.warnings.is_empty() {
            let differences = shared.verify(&report);
            if !differences.is_empty() {
                return Err(format!(
                    "the shared report differs from the original's: {differences:?}"
                ));
            }
        }
        let zip = share::to_zip(&shared, "2026-11-30T09:12:00Z");
        let from_zip = share::open_share_zip(&zip).map_err(|e| format!("the zip: {e}"))?;
        if from_zip.tree.files().count() != opened.tree.files().count() {
            return Err("the zip and the link hold different files".to_owned());
        }
    }
    Ok(())
}
