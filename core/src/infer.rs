//! Inferring the home path, the project path and the OS from a dropped snapshot.
//!
//! A browser drop hands over folder names and paths relative to the dropped folder, never
//! the absolute paths they came from. The analysis needs absolute paths, so the page guesses
//! them from what the snapshot itself says: the folder names under `<config>/projects/` are
//! encoded absolute paths of the projects Claude Code ran in. Every guess here is shown to the
//! person as an editable value; these functions only choose good defaults.

use crate::encode::{decode_guess, encode_project_path};
use crate::report::Os;

/// What a dropped folder is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FolderKind {
    /// A Claude config directory, mounted as `<home>/.claude`.
    ConfigDir,
    /// A home folder: its `.claude/` is the config directory. Mounted as `<home>`.
    Home,
    /// A project folder, mounted as the project: it holds something Claude Code reads in a
    /// project (a `CLAUDE.md`, a `.claude/` folder, a `.git`) or a project's own manifest.
    Project,
    /// Neither: a folder with none of those (a folder of photos, a `Downloads` folder). It
    /// would mount as the project, but the page asks first.
    Unrelated,
}

/// Files at a folder's top that mark a project even with no instruction file: build and
/// package manifests.
const PROJECT_MANIFESTS: [&str; 18] = [
    "package.json",
    "Cargo.toml",
    "pyproject.toml",
    "setup.py",
    "requirements.txt",
    "go.mod",
    "pom.xml",
    "build.gradle",
    "build.gradle.kts",
    "Gemfile",
    "composer.json",
    "Makefile",
    "CMakeLists.txt",
    "deno.json",
    "mix.exs",
    "Package.swift",
    "pubspec.yaml",
    ".mcp.json",
];

/// True when `path` (relative to the folder) is something only a project holds: an
/// instruction file at any depth, anything in a top `.claude/` or `.git`, a manifest at the
/// top, or a top `src/` folder.
fn marks_a_project(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    if matches!(name, "CLAUDE.md" | "CLAUDE.local.md" | "AGENTS.md") {
        return true;
    }
    match path.split_once('/') {
        Some((".claude" | ".git" | "src", _)) => true,
        Some(_) => false,
        None => path == ".git" || PROJECT_MANIFESTS.contains(&path),
    }
}

/// Entries directly inside a `.claude/` folder that only Claude Code's own config directory
/// holds (session state, memory folders), never a project's `.claude/`.
const CONFIG_ONLY: [&str; 6] = [
    "projects",
    "history.jsonl",
    "todos",
    "shell-snapshots",
    "file-history",
    "statsig",
];

/// Tells a Claude config directory, a home folder and a project folder apart by the folder's
/// name and files.
///
/// `relative_paths` are the folder's files relative to the folder itself
/// (`projects/-home-alice/memory/MEMORY.md`). A folder holding `.claude.json`, or a `.claude/`
/// with something only a config directory keeps (its `projects/` memory folders, `todos/`,
/// `history.jsonl`, …), is a home folder. Otherwise a folder named `.claude`, or one holding
/// `settings.json`, a `projects/` folder, or a `CLAUDE.md` beside a `rules/` folder, is a
/// config directory. A project keeps its settings and rules one level down, in its own
/// `.claude/`, which never holds the config directory's own files. The home signals are
/// weighed first because a home folder often has a `projects/` folder of its own. Anything
/// else is a project when it holds an instruction file, a `.claude/`, a `.git`, a `src/` or
/// a manifest (`package.json`, `Cargo.toml`, …), and [`FolderKind::Unrelated`] otherwise.
pub fn classify_folder<'a>(
    name: &str,
    relative_paths: impl IntoIterator<Item = &'a str>,
) -> FolderKind {
    if name == ".claude" {
        return FolderKind::ConfigDir;
    }
    let (mut claude_md, mut rules, mut config) = (false, false, false);
    let mut project = false;
    for path in relative_paths {
        project = project || marks_a_project(path);
        if path == ".claude.json" || is_config_only(path.strip_prefix(".claude/")) {
            return FolderKind::Home;
        }
        match path.split_once('/') {
            None if path == "settings.json" => config = true,
            None if path == "CLAUDE.md" => claude_md = true,
            Some(("projects", _)) => config = true,
            Some(("rules", _)) => rules = true,
            _ => {}
        }
    }
    if config || (claude_md && rules) {
        FolderKind::ConfigDir
    } else if project {
        FolderKind::Project
    } else {
        FolderKind::Unrelated
    }
}

