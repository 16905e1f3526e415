//! Benchmarks at the three sizes of issue 13: a `~/.claude` of about 3,000, 30,000 and
//! 300,000 entries (three quarters of them transcripts in ~50 project folders, then file
//! history, todos and shell snapshots) and beside it a project of 0.43 times as many
//! (`node_modules/` and `dist/`), shaped like the trees of `tests/e2e/bench.mjs`.
//!
//! For each size: `mount` builds the tree from the listed entries (what the page does with a
//! dropped folder), `analyze` runs the analysis loop over it, and `lazy` runs it over a tree
//! that lists each folder only when the analysis looks into it (what the `memdiag` command
//! does), from an in-memory listing. Criterion prints each time and its throughput in
//! entries a second, so the ratio between sizes is the linearity.
//!
//! `page` runs the page's analysis loop over the tree the page's worker mounts (every file
//! listed by name only, without size, date or contents) and prints its turns, its rounds of
//! look-ups and the core's time; it asserts the report equals the whole tree's, and that
//! reading in the round the sizes arrive reads the same files as waiting a turn did.
//!
//! Run with `cargo bench -p memdiag-core --bench sizes`; `cargo test --benches` runs each
//! benchmark once as a smoke test.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use memdiag_core::{
    analyze_with, drive_at_once, Answerer, ContentSource, Entry, Input, ListingAsk, Probe, Report,
    Tree, VPath,
};

const HOME: &str = "/home/bench";
const CLAUDE: &str = "/home/bench/.claude";
const PROJECT: &str = "/home/bench/work/app";
const SIZES: [usize; 3] = [3_000, 30_000, 300_000];

/// The same numbers on every run (SplitMix64).
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut x = self.0;
        x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        x ^ (x >> 31)
    }

    fn hex(&mut self, digits: usize) -> String {
        let value = self.next();
        format!("{value:016x}")[..digits].to_owned()
    }

    fn uuid(&mut self) -> String {
        format!(
            "{}-{}-4{}-8{}-{}",
            self.hex(8),
            self.hex(4),
            self.hex(3),
            self.hex(3),
            self.hex(12)
        )
    }

    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn text(path: String, body: String) -> Entry {
    Entry {
        path,
        size: body.len() as u64,
        bytes: Some(body.into_bytes()),
        modified: Some("2026-11-20T10:00:00Z".to_owned()),
    }
}

fn unread(path: String, size: u64) -> Entry {
    Entry {
        path,
        size,
        bytes: None,
        modified: None,
    }
}

fn filler(bytes: usize) -> String {
    "the build test fixed review module error config deploy cache "
        .repeat(bytes / 60 + 1)
        .chars()
        .take(bytes)
        .collect()
}

