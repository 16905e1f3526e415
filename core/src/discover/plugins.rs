//! Plugins: which load, and where their content is read from (measured on 2.1.328:
//! `plugins-installed-enabled-listed`, `plugins-plugin-dir-loads-the-same-way`).
//!
//! - `<config>/plugins/installed_plugins.json` (version 2) lists the installed plugins by
//!   key (`name@marketplace`); one loads when the merged settings' `enabledPlugins` say
//!   `true` for its key (installed but not named, or `false`: it does not).
//! - Its content is the cached copy at the entry's `installPath`, unless its marketplace is a
//!   local folder (`known_marketplaces.json`: `"source": {"source": "directory"}`) whose
//!   `.claude-plugin/marketplace.json` gives the plugin a relative path (`"source": "./x"`):
//!   then that folder, read in place (`plugins-local-marketplace-read-in-place`). A GitHub
//!   marketplace's relative source still reads the cached copy.
//! - `--plugin-dir DIR` loads one the same way, always enabled.
//! - Its skills (`skills/<folder>/SKILL.md`), commands (`commands/**/*.md`) and agents
//!   (`agents/**/*.md`) are listed as `<plugin>:<name>`, the plugin's name from its
//!   `.claude-plugin/plugin.json`; its commands come after every other command, sorted
//!   among themselves, and only those whose frontmatter gives a description; its skills come
//!   after every command (measured on 2.1.328:
//!   `agents-order-add-dir-plugin-commands-and-skill-folders`); its `hooks/hooks.json` hooks run and its `.mcp.json` servers
//!   start (`plugin:<plugin>:<server>`), listed in `session.not_counted`. Its `CLAUDE.md`
//!   is not loaded.

use super::{Discovery, Node, Text};
use crate::report::{
    Code, ConfigLayer, Diagnostic, NotCounted, NotCountedKind, PluginInfo, ReadFor, RunsWhen,
    Scope, Severity,
};
use crate::text::{plugins, settings};
use crate::vpath::VPath;

/// A plugin that loads.
#[derive(Debug, Clone)]
pub(super) struct Plugin {
    /// The name its entries are listed under.
    pub(super) name: String,
    /// Its folder.
    pub(super) root: VPath,
}