/// The path of a home folder's file relative to its config directory, for a file inside
/// `.claude/`; `None` for every other file of the home.
pub fn config_relative(home_relative: &str) -> Option<&str> {
    home_relative.strip_prefix(".claude/")
}

/// The home a dropped home folder named `name` stands for when no memory folder tells it:
/// `like` (the home the page would use otherwise) with its last segment replaced by `name`,
/// so `/home/user` becomes `/home/alice` and `/Users/me` becomes `/Users/alice`.
pub fn home_named(name: &str, like: &str) -> String {
    let like = like.trim_end_matches(['/', '\\']);
    match like.rfind(['/', '\\']) {
        Some(at) => format!("{}/{name}", &like[..at]),
        None => format!("/home/{name}"),
    }
}

/// The names of the folders directly inside `projects/`, sorted and without repeats.
///
/// `relative_paths` are relative to the config directory, as for [`classify_folder`].
pub fn project_folder_names<'a>(relative_paths: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut names: Vec<String> = relative_paths
        .into_iter()
        .filter_map(|path| path.strip_prefix("projects/"))
        .filter_map(|rest| rest.split_once('/').map(|(name, _)| name))
        .filter(|name| !name.is_empty())
        .map(str::to_owned)
        .collect();
    names.sort();
    names.dedup();
    names
}

/// Guesses the home directory from the encoded folder names under `projects/`.
///
/// Each name is read by the shape of a home path: `-home-<user>-…` (Linux), `-Users-<user>-…`
/// (macOS), `C--Users-<user>-…` (Windows) or `-root-…`. The home most names agree on wins,
/// ties going to the first in byte order. A user name that holds `-`, `.` or `_` cannot be told
/// from a folder below home, so the guess takes the first segment; the page lets the person
/// correct it. `None` when no name has a home's shape.
pub fn infer_home(folder_names: &[String]) -> Option<String> {
    // A map, not a list searched per name: 200,000 folders of distinct homes stay linear.
    let mut votes: std::collections::BTreeMap<String, usize> = std::collections::BTreeMap::new();
    for name in folder_names {
        if let Some(home) = home_of_name(name) {
            *votes.entry(home).or_default() += 1;
        }
    }
    // The most votes; among equals the first in byte order, which the map visits first.
    let mut best: Option<(String, usize)> = None;
    for (home, count) in votes {
        if best.as_ref().is_none_or(|(_, most)| count > *most) {
            best = Some((home, count));
        }
    }
    best.map(|(home, _)| home)
}

/// The operating system a home path's shape points to.
///
/// A drive letter or a backslash means Windows, `/Users/` means macOS, anything else Linux.
pub fn os_of_home(home: &str) -> Os {
    let bytes = home.as_bytes();
    let drive = bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':';
    if drive || home.contains('\\') {
        Os::Windows
    } else if home.starts_with("/Users/") || home == "/Users" {
        Os::Macos
    } else {
        Os::Linux
    }
}

/// Guesses where a dropped project folder lived.
///
/// The memory folder whose name ends with the encoded project folder name (ignoring case)
/// tells the path of its parent, preferring a folder below `home`; the folder's own name is
/// kept as dropped, since the encoding lost its punctuation. Without such a folder the project
/// is taken to sit directly in `home`.
pub fn infer_project_path(folder_names: &[String], project_name: &str, home: &str) -> String {
    let home = home.trim_end_matches(['/', '\\']);
    let tail = format!("-{}", encode_project_path(project_name)).to_ascii_lowercase();
    let encoded_home = encode_project_path(home).to_ascii_lowercase();
    let mut matches: Vec<&String> = folder_names
        .iter()
        .filter(|name| name.to_ascii_lowercase().ends_with(&tail))
        .collect();
    // Folders below home first, then the shortest (the nearest parent), then byte order.
    matches.sort_by_key(|name| {
        let below_home = name.to_ascii_lowercase().starts_with(&encoded_home);
        (!below_home, name.len(), name.as_str())
    });
    let Some(name) = matches.first() else {
        return format!("{home}/{project_name}");
    };
    let parent = &name[..name.len() - tail.len()];
    let parent_path = if parent.to_ascii_lowercase().starts_with(&encoded_home) {
        format!("{home}{}", decode_rest(&parent[encoded_home.len()..]))
    } else {
        decode_guess(parent)
    };
    if parent_path.ends_with('/') {
        format!("{parent_path}{project_name}")
    } else {
        format!("{parent_path}/{project_name}")
    }
}

