//! The native reader: lists folders, zips and single files of this machine into one virtual
//! tree, and reads the files the analysis asks for.
//!
//! This is the one place in the workspace that touches `std::fs`. A folder is listed lazily:
//! a mount lists its own entries by name, each folder below it is listed when the analysis
//! first looks into it, and each file is sized and dated when the analysis first looks at
//! it ([`ContentSource::list`] and [`ContentSource::stat`], driven by
//! [`memdiag_core::analyze_with`]). So the transcripts of projects the report never opens,
//! and folders nothing reads, are never listed. Contents are read when the analysis names
//! them (`Requests::reads`), never otherwise, and `*.jsonl` transcripts and the bulk
//! folders of a config directory are never read (not even sized).
//!
//! **Links.** A symbolic link to a file is followed as Claude Code follows it (measured on
//! 2.1.328: the file loads under the link's path, its imports resolve beside its target,
//! recorded with `Tree::add_link`), but only when it resolves inside the
//! folder the mount confines it to; this is checked after resolving (`canonicalize`, then a
//! prefix test on the resolved path), at listing time and again at read time. A read opens
//! exactly the path the listing found, never a path rebuilt from the virtual one, so a file
//! named `rules\secret.md` in a Windows-style mount cannot be reached through a link named
//! `rules`. Links to folders are not listed through; on the host's own paths the scan
//! records where one inside the mount leads (`Tree::add_link`), so that a linked
//! `.claude/rules/`, or a folder linked inside one, is followed as the simulated release
//! follows it (inside the working folder always, elsewhere before 2.1.232). Every link left
//! out is named in a `scan-skipped` finding.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::{SystemTime, UNIX_EPOCH};

use memdiag_core::report::{Code, FileStatus, Os, Report, UnresolvedReason};
use memdiag_core::{
    analyze_with, is_bulk_data, mount_zip, ContentSource, Contents, Diagnostic, FileEntry, Input,
    Listed, ListingAsk, Probe, Severity, Tree, VPath, ZipLimits, ZipSource,
};

/// The largest file read from a folder: the core's one read limit, as for a zip entry.
const MAX_FILE_BYTES: u64 = memdiag_core::limits::READ_LIMIT_BYTES;

/// The most entries one folder mount lists before it stops (and says so): running in a home
/// folder must not walk the whole disk.
const MAX_LISTED: u64 = 200_000;

/// When this environment variable is set, every folder is listed whole and every file sized
/// before the analysis, as before the command listed lazily: `scripts/bench-native.sh`
/// checks that the report is the same byte for byte, and times both.
const LIST_WHOLE: &str = "MEMDIAG_LIST_WHOLE";

/// Set (to anything) to forget the order folders and zips listed their entries in, as a
/// dropped folder does: rules and skills come by name, with the findings that say the
/// order is unknown. The file system's order differs from machine to machine, so the
/// command's tests set it for output that does not.
const LISTING_BY_NAME: &str = "MEMDIAG_LISTING_BY_NAME";

/// Rounds of following imports and links to files outside the default mounts.
const MAX_OUTSIDE_ROUNDS: usize = 10;

/// One `--mount VIRTUAL=LOCAL`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Mount {
    /// Where the source shows in the virtual tree.
    pub(crate) at: VPath,
    /// The folder or `.zip` file on this machine.
    pub(crate) local: PathBuf,
}

/// Where the files come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Sources {
    /// Folders and zips named with `--mount`: a snapshot, whatever machine it came from.
    Mounts(Vec<Mount>),
    /// This machine as Claude Code would see it: the config folder, `.claude.json`, the
    /// project and the folders above it, the managed policy, and any file outside those
    /// that the analysis references.
    Host,
}

/// Lists the sources and runs the analysis to completion.
///
/// # Errors
/// A source that cannot be listed or opened, or an input the analysis refuses.
pub(crate) fn scan(input: &Input, sources: &Sources) -> Result<Report, String> {
    scan_with_tree(input, sources).map(|(report, _)| report)
}

/// [`scan`], with the tree it ran over and the contents it read: what sharing sanitizes.
pub(crate) fn scan_with_tree(input: &Input, sources: &Sources) -> Result<(Report, Tree), String> {
    let mut reader = Reader {
        config: match &input.config_dir {
            Some(dir) => VPath::new(dir).ok(),
            None => VPath::new(&input.home)
                .ok()
                .map(|home| home.child(".claude")),
        },
        ..Reader::default()
    };
    match sources {
        Sources::Mounts(mounts) => {
            for mount in mounts {
                reader.mount(mount)?;
            }
            let report = reader.run(input)?;
            Ok((report, reader.tree))
        }
        Sources::Host => {
            reader.mount_host(input)?;
            let mut report = reader.run(input)?;
            for _ in 0..MAX_OUTSIDE_ROUNDS {
                if !reader.mount_outside(&report) {
                    break;
                }
                report = reader.run(input)?;
            }
            Ok((report, reader.tree))
        }
    }
}