/// Every entry of a `~/.claude` of `total` files and of its project.
fn entries(total: usize) -> Vec<Entry> {
    let mut random = Random(total as u64);
    let mut out = vec![
        text(
            format!("{CLAUDE}/CLAUDE.md"),
            format!("# Me\n\n{}\n", filler(2400)),
        ),
        text(
            format!("{CLAUDE}/settings.json"),
            "{\"model\": \"opus\"}\n".to_owned(),
        ),
        text(
            format!("{CLAUDE}/agents/reviewer.md"),
            "---\nname: reviewer\ndescription: Reviews diffs\n---\nReview carefully.\n".to_owned(),
        ),
        text(
            format!("{CLAUDE}/agent-memory/reviewer/MEMORY.md"),
            "- [Checklist](notes.md) what to look at first\n".to_owned(),
        ),
        text(
            format!("{CLAUDE}/agent-memory/reviewer/notes.md"),
            filler(300),
        ),
    ];
    for name in ["python", "commits", "testing", "security"] {
        out.push(text(
            format!("{CLAUDE}/rules/{name}.md"),
            format!("# {name}\n\n{}\n", filler(400)),
        ));
    }
    for name in ["deploy", "standup", "release"] {
        out.push(text(
            format!("{CLAUDE}/skills/{name}/SKILL.md"),
            format!(
                "---\nname: {name}\ndescription: How to {name}\n---\n{}\n",
                filler(600)
            ),
        ));
        out.push(text(
            format!("{CLAUDE}/skills/{name}/reference.md"),
            filler(900),
        ));
    }
    let mut projects: Vec<String> = ["app", "api", "site"]
        .iter()
        .map(|name| format!("-home-bench-work-{name}"))
        .collect();
    for (name, topics, lines) in [("app", 150, 210), ("api", 12, 25), ("site", 4, 6)] {
        let folder = format!("{CLAUDE}/projects/-home-bench-work-{name}/memory");
        let index: String = (0..lines)
            .map(|i| {
                format!(
                    "- [Note {i}](topic-{}.md) what was learned, entry {i}\n",
                    i % topics
                )
            })
            .collect();
        out.push(text(format!("{folder}/MEMORY.md"), index));
        for t in 0..topics {
            out.push(text(
                format!("{folder}/topic-{t}.md"),
                format!(
                    "---\nname: topic {t}\ndescription: notes on topic {t}\ntype: project\n---\n{}\n",
                    filler(500)
                ),
            ));
        }
    }
    projects.extend((0..44).map(|i| format!("-home-bench-work-repo-{i:02}")));
    projects.extend(["-tmp".to_owned(), "-home-bench".to_owned()]);

    let bulk = total.saturating_sub(out.len());
    let transcripts = bulk * 75 / 100;
    let history = bulk * 15 / 100;
    let todos = bulk * 7 / 100;
    let snapshots = bulk - transcripts - history - todos;
    for _ in 0..transcripts {
        // Skewed: the first projects hold most sessions, as a real history does.
        let pick = (projects.len() as f64 * random.unit().powi(2)) as usize;
        let project = &projects[pick.min(projects.len() - 1)];
        out.push(unread(
            format!("{CLAUDE}/projects/{project}/{}.jsonl", random.uuid()),
            65_536,
        ));
    }
    let mut session = random.uuid();
    for i in 0..history {
        if i % 8 == 0 {
            session = random.uuid();
        }
        out.push(unread(
            format!(
                "{CLAUDE}/file-history/{session}/{}@v{}",
                random.hex(16),
                1 + i % 3
            ),
            600,
        ));
    }
    for _ in 0..todos {
        let id = random.uuid();
        out.push(unread(format!("{CLAUDE}/todos/{id}-agent-{id}.json"), 2));
    }
    for i in 0..snapshots {
        out.push(unread(
            format!(
                "{CLAUDE}/shell-snapshots/snapshot-bash-{}-{}.sh",
                1_760_000_000_000_u64 + i as u64 * 1000,
                random.hex(6)
            ),
            340,
        ));
    }

    let start = out.len();
    out.push(text(
        format!("{PROJECT}/.git/HEAD"),
        "ref: refs/heads/main\n".to_owned(),
    ));
    out.push(text(
        format!("{PROJECT}/CLAUDE.md"),
        format!("# App\n\nSee @docs/architecture.md\n\n{}\n", filler(800)),
    ));
    out.push(text(format!("{PROJECT}/CLAUDE.local.md"), filler(200)));
    out.push(text(
        format!("{PROJECT}/.claude/rules/testing.md"),
        format!("---\npaths:\n  - \"src/**/*.ts\"\n---\n{}\n", filler(300)),
    ));
    for doc in ["architecture", "runbook", "errors"] {
        out.push(text(format!("{PROJECT}/docs/{doc}.md"), filler(1500)));
    }
    for i in 0..10 {
        out.push(text(
            format!("{PROJECT}/src/module-{i}.ts"),
            format!("export const value{i} = {i};\n"),
        ));
    }
    let project_bulk = (total * 43 / 100).saturating_sub(out.len() - start);
    for i in 0..project_bulk {
        let top = if i % 5 == 4 { "dist" } else { "node_modules" };
        let name = if i % 7 == 0 {
            format!("{i}-README.md")
        } else {
            format!("lib/file-{}.js", i % 40)
        };
        out.push(unread(
            format!("{PROJECT}/{top}/pkg-{:04}/{name}", i / 40),
            8,
        ));
    }
    out
}

