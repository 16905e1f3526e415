//! Comparing a shared report with the original, names mapped and free text by length.

use super::*;

/// Fields that hold a path or a name: the original's are renamed before comparing.
pub(super) const NAME_FIELDS: &[&str] = &[
    "path",
    "parent",
    "resolved",
    "target",
    "home",
    "config_dir",
    "project",
    "projects_base",
    "git_root",
    "memory_dir",
    "auto_memory_setting_from",
    "memory_folder_name",
    "decoded_guess",
    "skill_name",
    "agent",
    "shadowed_by",
    "folder",
    "index",
    "paths",
    // A source's key: the project key `~/.claude.json` was read under.
    "key",
    // Hooks and MCP servers (`session.not_counted`): a server's name, the program a hook
    // or a server runs, a hook's matcher.
    "server",
    "program",
    "matcher",
    // A plugin's marketplace (`session.plugins`).
    "marketplace",
];

/// Sentences for a person: they quote names and text, so they are not compared.
pub(super) const SENTENCE_FIELDS: &[&str] = &["message", "summary", "title", "note", "correction"];

/// A report as JSON in a form two reports can be compared in: names passed through `rename`,
/// sentences dropped, free text replaced by its length, diagnostics (whose order breaks ties
/// by message) and sources in a fixed order.
pub(super) fn comparable(report: &Report, rename: &mut dyn FnMut(&str) -> String) -> Json {
    let mut value = serde_json::to_value(report).unwrap_or(Json::Null);
    // A listing line starts with the skill's listed name, which is renamed; the rest is
    // text, compared by its length.
    let shown: Vec<String> = report
        .files
        .iter()
        .filter_map(|row| {
            let name = row.skill_name.as_ref()?;
            // A command is listed by its name alone.
            if row.group == crate::report::Group::Commands {
                return Some(name.clone());
            }
            let path = VPath::new(&row.path).ok()?;
            let folder = path.parent()?.file_name().to_owned();
            Some(if *name == folder {
                folder
            } else {
                format!("{folder} ({name})")
            })
        })
        // A command's or a plugin's entry is listed by its name alone (`ns:x`, `plugin:x`).
        .chain(
            report
                .files
                .iter()
                .filter_map(|row| row.skill_name.clone().filter(|n| n.contains(':'))),
        )
        .collect();
    // Commands are listed sorted by name, which pseudonyms need not keep: their lines (after
    // every skill's) are compared in any order.
    let commands: Vec<&str> = report
        .files
        .iter()
        .filter(|row| row.group == crate::report::Group::Commands)
        .filter_map(|row| row.skill_name.as_deref())
        .collect();
    let is_command = |text: &str| {
        commands
            .iter()
            .any(|n| text == *n || text.starts_with(&format!("{n}: ")))
    };
    let first_command = report.session.skills.iter().position(|l| is_command(l));
    if let Some(Json::Array(lines)) = value.pointer_mut("/session/skills") {
        for line in lines.iter_mut() {
            let Json::String(text) = line else { continue };
            let name = shown
                .iter()
                .filter(|s| text == *s || text.starts_with(&format!("{s}: ")))
                .max_by_key(|s| s.len());
            *line = match name {
                Some(name) => {
                    Json::from(rename(name).chars().count() + text[name.len()..].chars().count())
                }
                None => Json::from(text.chars().count()),
            };
        }
        if let Some(at) = first_command {
            lines[at..].sort_by_key(Json::to_string);
        }
    }
    // The listing of agent types is sorted by name, which pseudonyms need not keep: each
    // line is its length with its name renamed, compared in any order.
    let agents: Vec<&str> = report
        .health
        .agents
        .iter()
        .filter(|a| a.listed.is_some())
        .map(|a| a.name.as_str())
        .collect();
    if let Some(Json::Array(lines)) = value.pointer_mut("/session/agents") {
        let mut lengths = Vec::new();
        for line in lines.iter() {
            let Json::String(text) = line else { continue };
            let name = agents
                .iter()
                .filter(|n| text.starts_with(&format!("{n}: ")))
                .max_by_key(|n| n.len());
            lengths.push(match name {
                Some(name) => rename(name).chars().count() + text[name.len()..].chars().count(),
                None => text.chars().count(),
            });
        }
        lengths.sort_unstable();
        *lines = lengths.into_iter().map(Json::from).collect();
    }
    walk(&mut value, None, None, rename);
    if let Some(Json::Array(agents)) = value.pointer_mut("/health/agents") {
        agents.sort_by_key(Json::to_string);
    }
    // Hooks and MCP servers come in each file's key order, which the pseudonyms need not
    // keep.
    if let Some(Json::Array(found)) = value.pointer_mut("/session/not_counted") {
        found.sort_by_key(Json::to_string);
    }
    if let Some(Json::Array(diagnostics)) = value.get_mut("diagnostics") {
        diagnostics.sort_by_key(Json::to_string);
    }
    // The verdict: a line that stands for several findings opens the first of them in path
    // order, which the pseudonyms need not keep; lines of equal rank are in that order too.
    if let Some(Json::Array(verdict)) = value.get_mut("verdict") {
        for line in verdict.iter_mut() {
            if line.get("count").and_then(Json::as_u64).unwrap_or(0) > 1 {
                line["path"] = Json::Null;
                line["line"] = Json::Null;
            }
        }
        verdict.sort_by_key(Json::to_string);
    }
    // What discovery read besides the rows, by path: a record for sanitizing, not a figure,
    // and listed in byte order of the paths, which the pseudonyms need not keep.
    if let Some(Json::Array(sources)) = value.get_mut("sources") {
        sources.sort_by_key(Json::to_string);
    }
    value
}

