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

use std::cell::{Cell, OnceCell, RefCell};
use std::cmp::Ordering;
use std::collections::hash_map::RandomState;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fmt;
use std::hash::{BuildHasher, BuildHasherDefault, Hasher};
use std::ops::Bound;

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

/// What a renamed name measured before it was renamed ([`Tree::set_quoted`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct QuotedLength {
    pub bytes: u64,
    pub chars: u64,
    pub utf16: u64,
    /// Terminal columns (`unicode-width`), as the skills listing's budget counts.
    pub columns: u64,
}

impl QuotedLength {
    /// A stand-in of exactly these bytes, characters and UTF-16 units, for where discovery
    /// writes the name into a text it measures (a backfilled memory index).
    pub fn stand_in(&self) -> String {
        // A four-byte character is two units; then one-, two- and three-byte ones.
        let four = self.utf16.saturating_sub(self.chars).min(self.chars);
        let chars = self.chars - four;
        let extra = self.bytes.saturating_sub(4 * four).saturating_sub(chars);
        let (three, two) = ((extra / 2).min(chars), (extra % 2).min(chars));
        let one = chars.saturating_sub(three + two);
        let mut out = String::new();
        for (count, c) in [(four, '𝑥'), (three, 'ㅁ'), (two, 'ø'), (one, 'x')] {
            out.extend(std::iter::repeat_n(c, count as usize));
        }
        out
    }
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

/// No folder: the parent of a root.
const NONE: u32 = u32::MAX;

/// One listed file: its path, the folder holding it, and what the tree knows of it.
#[derive(Debug, Clone)]
struct Record {
    path: VPath,
    /// Where its name starts in `path`.
    name_at: u32,
    entry: FileEntry,
    /// Listed without size and date ([`Tree::mark_unstatted`]).
    unstatted: bool,
    /// Looked at while unstatted since the last [`Tree::take_stats_asked`].
    asked: Cell<bool>,
}

impl Record {
    fn name(&self) -> &str {
        &self.path.as_str()[self.name_at as usize..]
    }
}

/// One folder: implied by the files or folders below it, or named.
#[derive(Debug, Clone)]
struct Folder {
    path: VPath,
    name_at: u32,
    /// Its files, as inserted (a path inserted again is here twice; the last one holds).
    files: Vec<u32>,
    /// Its folders, as created.
    folders: Vec<u32>,
    /// Its entries are not listed yet ([`Tree::add_unlisted_dir`]).
    unlisted: bool,
}

impl Folder {
    fn name(&self) -> &str {
        &self.path.as_str()[self.name_at as usize..]
    }
}

/// The sorted view of the tree, built once after the files arrive (or change) and kept until
/// the next file or folder arrives: each folder's files and folders in byte order, and every
/// file in byte order of its path, each folder's files below it as one span.
#[derive(Debug, Clone, Default)]
struct Index {
    order: Vec<u32>,
    folders: Vec<FolderIndex>,
    /// Each live file by the hash of its path ([`COLLIDED`] where two share one): a look-up
    /// in constant time, where a binary search of a folder of 100,000 names took a fifth of
    /// an analysis.
    by_path: HashMap<u64, u32, BuildHasherDefault<Prehashed>>,
    hasher: RandomState,
}

/// The hasher of [`Index::by_path`], whose keys are hashes already (of a path, by the
/// index's random hasher): a key is its own hash, not hashed a second time.
#[derive(Default)]
struct Prehashed(u64);

impl Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(byte);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// In [`Index::by_path`]: two live paths share this hash, so the folder is searched.
const COLLIDED: u32 = u32::MAX;

#[derive(Debug, Clone, Default)]
struct FolderIndex {
    /// The live files directly inside, by name.
    files: Vec<u32>,
    /// The folders directly inside, by name.
    folders: Vec<u32>,
    /// Where the files below it sit in [`Index::order`].
    start: u32,
    end: u32,
    /// Its entries in the order [`Tree::set_order`] gave, when it gave one.
    carried: Option<CarriedOrder>,
    /// The [`name_bits`] of every name inside, or-ed: a name whose bits are not all here is
    /// not inside, which a walk looking for a few names learns without a search.
    names: u64,
}

/// A folder's files and folders in the order a shared snapshot's original listed them, each
/// with its rank among all the folder's entries.
#[derive(Debug, Clone, Default)]
struct CarriedOrder {
    files: Vec<(u32, usize)>,
    folders: Vec<(u32, usize)>,
}

impl FolderIndex {
    /// Its files in listing order: by name, or as [`Tree::set_order`] gave.
    fn listed_files(&self) -> impl DoubleEndedIterator<Item = u32> + '_ {
        in_listing_order(self.carried.as_ref().map(|c| &c.files[..]), &self.files)
    }

    /// Its folders in listing order: by name, or as [`Tree::set_order`] gave.
    fn listed_folders(&self) -> impl DoubleEndedIterator<Item = u32> + '_ {
        in_listing_order(self.carried.as_ref().map(|c| &c.folders[..]), &self.folders)
    }
}

/// The carried order's ids where there is one, else the ids by name; borrowed, since every
/// walk lists every folder it passes.
fn in_listing_order<'a>(
    carried: Option<&'a [(u32, usize)]>,
    by_name: &'a [u32],
) -> impl DoubleEndedIterator<Item = u32> + 'a {
    let (carried, by_name) = match carried {
        Some(carried) => (carried, &[][..]),
        None => (&[][..], by_name),
    };
    carried
        .iter()
        .map(|(id, _)| *id)
        .chain(by_name.iter().copied())
}

/// Two bits of 64 standing for `name` (FNV-1a), for [`FolderIndex::names`].
fn name_bits(name: &str) -> u64 {
    let hash = name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    });
    (1 << (hash & 63)) | (1 << ((hash >> 6) & 63))
}

/// An in-memory file tree: every path once, ordered in byte order.
///
/// Directories are implied by the files below them, plus the ones a source names explicitly
/// (an empty folder in a zip). Mount roots record which folders a source covered: a missing
/// file below a mount root is missing, one elsewhere is outside the snapshot.
///
/// Built for a source that lists hundreds of thousands of files: a file is appended to its
/// folder (found by its folder's path, one hash), and the byte order is made once, folder by
/// folder, when the first query comes after the last file arrived, so mounting is linear
/// (only each folder's own names are sorted) and looking into a folder costs its own
/// entries, not a search of the whole tree.
#[derive(Clone, Default)]
pub struct Tree {
    records: Vec<Record>,
    folders: Vec<Folder>,
    folder_ids: HashMap<VPath, u32>,
    /// The roots (`/`, `C:/`) among the folders.
    roots: Vec<u32>,
    /// The folder the last file went into: a listing gives a folder's files together.
    last_folder: u32,
    /// The folders recorded explicitly ([`Tree::add_dir`], mounts, unlisted folders).
    named: BTreeSet<VPath>,
    mounts: BTreeSet<VPath>,
    diagnostics: Vec<Diagnostic>,
    /// The unstatted files whose entry was looked at since [`Tree::take_stats_asked`].
    asked: RefCell<Vec<u32>>,
    /// The unstatted files a turn wanted the contents of since [`Tree::take_reads_once_sized`],
    /// each with the largest size at which the turn reads it.
    reads_once_sized: RefCell<HashMap<u32, u64>>,
    /// Folders known to exist whose entries are not listed yet ([`Tree::add_unlisted_dir`]).
    unlisted: BTreeSet<VPath>,
    /// The unlisted folders a query depended on since [`Tree::take_listings_asked`], each
    /// with whether everything below it was wanted.
    listings_asked: RefCell<HashMap<u32, bool>>,
    /// The paths inside unlisted folders a query looked up or into since
    /// [`Tree::take_probes_asked`].
    probes_asked: RefCell<BTreeMap<VPath, Listed>>,
    /// Paths inside unlisted folders the source said hold nothing ([`Tree::set_absent`]).
    absent: HashSet<VPath>,
    /// How the names a shared snapshot renamed measured before ([`Tree::set_quoted`]).
    quoted: BTreeMap<String, QuotedLength>,
    /// The targets a shared snapshot's stand-ins name, by file ([`Tree::set_stand_ins`]).
    stand_ins: BTreeMap<VPath, BTreeMap<String, String>>,
    /// Symbolic links whose target the source knows ([`Tree::add_link`]).
    links: BTreeMap<VPath, VPath>,
    /// The order a shared snapshot's original listed some folders' entries in
    /// ([`Tree::set_order`]).
    order: BTreeMap<VPath, Vec<String>>,
    /// Each name's place in [`Tree::set_order`]'s orders: a comparison looks it up in
    /// constant time (a folder of 100,000 rules is sorted by it).
    order_ranks: BTreeMap<VPath, HashMap<String, usize>>,
    /// Folders whose entries' listing order the source knows ([`Tree::set_listing_order`]).
    listing_orders: BTreeMap<VPath, Vec<String>>,
    /// Each name's place in `listing_orders`, as `order_ranks` is for `order`.
    listing_ranks: BTreeMap<VPath, HashMap<String, usize>>,
    /// Which texts a shared snapshot's original sent twice ([`Tree::set_sent_twice`]):
    /// `None` for any other tree, whose texts tell it themselves.
    sent_twice: Option<BTreeMap<VPath, VPath>>,
    index: OnceCell<Index>,
    /// The walks of [`Tree::folders_holding`] made since the folders last changed, by
    /// folder, the name not entered and the names looked for: a turn of the analysis walks
    /// the same project folders again while only contents and sizes arrive.
    walks: RefCell<HashMap<WalkKey, Vec<VPath>>>,
}

