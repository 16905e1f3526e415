//! The keys of a Claude Code `settings.json` that decide what loads.

use serde_json::{Map, Value};

/// The settings that matter to the analysis; absent keys are `None` or empty.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Settings {
    /// `autoMemoryEnabled`.
    pub(crate) auto_memory_enabled: Option<bool>,
    /// `autoMemoryDirectory`, as written.
    pub(crate) auto_memory_directory: Option<String>,
    /// `claudeMdExcludes`: glob patterns over absolute paths.
    pub(crate) claude_md_excludes: Vec<String>,
    /// `claudeMd`: instructions written inline in the managed settings.
    pub(crate) claude_md: Option<String>,
    /// `skillListingMaxDescChars`: where the skills listing cuts a description.
    pub(crate) skill_listing_max_desc_chars: Option<u64>,
    /// `skillListingBudgetFraction`: the share of the context window the listing may take.
    pub(crate) skill_listing_budget_fraction: Option<f64>,
    /// `skillOverrides`: per skill or command name, how the listing shows it.
    pub(crate) skill_overrides: Vec<(String, SkillOverride)>,
}

/// A `skillOverrides` value: how the listing shows a skill or command (measured on 2.1.328:
/// `skills-listing-edge-skill-overrides`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SkillOverride {
    /// `on`: as without an override.
    On,
    /// `name-only`: its name without a description.
    NameOnly,
    /// `user-invocable-only`: not listed (a person can still type `/name`).
    UserInvocableOnly,
    /// `off`: not listed, not invocable.
    Off,
}

/// The keys [`parse`] reads, in the order it reads them; a shared snapshot keeps these and
/// no other (a test below keeps the list true).
pub(crate) const READ_KEYS: [&str; 7] = [
    "autoMemoryEnabled",
    "autoMemoryDirectory",
    "claudeMd",
    "claudeMdExcludes",
    "skillListingMaxDescChars",
    "skillListingBudgetFraction",
    "skillOverrides",
];

/// Parses a settings file. A key of the wrong type is ignored with a warning in `warnings`.
///
/// # Errors
/// When the text is not a JSON object, with serde_json's message.
pub(crate) fn parse(text: &str) -> Result<(Settings, Vec<String>), String> {
    // Editors on Windows save JSON with a byte order mark, which serde_json rejects.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // Deserialising straight into a map lets serde_json word the error for a top level that
    // is valid JSON but not an object, too.
    let map: Map<String, Value> = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let mut settings = Settings::default();
    let mut warnings = Vec::new();

    match map.get("autoMemoryEnabled") {
        None => {}
        Some(Value::Bool(b)) => settings.auto_memory_enabled = Some(*b),
        Some(_) => warnings.push("autoMemoryEnabled is not a boolean; ignored".to_owned()),
    }
    match map.get("autoMemoryDirectory") {
        None => {}
        Some(Value::String(s)) => settings.auto_memory_directory = Some(s.clone()),
        Some(_) => warnings.push("autoMemoryDirectory is not a string; ignored".to_owned()),
    }
    match map.get("claudeMd") {
        None => {}
        Some(Value::String(s)) => settings.claude_md = Some(s.clone()),
        Some(_) => warnings.push("claudeMd is not a string; ignored".to_owned()),
    }
    match map.get("claudeMdExcludes") {
        None => {}
        Some(Value::Array(items)) => {
            for (index, item) in items.iter().enumerate() {
                match item {
                    Value::String(s) => settings.claude_md_excludes.push(s.clone()),
                    _ => warnings.push(format!(
                        "claudeMdExcludes entry {} is not a string; skipped",
                        index + 1
                    )),
                }
            }
        }
        Some(_) => warnings.push("claudeMdExcludes is not an array; ignored".to_owned()),
    }
    // Claude Code drops a value out of range as if it were absent (measured on 2.1.328).
    match map.get("skillListingMaxDescChars") {
        None => {}
        Some(value) => match value.as_u64().filter(|n| *n > 0) {
            Some(n) => settings.skill_listing_max_desc_chars = Some(n),
            None => warnings
                .push("skillListingMaxDescChars is not a positive integer; ignored".to_owned()),
        },
    }
    match map.get("skillListingBudgetFraction") {
        None => {}
        Some(value) => match value.as_f64().filter(|f| *f > 0.0 && *f <= 1.0) {
            Some(f) => settings.skill_listing_budget_fraction = Some(f),
            None => warnings.push(
                "skillListingBudgetFraction is not a number above 0 and at most 1; ignored"
                    .to_owned(),
            ),
        },
    }
    match map.get("skillOverrides") {
        None => {}
        Some(Value::Object(entries)) => {
            for (name, value) in entries {
                let parsed = match value.as_str() {
                    Some("on") => Some(SkillOverride::On),
                    Some("name-only") => Some(SkillOverride::NameOnly),
                    Some("user-invocable-only") => Some(SkillOverride::UserInvocableOnly),
                    Some("off") => Some(SkillOverride::Off),
                    _ => None,
                };
                match parsed {
                    Some(o) => settings.skill_overrides.push((name.clone(), o)),
                    None => warnings.push(format!(
                        "skillOverrides.{name} is not on, name-only, user-invocable-only or off; \
                         ignored"
                    )),
                }
            }
        }
        Some(_) => warnings.push("skillOverrides is not an object; ignored".to_owned()),
    }
    Ok((settings, warnings))
}