/// The virtual path of a path of this machine (`C:\Users\a` becomes `C:/Users/a`).
///
/// # Errors
/// A relative path or one that is not UTF-8.
pub(crate) fn vpath_of(local: &Path) -> Result<VPath, String> {
    let text = local
        .to_str()
        .ok_or_else(|| format!("{} is not valid UTF-8", local.display()))?;
    // `canonicalize` on Windows gives verbatim paths (`\\?\C:\…`).
    let text = text.strip_prefix(r"\\?\").unwrap_or(text);
    VPath::new(text).map_err(|error| error.to_string())
}

/// The path of this machine a virtual path of the host names.
fn local_of(path: &VPath) -> PathBuf {
    PathBuf::from(path.as_str())
}

/// The host's operating system, for the managed policy path.
pub(crate) fn host_os() -> Os {
    if cfg!(windows) {
        Os::Windows
    } else if cfg!(target_os = "macos") {
        Os::Macos
    } else {
        Os::Linux
    }
}

/// The tree being built and where each of its files is read from.
#[derive(Debug, Default)]
pub(crate) struct Reader {
    tree: Tree,
    /// Every listed file of a folder, with the exact path the listing found it at and the
    /// folder its link (if it is one) must resolve inside. Hashed: a large project lists
    /// tens of thousands of long paths that share their first segments, which an ordered
    /// map compares again at every level.
    files: HashMap<VPath, Local>,
    /// Every listed folder's own files, by the folder: a folder listing keeps one record for
    /// its files rather than one per file (at 300,000 entries, a map of 129,000 paths
    /// cost a tenth of the run, mostly rehashing as it grew). A file found by a probe, a
    /// link or a single-file mount is in `files`.
    listed_dirs: HashMap<VPath, ListedDir>,
    /// Zip mounts, by mount point.
    zips: Vec<(VPath, ZipSource)>,
    /// The config folder, whose bulk folders are never listed.
    config: Option<VPath>,
    /// Files outside the mounts already looked for.
    tried: BTreeSet<VPath>,
    /// Folders in the tree whose entries are not listed yet, and where to list them from.
    unlisted: BTreeMap<VPath, Unlisted>,
    /// Each folder mount's listing so far, by mount point.
    listings: BTreeMap<VPath, Listing>,
    /// What probes put in the tree ([`ContentSource::probe`]): a listing of their folder
    /// later leaves them as they are.
    probed: BTreeSet<VPath>,
    /// Each folder a file was read from, resolved ([`resolve_file`]).
    resolved_dirs: HashMap<PathBuf, PathBuf>,
}

/// A folder to list when the analysis looks into it.
#[derive(Debug, Clone)]
struct Unlisted {
    /// The mount point of the listing that found it (shared by every file it lists).
    mount: Rc<VPath>,
    local: PathBuf,
    /// The folder its links must resolve inside.
    confine: Rc<PathBuf>,
}

/// What one folder mount has listed: how many entries, and what it left out.
#[derive(Debug, Default)]
struct Listing {
    listed: u64,
    skipped: Skipped,
}

/// A listed file of this machine.
#[derive(Debug, Clone)]
struct Local {
    /// The mount point of the listing that found it.
    mount: Rc<VPath>,
    path: PathBuf,
    confine: Rc<PathBuf>,
}

/// Where a listed folder's files are read from, shared by them.
#[derive(Debug)]
struct ListedDir {
    /// The mount point of the listing that found it.
    mount: Rc<VPath>,
    local: PathBuf,
    confine: Rc<PathBuf>,
    /// The names of the files listed in it to be read when asked (not bulk data): a lookup
    /// is one hash, so sizing and reading every file of a folder of 100,000 costs n (an
    /// eager listing asks for each).
    names: HashSet<Box<str>>,
}

impl ListedDir {
    /// Where the listed file `name` of this folder is read from, if it was listed to be read.
    fn file(&self, name: &str) -> Option<Local> {
        self.names.contains(name).then(|| Local {
            mount: self.mount.clone(),
            path: self.local.join(name),
            confine: self.confine.clone(),
        })
    }

    /// Adds a listed name (a folder listed again adds its names to the earlier ones).
    fn push(&mut self, name: &str) {
        self.names.insert(name.into());
    }
}

/// What one folder listing left out, for its finding.
#[derive(Debug, Default)]
struct Skipped {
    unreadable: u64,
    dangling: u64,
    folder_links: u64,
    odd_names: Vec<String>,
    outside: Vec<String>,
    stopped: bool,
}

impl Reader {
    /// The tree listed so far.
    #[cfg(test)]
    pub(crate) fn tree(&self) -> &Tree {
        &self.tree
    }

    /// Names the config folder, whose bulk folders are never listed.
    #[cfg(test)]
    pub(crate) fn set_config(&mut self, config: VPath) {
        self.config = Some(config);
    }

    fn run(&mut self, input: &Input) -> Result<Report, String> {
        if std::env::var_os(LIST_WHOLE).is_some() {
            self.list_everything();
        }
        let mut tree = self.tree.clone();
        if std::env::var_os(LISTING_BY_NAME).is_some() {
            tree.forget_listing_orders();
        }
        let report = analyze_with(&mut tree, input, self).map_err(|error| error.to_string())?;
        // Keep what was read, so a later round reads nothing twice.
        self.tree = tree;
        Ok(report)
    }

    /// Mounts one `--mount`: a folder or a `.zip` file.
    pub(crate) fn mount(&mut self, mount: &Mount) -> Result<(), String> {
        let shown = mount.local.display();
        let metadata =
            fs::metadata(&mount.local).map_err(|error| format!("cannot read {shown}: {error}"))?;
        if metadata.is_dir() {
            let confine = fs::canonicalize(&mount.local)
                .map_err(|error| format!("cannot read {shown}: {error}"))?;
            self.list_dir(&mount.at, &mount.local, &confine)
                .map_err(|error| format!("cannot list {shown}: {error}"))
        } else if metadata.is_file() && is_zip_name(&mount.local) {
            let bytes =
                fs::read(&mount.local).map_err(|error| format!("cannot read {shown}: {error}"))?;
            let zip = mount_zip(
                &mut self.tree,
                mount.at.as_str(),
                bytes,
                ZipLimits::default(),
            )
            .map_err(|error| format!("{shown}: {error}"))?;
            self.zips.push((mount.at.clone(), zip));
            Ok(())
        } else {
            Err(format!("{shown} is neither a folder nor a .zip file"))
        }
    }

    /// Mounts what Claude Code reads on this machine for `input`: the config folder (its
    /// links may lead anywhere in the home folder, as a dotfiles setup does), the
    /// `.claude.json` beside it, the managed policy folder, the project (links confined to
    /// it), and in each folder above the project only the names the walk looks at.
    fn mount_host(&mut self, input: &Input) -> Result<(), String> {
        let home = VPath::new(&input.home).map_err(|error| format!("home: {error}"))?;
        let config = match &input.config_dir {
            Some(dir) => VPath::new(dir).map_err(|error| format!("config directory: {error}"))?,
            None => home.child(".claude"),
        };
        let home_local = local_of(&home);
        let home_confine = fs::canonicalize(&home_local).unwrap_or_else(|_| home_local.clone());
        // A config folder moved out of the home folder confines its links to itself.
        let config_confine = if config.starts_with(&home) {
            home_confine.clone()
        } else {
            fs::canonicalize(local_of(&config)).unwrap_or_else(|_| local_of(&config))
        };
        self.mount_dir_if_any(&config, &config_confine)?;
        for candidate in [home.child(".claude.json"), config.child(".claude.json")] {
            self.mount_file(&candidate, &home_confine);
        }
        let managed = VPath::new(match input.os {
            Os::Linux => "/etc/claude-code",
            Os::Macos => "/Library/Application Support/ClaudeCode",
            Os::Windows => "C:/Program Files/ClaudeCode",
        })
        .map_err(|error| error.to_string())?;
        let managed_confine =
            fs::canonicalize(local_of(&managed)).unwrap_or_else(|_| local_of(&managed));
        self.mount_dir_if_any(&managed, &managed_confine)?;
        let Some(project) = &input.project else {
            return Ok(());
        };
        let project = VPath::new(project).map_err(|error| format!("project: {error}"))?;
        let project_local = local_of(&project);
        let confine = fs::canonicalize(&project_local).map_err(|error| {
            format!(
                "cannot read the project {}: {error}",
                project_local.display()
            )
        })?;
        self.list_dir(&project, &project_local, &confine)
            .map_err(|error| format!("cannot list {}: {error}", project_local.display()))?;
        // The `--add-dir` and `--plugin-dir` folders, whole (never their parents: Claude
        // Code reads none).
        for dir in input.additional_dirs.iter().chain(&input.plugin_dirs) {
            let dir = VPath::new(dir).map_err(|error| format!("--add-dir: {error}"))?;
            if project.starts_with(&dir) || dir.starts_with(&project) {
                continue;
            }
            let dir_local = local_of(&dir);
            let confine = fs::canonicalize(&dir_local).map_err(|error| {
                format!("cannot read --add-dir {}: {error}", dir_local.display())
            })?;
            self.list_dir(&dir, &dir_local, &confine)
                .map_err(|error| format!("cannot list {}: {error}", dir_local.display()))?;
        }
        for dir in project.ancestors().filter(|dir| *dir != project) {
            let dir_local = local_of(&dir);
            let confine = fs::canonicalize(&dir_local).unwrap_or_else(|_| dir_local.clone());
            for name in ["CLAUDE.md", "CLAUDE.local.md", "AGENTS.md", ".git"] {
                self.mount_file(&dir.child(name), &confine);
            }
            let dot_claude = dir.child(".claude");
            if dot_claude == config || dot_claude.starts_with(&config) {
                continue;
            }
            self.mount_file(&dot_claude.child("CLAUDE.md"), &confine);
            // Rules, and what the skills listing and the agent types list from each parent
            // up to the git root (the core decides which parents count).
            for folder in ["rules", "skills", "commands", "agents"] {
                self.mount_dir_if_any(&dot_claude.child(folder), &confine)?;
            }
        }
        Ok(())
    }

    /// Lists a folder of the host when it exists. A missing one is not mounted: a mount
    /// point is a folder to the tree, and a `.claude/rules` that is not there must not be.
    fn mount_dir_if_any(&mut self, at: &VPath, confine: &Path) -> Result<(), String> {
        let local = local_of(at);
        match fs::symlink_metadata(&local) {
            Ok(metadata) if metadata.is_dir() => self
                .list_dir(at, &local, confine)
                .map_err(|error| format!("cannot list {}: {error}", local.display())),
            // A linked folder is listed when it resolves inside its confinement (the config
            // folder linked into a dotfiles checkout).
            Ok(metadata) if metadata.file_type().is_symlink() => match fs::canonicalize(&local) {
                Ok(target) if target.starts_with(confine) && target.is_dir() => self
                    .list_dir(at, &local, confine)
                    .map_err(|error| format!("cannot list {}: {error}", local.display())),
                _ => {
                    self.tree.add_mount(at.clone());
                    note_skipped(
                        &mut self.tree,
                        at,
                        &Skipped {
                            outside: vec![at.as_str().to_owned()],
                            ..Skipped::default()
                        },
                    );
                    Ok(())
                }
            },
            _ => Ok(()),
        }
    }

    /// Lists one path of the host: a file (or a link to one that stays in `confine`) is
    /// listed, a folder (`.git`) is marked, and a missing path is left out.
    fn mount_file(&mut self, at: &VPath, confine: &Path) {
        let local = local_of(at);
        let Ok(metadata) = fs::symlink_metadata(&local) else {
            return;
        };
        if metadata.is_dir() {
            self.tree.add_dir(at.clone());
            if at.file_name() == ".git" {
                // Only `worktrees/<name>/gitdir` is read below `.git`.
                let _ = self.list_dir(at, &local, confine);
            }
            return;
        }
        let mut skipped = Skipped::default();
        let mut tree = std::mem::take(&mut self.tree);
        self.add_file(&mut tree, at, at, &local, &metadata, confine, &mut skipped);
        if skipped.outside.len() + skipped.dangling as usize + skipped.unreadable as usize > 0 {
            note_skipped(&mut tree, at, &skipped);
        }
        self.tree = tree;
    }

    /// Mounts every file an analysis of the host referenced outside what is mounted (an
    /// `@~/notes.md` import, an absolute link), as Claude Code reads them. True when
    /// anything new was mounted.
    fn mount_outside(&mut self, report: &Report) -> bool {
        let mut added = false;
        for row in &report.files {
            if row.status != FileStatus::Unresolved
                || row.unresolved_reason != Some(UnresolvedReason::OutsideSnapshot)
            {
                continue;
            }
            let Ok(path) = VPath::new(&row.path) else {
                continue;
            };
            if self.tree.is_covered(&path) || !self.tried.insert(path.clone()) {
                continue;
            }
            let local = local_of(&path);
            // The file itself may be a link; it must resolve inside the folder it sits in.
            let confine = local
                .parent()
                .and_then(|parent| fs::canonicalize(parent).ok())
                .unwrap_or_else(|| local.clone());
            self.mount_file(&path, &confine);
            added = true;
        }
        added
    }

    /// Mounts the folder `local` at `at`, listing only its own entries: the folders below
    /// it stay unlisted until the analysis looks into them ([`ContentSource::list`]), and
    /// files are sized when it looks at them ([`ContentSource::stat`]). Links must resolve
    /// inside `confine`.
    ///
    /// # Errors
    /// When `local` itself cannot be listed.
    fn list_dir(&mut self, at: &VPath, local: &Path, confine: &Path) -> std::io::Result<()> {
        // Reading the root first makes an unreadable mount an error rather than an empty tree.
        let entries = fs::read_dir(local)?;
        self.tree.add_mount(at.clone());
        self.listings.insert(at.clone(), Listing::default());
        let mut tree = std::mem::take(&mut self.tree);
        let folder = Unlisted {
            mount: Rc::new(at.clone()),
            local: local.to_path_buf(),
            confine: Rc::new(confine.to_path_buf()),
        };
        self.list_folder(&mut tree, at, &folder, Some(entries), false);
        self.tree = tree;
        Ok(())
    }

    /// Lists the folder `dir` (and, when `deep`, every folder below it) into `tree`, then
    /// restates the mount's `scan-skipped` finding.
    fn list_folder(
        &mut self,
        tree: &mut Tree,
        dir: &VPath,
        folder: &Unlisted,
        opened: Option<fs::ReadDir>,
        deep: bool,
    ) {
        let at = &folder.mount;
        let mut listing = self.listings.remove(&**at).unwrap_or_default();
        let first = match opened {
            Some(entries) => Some(entries),
            None => match fs::read_dir(&folder.local) {
                Ok(entries) => Some(entries),
                Err(_) => {
                    listing.skipped.unreadable += 1;
                    None
                }
            },
        };
        let mut next = first.map(|entries| (dir.clone(), folder.local.clone(), entries));
        // Folders wait as paths, not open handles, so a wide tree cannot run out of descriptors.
        let mut pending: Vec<(VPath, PathBuf)> = Vec::new();
        // The folder being listed, once it has a file to read.
        let mut open: Option<(VPath, ListedDir)> = None;
        let skipped = &mut listing.skipped;
        'folders: loop {
            let (dir, dir_local, entries) = match next.take() {
                Some(opened) => opened,
                None => match pending.pop() {
                    Some((dir, dir_local)) => match fs::read_dir(&dir_local) {
                        Ok(entries) => (dir, dir_local, entries),
                        Err(_) => {
                            skipped.unreadable += 1;
                            continue;
                        }
                    },
                    None => break,
                },
            };
            // Below `.git` only `worktrees/<name>/gitdir` matters to the analysis.
            let in_git = dir.as_str().contains("/.git/") || dir.file_name() == ".git";
            // Whether a file here is bulk data depends on its folder, and on its name only
            // for a transcript: asked once a folder ([`Reader::is_bulk_file`]).
            let in_config = self.config.as_ref().is_some_and(|c| dir.starts_with(c));
            let bulk_folder = in_config && self.is_bulk_file(&dir.child("x"));
            // A skills or rules folder's names in the order `read_dir` gives them, unsorted:
            // some releases list skills in that order, and rules load in it
            // (Tree::set_listing_order).
            let mut listed_order = (memdiag_core::records_listing_order(&dir)
                && std::env::var_os(LISTING_BY_NAME).is_none())
            .then(Vec::new);
            if let Some((dir, listed)) = open.take() {
                self.add_listed_dir(dir, listed);
            }
            for entry in entries {
                if skipped.stopped {
                    break 'folders;
                }
                listing.listed += 1;
                if listing.listed > MAX_LISTED {
                    skipped.stopped = true;
                    break 'folders;
                }
                let Ok(entry) = entry else {
                    skipped.unreadable += 1;
                    continue;
                };
                // `DirEntry::file_type` does not follow links.
                let os_name = entry.file_name();
                let (Ok(file_type), Some(name)) = (entry.file_type(), os_name.to_str()) else {
                    skipped.unreadable += 1;
                    continue;
                };
                // A name must stay one segment of the virtual path: on a drive path a
                // backslash is a separator, and `..` would climb.
                let Some(path) = dir.join_segment(name) else {
                    skipped.odd_names.push(format!("{}/{name}", dir.as_str()));
                    continue;
                };
                if let Some(order) = &mut listed_order {
                    order.push(name.to_owned());
                }
                if in_git && !git_wanted(&path) {
                    continue;
                }
                if self.probed.contains(&path) {
                    // In the tree already, from a probe; a folder it left unlisted is listed
                    // now when the whole subtree is asked for.
                    if deep && file_type.is_dir() && self.unlisted.remove(&path).is_some() {
                        tree.set_listed(&path);
                        pending.push((path, dir_local.join(&os_name)));
                    }
                    continue;
                }
                if file_type.is_dir() {
                    let entry_local = dir_local.join(&os_name);
                    if self.is_bulk_dir(&path) {
                        tree.add_dir(path);
                    } else if deep {
                        tree.add_dir(path.clone());
                        pending.push((path, entry_local));
                    } else {
                        tree.add_unlisted_dir(path.clone());
                        self.unlisted.insert(
                            path,
                            Unlisted {
                                mount: at.clone(),
                                local: entry_local,
                                confine: folder.confine.clone(),
                            },
                        );
                    }
                } else if file_type.is_symlink() {
                    let entry_local = dir_local.join(&os_name);
                    match fs::metadata(&entry_local) {
                        Ok(metadata) if metadata.is_dir() => {
                            // Resolved first: a folder link out of the mount is named as such.
                            match fs::canonicalize(&entry_local) {
                                Ok(target) if !target.starts_with(&*folder.confine) => {
                                    skipped.outside.push(path.to_string());
                                }
                                Ok(target) => {
                                    // Not listed through; but where the host's paths are
                                    // the virtual ones, the tree learns where it leads, so
                                    // a linked rules folder (or a folder linked inside one)
                                    // is followed as the simulated release follows it, and
                                    // the link is not left out.
                                    let resolved = (entry_local == local_of(&path))
                                        .then(|| vpath_of(&target).ok())
                                        .flatten();
                                    match resolved {
                                        Some(resolved) => tree.add_link(path.clone(), resolved),
                                        None => skipped.folder_links += 1,
                                    }
                                }
                                Err(_) => skipped.folder_links += 1,
                            }
                        }
                        // The link's own metadata: `add_file` resolves and confines it.
                        Ok(_) => match entry.metadata() {
                            Ok(link) => self.add_file(
                                tree,
                                at,
                                &path,
                                &entry_local,
                                &link,
                                &folder.confine,
                                skipped,
                            ),
                            Err(_) => skipped.unreadable += 1,
                        },
                        // Dangling, or a loop of links.
                        Err(_) => skipped.dangling += 1,
                    }
                } else if file_type.is_file() {
                    let bulk = bulk_folder || (in_config && name.ends_with(".jsonl"));
                    // Named only: sized when the analysis looks at it, and a transcript is
                    // never sized, dated or read.
                    tree.insert(
                        path.clone(),
                        FileEntry {
                            size: 0,
                            contents: Contents::Unread,
                            modified: None,
                        },
                    );
                    if !bulk {
                        tree.mark_unstatted(&path);
                        let (_, listed) = open.get_or_insert_with(|| {
                            (
                                dir.clone(),
                                ListedDir {
                                    mount: at.clone(),
                                    local: dir_local.clone(),
                                    confine: folder.confine.clone(),
                                    names: HashSet::new(),
                                },
                            )
                        });
                        listed.push(name);
                    }
                } else {
                    // Sockets, pipes and devices hold nothing Claude Code would load.
                    skipped.unreadable += 1;
                }
            }
            if let Some(order) = listed_order {
                tree.set_listing_order(dir, order);
            }
        }
        if let Some((dir, listed)) = open.take() {
            self.add_listed_dir(dir, listed);
        }
        tree.retain_diagnostics(|d| {
            !(d.code == Code::ScanSkipped && d.path.as_deref() == Some(at.as_str()))
        });
        note_skipped(tree, at, &listing.skipped);
        self.listings.insert((**at).clone(), listing);
    }

    /// Lists one file, or one link to a file when it resolves inside `confine`, with its
    /// size and date.
    #[allow(clippy::too_many_arguments)]
    fn add_file(
        &mut self,
        tree: &mut Tree,
        mount: &VPath,
        path: &VPath,
        local: &Path,
        metadata: &fs::Metadata,
        confine: &Path,
        skipped: &mut Skipped,
    ) {
        let metadata = if metadata.file_type().is_symlink() {
            match fs::canonicalize(local) {
                Err(_) => {
                    skipped.dangling += 1;
                    return;
                }
                Ok(target) if !target.starts_with(confine) => {
                    skipped.outside.push(path.to_string());
                    return;
                }
                Ok(target) => match fs::metadata(&target) {
                    Ok(metadata) if metadata.is_file() => {
                        // Claude Code resolves a linked file's imports from its target's
                        // folder. Where the host's paths are the virtual ones, say where.
                        if local == local_of(path) {
                            if let Ok(resolved) = vpath_of(&target) {
                                tree.add_link(path.clone(), resolved);
                            }
                        }
                        metadata
                    }
                    Ok(_) => {
                        skipped.folder_links += 1;
                        return;
                    }
                    Err(_) => {
                        skipped.unreadable += 1;
                        return;
                    }
                },
            }
        } else if metadata.is_file() {
            metadata.clone()
        } else {
            skipped.unreadable += 1;
            return;
        };
        tree.insert(
            path.clone(),
            FileEntry {
                size: metadata.len(),
                contents: Contents::Unread,
                modified: metadata.modified().ok().and_then(iso_8601_utc),
            },
        );
        self.files.insert(
            path.clone(),
            Local {
                mount: Rc::new(mount.clone()),
                path: local.to_path_buf(),
                confine: Rc::new(confine.to_path_buf()),
            },
        );
    }

    /// Records the files a folder listing found to read (a folder listed again adds its).
    fn add_listed_dir(&mut self, dir: VPath, listed: ListedDir) {
        match self.listed_dirs.get_mut(&dir) {
            Some(earlier) => {
                earlier.names.extend(listed.names);
                earlier.mount = listed.mount;
                earlier.local = listed.local;
                earlier.confine = listed.confine;
            }
            None => {
                self.listed_dirs.insert(dir, listed);
            }
        }
    }

    /// Where the listed file `path` is read from: as listed alone, or in its folder.
    fn local(&self, path: &VPath) -> Option<Local> {
        if let Some(local) = self.files.get(path) {
            return Some(local.clone());
        }
        self.listed_dirs
            .get(&path.parent()?)?
            .file(path.file_name())
    }

    /// Lists every folder still unlisted, whole, and sizes every file: what an eager
    /// listing gives ([`LIST_WHOLE`]).
    pub(crate) fn list_everything(&mut self) {
        let mut tree = std::mem::take(&mut self.tree);
        while let Some(dir) = self.unlisted.keys().next().cloned() {
            self.list(&mut tree, &ListingAsk { dir, deep: true });
        }
        let unstatted: Vec<VPath> = tree
            .files()
            .map(|(path, _)| path)
            .filter(|path| tree.is_unstatted(path) && self.local(path).is_some())
            .cloned()
            .collect();
        for path in &unstatted {
            self.stat(&mut tree, path);
        }
        self.tree = tree;
    }

    /// True for a folder of the config folder that holds only bulk session data: it is
    /// never listed.
    fn is_bulk_dir(&self, path: &VPath) -> bool {
        let Some(config) = &self.config else {
            return false;
        };
        // The test is on a name inside the folder, as for the files it holds.
        path.strip_prefix(config)
            .is_some_and(|rest| is_bulk_data(&format!("{rest}/x")))
    }

    /// True for a file of the config folder that is bulk session data (a transcript): it
    /// is named, never sized, dated or read.
    fn is_bulk_file(&self, path: &VPath) -> bool {
        if path.as_str().ends_with(".jsonl") {
            return self.config.as_ref().is_some_and(|c| path.starts_with(c));
        }
        let Some(config) = &self.config else {
            return false;
        };
        path.strip_prefix(config).is_some_and(is_bulk_data)
    }
}