/// The home directory a single folder name's shape points to, if it has one.
fn home_of_name(name: &str) -> Option<String> {
    let first_segment = |rest: &str| -> Option<String> {
        let user = rest.split('-').next().unwrap_or("");
        (!user.is_empty()).then(|| user.to_owned())
    };
    let bytes = name.as_bytes();
    // Bytes, not `&name[1..3]`: a name such as `a-é` has no character boundary at 3.
    if bytes.len() > 3 && bytes[0].is_ascii_alphabetic() && &bytes[1..3] == b"--" {
        let drive = (bytes[0] as char).to_ascii_uppercase();
        let rest = name[3..].strip_prefix("Users-")?;
        return first_segment(rest).map(|user| format!("{drive}:/Users/{user}"));
    }
    if let Some(rest) = name.strip_prefix("-home-") {
        return first_segment(rest).map(|user| format!("/home/{user}"));
    }
    if let Some(rest) = name.strip_prefix("-Users-") {
        return first_segment(rest).map(|user| format!("/Users/{user}"));
    }
    if name == "-root" || name.starts_with("-root-") {
        return Some("/root".to_owned());
    }
    None
}

/// True when a path inside a `.claude/` folder is something only a config directory keeps:
/// a file in a memory folder under `projects/`, or session state.
fn is_config_only(inside: Option<&str>) -> bool {
    let Some(inside) = inside else {
        return false;
    };
    let (first, rest) = match inside.split_once('/') {
        Some((first, rest)) => (first, Some(rest)),
        None => (inside, None),
    };
    match first {
        // `projects/` alone could be anything; a file in one of its folders is a memory folder.
        "projects" => rest.is_some_and(|rest| rest.contains('/')),
        _ => CONFIG_ONLY.contains(&first),
    }
}

