//! The references of a file: `@` imports, which load with it, and Markdown links, which only
//! point. Measured on 2.1.328: imports load four hops deep (the root file is hop 0); a target
//! with a non-text extension is skipped; missing files and cycles are skipped silently; and
//! an import from a project, local or managed file that leaves the project folder loads only
//! once `~/.claude.json` approves external includes for the project.

use std::collections::BTreeSet;

use super::{blank_row_str, Discovery, Node};
use crate::report::{
    Code, Diagnostic, FileRow, FileStatus, Group, LoadType, ReadFor, ReferenceKind, ReferenceSite,
    Scope, Severity, UnresolvedReason,
};
use crate::text::references::{self, has_extension, RawReference};
use crate::version::Behaviour;
use crate::vpath::VPath;

/// Extensions Claude Code will not import as text (binary files, archives, media).
const NON_TEXT_EXTENSIONS: [&str; 40] = [
    "png", "jpg", "jpeg", "gif", "bmp", "ico", "webp", "tif", "tiff", "avif", "heic", "psd", "pdf",
    "zip", "gz", "tgz", "bz2", "xz", "7z", "rar", "tar", "jar", "exe", "dll", "so", "dylib", "bin",
    "o", "a", "class", "wasm", "mp3", "mp4", "mov", "avi", "wav", "flac", "ogg", "woff", "woff2",
];

/// Where the references being expanded belong.
#[derive(Clone, Copy)]
struct Chain {
    group: Group,
    /// The scope of the file that starts the chain: it decides whether leaving the project
    /// needs approval.
    scope: Option<Scope>,
}