/// One `scan-skipped` finding on `at` for everything a listing left out.
fn note_skipped(tree: &mut Tree, at: &VPath, skipped: &Skipped) {
    let mut left_out = Vec::new();
    let named = |what: String, paths: &[String]| {
        let shown = paths
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join(", ");
        let more = paths.len().saturating_sub(10);
        let more = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        format!("{what}, never read ({shown}{more})")
    };
    if !skipped.outside.is_empty() {
        left_out.push(named(
            plural(
                skipped.outside.len() as u64,
                "symbolic link leading outside the mounted folder",
                "symbolic links leading outside the mounted folder",
            ),
            &skipped.outside,
        ));
    }
    if !skipped.odd_names.is_empty() {
        left_out.push(named(
            plural(
                skipped.odd_names.len() as u64,
                "entry whose name is not one path segment here",
                "entries whose names are not one path segment here",
            ),
            &skipped.odd_names,
        ));
    }
    if skipped.dangling > 0 {
        left_out.push(plural(
            skipped.dangling,
            "dangling or looping symbolic link",
            "dangling or looping symbolic links",
        ));
    }
    if skipped.folder_links > 0 {
        left_out.push(plural(
            skipped.folder_links,
            "symbolic link to a folder (followed only on the host's own paths, where the \
             scan records where it leads)",
            "symbolic links to folders (followed only on the host's own paths, where the \
             scan records where they lead)",
        ));
    }
    if skipped.unreadable > 0 {
        left_out.push(plural(
            skipped.unreadable,
            "entry it could not list",
            "entries it could not list",
        ));
    }
    if skipped.stopped {
        left_out.push(format!(
            "everything past the first {MAX_LISTED} entries (the listing stopped there)"
        ));
    }
    if !left_out.is_empty() {
        tree.push_diagnostic(Diagnostic::new(
            Code::ScanSkipped,
            Severity::Info,
            Some(at.as_str()),
            format!(
                "the scan left out {} below this folder",
                left_out.join(" and ")
            ),
        ));
    }
}