pub(super) fn walk(
    value: &mut Json,
    key: Option<&str>,
    list: Option<&str>,
    rename: &mut dyn FnMut(&str) -> String,
) {
    match value {
        Json::Object(object) => {
            let skill = object.get("skill_name").is_some_and(|name| !name.is_null());
            for (field, inner) in object.iter_mut() {
                match field.as_str() {
                    "frontmatter" => {
                        if let Json::Array(fields) = inner {
                            for entry in fields {
                                frontmatter_entry(entry, skill, rename);
                            }
                        }
                    }
                    // Free text the report carries: compared by length, as placeholders keep it.
                    "text" | "warning" => {
                        if let Json::String(text) = inner {
                            *inner = Json::from(text.chars().count());
                        }
                    }
                    "skills" => {
                        if let Json::Array(lines) = inner {
                            for line in lines {
                                if let Json::String(text) = line {
                                    *line = Json::from(text.chars().count());
                                }
                            }
                        }
                    }
                    "name" if matches!(list, Some("memory_folders" | "agents" | "plugins")) => {
                        rename_in(inner, rename);
                    }
                    "memory_folder_name" => {
                        rename_in(inner, rename);
                        // Over 200 characters the name ends in a hash of the full path,
                        // which the renamed path hashes differently; the prefix is the key.
                        if let Json::String(name) = inner {
                            let cut: String =
                                name.chars().take(crate::encode::MAX_NAME_CHARS).collect();
                            *name = cut;
                        }
                    }
                    field if SENTENCE_FIELDS.contains(&field) => *inner = Json::Null,
                    field if NAME_FIELDS.contains(&field) => rename_in(inner, rename),
                    field => walk(inner, Some(field), list, rename),
                }
            }
        }
        Json::Array(items) => {
            for item in items {
                walk(item, None, key.or(list), rename);
            }
        }
        _ => {}
    }
}

pub(super) fn rename_in(value: &mut Json, rename: &mut dyn FnMut(&str) -> String) {
    match value {
        Json::String(s) => *s = rename(s),
        Json::Array(items) => {
            for item in items {
                rename_in(item, rename);
            }
        }
        _ => {}
    }
}