fn input() -> Input {
    Input {
        home: HOME.to_owned(),
        project: Some(PROJECT.to_owned()),
        today: Some("2026-12-01".to_owned()),
        ..Input::default()
    }
}

/// Nothing to read: every file the analysis reads was listed with its bytes.
struct Listed;

impl ContentSource for Listed {
    fn read(&mut self, _: &VPath) -> Result<Vec<u8>, String> {
        Err("not listed with its contents".to_owned())
    }
}

/// A tree listed folder by folder from memory, as the `memdiag` command lists a disk.
struct Lazy {
    /// Each folder's files and subfolders.
    folders: BTreeMap<VPath, (Vec<Entry>, BTreeSet<VPath>)>,
}

impl Lazy {
    fn new(entries: &[Entry]) -> (Lazy, Tree) {
        let mut folders: BTreeMap<VPath, (Vec<Entry>, BTreeSet<VPath>)> = BTreeMap::new();
        for entry in entries {
            let path = VPath::new(&entry.path).expect("generated paths are valid");
            let mut child = path.clone();
            let parent = path.parent().expect("a file has a folder");
            folders
                .entry(parent.clone())
                .or_default()
                .0
                .push(entry.clone());
            for dir in parent.ancestors() {
                if dir != parent {
                    folders
                        .entry(dir.clone())
                        .or_default()
                        .1
                        .insert(child.clone());
                }
                child = dir;
            }
        }
        let mut tree = Tree::from_entries(&[HOME], std::iter::empty());
        let mut lazy = Lazy { folders };
        lazy.list(
            &mut tree,
            &ListingAsk {
                dir: VPath::new(HOME).expect("a valid home"),
                deep: false,
            },
        );
        (lazy, tree)
    }
}

impl ContentSource for Lazy {
    fn read(&mut self, _: &VPath) -> Result<Vec<u8>, String> {
        Err("not listed with its contents".to_owned())
    }

    fn list(&mut self, tree: &mut Tree, ask: &ListingAsk) {
        let mut pending = vec![ask.dir.clone()];
        while let Some(dir) = pending.pop() {
            let (files, dirs) = self.folders.get(&dir).cloned().unwrap_or_default();
            for entry in files {
                let _ = tree.insert_entry(entry);
            }
            for sub in dirs {
                if ask.deep {
                    tree.add_dir(sub.clone());
                    pending.push(sub);
                } else {
                    tree.add_unlisted_dir(sub);
                }
            }
            tree.set_listed(&dir);
        }
    }
}

fn sizes(c: &mut Criterion) {
    let input = input();
    for size in SIZES {
        let entries = entries(size);
        let count = entries.len() as u64;
        let mut group = c.benchmark_group(format!("{size}"));
        group.throughput(Throughput::Elements(count));
        if size >= 300_000 {
            group.sample_size(10);
            group.measurement_time(Duration::from_secs(20));
        }
        group.bench_function("mount", |b| {
            b.iter_batched(
                || entries.clone(),
                |entries| black_box(Tree::from_entries(&[HOME], entries)),
                BatchSize::LargeInput,
            )
        });
        let tree = Tree::from_entries(&[HOME], entries.clone());
        group.bench_function("analyze", |b| {
            b.iter_batched(
                || tree.clone(),
                |mut tree| black_box(analyze_with(&mut tree, &input, &mut Listed).unwrap()),
                BatchSize::LargeInput,
            )
        });
        // The lazy tree must give the report the whole tree gives.
        let (lazy, lazy_tree) = Lazy::new(&entries);
        let whole = analyze_with(&mut tree.clone(), &input, &mut Listed).unwrap();
        let (mut check, mut check_tree) = (
            Lazy {
                folders: lazy.folders.clone(),
            },
            lazy_tree.clone(),
        );
        assert_eq!(
            analyze_with(&mut check_tree, &input, &mut check).unwrap(),
            whole,
            "the lazily listed tree gives the same report"
        );
        group.bench_function("lazy", |b| {
            b.iter_batched(
                || {
                    (
                        Lazy {
                            folders: lazy.folders.clone(),
                        },
                        lazy_tree.clone(),
                    )
                },
                |(mut source, mut tree)| {
                    black_box(analyze_with(&mut tree, &input, &mut source).unwrap())
                },
                BatchSize::LargeInput,
            )
        });
        group.finish();
    }
}

