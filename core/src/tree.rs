//! The virtual tree: every file's path and size, and the contents the analysis asked for.
//!
//! The tree does no I/O. Its files are listed first, with sizes only; contents arrive later,
//! one file at a time, because the browser reads files asynchronously and a real `~/.claude`
//! holds gigabytes of transcripts that must never be read. [`crate::analyze`] says which
//! contents it needs; the caller fetches them (from `File` objects, a zip, or a native
//! directory) and hands them over with [`Tree::set_contents`].
//!
//! A source may also list folders lazily ([`Tree::add_unlisted_dir`]): the tree then records
//! which unlisted folders the analysis looked into ([`Tree::take_listings_asked`]), and the
//! caller lists just those and runs the turn again, so bulk folders nobody looks into (the
//! transcripts of other projects, `debug/`) are never listed. The page lists whole folders;
//! the `memdiag` command lists lazily.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

use crate::report::{Code, Diagnostic, Severity};
use crate::vpath::{PathError, VPath};

/// The contents of one file, as far as the tree knows them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Contents {
    /// Nobody has read it yet.
    Unread,
    /// The bytes, as read.
    Loaded(Vec<u8>),
    /// Reading failed; the message says why.
    Unreadable(String),
}

/// What the tree knows of one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileEntry {
    /// The size the source listed, in bytes.
    pub size: u64,
    /// The contents, once read.
    pub contents: Contents,
    /// The last modification time the source gave, as an ISO 8601 date-time, if any.
    pub modified: Option<String>,
}

/// One file as a source lists it: the input of [`Tree::from_entries`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The absolute virtual path.
    pub path: String,
    /// The size in bytes.
    pub size: u64,
    /// The contents, when the source already has them at hand.
    pub bytes: Option<Vec<u8>>,
    /// The last modification time as ISO 8601, if the source knows it.
    pub modified: Option<String>,
}

/// An in-memory file tree keyed by path in byte order.
///
/// Directories are implied by the files below them, plus the ones a source names explicitly
/// (an empty folder in a zip). Mount roots record which folders a source covered: a missing
/// file below a mount root is missing, one elsewhere is outside the snapshot.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tree {
    files: BTreeMap<VPath, FileEntry>,
    dirs: BTreeSet<VPath>,
    mounts: BTreeSet<VPath>,
    diagnostics: Vec<Diagnostic>,
    /// Files listed by name only, without their size and date ([`Tree::mark_unstatted`]).
    unstatted: BTreeSet<VPath>,
    /// The unstatted files whose entry was looked at since [`Tree::take_stats_asked`].
    asked: RefCell<BTreeSet<VPath>>,
    /// Folders known to exist whose entries are not listed yet ([`Tree::add_unlisted_dir`]).
    unlisted: BTreeSet<VPath>,
    /// The unlisted folders a query depended on since [`Tree::take_listings_asked`], each
    /// with whether everything below it was wanted.
    listings_asked: RefCell<BTreeMap<VPath, bool>>,
}

/// One folder the analysis wants listed ([`Tree::take_listings_asked`]).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct ListingAsk {
    /// The folder, as given to [`Tree::add_unlisted_dir`].
    pub dir: VPath,
    /// True when every folder below it is wanted too ([`Tree::files_under`] asked): list the
    /// whole subtree now instead of one level a turn.
    pub deep: bool,
}

/// Something that can fetch a file's bytes on request: a zip archive, a native directory.
///
/// The browser does not implement this: it reads asynchronously and drives
/// [`crate::analyze()`] itself.
pub trait ContentSource {
    /// Reads the file at `path`.
    ///
    /// # Errors
    /// A message for a person when the file cannot be read; the analysis records it as a
    /// diagnostic and goes on.
    fn read(&mut self, path: &VPath) -> Result<Vec<u8>, String>;

    /// Lists a folder the source put in the tree unlisted ([`Tree::add_unlisted_dir`]):
    /// inserts its entries (subfolders unlisted again, unless `ask.deep`) and calls
    /// [`Tree::set_listed`]. A source that lists everything up front never gets asked; the
    /// default only marks the folder listed, empty.
    fn list(&mut self, tree: &mut Tree, ask: &ListingAsk) {
        tree.set_listed(&ask.dir);
    }

