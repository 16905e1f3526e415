//! The settings layers and what they decide: `claudeMdExcludes`, the auto-memory switch and
//! folder, and, from `~/.claude.json`, whether imports may leave the project.

use super::{Discovery, Text};
use crate::input::is_truthy;
use crate::report::{Code, ConfigLayer, Diagnostic, Os, ReadFor, Severity};
use crate::text::glob::Glob;
use crate::text::settings;
use crate::text::settings::SkillOverride;
use crate::version::Behaviour;
use crate::vpath::VPath;
use std::collections::BTreeMap;

/// What the settings decided.
#[derive(Debug)]
pub(super) struct EffectiveSettings {
    pub(super) auto_memory_enabled: bool,
    pub(super) enabled_from: Option<VPath>,
    /// Every layer that set `autoMemoryEnabled`, in precedence order: the last one wins.
    pub(super) votes: Vec<(VPath, bool)>,
    /// `claudeMdExcludes` of every layer, compiled, each with the settings file that set it.
    pub(super) excludes: Vec<(String, Glob, VPath)>,
    /// `autoMemoryDirectory`, resolved: the memory folder itself.
    pub(super) memory_directory: Option<(VPath, VPath)>,
    /// Where the memory folders of projects live (`<config>/projects`).
    pub(super) projects_base: VPath,
    /// `hasClaudeMdExternalIncludesApproved` for the project; `None` when `~/.claude.json`
    /// is not in the snapshot or does not say.
    pub(super) external_imports_approved: Option<bool>,
    /// True when `~/.claude.json` is in the snapshot.
    pub(super) claude_json_present: bool,
    /// `claudeMd` of the managed settings: instructions sent as `<managed-settings>`.
    pub(super) managed_claude_md: Option<String>,
    /// `skillListingMaxDescChars` of the layer that set it last.
    pub(super) skill_listing_max_desc: Option<u64>,
    /// `skillListingBudgetFraction` of the layer that set it last.
    pub(super) skill_listing_budget_fraction: Option<f64>,
    /// Every layer's hooks, in the layers' order (user, project, local, managed policy).
    pub(super) hooks: Vec<(VPath, ConfigLayer, settings::Hook)>,
    /// Hooks past the cap, per file.
    pub(super) hooks_left_out: Vec<(VPath, u64)>,
    /// `disableAllHooks` of the layer that set it last.
    pub(super) disable_all_hooks: bool,
    /// `enableAllProjectMcpServers` of the layer that set it last.
    pub(super) enable_all_project_mcp: bool,
    /// `enabledMcpjsonServers` of every layer.
    pub(super) enabled_mcpjson: Vec<String>,
    /// `disabledMcpjsonServers` of every layer.
    pub(super) disabled_mcpjson: Vec<String>,
    /// `enabledPlugins` of every layer, in the layers' order: the last of a key wins.
    pub(super) enabled_plugins: Vec<(String, bool)>,
    /// `skillOverrides`, merged by name (a later layer's value wins), with the file that set
    /// each.
    pub(super) skill_overrides: BTreeMap<String, (SkillOverride, VPath)>,
}

impl EffectiveSettings {
    pub(super) fn new(config: &VPath) -> EffectiveSettings {
        EffectiveSettings {
            auto_memory_enabled: true,
            enabled_from: None,
            votes: Vec::new(),
            excludes: Vec::new(),
            memory_directory: None,
            projects_base: config.child("projects"),
            external_imports_approved: None,
            claude_json_present: false,
            managed_claude_md: None,
            skill_listing_max_desc: None,
            skill_listing_budget_fraction: None,
            hooks: Vec::new(),
            hooks_left_out: Vec::new(),
            disable_all_hooks: false,
            enable_all_project_mcp: false,
            enabled_mcpjson: Vec::new(),
            disabled_mcpjson: Vec::new(),
            enabled_plugins: Vec::new(),
            skill_overrides: BTreeMap::new(),
        }
    }
}

/// A settings layer, from the least to the most specific.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Layer {
    User,
    Project,
    Local,
    Policy,
}