impl Discovery<'_> {
    /// The rows for the references in `text`, which belongs to the top-level row `row`.
    pub(super) fn references_of(
        &mut self,
        text: &str,
        path: &VPath,
        row: &mut FileRow,
        scope: Option<Scope>,
    ) -> Vec<Node> {
        let mut ancestors = vec![path.clone()];
        let mut seen = BTreeSet::from([path.clone()]);
        let chain = Chain {
            group: row.group,
            scope,
        };
        self.expand(text, path, row, 0, &mut ancestors, &mut seen, chain)
    }

    /// The rows for the references in `text`, which belongs to `parent` at `depth` hops.
    #[allow(clippy::too_many_arguments)]
    fn expand(
        &mut self,
        text: &str,
        parent: &VPath,
        parent_row: &mut FileRow,
        depth: u32,
        ancestors: &mut Vec<VPath>,
        seen: &mut BTreeSet<VPath>,
        chain: Chain,
    ) -> Vec<Node> {
        let mut children = Vec::new();
        // A linked file's imports resolve from its target's folder (measured on 2.1.59 to
        // 2.1.332), though the file itself is named by the link's path.
        let resolved_parent = self.tree.link_target(parent).unwrap_or(parent);
        let folder = resolved_parent
            .parent()
            .unwrap_or_else(|| resolved_parent.clone());
        for mut reference in
            references::scan_with(text, self.paths.rules.has(Behaviour::CommentsStripped))
        {
            // A shared snapshot writes a renamed target at its original's length, as a
            // stand-in where the pseudonym's length differs (`Tree::set_stand_ins`).
            if let Some(target) = self.tree.stand_in_target(parent, &reference.target) {
                reference.target = target.to_owned();
            }
            let resolved = self.resolve(&folder, &reference.target);
            // An import that ends in punctuation never loads, even when a file of that very
            // name exists (measured on 2.1.328).
            let exists = resolved.as_ref().is_some_and(|p| self.tree.is_file(p))
                && !(reference.kind == ReferenceKind::Import && reference.trailing_punctuation);
            // `@name` without an extension is an import only when that file exists: most
            // are handles and package names, which the program skips silently too.
            if reference.kind == ReferenceKind::Import
                && !exists
                && !has_extension(&reference.target)
            {
                continue;
            }
            if let Some(target) = resolved.as_ref().filter(|_| exists) {
                self.looked_at(target, ReadFor::Exists);
            }
            parent_row.references.push(ReferenceSite {
                kind: reference.kind,
                target: reference.target.clone(),
                line: reference.line,
                resolved: resolved.as_ref().map(|p| p.as_str().to_owned()),
                exists,
            });
            let hop = depth + 1;
            let max_import_hops = self.paths.rules.max_import_hops;
            // References are listed one hop past what loads, so the too-deep import shows.
            if hop > max_import_hops + 1 {
                continue;
            }
            if reference.kind == ReferenceKind::Link
                && resolved
                    .as_ref()
                    .is_some_and(|p| self.tree.is_dir(p) && !exists)
            {
                // A link to a folder points at no file to list; the folder is looked up.
                if let Some(folder) = &resolved {
                    self.looked_at(folder, ReadFor::Folder);
                }
                continue;
            }
            let load = match reference.kind {
                ReferenceKind::Import => LoadType::Import,
                ReferenceKind::Link => LoadType::Link,
            };
            let shown = resolved
                .as_ref()
                .map_or_else(|| reference.target.clone(), |p| p.as_str().to_owned());
            // Sources may list bulk data without its size (see `is_bulk_data`): show none.
            let size = resolved
                .as_ref()
                .filter(|p| !self.is_bulk(p))
                .and_then(|p| self.tree.file(p))
                .map(|f| f.size);
            let mut row = blank_row_str(&shown, chain.group, load, size);
            row.parent = Some(parent.as_str().to_owned());
            row.depth = hop;
            row.reference = parent_row.references.last().cloned();

            if !exists {
                self.unresolved(&mut row, parent, &reference, resolved.as_ref());
                children.push(leaf(row));
                continue;
            }
            let target = resolved.expect("exists implies resolved");
            if reference.kind == ReferenceKind::Import {
                if let Some(status) = self.import_blocked(&target, parent, &reference, hop, chain) {
                    row.status = status;
                    children.push(leaf(row));
                    continue;
                }
            }
            let text = self.fill_row(&mut row, &target);
            if ancestors.contains(&target) {
                if reference.kind == ReferenceKind::Import {
                    self.diagnostics.push(
                        Diagnostic::new(
                            Code::ImportCycle,
                            Severity::Warning,
                            Some(parent.as_str()),
                            format!(
                                "@{} leads back to {}, which is already being loaded; the \
                                 cycle is not followed",
                                reference.target,
                                target.file_name()
                            ),
                        )
                        .at_line(reference.line),
                    );
                }
                children.push(leaf(row));
                continue;
            }
            let first_visit = seen.insert(target.clone());
            let mut grandchildren = Vec::new();
            if let (Some(text), true) = (text, first_visit) {
                ancestors.push(target.clone());
                grandchildren = self.expand(&text, &target, &mut row, hop, ancestors, seen, chain);
                ancestors.pop();
            }
            children.push(Node {
                row,
                children: grandchildren,
            });
        }
        children
    }

    /// Why an import that exists does not load, if it does not.
    fn import_blocked(
        &mut self,
        target: &VPath,
        parent: &VPath,
        reference: &RawReference,
        hop: u32,
        chain: Chain,
    ) -> Option<FileStatus> {
        let max_import_hops = self.paths.rules.max_import_hops;
        let at = |d: Diagnostic| d.at_line(reference.line);
        if hop > max_import_hops {
            self.diagnostics.push(at(Diagnostic::new(
                Code::ImportTooDeep,
                Severity::Warning,
                Some(parent.as_str()),
                format!(
                    "@{} is {hop} hops from the file that starts the chain; Claude Code stops \
                     after {max_import_hops}, so it is not loaded",
                    reference.target
                ),
            )));
            return Some(FileStatus::TooDeep);
        }
        if target
            .extension()
            .is_some_and(|e| NON_TEXT_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
        {
            self.diagnostics.push(at(Diagnostic::new(
                Code::ImportNotText,
                Severity::Info,
                Some(parent.as_str()),
                format!(
                    "@{} is not a text file; Claude Code skips it",
                    reference.target
                ),
            )));
            return Some(FileStatus::NotText);
        }
        // claudeMdExcludes never reaches the managed policy, its imports included.
        let excluded = (chain.scope != Some(Scope::Managed))
            .then(|| self.exclude_pattern(target))
            .flatten();
        if let Some(pattern) = excluded {
            self.diagnostics.push(at(Diagnostic::new(
                Code::ClaudeMdExcluded,
                Severity::Info,
                Some(target.as_str()),
                format!("excluded by claudeMdExcludes pattern {pattern}; not loaded"),
            )));
            return Some(FileStatus::Excluded);
        }
        let guarded = matches!(
            chain.scope,
            Some(Scope::Project | Scope::Local | Scope::Managed)
        );
        let outside = self
            .paths
            .project
            .as_ref()
            .is_some_and(|project| !target.starts_with(project));
        if guarded && outside && self.settings.external_imports_approved != Some(true) {
            let how = if self.settings.claude_json_present {
                "~/.claude.json does not approve external imports for this project"
            } else {
                "add ~/.claude.json to see whether you approved external imports for this \
                 project"
            };
            self.diagnostics.push(at(Diagnostic::new(
                Code::ImportNeedsApproval,
                Severity::Warning,
                Some(parent.as_str()),
                format!(
                    "@{} resolves outside the project to {target}; Claude Code loads it only \
                     after you approve external imports ({how}), so it is not counted",
                    reference.target
                ),
            )));
            return Some(FileStatus::NeedsApproval);
        }
        None
    }

    /// True for a path among the config directory's session data: a session's transcript
    /// and folders beside a project's `memory/` (`projects/<name>/<id>.jsonl`,
    /// `projects/<name>/<id>/tool-results/…`), and the bulk folders
    /// ([`crate::limits::BULK_DATA_FOLDERS`]).
    fn is_session_data(&self, path: &VPath) -> bool {
        let Some(below) = path.strip_prefix(&self.paths.config) else {
            return false;
        };
        let segments: Vec<&str> = below.split('/').collect();
        match segments.as_slice() {
            ["projects", _, rest, ..] => *rest != "memory",
            [first, _, ..] => crate::limits::BULK_DATA_FOLDERS.contains(first),
            _ => false,
        }
    }

    fn unresolved(
        &mut self,
        row: &mut FileRow,
        parent: &VPath,
        reference: &RawReference,
        resolved: Option<&VPath>,
    ) {
        row.status = FileStatus::Unresolved;
        let reason = match resolved {
            Some(path) if !self.tree.is_covered(path) => UnresolvedReason::OutsideSnapshot,
            // Session data is never listed by the page's walk or the README's zip: only a
            // look-up of this very path (the command's probe) says it is missing.
            Some(path) if self.is_session_data(path) && !self.tree.answered_absent(path) => {
                UnresolvedReason::NotLookedAt
            }
            Some(path) if self.tree.is_known_absent(path) => UnresolvedReason::Missing,
            Some(_) => UnresolvedReason::NotLookedAt,
            None => UnresolvedReason::OutsideSnapshot,
        };
        row.unresolved_reason = Some(reason);
        let written = match reference.kind {
            ReferenceKind::Import => format!("@{}", reference.target),
            ReferenceKind::Link => format!("({})", reference.target),
        };
        let message = match reason {
            UnresolvedReason::Missing => {
                format!("{written} points to {}, which does not exist", row.path)
            }
            UnresolvedReason::OutsideSnapshot => format!(
                "{written} points to {}, outside the folders in this snapshot; it may exist on \
                 the machine",
                row.path
            ),
            UnresolvedReason::NotLookedAt => format!(
                "{written} points to {}, where the snapshot did not look (session data and \
                 folders left unlisted are not read); it may exist on the machine",
                row.path
            ),
        };
        self.diagnostics.push(
            Diagnostic::new(
                Code::UnresolvedReference,
                Severity::Warning,
                Some(parent.as_str()),
                message,
            )
            .at_line(reference.line),
        );
        if reference.trailing_punctuation {
            let trimmed = reference
                .target
                .trim_end_matches([':', ',', ';', '.', ')', '!', '?']);
            self.diagnostics.push(
                Diagnostic::new(
                    Code::ImportTrailingPunctuation,
                    Severity::Info,
                    Some(parent.as_str()),
                    format!(
                        "{written} ends in punctuation that Claude Code keeps as part of the \
                         path; write @{trimmed} with a space after it"
                    ),
                )
                .at_line(reference.line),
            );
        }
    }

    /// Resolves a reference target: `~/` from home, an absolute path as is, anything else
    /// from the folder of the file that holds it.
    fn resolve(&self, folder: &VPath, target: &str) -> Option<VPath> {
        if let Some(rest) = target.strip_prefix("~/") {
            return self.paths.home.join(rest).ok();
        }
        if let Ok(absolute) = VPath::new(target) {
            return Some(absolute);
        }
        folder.join(target).ok()
    }
}

fn leaf(row: FileRow) -> Node {
    Node {
        row,
        children: Vec::new(),
    }
}