impl ContentSource for Reader {
    /// Reads a listed file from the exact path it was listed at, or a zip entry from the
    /// zip with the longest mount point that holds `path`.
    fn read(&mut self, path: &VPath) -> Result<Vec<u8>, String> {
        let local = self.local(path);
        let local = local.as_ref();
        let zip = self
            .zips
            .iter_mut()
            .filter(|(at, _)| path.starts_with(at))
            .filter(|(at, _)| local.is_none_or(|l| at.as_str().len() > l.mount.as_str().len()))
            .max_by_key(|(at, _)| at.as_str().len());
        match (zip, local) {
            (Some((_, zip)), _) => zip.read(path),
            (None, Some(local)) => read_confined(&mut self.resolved_dirs, local),
            (None, None) => Err("no mount holds this file".to_owned()),
        }
    }

    /// Lists a folder the analysis looked into: its own entries, or everything below it.
    fn list(&mut self, tree: &mut Tree, ask: &ListingAsk) {
        if let Some(folder) = self.unlisted.remove(&ask.dir) {
            self.list_folder(tree, &ask.dir, &folder, None, ask.deep);
        }
        tree.set_listed(&ask.dir);
    }

    /// Says what is at a path the analysis looked up by name inside an unlisted folder (a
    /// project folder's `memory/`), one `lstat` a level down from that folder, instead of
    /// listing the folders on the way (a project folder's thousands of transcripts): each
    /// folder on the way goes in unlisted, a file is listed with its size and date, and the
    /// first level that is not there is absent. A link on the way, or anything else a
    /// listing would count in its finding, lists its folder instead, one level, as a query
    /// into it would.
    fn probe(&mut self, tree: &mut Tree, probe: &Probe) {
        let path = &probe.path;
        if probe.list != Listed::No && self.unlisted.contains_key(path) {
            self.list(
                tree,
                &ListingAsk {
                    dir: path.clone(),
                    deep: probe.list == Listed::Whole,
                },
            );
            return;
        }
        let Some((mut at, folder)) = path
            .ancestors()
            .skip(1)
            .find_map(|dir| self.unlisted.get(&dir).cloned().map(|folder| (dir, folder)))
        else {
            return;
        };
        let Some(rest) = path.strip_prefix(&at).map(str::to_owned) else {
            return;
        };
        let mut local = folder.local.clone();
        let mut names = rest.split('/').peekable();
        while let Some(name) = names.next() {
            let Some(next) = at.join_segment(name) else {
                tree.set_absent(path);
                return;
            };
            if self.probed.contains(&next) && !self.unlisted.contains_key(&next) {
                // A folder an earlier probe found, listed since (the project, listed whole
                // in the same round): the tree answers below it. Putting it in unlisted
                // again would list it twice (and a large project past `MAX_LISTED`).
                return;
            }
            let in_git = at.as_str().contains("/.git/") || at.file_name() == ".git";
            if in_git && !git_wanted(&next) {
                tree.set_absent(&next);
                return;
            }
            let entry_local = local.join(name);
            let Ok(metadata) = fs::symlink_metadata(&entry_local) else {
                tree.set_absent(&next);
                return;
            };
            if metadata.is_dir() {
                self.probed.insert(next.clone());
                if self.is_bulk_dir(&next) {
                    tree.add_dir(next);
                    return;
                }
                tree.add_unlisted_dir(next.clone());
                self.unlisted.insert(
                    next.clone(),
                    Unlisted {
                        mount: folder.mount.clone(),
                        local: entry_local.clone(),
                        confine: folder.confine.clone(),
                    },
                );
                if names.peek().is_none() && probe.list != Listed::No {
                    // A folder the analysis looks into: listed now, not next turn.
                    self.list(
                        tree,
                        &ListingAsk {
                            dir: next,
                            deep: probe.list == Listed::Whole,
                        },
                    );
                    return;
                }
                at = next;
                local = entry_local;
                continue;
            }
            if !metadata.is_file() {
                // A link, a socket: the listing of its folder says what it is.
                self.list(
                    tree,
                    &ListingAsk {
                        dir: at,
                        deep: false,
                    },
                );
                return;
            }
            if names.peek().is_some() {
                // A file on the way: nothing is below it.
                tree.set_absent(path);
                return;
            }
            self.probed.insert(next.clone());
            if self.is_bulk_file(&next) {
                tree.insert(
                    next,
                    FileEntry {
                        size: 0,
                        contents: Contents::Unread,
                        modified: None,
                    },
                );
                return;
            }
            tree.insert(
                next.clone(),
                FileEntry {
                    size: metadata.len(),
                    contents: Contents::Unread,
                    modified: metadata.modified().ok().and_then(iso_8601_utc),
                },
            );
            self.files.insert(
                next,
                Local {
                    mount: folder.mount.clone(),
                    path: entry_local,
                    confine: folder.confine.clone(),
                },
            );
            return;
        }
    }