/// Times `run` `samples` times and gives the median.
fn median(samples: usize, mut run: impl FnMut() -> Duration) -> Duration {
    let mut times: Vec<Duration> = (0..samples).map(|_| run()).collect();
    times.sort_unstable();
    times[times.len() / 2]
}

/// The linearity goal of issue 13, printed: mounting plus the analysis at each size (medians
/// of plain timed runs, outside criterion), and the ratio of each size's time to the one ten
/// times smaller, which must stay at or under 12.
fn linearity(_: &mut Criterion) {
    let input = input();
    let mut rows: Vec<(usize, usize, Duration, Duration, Duration)> = Vec::new();
    for size in SIZES {
        let entries = entries(size);
        let samples = if size >= 300_000 { 5 } else { 11 };
        let mount = median(samples, || {
            let entries = entries.clone();
            let start = Instant::now();
            black_box(Tree::from_entries(&[HOME], entries));
            start.elapsed()
        });
        let tree = Tree::from_entries(&[HOME], entries.clone());
        let analyze = median(samples, || {
            let mut tree = tree.clone();
            let start = Instant::now();
            black_box(analyze_with(&mut tree, &input, &mut Listed).unwrap());
            start.elapsed()
        });
        let both = median(samples, || {
            let entries = entries.clone();
            let start = Instant::now();
            let mut tree = Tree::from_entries(&[HOME], entries);
            black_box(analyze_with(&mut tree, &input, &mut Listed).unwrap());
            start.elapsed()
        });
        rows.push((size, entries.len(), mount, analyze, both));
    }
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!("\nlinearity (issue 13: ten times the entries, at most 12 times the time)");
    println!("| entries | mount ms | analyze ms | mount + analyze ms | × the size before |");
    println!("| ---: | ---: | ---: | ---: | ---: |");
    let mut before: Option<Duration> = None;
    for (size, count, mount, analyze, both) in rows {
        let ratio = before.map_or_else(
            || "—".to_owned(),
            |b| format!("{:.1}×", both.as_secs_f64() / b.as_secs_f64()),
        );
        println!(
            "| {size} ({count}) | {:.1} | {:.1} | {:.1} | {ratio} |",
            ms(mount),
            ms(analyze),
            ms(both)
        );
        before = Some(both);
    }
}

/// What the page knows of each listed file once it looks: its size and date, and its bytes.
type Disk = HashMap<VPath, (u64, Option<String>, Option<Vec<u8>>)>;

/// The tree the page's worker mounts from a dropped `~/.claude` and project (`mount` in
/// `web/src/page/ingest.rs`): every file listed by name only, without size, date or contents,
/// and what the page would answer for each.
fn page_tree(entries: &[Entry]) -> (Tree, Disk) {
    let mut tree = Tree::from_entries(&[CLAUDE, PROJECT], std::iter::empty());
    let mut disk = Disk::with_capacity(entries.len());
    for entry in entries {
        let path = tree
            .insert_entry(Entry {
                path: entry.path.clone(),
                size: 0,
                bytes: None,
                modified: None,
            })
            .expect("generated paths are valid");
        tree.mark_unstatted(&path);
        disk.insert(
            path,
            (entry.size, entry.modified.clone(), entry.bytes.clone()),
        );
    }
    (tree, disk)
}

/// How the page's loop went: its turns, its rounds of look-ups, and the core's time.
#[derive(Debug, Default, Clone, Copy)]
struct Rounds {
    turns: u32,
    /// Rounds in which the loop looked anything up (sizes, contents or both): each is a
    /// round trip from the worker to the page and back.
    rounds: u32,
    stats: usize,
    reads: usize,
    /// The core's turns, added up.
    turns_time: Duration,
}