/// A walk of [`Tree::folders_holding`]: the folder, the name not entered, the names.
type WalkKey = (VPath, String, Vec<String>);

/// The name of the folders whose listing order a source records ([`Tree::set_listing_order`]):
/// the only order the analysis reads is a `skills/` folder's, which some releases list
/// skills in.
pub const ORDERED_FOLDER_NAME: &str = "skills";

/// Each name's first place in `names`.
fn ranks(names: &[String]) -> HashMap<String, usize> {
    let mut ranks = HashMap::with_capacity(names.len());
    for (at, name) in names.iter().enumerate() {
        ranks.entry(name.clone()).or_insert(at);
    }
    ranks
}

/// True for a folder whose listing order a source records ([`Tree::set_listing_order`]): a
/// `skills/` folder ([`ORDERED_FOLDER_NAME`]), whose skills some releases list in that
/// order, and a `rules/` folder or any folder below one, whose rules every release measured
/// loads in that order, depth first.
pub fn records_listing_order(dir: &VPath) -> bool {
    dir.file_name() == ORDERED_FOLDER_NAME || dir.as_str().split('/').any(|s| s == "rules")
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

/// How much of a folder a query looked into ([`Probe::list`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Listed {
    /// Nothing: the query looked the path up by name.
    No,
    /// Its own entries.
    Entries,
    /// Everything below it.
    Whole,
}

/// A path inside an unlisted folder that a query looked up or into
/// ([`Tree::take_probes_asked`]).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Probe {
    /// The path, below the nearest unlisted folder.
    pub path: VPath,
    /// When it is a folder, how much of it to list now.
    pub list: Listed,
}

/// Something that can fetch a file's bytes on request: a zip archive, a native directory.
///
/// A synchronous answerer of the analysis' requests ([`crate::Synchronous`] makes it an
/// [`crate::Answerer`]); the page's worker, which reads asynchronously, is an `Answerer`
/// of its own.
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

    /// Says what is at one path inside an unlisted folder that a query looked up or into
    /// ([`Tree::take_probes_asked`]: `projects/<name>/memory`, a `CLAUDE.md`,
    /// `.claude/skills/`), without listing the folders on the way (a project folder's
    /// thousands of transcripts): inserts the file (with its size and date), or puts the
    /// folder in the tree (listed as [`Probe::list`] says, else unlisted, as every folder on
    /// the way down from the unlisted one), or says nothing is there ([`Tree::set_absent`]).
    /// The default lists the nearest unlisted folder above it, one level, as the analysis
    /// did before it probed.
    fn probe(&mut self, tree: &mut Tree, probe: &Probe) {
        if let Some(dir) = tree.unlisted_above(&probe.path) {
            self.list(tree, &ListingAsk { dir, deep: false });
        }
    }

    /// Hands over the size and date of a file the source listed without them
    /// ([`Tree::mark_unstatted`]) with [`Tree::set_stat`]; the default says size 0, no date.
    fn stat(&mut self, tree: &mut Tree, path: &VPath) {
        tree.set_stat(path, 0, None);
    }
}

/// The folder holding `path` (a root is its own) and where its name starts.
fn split(path: &str) -> (&str, usize) {
    let root = if path.starts_with('/') {
        1
    } else {
        3.min(path.len())
    };
    if path.len() <= root {
        return (path, path.len());
    }
    let slash = path.rfind('/').unwrap_or(0);
    let parent = if slash < root {
        &path[..root]
    } else {
        &path[..slash]
    };
    (parent, slash + 1)
}

/// The folder above folder `path`, or `None` for a root.
fn parent_folder(path: &str) -> Option<&str> {
    let (parent, _) = split(path);
    (parent.len() < path.len()).then_some(parent)
}

/// Sorts ids stably by `compare`. Every sort of the sorted view goes through this one
/// instance of the standard library's sort, so the browser page's wasm, which holds a tree
/// for the file view, carries one copy of the sorting code instead of one per call site
/// (some 3 KB each).
fn sort_ids(ids: &mut [u32], compare: &dyn Fn(&u32, &u32) -> Ordering) {
    ids.sort_by(|a, b| compare(a, b));
}

/// Byte order of two entries of one folder by name: a folder's name sorts as if followed by
/// `/`, so a folder `a` comes after `a-b` and `a.md`, as every path below it does.
fn entry_order(a: &str, a_dir: bool, b: &str, b_dir: bool) -> Ordering {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let n = a.len().min(b.len());
    a[..n].cmp(&b[..n]).then_with(|| {
        let next = |x: &[u8], dir: bool| x.get(n).copied().or(dir.then_some(b'/'));
        next(a, a_dir).cmp(&next(b, b_dir))
    })
}

impl Tree {
    /// An empty tree.
    pub fn new() -> Tree {
        Tree::default()
    }

    /// Records how names and paths measured before a shared snapshot renamed them (its
    /// pseudonyms are counters, as long as their rank needs, not as the names were): where
    /// Claude Code's own text quotes one (each sent file's path, the memory folder, a
    /// skill's name in the listing), discovery counts it at that length ([`Tree::quoted`]).
    pub fn set_quoted(&mut self, quoted: BTreeMap<String, QuotedLength>) {
        self.quoted = quoted;
    }

    /// How `name` (a path or a skill's listed name) measured before it was renamed, when it
    /// is a shared snapshot's pseudonym of another length.
    pub fn quoted(&self, name: &str) -> Option<QuotedLength> {
        self.quoted.get(name).copied()
    }

    /// Records the order the original of a shared snapshot listed the entries of `dir` in:
    /// `names` is every file and folder directly inside it, once each. Its pseudonyms are
    /// counters that need not sort as the names did, so every listing of `dir`
    /// ([`Tree::child_files`], [`Tree::child_dirs`], [`Tree::files_under`], …) follows this
    /// order instead of byte order, and the shared report lists its rows as the original did.
    /// An entry `names` leaves out comes after the ones it names, in byte order.
    pub fn set_order(&mut self, dir: VPath, names: Vec<String>) {
        self.order_ranks.insert(dir.clone(), ranks(&names));
        self.order.insert(dir, names);
        self.reshaped();
    }

    /// True when [`Tree::set_order`] gave the order of `dir`'s entries (a shared snapshot's
    /// folder, listed as its original was).
    pub fn has_order(&self, dir: &VPath) -> bool {
        self.order.contains_key(dir)
    }

    /// Every order [`Tree::set_order`] gave: each folder with its entries' names.
    pub fn orders(&self) -> impl Iterator<Item = (&VPath, &[String])> {
        self.order
            .iter()
            .map(|(dir, names)| (dir, names.as_slice()))
    }