impl Discovery<'_> {
    /// Reads every settings layer and `~/.claude.json` into [`EffectiveSettings`].
    pub(super) fn read_settings(&mut self) {
        let mut files = vec![(self.paths.config.child("settings.json"), Layer::User)];
        if let Some(project) = &self.paths.project {
            files.push((
                project.child(".claude").child("settings.json"),
                Layer::Project,
            ));
            files.push((
                project.child(".claude").child("settings.local.json"),
                Layer::Local,
            ));
        }
        files.push((
            self.managed_dir().child(super::walk::MANAGED_SETTINGS),
            Layer::Policy,
        ));
        let mut patterns = Vec::new();
        let mut directory: Option<(Layer, VPath, String)> = None;
        for (path, layer) in files {
            if self.tree.is_file(&path) {
                self.source(&path, ReadFor::Settings, None);
            }
            let Text::Ready(text) = self.text(&path) else {
                continue;
            };
            let (parsed, warnings) = match settings::parse(&text) {
                Ok(parsed) => parsed,
                Err(error) => {
                    self.diagnostics.push(Diagnostic::new(
                        Code::InvalidSettings,
                        Severity::Warning,
                        Some(path.as_str()),
                        format!("settings file ignored: {error}"),
                    ));
                    continue;
                }
            };
            for warning in warnings {
                self.diagnostics.push(Diagnostic::new(
                    Code::InvalidSettings,
                    Severity::Warning,
                    Some(path.as_str()),
                    warning,
                ));
            }
            if let Some(enabled) = parsed
                .auto_memory_enabled
                .filter(|_| layer != Layer::Policy)
            {
                // Later layers win: local over project over user.
                self.settings.auto_memory_enabled = enabled;
                self.settings.enabled_from = Some(path.clone());
                self.settings.votes.push((path.clone(), enabled));
            }
            // The merged settings: a later layer (local over project over user, the policy
            // over all) replaces what an earlier one set.
            if let Some(max) = parsed.skill_listing_max_desc_chars {
                self.settings.skill_listing_max_desc = Some(max);
            }
            if let Some(fraction) = parsed.skill_listing_budget_fraction {
                self.settings.skill_listing_budget_fraction = Some(fraction);
            }
            let config_layer = match layer {
                Layer::User => ConfigLayer::User,
                Layer::Project => ConfigLayer::Project,
                Layer::Local => ConfigLayer::Local,
                Layer::Policy => ConfigLayer::Managed,
            };
            for hook in parsed.hooks {
                self.settings.hooks.push((path.clone(), config_layer, hook));
            }
            if parsed.hooks_left_out > 0 {
                self.settings
                    .hooks_left_out
                    .push((path.clone(), parsed.hooks_left_out));
            }
            if let Some(off) = parsed.disable_all_hooks {
                self.settings.disable_all_hooks = off;
            }
            if let Some(all) = parsed.enable_all_project_mcp_servers {
                self.settings.enable_all_project_mcp = all;
            }
            self.settings
                .enabled_mcpjson
                .extend(parsed.enabled_mcpjson_servers);
            self.settings
                .disabled_mcpjson
                .extend(parsed.disabled_mcpjson_servers);
            self.settings.enabled_plugins.extend(parsed.enabled_plugins);
            for (name, value) in parsed.skill_overrides {
                self.settings
                    .skill_overrides
                    .insert(name, (value, path.clone()));
            }
            if layer == Layer::Policy {
                self.settings.managed_claude_md = parsed.claude_md;
            } else {
                patterns.extend(
                    parsed
                        .claude_md_excludes
                        .into_iter()
                        .map(|pattern| (pattern, path.clone())),
                );
            }
            // Releases before 2.1.157 read it from every layer but the project's.
            let read_here =
                layer != Layer::Project || self.paths.rules.has(Behaviour::ProjectMemoryDirectory);
            if let Some(dir) = parsed.auto_memory_directory.filter(|_| read_here) {
                // Policy, then local, then project, then user: the most specific wins.
                if directory.as_ref().is_none_or(|(l, _, _)| layer > *l) {
                    directory = Some((layer, path.clone(), dir));
                }
            }
        }
        for (pattern, from) in patterns {
            match Glob::new(&pattern) {
                Ok(glob) => self.settings.excludes.push((pattern, glob, from)),
                Err(error) => self.diagnostics.push(Diagnostic::new(
                    Code::InvalidSettings,
                    Severity::Warning,
                    None,
                    format!("claudeMdExcludes pattern {pattern:?} ignored: {error}"),
                )),
            }
        }
        // Releases before `autoMemoryDirectory` arrived ignore it.
        let honoured = self.paths.rules.has(Behaviour::AutoMemoryDirectory);
        if let Some((_, from, dir)) = directory.filter(|_| honoured) {
            self.set_memory_directory(&from, &dir);
        }
        // The environment variable wins over every settings file.
        if self
            .paths
            .disable_auto_memory_env
            .as_deref()
            .is_some_and(is_truthy)
        {
            self.settings.auto_memory_enabled = false;
            self.settings.enabled_from = None;
        }
    }

    /// `~/.claude.json`, or `<config>/.claude.json` when the config folder is moved.
    pub(super) fn claude_json_path(&self) -> VPath {
        let default_config = self.paths.home.child(".claude");
        if self.paths.config == default_config {
            self.paths.home.child(".claude.json")
        } else {
            self.paths.config.child(".claude.json")
        }
    }

    /// The folder of the managed policy on the snapshot's OS.
    pub(super) fn managed_dir(&self) -> VPath {
        VPath::new(match self.paths.os {
            Os::Linux => "/etc/claude-code",
            Os::Macos => "/Library/Application Support/ClaudeCode",
            Os::Windows => "C:/Program Files/ClaudeCode",
        })
        .expect("constant path")
    }

    fn set_memory_directory(&mut self, from: &VPath, dir: &str) {
        let resolved = if let Some(rest) = dir.strip_prefix("~/") {
            self.paths.home.join(rest).ok()
        } else if dir == "~" {
            Some(self.paths.home.clone())
        } else {
            VPath::new(dir).ok()
        };
        match resolved {
            Some(folder) => self.settings.memory_directory = Some((folder, from.clone())),
            None => self.diagnostics.push(Diagnostic::new(
                Code::InvalidSettings,
                Severity::Warning,
                Some(from.as_str()),
                format!(
                    "autoMemoryDirectory {dir:?} is neither absolute nor under ~/; Claude Code \
                     ignores it and uses the default folder"
                ),
            )),
        }
    }

    /// `~/.claude.json` (`<config>/.claude.json` when the config folder is moved): only the
    /// external-import approval of the project is read, under the project's key: its git
    /// root, the main worktree's for a linked worktree (measured on 2.1.328), else the
    /// project folder.
    pub(super) fn read_claude_json(&mut self, key: &VPath) {
        let path = self.claude_json_path();
        if !self.tree.is_file(&path) {
            return;
        }
        self.settings.claude_json_present = true;
        self.source(&path, ReadFor::ClaudeJson, Some(key));
        if let Text::Ready(text) = self.text(&path) {
            self.settings.external_imports_approved =
                settings::external_includes_approved(&text, key.as_str());
        }
    }
}