    /// Hands over the size and date of a file the source listed without them
    /// ([`Tree::mark_unstatted`]) with [`Tree::set_stat`]; the default says size 0, no date.
    fn stat(&mut self, tree: &mut Tree, path: &VPath) {
        tree.set_stat(path, 0, None);
    }
}

impl Tree {
    /// An empty tree.
    pub fn new() -> Tree {
        Tree::default()
    }

    /// Builds a tree from listed entries, mounting each of `mounts` as a covered folder.
    ///
    /// An entry whose path is not a valid absolute path is left out with a diagnostic.
    pub fn from_entries(mounts: &[&str], entries: impl IntoIterator<Item = Entry>) -> Tree {
        let mut tree = Tree::new();
        for mount in mounts {
            match VPath::new(mount) {
                Ok(root) => tree.add_mount(root),
                Err(error) => tree.push_diagnostic(Diagnostic::new(
                    Code::InvalidPath,
                    Severity::Warning,
                    None,
                    format!("mount point left out: {error}"),
                )),
            }
        }
        for entry in entries {
            if let Err(error) = tree.insert_entry(entry) {
                tree.push_left_out(&error);
            }
        }
        tree
    }

    /// Adds one listed entry, and returns its path.
    ///
    /// # Errors
    /// When the path is not a valid absolute path.
    pub fn insert_entry(&mut self, entry: Entry) -> Result<VPath, PathError> {
        let path = VPath::new(&entry.path)?;
        let contents = match entry.bytes {
            Some(bytes) => Contents::Loaded(bytes),
            None => Contents::Unread,
        };
        self.insert(
            path.clone(),
            FileEntry {
                size: entry.size,
                contents,
                modified: entry.modified,
            },
        );
        Ok(path)
    }

    /// Records a finding for a listed file left out for its path (what
    /// [`Tree::from_entries`] does with an [`Tree::insert_entry`] error).
    pub fn push_left_out(&mut self, error: &PathError) {
        self.push_diagnostic(Diagnostic::new(
            Code::InvalidPath,
            Severity::Warning,
            None,
            format!("file left out: {error}"),
        ));
    }

    /// Adds or replaces a file.
    pub fn insert(&mut self, path: VPath, entry: FileEntry) {
        self.files.insert(path, entry);
    }

    /// Records a folder that exists even if it holds no files.
    pub fn add_dir(&mut self, path: VPath) {
        self.dirs.insert(path);
    }

    /// Records a folder a source covered completely.
    pub fn add_mount(&mut self, root: VPath) {
        self.dirs.insert(root.clone());
        self.mounts.insert(root);
    }

    /// Records a finding made while the tree was built (a rejected zip entry, a bad name).
    pub fn push_diagnostic(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
    }

    /// The findings made while the tree was built.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// Hands over the contents of a listed file (or why it could not be read).
    ///
    /// Contents for a path the tree does not list are ignored: the tree never grows files
    /// the source did not list.
    pub fn set_contents(&mut self, path: &VPath, contents: Result<Vec<u8>, String>) {
        if let Some(entry) = self.files.get_mut(path) {
            entry.contents = match contents {
                Ok(bytes) => Contents::Loaded(bytes),
                Err(message) => Contents::Unreadable(message),
            };
        }
    }

    /// The entry of a file.
    ///
    /// Looking at a file listed without its size and date ([`Tree::mark_unstatted`])
    /// records that they were asked for ([`Tree::take_stats_asked`]).
    pub fn file(&self, path: &VPath) -> Option<&FileEntry> {
        self.depends_on_parent(path.as_str());
        let entry = self.files.get(path);
        if entry.is_some() && self.unstatted.contains(path) {
            self.asked.borrow_mut().insert(path.clone());
        }
        entry
    }

    /// Says that a listed file's size and date are not known yet: the browser's first
    /// look-up of either is slow, and a real `~/.claude` or project holds tens of thousands
    /// of files the analysis only ever sees by name. Its entry holds size 0 and no date
    /// until [`Tree::set_stat`].
    ///
    /// The analysis asks for them as it asks for contents: every entry it looks at
    /// ([`Tree::file`]) is recorded, and the caller's loop ([`crate::Analysis`]) hands over
    /// the stats of [`Tree::take_stats_asked`] and runs the turn again before it reads
    /// anything, since a size decides whether a file is read at all.
    pub fn mark_unstatted(&mut self, path: &VPath) {
        if self.files.contains_key(path) {
            self.unstatted.insert(path.clone());
        }
    }