    /// The names of the files and folders directly inside `dir`, in the order the tree lists
    /// them ([`Tree::files_under`]'s): byte order, a folder's name sorting as if followed by
    /// `/`, unless [`Tree::set_order`] gave another. True marks a folder.
    pub fn entry_names(&self, dir: &VPath) -> Vec<(String, bool)> {
        self.depends_on(dir.as_str(), false);
        let Some(at) = self.folder_index(dir.as_str()) else {
            return Vec::new();
        };
        let file = |id: u32| (self.records[id as usize].name().to_owned(), false);
        let folder = |id: u32| (self.folders[id as usize].name().to_owned(), true);
        if let Some(carried) = &at.carried {
            let mut out: Vec<(usize, (String, bool))> = carried
                .files
                .iter()
                .map(|&(id, rank)| (rank, file(id)))
                .chain(carried.folders.iter().map(|&(id, rank)| (rank, folder(id))))
                .collect();
            out.sort_by_key(|(rank, _)| *rank);
            return out.into_iter().map(|(_, entry)| entry).collect();
        }
        let mut out: Vec<(String, bool)> = at
            .files
            .iter()
            .map(|&id| file(id))
            .chain(at.folders.iter().map(|&id| folder(id)))
            .collect();
        out.sort_by(|(a, a_dir), (b, b_dir)| entry_order(a, *a_dir, b, *b_dir));
        out
    }

    /// Compares two paths as the tree lists them: byte order, except where they part in a
    /// folder [`Tree::set_order`] gave an order for (a shared snapshot), which decides.
    pub fn cmp_paths(&self, a: &VPath, b: &VPath) -> Ordering {
        if !self.order.is_empty() {
            let (mut sa, mut sb) = (a.as_str().split('/'), b.as_str().split('/'));
            let mut at = String::new();
            while let (Some(x), Some(y)) = (sa.next(), sb.next()) {
                if x != y {
                    let ranks = VPath::new(at.trim_end_matches('/'))
                        .or_else(|_| VPath::new(&at))
                        .ok()
                        .and_then(|dir| self.order_ranks.get(&dir));
                    // An entry the order leaves out comes after the ones it names.
                    if let Some(ranks) = ranks {
                        let rank = |name: &str| ranks.get(name).copied().unwrap_or(usize::MAX);
                        let by_rank = rank(x).cmp(&rank(y));
                        if by_rank.is_ne() {
                            return by_rank;
                        }
                    }
                    break;
                }
                at.push_str(x);
                at.push('/');
            }
        }
        a.cmp(b)
    }

    /// Every length [`Tree::set_quoted`] recorded, by pseudonym.
    pub fn quoted_lengths(&self) -> &BTreeMap<String, QuotedLength> {
        &self.quoted
    }

    /// Records the reference targets that `file`'s text writes as stand-ins: a shared
    /// snapshot writes a renamed import path or link destination at the length the original
    /// had (so that every figure of the text stays), as a stand-in of placeholders when the
    /// pseudonym's length differs, and carries what each stand-in names. Discovery resolves
    /// a reference whose written target is a stand-in of its file to the target it stands
    /// for ([`Tree::stand_in_target`]). An empty map clears the file's.
    pub fn set_stand_ins(&mut self, file: VPath, stand_ins: BTreeMap<String, String>) {
        if stand_ins.is_empty() {
            self.stand_ins.remove(&file);
        } else {
            self.stand_ins.insert(file, stand_ins);
        }
    }

    /// The target a reference written as `written` in `file`'s text stands for, when it is
    /// one of the file's stand-ins ([`Tree::set_stand_ins`]).
    pub fn stand_in_target(&self, file: &VPath, written: &str) -> Option<&str> {
        self.stand_ins.get(file)?.get(written).map(String::as_str)
    }

    /// Every file's stand-ins ([`Tree::set_stand_ins`]): written target → the target named.
    pub fn stand_ins(&self) -> &BTreeMap<VPath, BTreeMap<String, String>> {
        &self.stand_ins
    }

    /// Records that `link` is a symbolic link resolving to `target`, for a source that
    /// knows (a file link is listed as a file at `link` too). Claude Code resolves a linked
    /// file's imports from its target's folder, and older releases followed a linked
    /// `.claude/rules` folder; a source that cannot see links records none.
    pub fn add_link(&mut self, link: VPath, target: VPath) {
        self.links.insert(link, target);
    }

    /// What `path` resolves to, when the source recorded it as a link ([`Tree::add_link`]).
    pub fn link_target(&self, path: &VPath) -> Option<&VPath> {
        self.links.get(path)
    }