/// Decodes the part of a name that follows an encoded prefix, the way [`decode_guess`] would.
fn decode_rest(rest: &str) -> String {
    rest.replace("--", "/.").replace('-', "/")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn names_with_multi_byte_characters_do_not_panic() {
        // `a-é`: byte 3 falls inside `é`, where a string slice would panic.
        for name in ["a-é", "a-éé", "é", "a\u{301}--x", "C-é-Users-x"] {
            assert_eq!(home_of_name(name), None, "{name}");
            let names = vec![name.to_owned()];
            assert_eq!(infer_home(&names), None, "{name}");
            let _ = infer_project_path(&names, "é", "/home/é");
        }
        assert_eq!(home_of_name("c--Users-é-x").as_deref(), Some("C:/Users/é"));
    }

    #[test]
    fn a_folder_named_dot_claude_is_a_config_dir() {
        assert_eq!(classify_folder(".claude", []), FolderKind::ConfigDir);
    }

    #[test]
    fn settings_or_projects_make_a_config_dir() {
        assert_eq!(
            classify_folder("backup", ["settings.json"]),
            FolderKind::ConfigDir
        );
        assert_eq!(
            classify_folder("backup", ["projects/-home-a/x.jsonl"]),
            FolderKind::ConfigDir
        );
    }

    #[test]
    fn claude_md_needs_rules_beside_it() {
        assert_eq!(classify_folder("shop", ["CLAUDE.md"]), FolderKind::Project);
        assert_eq!(
            classify_folder("cfg", ["CLAUDE.md", "rules/style.md"]),
            FolderKind::ConfigDir
        );
    }

    #[test]
    fn a_folder_with_nothing_of_a_project_is_unrelated() {
        let photos = ["IMG_0001.jpg", "IMG_0002.jpg", "trip/IMG_0100.heic"];
        assert_eq!(classify_folder("Photos", photos), FolderKind::Unrelated);
        let downloads = [
            "invoice.pdf",
            "setup.dmg",
            "notes/readme.txt",
            "app/README.md",
        ];
        assert_eq!(
            classify_folder("Downloads", downloads),
            FolderKind::Unrelated
        );
        assert_eq!(classify_folder("empty", []), FolderKind::Unrelated);
        // Any one sign makes it a project: an instruction file at any depth, a .git, a
        // manifest, a .claude/ or a src/ at the top.
        for sign in [
            "deep/down/CLAUDE.md",
            "CLAUDE.local.md",
            ".git",
            ".git/HEAD",
            "package.json",
            "Cargo.toml",
            ".claude/settings.json",
            "src/main.rs",
        ] {
            let paths = ["photo.jpg", sign];
            assert_eq!(classify_folder("x", paths), FolderKind::Project, "{sign}");
        }
        // A manifest counts only at the top, where a project keeps it.
        assert_eq!(
            classify_folder("x", ["old/package.json"]),
            FolderKind::Unrelated
        );
    }

    #[test]
    fn a_project_keeps_its_settings_one_level_down() {
        let paths = [
            "CLAUDE.md",
            ".claude/settings.json",
            ".claude/rules/a.md",
            "src/main.rs",
        ];
        assert_eq!(classify_folder("shop", paths), FolderKind::Project);
    }

    #[test]
    fn a_folder_with_the_config_dirs_own_files_in_its_dot_claude_is_a_home() {
        let home = [
            ".bashrc",
            ".claude/CLAUDE.md",
            ".claude/projects/-home-alice-work-shop/memory/MEMORY.md",
            "projects/website/README.md",
            "work/shop/CLAUDE.md",
        ];
        assert_eq!(classify_folder("alice", home), FolderKind::Home);
        assert_eq!(
            classify_folder("bob", [".claude.json", "notes.txt"]),
            FolderKind::Home
        );
        assert_eq!(
            classify_folder("carol", [".claude/todos/a.json", ".claude/settings.json"]),
            FolderKind::Home
        );
    }

    #[test]
    fn a_projects_dot_claude_does_not_make_a_home() {
        let project = [
            ".claude/settings.json",
            ".claude/rules/a.md",
            ".claude/agents/tester.md",
            ".claude/agent-memory/tester/MEMORY.md",
            ".claude/skills/deploy/SKILL.md",
            "CLAUDE.md",
        ];
        assert_eq!(classify_folder("shop", project), FolderKind::Project);
        // A folder merely named `projects` inside a project's .claude is not a memory folder.
        assert_eq!(
            classify_folder("shop", [".claude/projects"]),
            FolderKind::Project
        );
    }

    #[test]
    fn a_home_folders_config_files_are_those_inside_dot_claude() {
        assert_eq!(
            config_relative(".claude/projects/-home-a/memory/MEMORY.md"),
            Some("projects/-home-a/memory/MEMORY.md")
        );
        assert_eq!(config_relative("work/shop/CLAUDE.md"), None);
        assert_eq!(config_relative(".claude.json"), None);
    }

    #[test]
    fn a_home_without_memory_folders_is_named_after_the_folder() {
        assert_eq!(home_named("alice", "/home/user"), "/home/alice");
        assert_eq!(home_named("bob", "/Users/me/"), "/Users/bob");
        assert_eq!(home_named("carol", "C:/Users/x"), "C:/Users/carol");
        assert_eq!(home_named("dave", ""), "/home/dave");
    }

    #[test]
    fn project_folder_names_are_the_first_segment_below_projects() {
        let paths = [
            "projects/-home-alice-work-shop/memory/MEMORY.md",
            "projects/-home-alice-work-shop/abc.jsonl",
            "projects/-home-alice/memory/MEMORY.md",
            "projects/stray.txt",
            "rules/a.md",
        ];
        assert_eq!(
            project_folder_names(paths),
            names(&["-home-alice", "-home-alice-work-shop"])
        );
    }

    #[test]
    fn home_from_linux_names() {
        let list = names(&["-home-alice-work-shop", "-home-alice-notes"]);
        assert_eq!(infer_home(&list).as_deref(), Some("/home/alice"));
    }

    #[test]
    fn home_from_macos_names() {
        let list = names(&["-Users-bob-code-app"]);
        assert_eq!(infer_home(&list).as_deref(), Some("/Users/bob"));
    }

    #[test]
    fn home_from_windows_names() {
        let list = names(&["C--Users-carol-src-api", "C--Users-carol"]);
        assert_eq!(infer_home(&list).as_deref(), Some("C:/Users/carol"));
    }

    #[test]
    fn home_of_root() {
        assert_eq!(infer_home(&names(&["-root-app"])).as_deref(), Some("/root"));
    }

    #[test]
    fn the_home_most_names_agree_on_wins() {
        let list = names(&[
            "-home-bob-x",
            "-home-alice-a",
            "-home-alice-b",
            "-tmp-scratch",
        ]);
        assert_eq!(infer_home(&list).as_deref(), Some("/home/alice"));
    }

    #[test]
    fn no_home_without_a_home_shaped_name() {
        assert_eq!(infer_home(&names(&["-tmp-x", "-opt-y"])), None);
        assert_eq!(infer_home(&[]), None);
    }

    #[test]
    fn os_from_the_home_shape() {
        assert_eq!(os_of_home("/home/alice"), Os::Linux);
        assert_eq!(os_of_home("/Users/bob"), Os::Macos);
        assert_eq!(os_of_home("C:/Users/carol"), Os::Windows);
        assert_eq!(os_of_home("C:\\Users\\carol"), Os::Windows);
        assert_eq!(os_of_home("/root"), Os::Linux);
    }

    #[test]
    fn project_path_from_the_matching_memory_folder() {
        let list = names(&["-home-alice-notes", "-home-alice-work-shop"]);
        assert_eq!(
            infer_project_path(&list, "shop", "/home/alice"),
            "/home/alice/work/shop"
        );
    }

    #[test]
    fn the_dropped_name_keeps_its_punctuation() {
        let list = names(&["-home-alice-code-my-app"]);
        assert_eq!(
            infer_project_path(&list, "my_app", "/home/alice"),
            "/home/alice/code/my_app"
        );
    }

    #[test]
    fn hidden_parent_folders_decode_with_a_dot() {
        let list = names(&["-home-alice--config-tool"]);
        assert_eq!(
            infer_project_path(&list, "tool", "/home/alice"),
            "/home/alice/.config/tool"
        );
    }

    #[test]
    fn matching_ignores_case() {
        let list = names(&["-Users-bob-Code-Shop"]);
        assert_eq!(
            infer_project_path(&list, "shop", "/Users/bob"),
            "/Users/bob/Code/shop"
        );
    }

    #[test]
    fn a_folder_below_home_is_preferred() {
        let list = names(&["-srv-shop", "-home-alice-work-shop"]);
        assert_eq!(
            infer_project_path(&list, "shop", "/home/alice"),
            "/home/alice/work/shop"
        );
    }

    #[test]
    fn a_folder_outside_home_decodes_as_a_guess() {
        let list = names(&["-srv-apps-shop"]);
        assert_eq!(
            infer_project_path(&list, "shop", "/home/alice"),
            "/srv/apps/shop"
        );
    }

    #[test]
    fn windows_project_path() {
        let list = names(&["C--Users-carol-src-api"]);
        assert_eq!(
            infer_project_path(&list, "api", "C:/Users/carol"),
            "C:/Users/carol/src/api"
        );
    }

    #[test]
    fn without_a_match_the_project_sits_in_home() {
        let list = names(&["-home-alice-notes"]);
        assert_eq!(
            infer_project_path(&list, "shop", "/home/alice/"),
            "/home/alice/shop"
        );
    }

    #[test]
    fn a_project_at_home_itself_does_not_match_its_parent() {
        // `-home-alice` ends with `-alice`, so a project folder named `alice` maps to `/home/alice`.
        let list = names(&["-home-alice"]);
        assert_eq!(
            infer_project_path(&list, "alice", "/home/alice"),
            "/home/alice"
        );
    }
}