    /// True when `path` is listed without its size and date.
    pub fn is_unstatted(&self, path: &VPath) -> bool {
        self.unstatted.contains(path)
    }

    /// Hands over the size and date of a file listed without them.
    pub fn set_stat(&mut self, path: &VPath, size: u64, modified: Option<String>) {
        if self.unstatted.remove(path) {
            if let Some(entry) = self.files.get_mut(path) {
                entry.size = size;
                entry.modified = modified;
            }
        }
        self.asked.borrow_mut().remove(path);
    }

    /// The files listed without size and date whose entry was looked at since the last
    /// call, in byte order; the record starts afresh.
    pub fn take_stats_asked(&self) -> Vec<VPath> {
        std::mem::take(&mut *self.asked.borrow_mut())
            .into_iter()
            .filter(|path| self.unstatted.contains(path))
            .collect()
    }

    /// Records a folder that exists but whose entries the source lists only when asked:
    /// every query that depends on what is inside it records it ([`Tree::take_listings_asked`])
    /// and answers as if it were empty until [`Tree::set_listed`].
    pub fn add_unlisted_dir(&mut self, path: VPath) {
        self.dirs.insert(path.clone());
        self.unlisted.insert(path);
    }

    /// Says that an unlisted folder's entries are in the tree now.
    pub fn set_listed(&mut self, dir: &VPath) {
        self.unlisted.remove(dir);
        self.listings_asked.borrow_mut().remove(dir);
    }

    /// Says that every folder below `dir` is about to be looked into (the walk of the
    /// folders below a project): an unlisted one is asked for whole ([`ListingAsk::deep`])
    /// rather than one level a turn.
    pub fn will_walk(&self, dir: &VPath) {
        self.depends_on(dir.as_str(), true);
        self.depends_on_below(&dir_prefix(dir));
    }

    /// Records every unlisted folder below `prefix` as wanted whole.
    fn depends_on_below(&self, prefix: &str) {
        if self.unlisted.is_empty() {
            return;
        }
        let mut asked = self.listings_asked.borrow_mut();
        for below in self
            .unlisted
            .range(VPath::seek_key(prefix.to_owned())..)
            .take_while(|p| p.as_str().starts_with(prefix))
        {
            asked.insert(below.clone(), true);
        }
    }

    /// Drops the findings `keep` says no to: a source that lists lazily restates its
    /// listing finding as it lists more.
    pub fn retain_diagnostics(&mut self, keep: impl FnMut(&Diagnostic) -> bool) {
        self.diagnostics.retain(keep);
    }

    /// True when `path` is a folder whose entries are not listed yet.
    pub fn is_unlisted(&self, path: &VPath) -> bool {
        self.unlisted.contains(path)
    }

    /// The unlisted folders a query depended on since the last call, in byte order (a deep
    /// ask of a folder covers the asks below it); the record starts afresh.
    pub fn take_listings_asked(&self) -> Vec<ListingAsk> {
        let asked = std::mem::take(&mut *self.listings_asked.borrow_mut());
        let mut out: Vec<ListingAsk> = Vec::new();
        for (dir, deep) in asked {
            if !self.unlisted.contains(&dir) {
                continue;
            }
            // Byte order puts a folder before everything below it.
            let covered = out.iter().rev().any(|a| a.deep && dir.starts_with(&a.dir));
            if !covered {
                out.push(ListingAsk { dir, deep });
            }
        }
        out
    }

    /// Records that a query depends on the entries of `dir`: `dir` itself when unlisted
    /// (deep or not as asked), else the nearest unlisted folder above it (one level: what
    /// it holds decides what to ask next).
    fn depends_on(&self, dir: &str, deep: bool) {
        if self.unlisted.is_empty() {
            return;
        }
        let mut cut = dir.len();
        let mut own = true;
        loop {
            let prefix = &dir[..cut];
            if self.unlisted.contains(prefix) {
                let mut asked = self.listings_asked.borrow_mut();
                let wanted = asked
                    .entry(VPath::seek_key(prefix.to_owned()))
                    .or_insert(false);
                *wanted |= own && deep;
                return;
            }
            match prefix.rfind('/') {
                // A root (`/`, `C:/`) keeps its slash.
                Some(slash) if slash + 1 < prefix.len() => {
                    cut = if prefix[..slash].contains('/') {
                        slash
                    } else {
                        slash + 1
                    };
                }
                _ => return,
            }
            own = false;
        }
    }