    /// Sizes and dates a listed file the analysis looked at.
    fn stat(&mut self, tree: &mut Tree, path: &VPath) {
        let (size, modified) = self
            .local(path)
            .and_then(|local| fs::metadata(&local.path).ok())
            .map_or((0, None), |metadata| {
                (
                    metadata.len(),
                    metadata.modified().ok().and_then(iso_8601_utc),
                )
            });
        tree.set_stat(path, size, modified);
    }
}

/// Reads a listed file after resolving it again (a link may have changed since the listing),
/// refusing one that now leads outside its folder.
fn read_confined(
    resolved_dirs: &mut HashMap<PathBuf, PathBuf>,
    local: &Local,
) -> Result<Vec<u8>, String> {
    let resolved = resolve_file(resolved_dirs, &local.path)
        .map_err(|error| format!("cannot read the file: {error}"))?;
    if !resolved.starts_with(&*local.confine) {
        return Err("it leads outside the mounted folder; not read".to_owned());
    }
    read_local(&resolved)
}

/// `fs::canonicalize` of a file to read: its folder is resolved once per run (`resolved_dirs`)
/// and the file itself looked at each time, a link being resolved whole. Resolving every
/// component of every file again cost a third of the run on a folder of 100,000 rules (one
/// `readlink` per component); the folder was listed in this run, so it is as fresh.
fn resolve_file(
    resolved_dirs: &mut HashMap<PathBuf, PathBuf>,
    path: &Path,
) -> std::io::Result<PathBuf> {
    let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
        return fs::canonicalize(path);
    };
    if parent.as_os_str().is_empty() || fs::symlink_metadata(path)?.file_type().is_symlink() {
        return fs::canonicalize(path);
    }
    if let Some(dir) = resolved_dirs.get(parent) {
        return Ok(dir.join(name));
    }
    let dir = fs::canonicalize(parent)?;
    let resolved = dir.join(name);
    resolved_dirs.insert(parent.to_owned(), dir);
    Ok(resolved)
}