pub(super) fn frontmatter_entry(
    entry: &mut Json,
    skill: bool,
    rename: &mut dyn FnMut(&str) -> String,
) {
    let key = entry
        .get("key")
        .and_then(Json::as_str)
        .unwrap_or_default()
        .to_owned();
    let kind = if skill {
        FileKind::Skill
    } else {
        FileKind::Other
    };
    if !FRONTMATTER_KEYS.contains(&key.as_str()) {
        // A key the analysis never reads was replaced by placeholders: compared by length.
        entry["key"] = Json::from(key.chars().count());
    }
    let Some(value) = entry.get_mut("value") else {
        return;
    };
    match policy(Some(&key), kind) {
        Policy::Keep if key == "modified" => {
            // Only the day stays: the day and the length are compared.
            if let Json::String(text) = value {
                let day = crate::date::parse_day(text).map(|_| text.trim().get(..10));
                *value = serde_json::json!([day.flatten(), text.chars().count()]);
            }
        }
        Policy::Keep => {
            // A word outside the vocabulary was replaced like text: compared by length.
            if let Json::String(text) = value {
                if !in_vocabulary(&key, text.trim_matches(['"', '\''])) {
                    *value = Json::from(text.chars().count());
                }
            }
        }
        Policy::Name => rename_in(value, rename),
        Policy::Text => {
            if let Json::String(text) = value {
                *value = Json::from(text.chars().count());
            }
        }
    }
}

/// Lists where `actual` differs from `expected`, by JSON path.
pub(super) fn diff(expected: &Json, actual: &Json, at: &mut String, out: &mut Vec<String>) {
    const MAX_DIFFERENCES: usize = 50;
    if out.len() >= MAX_DIFFERENCES {
        return;
    }
    match (expected, actual) {
        (Json::Object(e), Json::Object(a)) => {
            let keys: BTreeSet<&String> = e.keys().chain(a.keys()).collect();
            for key in keys {
                let len = at.len();
                at.push('/');
                at.push_str(key);
                diff(
                    e.get(key).unwrap_or(&Json::Null),
                    a.get(key).unwrap_or(&Json::Null),
                    at,
                    out,
                );
                at.truncate(len);
            }
        }
        (Json::Array(e), Json::Array(a)) if e.len() != a.len() => out.push(format!(
            "{}: {} in yours, {} in the copy",
            in_words(at),
            e.len(),
            a.len()
        )),
        (Json::Array(e), Json::Array(a)) => {
            for (index, (e, a)) in e.iter().zip(a).enumerate() {
                let len = at.len();
                at.push_str(&format!("/{index}"));
                diff(e, a, at, out);
                at.truncate(len);
            }
        }
        (e, a) if e != a => out.push(format!("{}: {e} in yours, {a} in the copy", in_words(at))),
        _ => {}
    }
}

/// A place in the report (a JSON pointer such as `/files/3/loaded/utf16`) in words for the
/// person sharing: "the files listed, row 4, loaded utf16".
fn in_words(pointer: &str) -> String {
    let mut parts = pointer.split('/').filter(|p| !p.is_empty());
    let Some(top) = parts.next() else {
        return "the report".to_owned();
    };
    let mut out = match top {
        "files" => "the files listed",
        "groups" => "the groups",
        "footprint" => "the figures of every session",
        "memory_folders" => "the memory folders",
        "diagnostics" => "the findings",
        "verdict" => "the verdict",
        "health" => "the health view",
        "session" => "what every session sends",
        "reads" => "what a Read attaches",
        "rules" => "the release's rules",
        "comparison" => "the release comparison",
        "sources" => "the files read",
        "context" => "the analysis's settings",
        other => other,
    }
    .to_owned();
    for part in parts {
        match part.parse::<usize>() {
            Ok(index) => out.push_str(&format!(", number {}", index + 1)),
            Err(_) => {
                out.push_str(", ");
                out.push_str(&part.replace('_', " "));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Share dialog shows these to the person sharing: words, not JSON pointers.
    #[test]
    fn a_difference_is_told_in_words() {
        let mut out = Vec::new();
        let expected = serde_json::json!({ "reads": [1], "files": [{ "loaded": { "utf16": 3 } }] });
        let actual = serde_json::json!({ "reads": [], "files": [{ "loaded": { "utf16": 4 } }] });
        diff(&expected, &actual, &mut String::new(), &mut out);
        assert_eq!(
            out,
            [
                "the files listed, number 1, loaded, utf16: 3 in yours, 4 in the copy",
                "what a Read attaches: 1 in yours, 0 in the copy",
            ]
        );
    }
}