    /// Records a query on the entry at `path`: it depends on the folder holding it.
    fn depends_on_parent(&self, path: &str) {
        if self.unlisted.is_empty() {
            return;
        }
        if let Some(slash) = path.rfind('/') {
            let parent = if path[..slash].contains('/') {
                &path[..slash]
            } else {
                &path[..=slash]
            };
            self.depends_on(parent, false);
        }
    }

    /// True when `path` is a listed file.
    pub fn is_file(&self, path: &VPath) -> bool {
        self.depends_on_parent(path.as_str());
        self.files.contains_key(path)
    }

    /// True when `path` is a folder: named explicitly, or holding any file.
    pub fn is_dir(&self, path: &VPath) -> bool {
        if !self.unlisted.contains(path) {
            self.depends_on_parent(path.as_str());
        }
        self.dirs.contains(path) || {
            let prefix = dir_prefix(path);
            let holds = |p: &VPath| p.as_str().starts_with(&prefix);
            self.files
                .range(VPath::seek_key(prefix.clone())..)
                .next()
                .is_some_and(|(p, _)| holds(p))
                || self
                    .dirs
                    .range(VPath::seek_key(prefix.clone())..)
                    .next()
                    .is_some_and(holds)
        }
    }

    /// True when `path` is a file or a folder.
    pub fn exists(&self, path: &VPath) -> bool {
        self.is_file(path) || self.is_dir(path)
    }

    /// True when `path` lies inside a folder some source covered.
    pub fn is_covered(&self, path: &VPath) -> bool {
        self.mounts.iter().any(|root| path.starts_with(root))
    }

    /// The mount roots, in byte order.
    pub fn mounts(&self) -> impl Iterator<Item = &VPath> {
        self.mounts.iter()
    }

    /// The folders recorded explicitly ([`Tree::add_dir`], mount roots included), in byte
    /// order; folders only implied by their files are not among them.
    pub fn named_dirs(&self) -> impl Iterator<Item = &VPath> {
        self.dirs.iter()
    }

    /// The names of the folders directly inside `dir`, in byte order.
    ///
    /// Skips over each child folder's contents in one seek, so a `projects/` folder with
    /// 100,000 transcripts costs one step per project, not per file.
    pub fn child_dirs(&self, dir: &VPath) -> Vec<String> {
        self.depends_on(dir.as_str(), false);
        let prefix = dir_prefix(dir);
        let mut names = BTreeSet::new();
        // Files directly inside are stepped over in order; each child folder is recorded
        // and then skipped in one seek.
        let mut files = self.files.range(VPath::seek_key(prefix.clone())..);
        while let Some((path, _)) = files.next() {
            let Some(rest) = path.as_str().strip_prefix(&prefix) else {
                break;
            };
            if let Some(slash) = rest.find('/') {
                let name = &rest[..slash];
                files = self.files.range(skip_key(&prefix, name)..);
                names.insert(name.to_owned());
            }
        }
        let mut dirs = self.dirs.range(VPath::seek_key(prefix.clone())..);
        while let Some(path) = dirs.next() {
            let Some(rest) = path.as_str().strip_prefix(&prefix) else {
                break;
            };
            // A folder's own entry sorts before its siblings that extend its name
            // (`a`, `a-b`, `a/x`): skip only once inside it.
            match rest.find('/') {
                Some(slash) => {
                    let name = &rest[..slash];
                    dirs = self.dirs.range(skip_key(&prefix, name)..);
                    names.insert(name.to_owned());
                }
                None if !rest.is_empty() => {
                    names.insert(rest.to_owned());
                }
                None => {}
            }
        }
        names.into_iter().collect()
    }

    /// The files directly inside `dir`, in byte order.
    pub fn child_files(&self, dir: &VPath) -> Vec<VPath> {
        self.depends_on(dir.as_str(), false);
        let prefix = dir_prefix(dir);
        let mut out = Vec::new();
        let mut files = self.files.range(VPath::seek_key(prefix.clone())..);
        while let Some((path, _)) = files.next() {
            let Some(rest) = path.as_str().strip_prefix(&prefix) else {
                break;
            };
            match rest.find('/') {
                Some(slash) => files = self.files.range(skip_key(&prefix, &rest[..slash])..),
                None => out.push(path.clone()),
            }
        }
        out
    }