    /// The links recorded below `dir` ([`Tree::add_link`]), each with its target, in byte
    /// order of their paths.
    pub fn links_under<'a>(
        &'a self,
        dir: &'a VPath,
    ) -> impl Iterator<Item = (&'a VPath, &'a VPath)> {
        self.links
            .range(dir.clone()..)
            .take_while(move |(link, _)| link.starts_with(dir))
            .filter(move |(link, _)| *link != dir)
    }

    /// Records the order the source listed `dir`'s entries in, by name (the command's
    /// `read_dir`, a zip's entries), where it knows one. The tree's own order stays byte
    /// order; releases 2.1.113 to 2.1.153 list each folder's skills in the file system's
    /// order, which only the source saw, and every release loads a rules folder's rules in
    /// it. Sources record it for the folders [`records_listing_order`] names.
    pub fn set_listing_order(&mut self, dir: VPath, names: Vec<String>) {
        self.listing_ranks.insert(dir.clone(), ranks(&names));
        self.listing_orders.insert(dir, names);
    }

    /// Forgets every listing order the source recorded ([`Tree::set_listing_order`]), as
    /// if it had seen none.
    pub fn forget_listing_orders(&mut self) {
        self.listing_orders.clear();
        self.listing_ranks.clear();
    }

    /// The order the source listed `dir`'s entries in, when it recorded one
    /// ([`Tree::set_listing_order`]).
    pub fn listing_order(&self, dir: &VPath) -> Option<&[String]> {
        self.listing_orders.get(dir).map(Vec::as_slice)
    }

    /// The place of `name` in the order the source listed `dir`'s entries in
    /// ([`Tree::set_listing_order`]), in constant time: `None` when no order was recorded
    /// for `dir`, `usize::MAX` for a name the order leaves out (it comes after the others).
    pub fn listing_rank(&self, dir: &str, name: &str) -> Option<usize> {
        let ranks = self.listing_ranks.get(dir)?;
        Some(ranks.get(name).copied().unwrap_or(usize::MAX))
    }

    /// Each name's place in the order the source listed `dir`'s entries in, when it recorded
    /// one ([`Tree::listing_rank`] for many names of one folder).
    pub(crate) fn listing_ranks(&self, dir: &str) -> Option<&HashMap<String, usize>> {
        self.listing_ranks.get(dir)
    }

    /// Every folder whose listing order the source recorded, with that order
    /// ([`Tree::set_listing_order`]).
    pub fn listing_orders(&self) -> impl Iterator<Item = (&VPath, &[String])> {
        self.listing_orders
            .iter()
            .map(|(dir, names)| (dir, names.as_slice()))
    }

    /// Records which texts the original of a shared snapshot sent twice in every session:
    /// each file whose text (an instruction file's as sent, a skill's or command's listed
    /// description) repeats an earlier one's → that earlier file. A shared snapshot's text
    /// is placeholders of the same shape (every letter `x`), which cannot tell two equal
    /// texts from two of one shape, so discovery reads the `sent-twice` pairs from here
    /// instead of comparing texts, and finds no other ([`Tree::sent_twice`]).
    pub fn set_sent_twice(&mut self, pairs: BTreeMap<VPath, VPath>) {
        self.sent_twice = Some(pairs);
    }

    /// The pairs [`Tree::set_sent_twice`] recorded, `None` when this is no shared snapshot
    /// (its texts tell which are equal).
    pub fn sent_twice(&self) -> Option<&BTreeMap<VPath, VPath>> {
        self.sent_twice.as_ref()
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
        let entries = entries.into_iter();
        tree.records.reserve(entries.size_hint().0);
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
        let (parent, name_at) = split(path.as_str());
        let folder = match self.folders.get(self.last_folder as usize) {
            Some(last) if last.path.as_str() == parent => self.last_folder,
            _ => self.folder(parent),
        };
        self.last_folder = folder;
        let id = self.records.len() as u32;
        self.records.push(Record {
            path,
            name_at: name_at as u32,
            entry,
            unstatted: false,
            asked: Cell::new(false),
        });
        self.folders[folder as usize].files.push(id);
        self.reshaped();
    }

    /// The folder at `path` (a normal path), made with the folders above it if new.
    fn folder(&mut self, path: &str) -> u32 {
        if let Some(&id) = self.folder_ids.get(path) {
            return id;
        }
        let mut missing = vec![path];
        let mut parent = NONE;
        let mut at = path;
        while let Some(up) = parent_folder(at) {
            if let Some(&id) = self.folder_ids.get(up) {
                parent = id;
                break;
            }
            missing.push(up);
            at = up;
        }
        for path in missing.into_iter().rev() {
            let id = self.folders.len() as u32;
            let name_at = if parent == NONE { 0 } else { split(path).1 };
            let path = VPath::from_normal(path.to_owned());
            self.folder_ids.insert(path.clone(), id);
            self.folders.push(Folder {
                path,
                name_at: name_at as u32,
                files: Vec::new(),
                folders: Vec::new(),
                unlisted: false,
            });
            match parent {
                NONE => self.roots.push(id),
                parent => self.folders[parent as usize].folders.push(id),
            }
            parent = id;
        }
        self.reshaped();
        parent
    }

    /// Records a folder that exists even if it holds no files.
    pub fn add_dir(&mut self, path: VPath) {
        self.folder(path.as_str());
        self.named.insert(path);
    }

    /// Records a folder a source covered completely.
    pub fn add_mount(&mut self, root: VPath) {
        self.add_dir(root.clone());
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

    /// Forgets what was made of the folders as they were: the sorted view and the walks.
    fn reshaped(&mut self) {
        self.index.take();
        self.walks.get_mut().clear();
    }

    /// The sorted view, made now if files or folders arrived since the last one.
    fn index(&self) -> &Index {
        self.index.get_or_init(|| self.build_index())
    }

    fn build_index(&self) -> Index {
        let records = &self.records;
        let folders = &self.folders;
        let file_name = |i: &u32| records[*i as usize].name();
        let folder_name = |i: &u32| folders[*i as usize].name();
        let mut index = Index {
            order: Vec::with_capacity(records.len()),
            folders: Vec::with_capacity(folders.len()),
            by_path: HashMap::default(),
            hasher: RandomState::new(),
        };
        for folder in folders {
            let mut files = folder.files.clone();
            // Already in order when listed in order; a path inserted again keeps its last entry.
            if !files.is_sorted_by(|a, b| file_name(a) < file_name(b)) {
                sort_ids(&mut files, &|a, b| file_name(a).cmp(file_name(b)));
                files.dedup_by(|later, earlier| {
                    let same = file_name(later) == file_name(earlier);
                    if same {
                        *earlier = *later;
                    }
                    same
                });
            }
            let mut subfolders = folder.folders.clone();
            if !subfolders.is_sorted_by(|a, b| folder_name(a) < folder_name(b)) {
                sort_ids(&mut subfolders, &|a, b| folder_name(a).cmp(folder_name(b)));
            }
            let carried = self.order.get(&folder.path).map(|names| {
                let rank: HashMap<&str, usize> = names
                    .iter()
                    .enumerate()
                    .map(|(rank, name)| (name.as_str(), rank))
                    .collect();
                // Byte order within the entries the order leaves out, after the others.
                let ranked = |ids: &[u32], names: Vec<&str>| {
                    let ranks: Vec<usize> = names
                        .iter()
                        .map(|name| rank.get(name).copied().unwrap_or(usize::MAX))
                        .collect();
                    let mut order: Vec<u32> = (0..ids.len() as u32).collect();
                    sort_ids(&mut order, &|a, b| {
                        ranks[*a as usize].cmp(&ranks[*b as usize])
                    });
                    order
                        .into_iter()
                        .map(|i| (ids[i as usize], ranks[i as usize]))
                        .collect::<Vec<(u32, usize)>>()
                };
                CarriedOrder {
                    files: ranked(&files, files.iter().map(file_name).collect()),
                    folders: ranked(&subfolders, subfolders.iter().map(folder_name).collect()),
                }
            });
            let names = files
                .iter()
                .map(file_name)
                .chain(subfolders.iter().map(folder_name))
                .fold(0, |bits, name| bits | name_bits(name));
            index.folders.push(FolderIndex {
                files,
                folders: subfolders,
                start: 0,
                end: 0,
                carried,
                names,
            });
        }
        let mut roots = self.roots.clone();
        sort_ids(&mut roots, &|a, b| {
            folders[*a as usize].path.cmp(&folders[*b as usize].path)
        });
        // Depth first, each folder's files and folders merged in byte order of their paths.
        struct Frame {
            folder: u32,
            file: usize,
            sub: usize,
            /// The folders in path order, when it differs from name order (`a` after `a-b`).
            by_path: Option<Vec<u32>>,
        }
        let frame = |index: &mut Index, folder: u32| {
            let subs = &index.folders[folder as usize].folders;
            let in_path_order =
                |a: &u32, b: &u32| entry_order(folder_name(a), true, folder_name(b), true).is_lt();
            let by_path = (!subs.is_sorted_by(in_path_order)).then(|| {
                let mut subs = subs.clone();
                sort_ids(&mut subs, &|a, b| {
                    entry_order(folder_name(a), true, folder_name(b), true)
                });
                subs
            });
            index.folders[folder as usize].start = index.order.len() as u32;
            Frame {
                folder,
                file: 0,
                sub: 0,
                by_path,
            }
        };
        for root in roots {
            let mut stack = vec![frame(&mut index, root)];
            while let Some(top) = stack.last_mut() {
                let at = &index.folders[top.folder as usize];
                let (file, sub, folder_first) = match &at.carried {
                    Some(carried) => {
                        let file = carried.files.get(top.file).copied();
                        let sub = carried.folders.get(top.sub).copied();
                        let folder_first = matches!((file, sub), (Some(f), Some(d)) if f.1 > d.1);
                        (file.map(|f| f.0), sub.map(|d| d.0), folder_first)
                    }
                    None => {
                        let subs = top.by_path.as_deref().unwrap_or(&at.folders);
                        let file = at.files.get(top.file).copied();
                        let sub = subs.get(top.sub).copied();
                        let folder_first = matches!((file, sub), (Some(f), Some(d))
                            if entry_order(file_name(&f), false, folder_name(&d), true).is_gt());
                        (file, sub, folder_first)
                    }
                };
                match (file, sub) {
                    (Some(_), Some(d)) if folder_first => {
                        top.sub += 1;
                        let next = frame(&mut index, d);
                        stack.push(next);
                    }
                    (Some(f), _) => {
                        top.file += 1;
                        index.order.push(f);
                    }
                    (None, Some(d)) => {
                        top.sub += 1;
                        let next = frame(&mut index, d);
                        stack.push(next);
                    }
                    (None, None) => {
                        let done = top.folder as usize;
                        index.folders[done].end = index.order.len() as u32;
                        stack.pop();
                    }
                }
            }
        }
        let mut by_path =
            HashMap::with_capacity_and_hasher(index.order.len(), BuildHasherDefault::default());
        for &id in &index.order {
            let hash = index.hasher.hash_one(records[id as usize].path.as_str());
            by_path
                .entry(hash)
                .and_modify(|id| *id = COLLIDED)
                .or_insert(id);
        }
        index.by_path = by_path;
        index
    }

    /// The live record at `path`.
    fn find(&self, path: &str) -> Option<u32> {
        // The file just inserted is live: a source that sizes or reads as it lists asks
        // for it at once.
        if let Some(last) = self.records.last() {
            if last.path.as_str() == path {
                return Some(self.records.len() as u32 - 1);
            }
        }
        // With the sorted view made, one hash answers, unless two paths share it.
        if let Some(index) = self.index.get() {
            match index.by_path.get(&index.hasher.hash_one(path)) {
                None => return None,
                Some(&COLLIDED) => {}
                Some(&id) => {
                    return (self.records[id as usize].path.as_str() == path).then_some(id)
                }
            }
        }
        let (parent, name_at) = split(path);
        // A path in no folder is answered before the sorted view is (re)built: a source that
        // inserts as it lists asks this for every new entry.
        let &folder = self.folder_ids.get(parent)?;
        let index = self.index();
        match index.by_path.get(&index.hasher.hash_one(path)) {
            None => return None,
            Some(&COLLIDED) => {}
            Some(&id) => return (self.records[id as usize].path.as_str() == path).then_some(id),
        }
        let name = &path[name_at..];
        let files = &index.folders[folder as usize].files;
        files
            .binary_search_by(|i| self.records[*i as usize].name().cmp(name))
            .ok()
            .map(|at| files[at])
    }

    /// The sorted view of the folder at `dir`, if there is one.
    fn folder_index(&self, dir: &str) -> Option<&FolderIndex> {
        let &id = self.folder_ids.get(dir)?;
        Some(&self.index().folders[id as usize])
    }

    /// Hands over the contents of a listed file (or why it could not be read).
    ///
    /// Contents for a path the tree does not list are ignored: the tree never grows files
    /// the source did not list.
    pub fn set_contents(&mut self, path: &VPath, contents: Result<Vec<u8>, String>) {
        if let Some(id) = self.find(path.as_str()) {
            self.records[id as usize].entry.contents = match contents {
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
        let Some(id) = self.find(path.as_str()) else {
            if !self.folder_ids.contains_key(path.as_str()) {
                self.depends_on_entry(path.as_str());
            }
            return None;
        };
        let record = &self.records[id as usize];
        if record.unstatted && !record.asked.replace(true) {
            self.asked.borrow_mut().push(id);
        }
        Some(&record.entry)
    }

    /// Says that a listed file's size and date are not known yet: the browser's first
    /// look-up of either is slow, and a real `~/.claude` or project holds tens of thousands
    /// of files the analysis only ever sees by name. Its entry holds size 0 and no date
    /// until [`Tree::set_stat`].
    ///
    /// The analysis asks for them as it asks for contents: every entry it looks at
    /// ([`Tree::file`]) is recorded, and the caller's loop ([`crate::Analysis`]) hands over
    /// the stats of [`Tree::take_stats_asked`], then reads what the turn asked for and what
    /// it wanted once sized ([`Tree::take_reads_once_sized`]), since a size decides whether
    /// a file is read at all.
    pub fn mark_unstatted(&mut self, path: &VPath) {
        if let Some(id) = self.find(path.as_str()) {
            self.records[id as usize].unstatted = true;
        }
    }

    /// True when `path` is listed without its size and date.
    pub fn is_unstatted(&self, path: &VPath) -> bool {
        self.find(path.as_str())
            .is_some_and(|id| self.records[id as usize].unstatted)
    }

    /// Hands over the size and date of a file listed without them.
    pub fn set_stat(&mut self, path: &VPath, size: u64, modified: Option<String>) {
        if let Some(id) = self.find(path.as_str()) {
            let record = &mut self.records[id as usize];
            if record.unstatted {
                record.unstatted = false;
                record.entry.size = size;
                record.entry.modified = modified;
            }
        }
    }

    /// The files listed without size and date whose entry was looked at since the last
    /// call, in byte order; the record starts afresh.
    pub(crate) fn take_stats_asked(&self) -> Vec<VPath> {
        let asked = std::mem::take(&mut *self.asked.borrow_mut());
        let mut out: Vec<VPath> = asked
            .into_iter()
            .filter_map(|id| {
                let record = &self.records[id as usize];
                record.asked.set(false);
                self.stat_wanted(id).then(|| record.path.clone())
            })
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Records that the analysis wants the contents of `path`, listed without its size
    /// ([`Tree::mark_unstatted`]), provided its size turns out at most `up_to` bytes (the
    /// caps it was held to: what a turn would read once the size is known). Asked twice, the
    /// smaller bound holds: a file read by one rule and skipped by another for its size is
    /// then left for the next turn to ask for, never read when no turn would.
    pub(crate) fn want_read_once_sized(&self, path: &VPath, up_to: u64) {
        if let Some(id) = self.find(path.as_str()) {
            if self.records[id as usize].unstatted {
                let mut wanted = self.reads_once_sized.borrow_mut();
                let bound = wanted.entry(id).or_insert(up_to);
                *bound = (*bound).min(up_to);
            }
        }
    }

    /// The files a turn wanted read while their size was pending whose size, handed over
    /// since with [`Tree::set_stat`], is within the caps the turn held them to, in byte
    /// order; the record starts afresh.
    ///
    /// The analysis never asks to read a file whose size is pending ([`crate::Requests`]
    /// names only files of known size): a size decides whether a file is read at all. So the
    /// driver ([`crate::drive`]) has the sizes answered first, then reads these together with
    /// the turn's own reads, in one round, where waiting for the next turn to ask for them
    /// would cost a turn and a round of reads per level of the walk.
    pub(crate) fn take_reads_once_sized(&self) -> Vec<VPath> {
        let wanted = std::mem::take(&mut *self.reads_once_sized.borrow_mut());
        let mut out: Vec<VPath> = wanted
            .into_iter()
            .filter_map(|(id, up_to)| {
                let record = &self.records[id as usize];
                let sized = !record.unstatted && self.find(record.path.as_str()) == Some(id);
                (sized
                    && record.entry.size <= up_to
                    && matches!(record.entry.contents, Contents::Unread))
                .then(|| record.path.clone())
            })
            .collect();
        out.sort_unstable();
        out
    }

    /// True when the unstatted file `id`, looked at, is still live and without its stats.
    fn stat_wanted(&self, id: u32) -> bool {
        let record = &self.records[id as usize];
        record.unstatted && self.find(record.path.as_str()) == Some(id)
    }

    /// True when a query since the last takes asked for something the caller still has to
    /// hand over: a listing, a probe, or a size and date ([`Tree::take_listings_asked`],
    /// [`Tree::take_probes_asked`], [`Tree::take_stats_asked`] would not be empty). The
    /// caller's loop then runs the turn again, so a turn may leave out work whose result
    /// would be thrown away (the health check, [`crate::analyze`]).
    pub fn has_asks_pending(&self) -> bool {
        self.asked.borrow().iter().any(|&id| self.stat_wanted(id))
            || self
                .listings_asked
                .borrow()
                .keys()
                .any(|&id| self.folders[id as usize].unlisted)
            || self
                .probes_asked
                .borrow()
                .iter()
                .any(|(path, list)| self.probe_wanted(path, *list))
    }

    /// Records a folder that exists but whose entries the source lists only when asked:
    /// every query that depends on what is inside it records it ([`Tree::take_listings_asked`])
    /// and answers as if it were empty until [`Tree::set_listed`].
    pub fn add_unlisted_dir(&mut self, path: VPath) {
        let id = self.folder(path.as_str());
        self.folders[id as usize].unlisted = true;
        self.walks.get_mut().clear();
        self.named.insert(path.clone());
        self.unlisted.insert(path);
    }

    /// Says that an unlisted folder's entries are in the tree now.
    pub fn set_listed(&mut self, dir: &VPath) {
        self.unlisted.remove(dir);
        self.walks.get_mut().clear();
        if let Some(&id) = self.folder_ids.get(dir.as_str()) {
            self.folders[id as usize].unlisted = false;
            self.listings_asked.borrow_mut().remove(&id);
        }
    }

    /// Says that nothing is at `path`, inside an unlisted folder: an answer to
    /// [`Tree::take_probes_asked`]. Queries there (and below) answer so without asking.
    pub fn set_absent(&mut self, path: &VPath) {
        self.probes_asked.borrow_mut().remove(path);
        self.absent.insert(path.clone());
    }

    /// The nearest unlisted folder above `path`, if any.
    pub fn unlisted_above(&self, path: &VPath) -> Option<VPath> {
        let dir = parent_folder(path.as_str())?;
        self.nearest_unlisted(dir)
            .map(|(id, _)| self.folders[id as usize].path.clone())
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
            .range::<str, _>((Bound::Included(prefix), Bound::Unbounded))
            .take_while(|p| p.as_str().starts_with(prefix))
        {
            if let Some(&id) = self.folder_ids.get(below.as_str()) {
                asked.insert(id, true);
            }
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
    pub(crate) fn take_listings_asked(&self) -> Vec<ListingAsk> {
        let asked = std::mem::take(&mut *self.listings_asked.borrow_mut());
        let mut asked: Vec<ListingAsk> = asked
            .into_iter()
            .filter(|(id, _)| self.folders[*id as usize].unlisted)
            .map(|(id, deep)| ListingAsk {
                dir: self.folders[id as usize].path.clone(),
                deep,
            })
            .collect();
        asked.sort_unstable();
        let mut out: Vec<ListingAsk> = Vec::new();
        for ask in asked {
            // Byte order puts a folder before everything below it.
            let covered = out
                .iter()
                .rev()
                .any(|a| a.deep && ask.dir.starts_with(&a.dir));
            if !covered {
                out.push(ask);
            }
        }
        out
    }

    /// The paths inside unlisted folders that a query looked up or into since the last call
    /// ([`ContentSource::probe`]), in byte order, leaving out those the listings since
    /// answered; the record starts afresh.
    pub(crate) fn take_probes_asked(&self) -> Vec<Probe> {
        std::mem::take(&mut *self.probes_asked.borrow_mut())
            .into_iter()
            .filter(|(path, list)| self.probe_wanted(path, *list))
            .map(|(path, list)| Probe { path, list })
            .collect()
    }

    /// The probes of a turn that the listings answered since are left out.
    pub(crate) fn probes_still_wanted(&self, probes: Vec<Probe>) -> Vec<Probe> {
        probes
            .into_iter()
            .filter(|probe| self.probe_wanted(&probe.path, probe.list))
            .collect()
    }

    /// True when a probe asked for is not answered by the listings since.
    fn probe_wanted(&self, path: &VPath, list: Listed) -> bool {
        // A folder looked into that a listing just put in unlisted is still wanted.
        if let Some(&id) = self.folder_ids.get(path.as_str()) {
            return list != Listed::No && self.folders[id as usize].unlisted;
        }
        self.find(path.as_str()).is_none()
            && parent_folder(path.as_str()).is_some_and(|dir| self.nearest_unlisted(dir).is_some())
    }

    /// The unlisted folder at or nearest above `dir`, and whether it is `dir` itself: the
    /// nearest folder the tree holds when it is unlisted. `None` when that one is listed, or
    /// the source said nothing is there ([`Tree::set_absent`]). One look-up a level, for the
    /// levels the tree does not hold.
    fn nearest_unlisted(&self, dir: &str) -> Option<(u32, bool)> {
        if self.unlisted.is_empty() {
            return None;
        }
        let mut at = dir;
        let mut own = true;
        loop {
            if let Some(&id) = self.folder_ids.get(at) {
                // A folder the tree holds is listed unless it says otherwise, even inside an
                // unlisted one (a probe found it and it was listed since).
                return self.folders[id as usize].unlisted.then_some((id, own));
            }
            if self.absent.contains(at) {
                return None;
            }
            at = parent_folder(at)?;
            own = false;
        }
    }

    /// Records that a query depends on the entries of `dir`: `dir` itself when unlisted
    /// (deep or not as asked), else, below the nearest unlisted folder, `dir` alone
    /// ([`Tree::take_probes_asked`], to be listed as soon as it is found).
    fn depends_on(&self, dir: &str, deep: bool) {
        match self.nearest_unlisted(dir) {
            Some((id, true)) => {
                *self.listings_asked.borrow_mut().entry(id).or_insert(false) |= deep;
            }
            Some((_, false)) => {
                self.ask_probe(dir, if deep { Listed::Whole } else { Listed::Entries })
            }
            None => {}
        }
    }

    fn ask_probe(&self, path: &str, list: Listed) {
        let mut probes = self.probes_asked.borrow_mut();
        match probes.get_mut(path) {
            Some(asked) => *asked = (*asked).max(list),
            None => {
                probes.insert(VPath::from_normal(path.to_owned()), list);
            }
        }
    }

    /// Records a query on the entry at `path`, which the tree does not hold: when it lies
    /// inside an unlisted folder, the source is asked what is there
    /// ([`Tree::take_probes_asked`]).
    fn depends_on_entry(&self, path: &str) {
        if self.unlisted.is_empty() || self.absent.contains(path) {
            return;
        }
        let Some(dir) = parent_folder(path) else {
            return;
        };
        if self.nearest_unlisted(dir).is_some() {
            self.ask_probe(path, Listed::No);
        }
    }

    /// True when `path` is a listed file.
    pub fn is_file(&self, path: &VPath) -> bool {
        if self.find(path.as_str()).is_some() {
            return true;
        }
        if !self.folder_ids.contains_key(path.as_str()) {
            self.depends_on_entry(path.as_str());
        }
        false
    }

    /// True when `path` is a folder: named explicitly, or holding any file.
    pub fn is_dir(&self, path: &VPath) -> bool {
        if self.folder_ids.contains_key(path.as_str()) {
            return true;
        }
        if self.find(path.as_str()).is_none() {
            self.depends_on_entry(path.as_str());
        }
        false
    }

    /// [`Tree::is_file`] of `dir`'s child `name` (one segment), without making its path
    /// unless the answer depends on an unlisted folder: the walk below a project asks this
    /// of every folder for each `CLAUDE.md` name.
    pub fn is_file_in(&self, dir: &VPath, name: &str) -> bool {
        let Some(&id) = self.folder_ids.get(dir.as_str()) else {
            return self.nearest_unlisted(dir.as_str()).is_some() && self.is_file(&dir.child(name));
        };
        let at = &self.index().folders[id as usize];
        at.files
            .binary_search_by(|i| self.records[*i as usize].name().cmp(name))
            .is_ok()
            // A folder the tree holds is listed unless it says otherwise (`nearest_unlisted`).
            || (self.folders[id as usize].unlisted && self.is_file(&dir.child(name)))
    }

    /// [`Tree::is_dir`] of `dir`'s child `name` (one segment), as [`Tree::is_file_in`].
    pub fn is_dir_in(&self, dir: &VPath, name: &str) -> bool {
        let Some(&id) = self.folder_ids.get(dir.as_str()) else {
            return self.nearest_unlisted(dir.as_str()).is_some() && self.is_dir(&dir.child(name));
        };
        let at = &self.index().folders[id as usize];
        at.folders
            .binary_search_by(|i| self.folders[*i as usize].name().cmp(name))
            .is_ok()
            || (self.folders[id as usize].unlisted && self.is_dir(&dir.child(name)))
    }

    /// Every folder below `dir`, parents before children, each folder's in byte order of
    /// their names (as [`Tree::child_dirs`] gives them); the folders `enter` says no to are
    /// listed but not walked into. Asks for every unlisted folder below `dir` whole
    /// ([`Tree::will_walk`]). Iterative, so a tree thousands of folders deep cannot exhaust
    /// the stack, and one look-up in all, not one per folder.
    pub fn folders_below(&self, dir: &VPath, enter: impl Fn(&str) -> bool) -> Vec<VPath> {
        self.walk_folders(dir, enter, |_| true)
    }

    /// [`Tree::folders_below`], but only the folders that hold a file or folder named one of
    /// `names`, and the unlisted ones (what they hold is not known yet): the rest are the
    /// folders where [`Tree::is_file_in`] and [`Tree::is_dir_in`] of those names say no (and
    /// ask for nothing), so a walk that looks for nothing else skips them, without a path
    /// made and looked up for each of a project's thousands of `node_modules/` folders.
    pub fn folders_below_holding(
        &self,
        dir: &VPath,
        enter: impl Fn(&str) -> bool,
        names: &[&str],
    ) -> Vec<VPath> {
        let index = self.index();
        let bits: Vec<u64> = names.iter().map(|name| name_bits(name)).collect();
        let holds = |id: u32| {
            let at = &index.folders[id as usize];
            self.folders[id as usize].unlisted
                || names.iter().zip(&bits).any(|(name, bits)| {
                    let file = || {
                        at.files
                            .binary_search_by(|i| self.records[*i as usize].name().cmp(name))
                            .is_ok()
                    };
                    let folder = || {
                        at.folders
                            .binary_search_by(|i| self.folders[*i as usize].name().cmp(name))
                            .is_ok()
                    };
                    at.names & bits == *bits && (file() || folder())
                })
        };
        self.walk_folders(dir, enter, holds)
    }

    /// [`Tree::folders_below_holding`], entering every folder but those named `not_entered`,
    /// made once while the folders stay as they are (sizes and contents arriving change
    /// nothing here) and given again, with the same asks recorded, on later calls.
    pub fn folders_holding(&self, dir: &VPath, not_entered: &str, names: &[&str]) -> Vec<VPath> {
        let key = (
            dir.clone(),
            not_entered.to_owned(),
            names.iter().map(|name| (*name).to_owned()).collect(),
        );
        if let Some(found) = self.walks.borrow().get(&key) {
            self.will_walk(dir);
            return found.clone();
        }
        let found = self.folders_below_holding(dir, |name| name != not_entered, names);
        self.walks.borrow_mut().insert(key, found.clone());
        found
    }

    /// The walk of [`Tree::folders_below`], giving the folders `keep` says yes to.
    fn walk_folders(
        &self,
        dir: &VPath,
        enter: impl Fn(&str) -> bool,
        keep: impl Fn(u32) -> bool,
    ) -> Vec<VPath> {
        self.will_walk(dir);
        let Some(&top) = self.folder_ids.get(dir.as_str()) else {
            return Vec::new();
        };
        let index = self.index();
        let children = |id: u32| index.folders[id as usize].listed_folders().rev();
        let mut out = Vec::new();
        let mut stack: Vec<u32> = children(top).collect();
        while let Some(next) = stack.pop() {
            let folder = &self.folders[next as usize];
            if enter(folder.name()) {
                stack.extend(children(next));
            }
            if keep(next) {
                out.push(folder.path.clone());
            }
        }
        out
    }

    /// True when `path` is a file or a folder.
    pub fn exists(&self, path: &VPath) -> bool {
        self.is_file(path) || self.is_dir(path)
    }

    /// True when `path` lies inside a folder some source covered.
    pub fn is_covered(&self, path: &VPath) -> bool {
        self.mounts.iter().any(|root| path.starts_with(root))
    }

    /// True when `path` was looked for and is not there: it lies inside a folder some source
    /// covered, no file or folder is at it, and no folder above it was left unlisted without
    /// the source answering for `path` ([`Tree::set_absent`]). A path the source never looked
    /// at is unknown, not missing: the page's walk, for one, never lists what a
    /// `projects/<name>/` folder holds beside its `memory/`.
    pub fn is_known_absent(&self, path: &VPath) -> bool {
        if !self.is_covered(path) || self.exists(path) {
            return false;
        }
        if self.answered_absent(path) {
            return true;
        }
        match parent_folder(path.as_str()) {
            Some(dir) => self.nearest_unlisted(dir).is_none(),
            None => true,
        }
    }

    /// True when the source said nothing is at `path` or at a folder above it
    /// ([`Tree::set_absent`]): a look-up made for this very path, not a listing.
    pub fn answered_absent(&self, path: &VPath) -> bool {
        let mut at = Some(path.as_str());
        while let Some(here) = at {
            if self.absent.contains(here) {
                return true;
            }
            at = parent_folder(here);
        }
        false
    }

    /// The mount roots, in byte order.
    pub fn mounts(&self) -> impl Iterator<Item = &VPath> {
        self.mounts.iter()
    }

    /// The folders recorded explicitly ([`Tree::add_dir`], mount roots included), in byte
    /// order; folders only implied by their files are not among them.
    pub fn named_dirs(&self) -> impl Iterator<Item = &VPath> {
        self.named.iter()
    }

    /// The names of the folders directly inside `dir`, in byte order (or as [`Tree::set_order`] gave).
    pub fn child_dirs(&self, dir: &VPath) -> Vec<String> {
        self.depends_on(dir.as_str(), false);
        self.folder_index(dir.as_str()).map_or_else(Vec::new, |at| {
            at.listed_folders()
                .map(|id| self.folders[id as usize].name().to_owned())
                .collect()
        })
    }

    /// The files directly inside `dir`, in byte order (or as [`Tree::set_order`] gave).
    pub fn child_files(&self, dir: &VPath) -> Vec<VPath> {
        self.depends_on(dir.as_str(), false);
        self.folder_index(dir.as_str()).map_or_else(Vec::new, |at| {
            at.listed_files()
                .map(|id| self.records[id as usize].path.clone())
                .collect()
        })
    }

    /// Every file below `dir` at any depth, in byte order (or as [`Tree::set_order`] gave).
    ///
    /// Asks for every unlisted folder below `dir` at once, whole ([`ListingAsk::deep`]).
    pub fn files_under<'a>(
        &'a self,
        dir: &VPath,
    ) -> impl Iterator<Item = (&'a VPath, &'a FileEntry)> + 'a {
        self.depends_on(dir.as_str(), true);
        self.depends_on_below(&dir_prefix(dir));
        let span = self
            .folder_index(dir.as_str())
            .map_or(0..0, |at| at.start as usize..at.end as usize);
        self.index().order[span].iter().map(|id| {
            let record = &self.records[*id as usize];
            (&record.path, &record.entry)
        })
    }

    /// Every listed file, in byte order (of a lazily listed tree, only the folders listed so
    /// far).
    pub fn files(&self) -> impl Iterator<Item = (&VPath, &FileEntry)> {
        self.index().order.iter().map(|id| {
            let record = &self.records[*id as usize];
            (&record.path, &record.entry)
        })
    }

    /// The number of listed files.
    pub fn len(&self) -> usize {
        self.index().order.len()
    }

    /// True when no file is listed.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The listed files without size and date, in byte order: what [`PartialEq`] compares
    /// beside the files.
    fn unstatted_paths(&self) -> impl Iterator<Item = &VPath> {
        self.index()
            .order
            .iter()
            .map(|id| &self.records[*id as usize])
            .filter(|record| record.unstatted)
            .map(|record| &record.path)
    }
}

/// Two trees are equal when they list the same files with the same entries, name the same
/// folders and mounts, hold the same findings and the same unlisted folders, and carry the
/// same quoted lengths, stand-ins, orders and texts sent twice.
impl PartialEq for Tree {
    fn eq(&self, other: &Tree) -> bool {
        self.len() == other.len()
            && self.files().eq(other.files())
            && self.unstatted_paths().eq(other.unstatted_paths())
            && self.named == other.named
            && self.mounts == other.mounts
            && self.diagnostics == other.diagnostics
            && self.unlisted == other.unlisted
            && self.quoted == other.quoted
            && self.stand_ins == other.stand_ins
            && self.order == other.order
            && self.listing_orders == other.listing_orders
            && self.sent_twice == other.sent_twice
    }
}

impl Eq for Tree {}

impl fmt::Debug for Tree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tree")
            .field("files", &self.files().collect::<Vec<_>>())
            .field("unstatted", &self.unstatted_paths().collect::<Vec<_>>())
            .field("named", &self.named)
            .field("mounts", &self.mounts)
            .field("diagnostics", &self.diagnostics)
            .field("unlisted", &self.unlisted)
            .finish()
    }
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
    fn a_carried_order_decides_every_listing_and_lookups_still_hit() {
        let mut t = tree(&[
            "/c/p/a.md",
            "/c/p/b/x.md",
            "/c/p/b/y.md",
            "/c/p/c.md",
            "/c/p/d/z.md",
        ]);
        t.set_order(
            p("/c/p"),
            ["d", "c.md", "b", "a.md"].map(String::from).to_vec(),
        );
        t.set_order(p("/c/p/b"), vec!["y.md".to_owned()]);
        let listed: Vec<&str> = t.files().map(|(path, _)| path.as_str()).collect();
        // `x.md`, which the order of `b` leaves out, comes after the ones it names.
        assert_eq!(
            listed,
            [
                "/c/p/d/z.md",
                "/c/p/c.md",
                "/c/p/b/y.md",
                "/c/p/b/x.md",
                "/c/p/a.md"
            ]
        );
        assert_eq!(t.child_dirs(&p("/c/p")), ["d", "b"]);
        assert_eq!(t.child_files(&p("/c/p")), [p("/c/p/c.md"), p("/c/p/a.md")]);
        assert_eq!(
            t.folders_below(&p("/c/p"), |_| true),
            [p("/c/p/d"), p("/c/p/b")]
        );
        let names: Vec<String> = t.entry_names(&p("/c/p")).into_iter().map(|e| e.0).collect();
        assert_eq!(names, ["d", "c.md", "b", "a.md"]);
        let under: Vec<&str> = t
            .files_under(&p("/c/p/b"))
            .map(|(f, _)| f.as_str())
            .collect();
        assert_eq!(under, ["/c/p/b/y.md", "/c/p/b/x.md"]);
        assert!(t.is_file(&p("/c/p/a.md")) && t.is_file_in(&p("/c/p"), "c.md"));
        assert!(t.is_dir_in(&p("/c/p"), "b") && !t.is_file_in(&p("/c/p"), "e.md"));
        assert!(t.cmp_paths(&p("/c/p/d/z.md"), &p("/c/p/a.md")).is_lt());
        assert!(t.cmp_paths(&p("/c/p/b/y.md"), &p("/c/p/b/x.md")).is_lt());
        assert!(t.cmp_paths(&p("/c/q"), &p("/c/p/a.md")).is_gt());
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
    fn folders_holding_names_are_those_where_the_names_are_found() {
        // Wide folders, so that the names' bits are set by other names too.
        let mut paths = Vec::new();
        for d in 0..40 {
            for f in 0..(d % 7) * 9 {
                paths.push(format!("/w/p/d{d}/f{f}.js"));
            }
            match d % 5 {
                0 => paths.push(format!("/w/p/d{d}/CLAUDE.md")),
                1 => paths.push(format!("/w/p/d{d}/.claude/rules/a.md")),
                2 => paths.push(format!("/w/p/d{d}/x/CLAUDE.local.md")),
                3 => paths.push(format!("/w/p/d{d}/CLAUDE.md.bak")),
                _ => {}
            }
        }
        let refs: Vec<&str> = paths.iter().map(String::as_str).collect();
        let mut t = tree(&refs);
        t.add_unlisted_dir(p("/w/p/unlisted"));
        let names = [".claude", "CLAUDE.md", "CLAUDE.local.md"];
        let enter = |name: &str| name != ".claude";
        let expected: Vec<VPath> = t
            .folders_below(&p("/w/p"), enter)
            .into_iter()
            .filter(|dir| {
                t.is_unlisted(dir)
                    || names
                        .iter()
                        .any(|name| t.is_file_in(dir, name) || t.is_dir_in(dir, name))
            })
            .collect();
        assert_eq!(t.folders_below_holding(&p("/w/p"), enter, &names), expected);
        // Every kind of match is among them, and the folders without one are not.
        for dir in ["/w/p/d0", "/w/p/d1", "/w/p/d2/x", "/w/p/unlisted"] {
            assert!(expected.contains(&p(dir)), "{dir}");
        }
        for dir in ["/w/p/d3", "/w/p/d4", "/w/p/d2", "/w/p/d1/.claude"] {
            assert!(!expected.contains(&p(dir)), "{dir}");
        }
    }

    #[test]
    fn a_walk_made_once_is_made_again_when_the_folders_change() {
        let names = [".claude", "CLAUDE.md"];
        let mut t = tree(&["/w/p/a/CLAUDE.md", "/w/p/b/x.js"]);
        let walk = |t: &Tree| t.folders_holding(&p("/w/p"), ".claude", &names);
        assert_eq!(walk(&t), [p("/w/p/a")]);
        // Contents and sizes change nothing a walk sees: the walk is given again.
        t.set_contents(&p("/w/p/a/CLAUDE.md"), Ok(b"x".to_vec()));
        assert_eq!(walk(&t), [p("/w/p/a")]);
        // A file arriving, a folder put in unlisted or listed: walked again.
        t.insert_entry(Entry {
            path: "/w/p/b/CLAUDE.md".to_owned(),
            size: 1,
            bytes: None,
            modified: None,
        })
        .unwrap();
        assert_eq!(walk(&t), [p("/w/p/a"), p("/w/p/b")]);
        t.add_unlisted_dir(p("/w/p/c"));
        assert_eq!(walk(&t), [p("/w/p/a"), p("/w/p/b"), p("/w/p/c")]);
        // A walk of an unlisted folder asks for its listing every time it is given.
        assert_eq!(t.take_listings_asked().len(), 1);
        assert_eq!(walk(&t), [p("/w/p/a"), p("/w/p/b"), p("/w/p/c")]);
        assert_eq!(t.take_listings_asked().len(), 1);
        t.set_listed(&p("/w/p/c"));
        assert_eq!(walk(&t), [p("/w/p/a"), p("/w/p/b")]);
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
        assert!(!t.is_dir(&p("/h/a/x/memory")) && !t.is_file(&p("/h/top.md/x")));
        assert!(t.is_dir(&p("/h/b")), "an unlisted folder is a folder");
        assert!(
            t.take_listings_asked().is_empty(),
            "a path looked up by name lists nothing"
        );
        let probe = |path: &str, list| Probe {
            path: p(path),
            list,
        };
        assert_eq!(
            t.take_probes_asked(),
            [
                probe("/h/a/CLAUDE.md", Listed::No),
                probe("/h/a/x/memory", Listed::No)
            ],
            "it is asked for alone"
        );
        assert!(t.take_probes_asked().is_empty(), "the record starts afresh");
        t.set_absent(&p("/h/a/x"));
        assert!(!t.is_dir(&p("/h/a/x/memory")) && t.take_probes_asked().is_empty());
        assert_eq!(t.unlisted_above(&p("/h/a/y/z")), Some(p("/h/a")));
        assert_eq!(t.unlisted_above(&p("/h/a/x/y")), None, "nothing is there");
        let _ = t.child_files(&p("/h/a"));
        assert_eq!(t.take_listings_asked(), [ask("/h/a", false)]);
        assert!(t.child_dirs(&p("/h/a/q/y")).is_empty());
        assert_eq!(t.files_under(&p("/h/a/r")).count(), 0);
        assert_eq!(t.child_files(&p("/h/a/r")).len(), 0);
        assert!(
            t.take_listings_asked().is_empty(),
            "below an unlisted folder, the folder looked into is asked for alone"
        );
        assert_eq!(
            t.take_probes_asked(),
            [
                probe("/h/a/q/y", Listed::Entries),
                probe("/h/a/r", Listed::Whole)
            ]
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
    fn every_listing_order_gives_byte_order() {
        let paths = [
            "/d/a/x.md",
            "/d/a-b/y.md",
            "/d/a.md",
            "/d/a",
            "/d/a0/z.md",
            "/d/a/b/c.md",
            "/d/ab.md",
            "/C/x",
            "/",
            "C:/Users/a.md",
            "D:/b.md",
            "C:/Users/a-b/c.md",
        ];
        let mut sorted: Vec<&str> = paths.to_vec();
        sorted.sort_unstable();
        let mut order = paths.to_vec();
        for _ in 0..paths.len() {
            order.rotate_left(1);
            let t = tree(&order);
            let listed: Vec<&str> = t.files().map(|(p, _)| p.as_str()).collect();
            assert_eq!(listed, sorted, "from {order:?}");
            let under: Vec<&str> = t.files_under(&p("/d")).map(|(p, _)| p.as_str()).collect();
            let expected: Vec<&str> = sorted
                .iter()
                .copied()
                .filter(|p| p.starts_with("/d/"))
                .collect();
            assert_eq!(under, expected);
            assert_eq!(t.child_dirs(&p("/d")), ["a", "a-b", "a0"]);
            assert_eq!(
                t.child_files(&p("/d")),
                [p("/d/a"), p("/d/a.md"), p("/d/ab.md")]
            );
            assert!(t.is_file(&p("/d/a")) && t.is_dir(&p("/d/a")) && t.is_file(&p("/")));
        }
    }

    #[test]
    fn a_path_listed_again_keeps_its_last_entry() {
        let mut t = tree(&["/a/x.md", "/a/y.md"]);
        assert_eq!(t.len(), 2);
        let entry = |size| FileEntry {
            size,
            contents: Contents::Unread,
            modified: None,
        };
        t.insert(p("/a/x.md"), entry(7));
        t.insert(p("/a/w.md"), entry(8));
        t.insert(p("/a/x.md"), entry(9));
        assert_eq!(t.len(), 3);
        assert_eq!(t.file(&p("/a/x.md")).unwrap().size, 9);
        let sizes: Vec<u64> = t.files().map(|(_, f)| f.size).collect();
        assert_eq!(sizes, [8, 9, 1]);
        t.set_contents(&p("/a/x.md"), Ok(b"new".to_vec()));
        assert_eq!(
            t.file(&p("/a/x.md")).unwrap().contents,
            Contents::Loaded(b"new".to_vec())
        );
        let mut same = tree(&["/a/y.md", "/a/w.md", "/a/x.md"]);
        same.insert(p("/a/w.md"), entry(8));
        same.insert(p("/a/x.md"), entry(9));
        same.set_contents(&p("/a/x.md"), Ok(b"new".to_vec()));
        assert_eq!(t, same, "equal whatever the order things arrived in");
        same.add_dir(p("/a/empty"));
        assert_ne!(t, same);
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