/// True for the paths below a `.git` folder the analysis reads: `worktrees/<name>/gitdir`.
fn git_wanted(path: &VPath) -> bool {
    let text = path.as_str();
    let Some(cut) = text.rfind("/.git/") else {
        return false;
    };
    let rest: Vec<&str> = text[cut + 6..].split('/').collect();
    matches!(
        rest.as_slice(),
        ["worktrees"] | ["worktrees", _] | ["worktrees", _, "gitdir"]
    )
}

fn is_zip_name(path: &Path) -> bool {
    path.extension()
        .is_some_and(|extension| extension.eq_ignore_ascii_case("zip"))
}

/// `count` with the noun that agrees with it.
fn plural(count: u64, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

/// Reads one file, refusing more than [`MAX_FILE_BYTES`].
fn read_local(local: &Path) -> Result<Vec<u8>, String> {
    let file = fs::File::open(local).map_err(|error| format!("cannot read the file: {error}"))?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|error| format!("cannot read the file: {error}"))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(format!(
            "the file is over the {} MB cap; left unread",
            MAX_FILE_BYTES / (1024 * 1024)
        ));
    }
    Ok(bytes)
}

/// The UTC date of `time` (`2026-09-11`): the default for `--today`.
pub(crate) fn utc_date(time: SystemTime) -> String {
    iso_8601_utc(time).map_or_else(|| "1970-01-01".to_owned(), |text| text[..10].to_owned())
}

/// A file time as ISO 8601 in UTC (`2026-09-11T08:30:00Z`), or `None` before 1970.
pub(crate) fn iso_8601_utc(time: SystemTime) -> Option<String> {
    let seconds = time.duration_since(UNIX_EPOCH).ok()?.as_secs();
    let (year, month, day) = civil_from_days(i64::try_from(seconds / 86_400).ok()?);
    let of_day = seconds % 86_400;
    Some(format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        of_day / 3600,
        of_day % 3600 / 60,
        of_day % 60
    ))
}

/// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's
/// `civil_from_days`), so the command needs no date crate.
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}