    /// Every file below `dir` at any depth, in byte order.
    ///
    /// Asks for every unlisted folder below `dir` at once, whole ([`ListingAsk::deep`]).
    pub fn files_under<'a>(
        &'a self,
        dir: &VPath,
    ) -> impl Iterator<Item = (&'a VPath, &'a FileEntry)> + 'a {
        self.depends_on(dir.as_str(), true);
        let prefix = dir_prefix(dir);
        self.depends_on_below(&prefix);
        self.files
            .range(VPath::seek_key(prefix.clone())..)
            .take_while(move |(path, _)| path.as_str().starts_with(&prefix))
    }

    /// Every listed file, in byte order (of a lazily listed tree, only the folders listed so
    /// far).
    pub fn files(&self) -> impl Iterator<Item = (&VPath, &FileEntry)> {
        self.files.iter()
    }

    /// The number of listed files.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// True when no file is listed.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
}

/// The first key past everything inside the folder `name` of `prefix`: '0' sorts right
/// after '/'.
fn skip_key(prefix: &str, name: &str) -> VPath {
    VPath::seek_key(format!("{prefix}{name}0"))
}

/// `dir` with one trailing slash: the prefix every path inside it starts with.
fn dir_prefix(dir: &VPath) -> String {
    if dir.is_root() {
        dir.as_str().to_owned()
    } else {
        format!("{}/", dir.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(paths: &[&str]) -> Tree {
        Tree::from_entries(
            &["/home/alice/.claude"],
            paths.iter().map(|p| Entry {
                path: (*p).to_owned(),
                size: 1,
                bytes: None,
                modified: None,
            }),
        )
    }

    fn p(s: &str) -> VPath {
        VPath::new(s).unwrap()
    }

    #[test]
    fn lists_child_folders_and_files_in_byte_order() {
        let t = tree(&[
            "/c/projects/b/1.jsonl",
            "/c/projects/b/2.jsonl",
            "/c/projects/a-b/memory/MEMORY.md",
            "/c/projects/a/memory/MEMORY.md",
            "/c/projects/a.txt",
            "/c/projectsX/zzz",
        ]);
        assert_eq!(t.child_dirs(&p("/c/projects")), ["a", "a-b", "b"]);
        assert_eq!(t.child_files(&p("/c/projects")), [p("/c/projects/a.txt")]);
        assert_eq!(
            t.child_dirs(&p("/")),
            ["c", "home"],
            "the mount is a folder too"
        );
        assert_eq!(t.child_dirs(&p("/c")), ["projects", "projectsX"]);
        let under: Vec<_> = t
            .files_under(&p("/c/projects/b"))
            .map(|(p, _)| p.as_str())
            .collect();
        assert_eq!(under, ["/c/projects/b/1.jsonl", "/c/projects/b/2.jsonl"]);
    }

    #[test]
    fn folders_are_implied_by_files_or_named() {
        let mut t = tree(&["/a/b/c.md"]);
        assert!(t.is_dir(&p("/a")) && t.is_dir(&p("/a/b")));
        assert!(!t.is_dir(&p("/a/b/c.md")) && t.is_file(&p("/a/b/c.md")));
        assert!(!t.is_dir(&p("/a/bb")));
        t.add_dir(p("/empty"));
        assert!(t.is_dir(&p("/empty")));
        assert_eq!(t.child_dirs(&p("/")), ["a", "empty", "home"]);
    }

    #[test]
    fn named_folders_with_sibling_prefixes_are_all_children() {
        let mut t = tree(&["/d/a/x/f.md"]);
        for dir in ["/d/a", "/d/a-b", "/d/a/x", "/d/a-b/y", "/d/a0"] {
            t.add_dir(p(dir));
        }
        assert_eq!(t.child_dirs(&p("/d")), ["a", "a-b", "a0"]);
        assert_eq!(t.child_dirs(&p("/d/a")), ["x"]);
    }

    #[test]
    fn unlisted_folders_are_asked_for_when_looked_into() {
        let mut t = tree(&["/h/top.md"]);
        t.add_unlisted_dir(p("/h/a"));
        t.add_unlisted_dir(p("/h/b"));
        let ask = |dir: &str, deep| ListingAsk { dir: p(dir), deep };
        assert!(t.take_listings_asked().is_empty(), "listing asks nothing");
        assert!(t.is_file(&p("/h/top.md")) && t.take_listings_asked().is_empty());
        assert!(!t.is_file(&p("/h/a/CLAUDE.md")));
        assert!(t.is_dir(&p("/h/b")), "an unlisted folder is a folder");
        assert_eq!(t.take_listings_asked(), [ask("/h/a", false)]);
        assert!(t.child_dirs(&p("/h/a/x/y")).is_empty());
        assert_eq!(
            t.take_listings_asked(),
            [ask("/h/a", false)],
            "below an unlisted folder, that folder is asked for, one level"
        );
        assert_eq!(t.files_under(&p("/h")).count(), 1);
        assert_eq!(
            t.take_listings_asked(),
            [ask("/h/a", true), ask("/h/b", true)],
            "every file below asks for every folder below, whole"
        );
        t.add_unlisted_dir(p("/h/b/c"));
        let _ = t.child_files(&p("/h/b/c"));
        t.will_walk(&p("/h/b"));
        assert_eq!(
            t.take_listings_asked(),
            [ask("/h/b", true)],
            "a whole folder covers the asks below it"
        );
        t.insert(
            p("/h/a/CLAUDE.md"),
            FileEntry {
                size: 3,
                contents: Contents::Unread,
                modified: None,
            },
        );
        t.set_listed(&p("/h/a"));
        assert!(t.is_file(&p("/h/a/CLAUDE.md")) && !t.is_unlisted(&p("/h/a")));
        assert!(
            t.take_listings_asked().is_empty(),
            "a listed folder is asked for no more"
        );
    }

    #[test]
    fn mounts_decide_what_is_covered() {
        let t = tree(&[]);
        assert!(t.is_covered(&p("/home/alice/.claude/x.md")));
        assert!(!t.is_covered(&p("/home/alice/x.md")));
    }

    #[test]
    fn contents_arrive_only_for_listed_files() {
        let mut t = tree(&["/a.md"]);
        t.set_contents(&p("/a.md"), Ok(b"hi".to_vec()));
        t.set_contents(&p("/b.md"), Ok(b"ignored".to_vec()));
        assert_eq!(
            t.file(&p("/a.md")).unwrap().contents,
            Contents::Loaded(b"hi".to_vec())
        );
        assert!(t.file(&p("/b.md")).is_none());
        t.set_contents(&p("/a.md"), Err("gone".to_owned()));
        assert_eq!(
            t.file(&p("/a.md")).unwrap().contents,
            Contents::Unreadable("gone".to_owned())
        );
    }

    #[test]
    fn sizes_are_asked_for_only_where_an_entry_is_looked_at() {
        let mut t = tree(&["/a.md", "/b.md", "/c.md"]);
        for path in ["/a.md", "/b.md", "/nope.md"] {
            t.mark_unstatted(&p(path));
        }
        assert!(t.is_unstatted(&p("/a.md")) && !t.is_unstatted(&p("/nope.md")));
        assert_eq!(t.file(&p("/b.md")).unwrap().size, 1);
        let _ = t.file(&p("/c.md"));
        assert!(t.child_files(&p("/")).len() == 3 && t.files_under(&p("/")).count() == 3);
        assert_eq!(
            t.take_stats_asked(),
            [p("/b.md")],
            "names alone ask nothing"
        );
        assert!(t.take_stats_asked().is_empty(), "the record starts afresh");
        t.set_stat(&p("/b.md"), 42, Some("2026-01-01T00:00:00Z".to_owned()));
        let _ = t.file(&p("/b.md"));
        assert!(t.take_stats_asked().is_empty());
        assert_eq!(t.file(&p("/b.md")).unwrap().size, 42);
        assert!(!t.is_unstatted(&p("/b.md")) && t.is_unstatted(&p("/a.md")));
    }

    #[test]
    fn bad_paths_are_diagnostics() {
        let t = tree(&["relative/x.md", "/ok.md", "/../escape.md"]);
        assert_eq!(t.len(), 1);
        assert_eq!(t.diagnostics().len(), 2);
    }
}