/// The page's worker as it answers the analysis (`Dropped` in `web/src/page/ingest.rs`), over
/// `disk`, without the waiting: the core's driver asks for the sizes a turn looked at,
/// then the contents it asked for and the ones it wanted once sized, in one round.
struct PageDisk<'d> {
    disk: &'d Disk,
    rounds: Rounds,
    turn_started: Option<Instant>,
    looked_up: bool,
}

impl PageDisk<'_> {
    fn round(&mut self) {
        if !std::mem::replace(&mut self.looked_up, true) {
            self.rounds.rounds += 1;
        }
    }
}

impl Answerer for PageDisk<'_> {
    async fn list(&mut self, _: &mut Tree, _: &[ListingAsk]) {}

    async fn probe(&mut self, _: &mut Tree, _: &[Probe]) {}

    async fn stat(&mut self, tree: &mut Tree, paths: &[VPath]) {
        self.round();
        self.rounds.stats += paths.len();
        for path in paths {
            let (size, modified) = self
                .disk
                .get(path)
                .map_or((0, None), |(size, modified, _)| (*size, modified.clone()));
            tree.set_stat(path, size, modified);
        }
    }

    async fn read(&mut self, tree: &mut Tree, paths: &[VPath]) {
        self.round();
        self.rounds.reads += paths.len();
        for path in paths {
            let contents = match self.disk.get(path) {
                Some((_, _, Some(bytes))) => Ok(bytes.clone()),
                _ => Err("not generated with contents".to_owned()),
            };
            tree.set_contents(path, contents);
        }
    }

    fn turn_starts(&mut self) {
        self.turn_started = Some(Instant::now());
        self.looked_up = false;
    }

    fn turn_ends(&mut self) {
        self.rounds.turns += 1;
        if let Some(started) = self.turn_started.take() {
            self.rounds.turns_time += started.elapsed();
        }
    }
}

fn page_loop(tree: &mut Tree, input: &Input, disk: &Disk) -> (Report, Rounds) {
    let mut page = PageDisk {
        disk,
        rounds: Rounds::default(),
        turn_started: None,
        looked_up: false,
    };
    let report = drive_at_once(tree, input, &mut page).expect("the analysis runs");
    (report, page.rounds)
}

/// The page's loop over the two drops at each size (issue 13: "`~/.claude` and project
/// together"), printed: how many turns and rounds of look-ups it takes, how many sizes and
/// contents it asks for, and the core's time (medians). It must give the report of the
/// tree listed with every size and content.
fn page(_: &mut Criterion) {
    let input = input();
    let mut rows = Vec::new();
    for size in SIZES {
        let entries = entries(size);
        let samples = if size >= 300_000 { 5 } else { 11 };
        let (tree, disk) = page_tree(&entries);
        let whole = Tree::from_entries(&[CLAUDE, PROJECT], entries.clone());
        let expected = analyze_with(&mut whole.clone(), &input, &mut Listed).unwrap();
        let (report, rounds) = page_loop(&mut tree.clone(), &input, &disk);
        assert_eq!(
            report, expected,
            "the page's loop gives the report of the tree listed whole"
        );
        let mut times: Vec<(Duration, Duration)> = (0..samples)
            .map(|_| {
                let mut tree = tree.clone();
                let start = Instant::now();
                let (_, rounds) = black_box(page_loop(&mut tree, &input, &disk));
                (start.elapsed(), rounds.turns_time)
            })
            .collect();
        times.sort_unstable();
        let (all, turns) = times[times.len() / 2];
        rows.push((size, entries.len(), rounds, all, turns));
    }
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!("\nthe page's loop (all files listed by name only, the ~/.claude and the project)");
    println!("| entries | turns | rounds | sizes | contents | turns ms | loop ms |");
    println!("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (size, count, rounds, all, turns) in rows {
        println!(
            "| {size} ({count}) | {} | {} | {} | {} | {:.1} | {:.1} |",
            rounds.turns,
            rounds.rounds,
            rounds.stats,
            rounds.reads,
            ms(turns),
            ms(all)
        );
    }
}

criterion_group!(benches, linearity, page, sizes);
criterion_main!(benches);