/// The one key of `~/.claude.json` the analysis reads: whether the user approved imports
/// that leave `project` (`projects.<project>.hasClaudeMdExternalIncludesApproved`). `None`
/// when the file does not say (not JSON, no such project, no such key); nothing else of the
/// file is looked at.
pub(crate) fn external_includes_approved(text: &str, project: &str) -> Option<bool> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let map: Map<String, Value> = serde_json::from_str(text).ok()?;
    map.get("projects")?
        .get(project)?
        .get("hasClaudeMdExternalIncludesApproved")?
        .as_bool()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_keys_are_the_keys_parse_reads() {
        let source = include_str!("settings.rs");
        let body = &source[source.find("pub(crate) fn parse(").unwrap()..];
        let body = &body[..body.find("\n}\n").unwrap()];
        let read: Vec<&str> = body
            .match_indices("map.get(\"")
            .map(|(at, call)| {
                let rest = &body[at + call.len()..];
                &rest[..rest.find('"').unwrap()]
            })
            .collect();
        assert_eq!(read, READ_KEYS);
    }

    #[test]
    fn reads_only_the_approval_of_the_project() {
        let json =
            r#"{"projects": {"/p": {"hasClaudeMdExternalIncludesApproved": true}, "/q": {}}}"#;
        assert_eq!(external_includes_approved(json, "/p"), Some(true));
        assert_eq!(external_includes_approved(json, "/q"), None);
        assert_eq!(external_includes_approved(json, "/r"), None);
        assert_eq!(external_includes_approved("not json", "/p"), None);
    }

    /// Checks `parse` as `enabled=<..> dir=<..> excludes=[..] warnings=[..]`, or `error: <..>`.
    fn check(text: &str, expected: &str) {
        let actual = match parse(text) {
            Err(error) => format!("error: {error}"),
            Ok((s, warnings)) => format!(
                "enabled={:?} dir={:?} excludes={:?} warnings={:?}",
                s.auto_memory_enabled, s.auto_memory_directory, s.claude_md_excludes, warnings
            ),
        };
        assert_eq!(actual, expected, "input: {text:?}");
    }

    #[test]
    fn keys() {
        check("{}", "enabled=None dir=None excludes=[] warnings=[]");
        check(
            r#"{"autoMemoryEnabled": false}"#,
            "enabled=Some(false) dir=None excludes=[] warnings=[]",
        );
        check(
            r#"{"autoMemoryEnabled": true}"#,
            "enabled=Some(true) dir=None excludes=[] warnings=[]",
        );
        check(
            r#"{"autoMemoryDirectory": "~/mem"}"#,
            r#"enabled=None dir=Some("~/mem") excludes=[] warnings=[]"#,
        );
        check(
            r#"{"claudeMdExcludes": ["**/a/CLAUDE.md", "/x/*"]}"#,
            r#"enabled=None dir=None excludes=["**/a/CLAUDE.md", "/x/*"] warnings=[]"#,
        );
        check(
            r#"{"model": "x", "hooks": {}, "permissions": {"allow": []}}"#,
            "enabled=None dir=None excludes=[] warnings=[]",
        );
        check(
            "\u{feff}{\"autoMemoryEnabled\": false}",
            "enabled=Some(false) dir=None excludes=[] warnings=[]",
        );
        check(
            " \n{\"autoMemoryEnabled\": false}\n ",
            "enabled=Some(false) dir=None excludes=[] warnings=[]",
        );
        check(
            r#"{"autoMemoryEnabled": true, "autoMemoryEnabled": false}"#,
            "enabled=Some(false) dir=None excludes=[] warnings=[]",
        );
    }

    #[test]
    fn wrong_types_warn() {
        check(
            r#"{"autoMemoryEnabled": "false"}"#,
            r#"enabled=None dir=None excludes=[] warnings=["autoMemoryEnabled is not a boolean; ignored"]"#,
        );
        check(
            r#"{"autoMemoryEnabled": 0}"#,
            r#"enabled=None dir=None excludes=[] warnings=["autoMemoryEnabled is not a boolean; ignored"]"#,
        );
        check(
            r#"{"autoMemoryEnabled": null}"#,
            r#"enabled=None dir=None excludes=[] warnings=["autoMemoryEnabled is not a boolean; ignored"]"#,
        );
        check(
            r#"{"autoMemoryDirectory": 5}"#,
            r#"enabled=None dir=None excludes=[] warnings=["autoMemoryDirectory is not a string; ignored"]"#,
        );
        check(
            r#"{"claudeMdExcludes": "a/*"}"#,
            r#"enabled=None dir=None excludes=[] warnings=["claudeMdExcludes is not an array; ignored"]"#,
        );
        check(
            r#"{"claudeMdExcludes": ["a", 1, null, "b"]}"#,
            r#"enabled=None dir=None excludes=["a", "b"] warnings=["claudeMdExcludes entry 2 is not a string; skipped", "claudeMdExcludes entry 3 is not a string; skipped"]"#,
        );
        check(
            r#"{"autoMemoryEnabled": [], "autoMemoryDirectory": {}, "claudeMdExcludes": {}}"#,
            r#"enabled=None dir=None excludes=[] warnings=["autoMemoryEnabled is not a boolean; ignored", "autoMemoryDirectory is not a string; ignored", "claudeMdExcludes is not an array; ignored"]"#,
        );
    }

    #[test]
    fn not_an_object_is_an_error() {
        check("", "error: EOF while parsing a value at line 1 column 0");
        check(
            "[]",
            "error: invalid type: sequence, expected a map at line 1 column 0",
        );
        check(
            "\"x\"",
            "error: invalid type: string \"x\", expected a map at line 1 column 3",
        );
        check(
            "null",
            "error: invalid type: null, expected a map at line 1 column 4",
        );
        check("{", "error: EOF while parsing an object at line 1 column 1");
        check("{\"a\": 1,}", "error: trailing comma at line 1 column 9");
        check("{} {}", "error: trailing characters at line 1 column 4");
        check(
            "\u{feff}\u{feff}{}",
            "error: expected value at line 1 column 1",
        );
    }
}
