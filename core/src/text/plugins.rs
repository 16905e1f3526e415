//! The plugin files that decide which plugins load: `installed_plugins.json` (version 2),
//! `known_marketplaces.json`, a marketplace's `marketplace.json` and a plugin's
//! `plugin.json`. Pure parsers; each bounded to [`MAX_PLUGINS`] entries.

use serde_json::{Map, Value};

/// At most this many plugins or marketplaces are read from one file.
pub(crate) const MAX_PLUGINS: usize = 1_000;

/// One installed plugin: its key (`name@marketplace`) and where its cached copy is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Installed {
    /// `name@marketplace`.
    pub(crate) key: String,
    /// `installPath` of its first entry.
    pub(crate) install_path: Option<String>,
}

fn object(text: &str) -> Result<Map<String, Value>, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    serde_json::from_str(text).map_err(|e| e.to_string())
}

/// `installed_plugins.json`: `{ "version": 2, "plugins": { "<key>": [ { "installPath": … } ] } }`.
///
/// # Errors
/// When the text is not a JSON object, its version is not 2 or `plugins` is not an object.
pub(crate) fn installed(text: &str) -> Result<Vec<Installed>, String> {
    let map = object(text)?;
    match map.get("version").and_then(Value::as_u64) {
        Some(2) => {}
        other => {
            return Err(format!(
                "version {} is not the version 2 this reads",
                other.map_or("missing".to_owned(), |v| v.to_string())
            ))
        }
    }
    let plugins = map
        .get("plugins")
        .and_then(Value::as_object)
        .ok_or("plugins is not an object")?;
    Ok(plugins
        .iter()
        .take(MAX_PLUGINS)
        .map(|(key, entries)| Installed {
            key: key.chars().take(300).collect(),
            install_path: entries
                .as_array()
                .and_then(|e| e.first())
                .and_then(|e| e.get("installPath"))
                .and_then(Value::as_str)
                .map(str::to_owned),
        })
        .collect())
}

/// `known_marketplaces.json`: each marketplace's `installLocation`, and whether it is a
/// local folder (`"source": {"source": "directory"}`), whose plugins are read in place.
pub(crate) fn marketplaces(text: &str) -> Vec<(String, String, bool)> {
    let Ok(map) = object(text) else {
        return Vec::new();
    };
    map.iter()
        .take(MAX_PLUGINS)
        .filter_map(|(name, entry)| {
            let location = entry.get("installLocation")?.as_str()?;
            let local = entry
                .get("source")
                .and_then(|s| s.get("source"))
                .and_then(Value::as_str)
                == Some("directory");
            Some((name.clone(), location.to_owned(), local))
        })
        .collect()
}

/// A marketplace's `marketplace.json`: the source of the plugin `name` when it is a path
/// inside the marketplace (`"./x"`); `None` for any other source (the cached copy is read).
pub(crate) fn relative_source(text: &str, name: &str) -> Option<String> {
    let map = object(text).ok()?;
    let plugins = map.get("plugins")?.as_array()?;
    let entry = plugins
        .iter()
        .take(MAX_PLUGINS)
        .find(|p| p.get("name").and_then(Value::as_str) == Some(name))?;
    entry.get("source")?.as_str().map(str::to_owned)
}

/// A plugin's `.claude-plugin/plugin.json`: its `name`.
///
/// # Errors
/// When the text is not a JSON object.
pub(crate) fn manifest_name(text: &str) -> Result<Option<String>, String> {
    let map = object(text)?;
    Ok(map
        .get("name")
        .and_then(Value::as_str)
        .filter(|n| !n.is_empty())
        .map(|n| n.chars().take(200).collect()))
}

/// `enabledPlugins` of a settings file: each key with its switch.
pub(crate) fn enabled(value: &Value) -> Vec<(String, bool)> {
    value
        .as_object()
        .into_iter()
        .flatten()
        .take(MAX_PLUGINS)
        .filter_map(|(key, on)| Some((key.clone(), on.as_bool()?)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn installed_version_2() {
        let found = installed(
            r#"{"version": 2, "plugins": {"a@m": [{"installPath": "/c/a/1"}], "b@m": []}}"#,
        )
        .unwrap();
        assert_eq!(found[0].install_path.as_deref(), Some("/c/a/1"));
        assert_eq!(found[1].install_path, None);
        assert!(installed(r#"{"version": 1, "plugins": {}}"#).is_err());
        assert!(installed("{").is_err());
        assert!(installed(r#"{"version": 2, "plugins": []}"#).is_err());
    }

    #[test]
    fn marketplace_sources() {
        let text = r#"{"plugins": [{"name": "a", "source": "./a"}, {"name": "b", "source": {"source": "github"}}]}"#;
        assert_eq!(relative_source(text, "a").as_deref(), Some("./a"));
        assert_eq!(relative_source(text, "b"), None);
        assert_eq!(
            manifest_name(r#"{"name": "p"}"#).unwrap().as_deref(),
            Some("p")
        );
        assert!(manifest_name("{").is_err());
    }
}
