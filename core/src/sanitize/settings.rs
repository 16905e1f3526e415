//! Settings files, `~/.claude.json` and `.git` files, reduced to what the analysis reads.

use super::*;
use crate::text::settings::READ_KEYS;

impl Builder<'_> {
    // ----- settings and .git -------------------------------------------------------------

    /// A settings file reduced to the keys the analysis reads, with the same parse outcome
    /// and warnings: a key of the wrong type keeps its JSON type with an empty value, a
    /// non-string exclude stays a non-string at its index, paths and globs are renamed.
    pub(super) fn settings(&mut self, bytes: &[u8], shown: &str) -> Vec<u8> {
        let invalid_utf8 = std::str::from_utf8(bytes).is_err();
        let text = String::from_utf8_lossy(bytes);
        let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
        let Ok(map) = serde_json::from_str::<Map<String, Json>>(text) else {
            // Still not a JSON object, so the analysis still ignores it with a warning.
            let mut out = b"{".to_vec();
            if invalid_utf8 {
                out.push(0xff);
            }
            return out;
        };
        // Exactly the keys the settings parser reads (`text::settings::READ_KEYS`).
        let mut reduced = Map::new();
        for key in READ_KEYS {
            let Some(value) = map.get(key) else {
                continue;
            };
            let value = match (key, value) {
                ("autoMemoryEnabled", Json::Bool(_)) => value.clone(),
                // The skills listing's budget and cut: figures, and the listing depends on them.
                ("skillListingMaxDescChars" | "skillListingBudgetFraction", Json::Number(_)) => {
                    value.clone()
                }
                ("autoMemoryDirectory", Json::String(dir)) => Json::String(self.namer.name(dir)),
                // The managed policy's inline instructions: text, so placeholders of its length.
                ("claudeMd", Json::String(text)) => {
                    Json::String(text_placeholder(text, self.options.keep_text))
                }
                ("hooks", Json::Object(events)) => self.hooks(events),
                ("enabledPlugins", Json::Object(keys)) => Json::Object(
                    keys.iter()
                        .map(|(key, on)| {
                            let on = if on.is_boolean() {
                                on.clone()
                            } else {
                                Json::Null
                            };
                            (self.namer.name(key), on)
                        })
                        .collect(),
                ),
                ("enabledMcpjsonServers" | "disabledMcpjsonServers", Json::Array(items)) => {
                    Json::Array(
                        items
                            .iter()
                            .map(|item| match item {
                                Json::String(name) => Json::String(self.namer.name(name)),
                                _ => Json::Null,
                            })
                            .collect(),
                    )
                }
                ("claudeMdExcludes", Json::Array(items)) => Json::Array(
                    items
                        .iter()
                        .map(|item| match item {
                            Json::String(pattern) => Json::String(self.exclude(pattern, shown)),
                            _ => Json::Null,
                        })
                        .collect(),
                ),
                // Keyed by skill and command names, renamed as their folders and files are;
                // the values are words the parser reads.
                ("skillOverrides", Json::Object(entries)) => Json::Object(
                    entries
                        .iter()
                        .map(|(name, value)| {
                            let renamed: Vec<String> =
                                name.split(':').map(|part| self.namer.name(part)).collect();
                            let value = match value.as_str() {
                                Some("on" | "name-only" | "user-invocable-only" | "off") => {
                                    value.clone()
                                }
                                _ => empty_like(value),
                            };
                            (renamed.join(":"), value)
                        })
                        .collect(),
                ),
                // A boolean or a number tells nothing: kept (a figure may depend on it).
                (_, Json::Bool(_) | Json::Number(_)) => value.clone(),
                // Any other value (a key of the wrong type, or a new key this module does not
                // rewrite yet): the same JSON type with nothing in it, so its warning stays.
                (_, other) => empty_like(other),
            };
            reduced.insert(key.to_owned(), value);
        }
        let mut out = serde_json::to_string_pretty(&Json::Object(reduced))
            .expect("a JSON value serialises")
            .into_bytes();
        if invalid_utf8 {
            // The original was read with a replacement character somewhere; one inside a
            // string keeps the `invalid-utf8` finding without changing what parses.
            let mut marked = b"{\"_\": \"\xff\"".to_vec();
            if out.len() > 2 {
                marked.push(b',');
            }
            marked.extend_from_slice(&out[1..]);
            out = marked;
        }
        out
    }

    /// A `hooks` object with only what the analysis reads: each event (Claude Code's own
    /// word) and group kept in place, a matcher renamed, a command hook's command replaced
    /// by its program's name renamed (never its arguments or folders), any other hook by its
    /// type alone.
    fn hooks(&mut self, events: &Map<String, Json>) -> Json {
        let mut out = Map::new();
        for (event, groups) in events {
            let Json::Array(groups) = groups else {
                out.insert(event.clone(), Json::Null);
                continue;
            };
            let groups = groups
                .iter()
                .map(|group| {
                    let mut kept = Map::new();
                    if let Some(Json::String(matcher)) = group.get("matcher") {
                        kept.insert("matcher".to_owned(), Json::String(self.namer.name(matcher)));
                    }
                    if let Some(Json::Array(hooks)) = group.get("hooks") {
                        let hooks = hooks
                            .iter()
                            .map(|hook| {
                                let Json::Object(hook) = hook else {
                                    return Json::Null;
                                };
                                let mut one = Map::new();
                                if let Some(Json::String(kind)) = hook.get("type") {
                                    let kind = match kind.as_str() {
                                        "command" | "prompt" | "agent" | "http" => kind.clone(),
                                        _ => "other".to_owned(),
                                    };
                                    one.insert("type".to_owned(), Json::String(kind));
                                }
                                if let Some(Json::String(command)) = hook.get("command") {
                                    let program = crate::text::settings::program_name(command);
                                    one.insert(
                                        "command".to_owned(),
                                        Json::String(self.namer.name(&program)),
                                    );
                                }
                                Json::Object(one)
                            })
                            .collect();
                        kept.insert("hooks".to_owned(), Json::Array(hooks));
                    }
                    Json::Object(kept)
                })
                .collect();
            out.insert(event.clone(), Json::Array(groups));
        }
        Json::Object(out)
    }

    /// An `mcpServers` object with each server's name renamed and only the program it starts
    /// (renamed, by its name alone); a server reached by URL keeps neither URL nor headers.
    fn mcp_servers(&mut self, servers: &Json) -> Json {
        let Json::Object(servers) = servers else {
            return Json::Array(Vec::new());
        };
        let mut out = Map::new();
        for (name, server) in servers {
            let mut one = Map::new();
            if let Some(Json::String(command)) = server.get("command") {
                let program = crate::text::settings::program_name(command);
                one.insert(
                    "command".to_owned(),
                    Json::String(self.namer.name(&program)),
                );
            }
            out.insert(self.namer.name(name), Json::Object(one));
        }
        Json::Object(out)
    }

    /// A plugin configuration file reduced to what decides which plugins load and where
    /// from, names and paths renamed: `installed_plugins.json` (each key's `installPath`),
    /// `known_marketplaces.json` (each `installLocation`), `marketplace.json` (each plugin's
    /// name and a relative source), `plugin.json` (its name), `hooks.json` (as a settings
    /// file's hooks). Descriptions, URLs, repositories and versions never leave. One that
    /// does not parse stays one that does not parse.
    pub(super) fn plugin_config(&mut self, bytes: &[u8], file: &str) -> Vec<u8> {
        let text = String::from_utf8_lossy(bytes);
        let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
        let Ok(map) = serde_json::from_str::<Map<String, Json>>(text) else {
            return b"{".to_vec();
        };
        let mut reduced = Map::new();
        let path_of = |b: &mut Self, value: Option<&Json>| -> Json {
            match value {
                Some(Json::String(path)) => Json::String(b.namer.name(path)),
                _ => Json::Null,
            }
        };
        match file {
            "installed_plugins.json" => {
                if let Some(version) = map.get("version") {
                    reduced.insert("version".to_owned(), version.clone());
                }
                if let Some(Json::Object(plugins)) = map.get("plugins") {
                    let mut out = Map::new();
                    for (key, entries) in plugins {
                        let first = entries.as_array().and_then(|e| e.first());
                        let entry = match first {
                            Some(first) => {
                                let mut one = Map::new();
                                one.insert(
                                    "installPath".to_owned(),
                                    path_of(self, first.get("installPath")),
                                );
                                Json::Array(vec![Json::Object(one)])
                            }
                            None => Json::Array(Vec::new()),
                        };
                        out.insert(self.namer.name(key), entry);
                    }
                    reduced.insert("plugins".to_owned(), Json::Object(out));
                } else if let Some(other) = map.get("plugins") {
                    reduced.insert("plugins".to_owned(), empty_like(other));
                }
            }
            "known_marketplaces.json" => {
                for (name, entry) in &map {
                    let mut one = Map::new();
                    one.insert(
                        "installLocation".to_owned(),
                        path_of(self, entry.get("installLocation")),
                    );
                    // Whether it is a local folder decides where its plugins are read.
                    let local = entry
                        .get("source")
                        .and_then(|s| s.get("source"))
                        .and_then(Json::as_str)
                        == Some("directory");
                    if local {
                        one.insert(
                            "source".to_owned(),
                            serde_json::json!({ "source": "directory" }),
                        );
                    }
                    reduced.insert(self.namer.name(name), Json::Object(one));
                }
            }
            "marketplace.json" => {
                let plugins = map
                    .get("plugins")
                    .and_then(Json::as_array)
                    .into_iter()
                    .flatten()
                    .map(|plugin| {
                        let mut one = Map::new();
                        if let Some(Json::String(name)) = plugin.get("name") {
                            one.insert("name".to_owned(), Json::String(self.namer.name(name)));
                        }
                        if let Some(Json::String(source)) = plugin.get("source") {
                            one.insert("source".to_owned(), Json::String(self.namer.name(source)));
                        } else if plugin.get("source").is_some() {
                            one.insert("source".to_owned(), Json::Object(Map::new()));
                        }
                        Json::Object(one)
                    })
                    .collect();
                reduced.insert("plugins".to_owned(), Json::Array(plugins));
            }
            "plugin.json" => {
                if let Some(Json::String(name)) = map.get("name") {
                    reduced.insert("name".to_owned(), Json::String(self.namer.name(name)));
                }
            }
            _ => {
                if let Some(Json::Object(events)) = map.get("hooks") {
                    let hooks = self.hooks(events);
                    reduced.insert("hooks".to_owned(), hooks);
                }
            }
        }
        serde_json::to_string_pretty(&Json::Object(reduced))
            .expect("a JSON value serialises")
            .into_bytes()
    }

    /// An MCP configuration reduced to its servers' names and programs; one that does not
    /// parse stays one that does not parse.
    pub(super) fn mcp_config(&mut self, bytes: &[u8]) -> Vec<u8> {
        let text = String::from_utf8_lossy(bytes);
        let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
        let Ok(map) = serde_json::from_str::<Map<String, Json>>(text) else {
            return b"{".to_vec();
        };
        let mut reduced = Map::new();
        if let Some(servers) = map.get("mcpServers") {
            reduced.insert("mcpServers".to_owned(), self.mcp_servers(servers));
        }
        serde_json::to_string_pretty(&Json::Object(reduced))
            .expect("a JSON value serialises")
            .into_bytes()
    }

    /// `~/.claude.json` reduced to the keys the analysis reads, for the project only: its
    /// history, other projects and account data never leave.
    pub(super) fn claude_json(&mut self, bytes: &[u8]) -> Vec<u8> {
        let text = String::from_utf8_lossy(bytes);
        // The key discovery read the approval under (the main worktree's root for a linked
        // worktree), as it recorded it.
        let key = self
            .report
            .sources
            .iter()
            .find(|source| source.why == ReadFor::ClaudeJson)
            .and_then(|source| source.key.clone());
        let approved = key.as_deref().and_then(|key| {
            crate::text::settings::external_includes_approved(&text, key).map(|v| (key, v))
        });
        let parsed = serde_json::from_str::<Map<String, Json>>(
            text.strip_prefix('\u{feff}').unwrap_or(&text),
        )
        .ok();
        let mut reduced = Map::new();
        // The user's MCP servers, and the project's (local scope) under the same key.
        if let Some(servers) = parsed.as_ref().and_then(|m| m.get("mcpServers")) {
            let servers = self.mcp_servers(servers);
            reduced.insert("mcpServers".to_owned(), servers);
        }
        let local = key.as_deref().and_then(|key| {
            let servers = parsed
                .as_ref()?
                .get("projects")?
                .get(key)?
                .get("mcpServers")?;
            Some((key, servers.clone()))
        });
        let mut project = Map::new();
        if let Some((_, value)) = approved {
            project.insert(
                "hasClaudeMdExternalIncludesApproved".to_owned(),
                Json::Bool(value),
            );
        }
        if let Some((_, servers)) = &local {
            project.insert("mcpServers".to_owned(), self.mcp_servers(servers));
        }
        if let Some(key) = approved.map(|(k, _)| k).or(local.as_ref().map(|(k, _)| *k)) {
            let mut projects = Map::new();
            projects.insert(self.namer.name(key), Json::Object(project));
            reduced.insert("projects".to_owned(), Json::Object(projects));
        }
        let reduced = Json::Object(reduced);
        serde_json::to_string_pretty(&reduced)
            .expect("a JSON value serialises")
            .into_bytes()
    }

    /// A `claudeMdExcludes` pattern renamed; if the renamed pattern would not exclude exactly
    /// the renamed files the original excluded, a pattern listing those files instead.
    pub(super) fn exclude(&mut self, pattern: &str, shown: &str) -> String {
        let renamed = self.namer.name(pattern);
        if self.namer.collecting() {
            return renamed;
        }
        let (Ok(before), Ok(after)) = (Glob::new(pattern), Glob::new(&renamed)) else {
            if Glob::new(pattern).is_ok() != Glob::new(&renamed).is_ok() {
                self.warnings.push(format!(
                    "a claudeMdExcludes pattern in {shown} could not be kept exactly"
                ));
            }
            return renamed;
        };
        let mut agrees = true;
        let mut matched = Vec::new();
        for candidate in &self.plan.exclude_candidates {
            let shared = self.namer.name(candidate);
            let hit = before.matches(candidate);
            agrees &= hit == after.matches(&shared);
            if hit {
                matched.push(shared);
            }
        }
        if agrees {
            return renamed;
        }
        // Wildcards inside a renamed word (`leg*`, `[a-c]*`) can stop matching; the files it
        // matched, each escaped, keep the same ones excluded.
        let escaped: Vec<String> = matched.iter().map(|p| escape_glob(p)).collect();
        match escaped.len() {
            0 => "/.memdiag-matches-nothing".to_owned(),
            1 => escaped[0].clone(),
            _ => format!("{{{}}}", escaped.join(",")),
        }
    }

    /// A `.git` file with its `gitdir:` paths renamed and every other line replaced.
    pub(super) fn git_file(&mut self, text: &str) -> String {
        let keep_text = self.options.keep_text;
        let mut out = String::with_capacity(text.len());
        for line in text.split_inclusive('\n') {
            let indent = line.len() - line.trim_start().len();
            match line[indent..].strip_prefix("gitdir:") {
                Some(rest) => {
                    let body = rest.trim_end();
                    let start = body.len() - body.trim_start().len();
                    out.push_str(&line[..indent]);
                    out.push_str("gitdir:");
                    out.push_str(&body[..start]);
                    out.push_str(&self.namer.name(&body[start..]));
                    out.push_str(&rest[body.len()..]);
                }
                None => out.push_str(&text_placeholder(line, keep_text)),
            }
        }
        out
    }
}

/// A JSON value of the same type with nothing in it.
pub(super) fn empty_like(value: &Json) -> Json {
    match value {
        Json::Null => Json::Null,
        Json::Bool(_) => Json::Bool(false),
        Json::Number(_) => Json::from(0),
        Json::String(_) => Json::String(String::new()),
        Json::Array(_) => Json::Array(Vec::new()),
        Json::Object(_) => Json::Object(Map::new()),
    }
}

/// A path as a glob that matches only itself: glob syntax escaped segment by segment.
pub(super) fn escape_glob(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for c in path.chars() {
        if matches!(
            c,
            '*' | '?' | '[' | ']' | '{' | '}' | ',' | '\\' | '!' | '^'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}