impl Discovery<'_> {
    /// Reads the plugin configuration and records every plugin found in `self.plugins`
    /// (those that load) and `self.plugin_infos` (all, for the report).
    pub(super) fn find_plugins(&mut self) {
        let base = self.paths.config.child("plugins");
        let installed_file = base.child("installed_plugins.json");
        let mut found: Vec<(String, Option<String>, VPath, bool)> = Vec::new();
        if let Some(text) = self.plugin_file(&installed_file) {
            match plugins::installed(&text) {
                Ok(installed) => {
                    let markets_file = base.child("known_marketplaces.json");
                    let markets = self
                        .plugin_file(&markets_file)
                        .map(|t| plugins::marketplaces(&t))
                        .unwrap_or_default();
                    for entry in installed {
                        let (plain, market) = entry
                            .key
                            .rsplit_once('@')
                            .map_or((entry.key.as_str(), None), |(n, m)| (n, Some(m)));
                        let enabled = self
                            .settings
                            .enabled_plugins
                            .iter()
                            .rev()
                            .find(|(key, _)| *key == entry.key)
                            .is_some_and(|(_, on)| *on);
                        // A local marketplace reads a plugin it holds by a relative path in
                        // place; any other, the cached copy (measured on 2.1.328).
                        let own = market.and_then(|market| {
                            let (_, location, _) =
                                markets.iter().find(|(m, _, local)| m == market && *local)?;
                            let location = VPath::new(location).ok()?;
                            let listing =
                                location.child(".claude-plugin").child("marketplace.json");
                            let text = self.plugin_file(&listing)?;
                            let source = plugins::relative_source(&text, plain)?;
                            location.join(source.trim_start_matches("./")).ok()
                        });
                        let root = own.or_else(|| {
                            entry
                                .install_path
                                .as_deref()
                                .and_then(|p| VPath::new(p).ok())
                        });
                        let Some(root) = root else {
                            continue;
                        };
                        found.push((plain.to_owned(), market.map(str::to_owned), root, enabled));
                    }
                }
                Err(error) => self.diagnostics.push(Diagnostic::new(
                    Code::InvalidSettings,
                    Severity::Warning,
                    Some(installed_file.as_str()),
                    format!("installed plugins ignored: {error}"),
                )),
            }
        }
        for dir in self.paths.plugin_dirs.clone() {
            found.push((dir.file_name().to_owned(), None, dir, true));
        }
        for (plain, market, root, enabled) in found {
            let manifest = root.child(".claude-plugin").child("plugin.json");
            let name = match self
                .plugin_file(&manifest)
                .map(|t| plugins::manifest_name(&t))
            {
                Some(Ok(Some(name))) => name,
                Some(Err(error)) => {
                    self.diagnostics.push(Diagnostic::new(
                        Code::InvalidSettings,
                        Severity::Warning,
                        Some(manifest.as_str()),
                        format!("plugin manifest does not parse: {error}"),
                    ));
                    plain
                }
                _ => plain,
            };
            self.plugin_infos.push(PluginInfo {
                name: name.clone(),
                marketplace: market,
                folder: root.as_str().to_owned(),
                enabled,
            });
            if enabled {
                self.plugins.push(Plugin { name, root });
            }
        }
    }

    /// A plugin configuration file's text, recorded as read; `None` when it is not there or
    /// not read (too large: a finding says so).
    fn plugin_file(&mut self, path: &VPath) -> Option<String> {
        if !self.tree.is_file(path) {
            return None;
        }
        self.source(path, ReadFor::PluginConfig, None);
        match self.text(path) {
            Text::Ready(text) => Some(text),
            _ => None,
        }
    }

    /// The skills of the plugins that load, listed after every command as
    /// `<plugin>:<folder>`.
    pub(super) fn plugin_skills(&mut self) -> Vec<Node> {
        let mut nodes = Vec::new();
        for plugin in self.plugins.clone() {
            let lines_before = self.skill_lines.len();
            let names_before = self.skill_names.clone();
            let mut found = self.skill_folder(
                &plugin.root.child("skills"),
                Scope::User,
                super::skills::SkillSource::Listed,
            );
            // A plugin's skill takes no plain name from a command.
            self.skill_names = names_before;
            let prefixed = |name: &str| format!("{}:{name}", plugin.name);
            let mut shown_of = std::collections::BTreeMap::new();
            for line in &mut self.skill_lines[lines_before..] {
                let shown = prefixed(&line.shown);
                line.line = prefixed(&line.line);
                shown_of.insert(line.path.clone(), (shown.clone(), line.line.clone()));
                line.shown = shown;
            }
            for node in &mut found {
                if let Some(name) = &node.row.skill_name {
                    node.row.skill_name = Some(prefixed(name));
                }
                let path = VPath::new(&node.row.path).ok();
                if let Some((shown, line)) = path.and_then(|p| shown_of.get(&p)) {
                    node.row.skill_listing = Some(crate::report::Measure {
                        lines: 0,
                        ..super::skills::listed_measure(self.tree, line, shown).0
                    });
                }
            }
            nodes.extend(found);
        }
        nodes
    }

    /// The hooks and MCP servers of the plugins that load.
    pub(super) fn plugin_not_counted(&mut self, out: &mut Vec<NotCounted>) {
        for plugin in self.plugins.clone() {
            let hooks_file = plugin.root.child("hooks").child("hooks.json");
            if let Some(text) = self.plugin_file(&hooks_file) {
                match settings::parse(&text) {
                    Ok((parsed, _)) => {
                        for hook in parsed.hooks {
                            let when = if self.settings.disable_all_hooks {
                                RunsWhen::Disabled
                            } else {
                                super::not_counted::hook_runs(&hook.event, hook.matcher.as_deref())
                            };
                            out.push(NotCounted {
                                kind: NotCountedKind::Hook,
                                event: Some(hook.event),
                                server: None,
                                matcher: hook.matcher,
                                program: hook.program,
                                path: hooks_file.as_str().to_owned(),
                                layer: ConfigLayer::Plugin,
                                when,
                            });
                        }
                    }
                    Err(error) => self.diagnostics.push(Diagnostic::new(
                        Code::InvalidSettings,
                        Severity::Warning,
                        Some(hooks_file.as_str()),
                        format!("plugin hooks ignored: {error}"),
                    )),
                }
            }
            let mcp = plugin.root.child(".mcp.json");
            if self.tree.is_file(&mcp) {
                self.source(&mcp, ReadFor::McpConfig, None);
                if let Text::Ready(text) = self.text(&mcp) {
                    if let Ok((servers, _)) = settings::mcp_json(&text) {
                        for server in servers {
                            out.push(NotCounted {
                                kind: NotCountedKind::McpServer,
                                event: None,
                                server: Some(format!("plugin:{}:{}", plugin.name, server.name)),
                                matcher: None,
                                program: server.program,
                                path: mcp.as_str().to_owned(),
                                layer: ConfigLayer::Plugin,
                                when: RunsWhen::EverySession,
                            });
                        }
                    }
                }
            }
        }
    }
}
