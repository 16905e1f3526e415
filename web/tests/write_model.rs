//! The property of clean-ups that matters most: they never lose a line the person did not
//! see removed in the reviewed diff, whatever else writes to the folder at the same time.
//!
//! Over a model folder, a seeded run plans every clean-up kind (dead lines, orphans linked or
//! deleted, an index compacted into a new file or dropped) from an analysis of the folder,
//! then makes it, and often its undo or a restore from its backup, while an outside writer
//! (Claude Code, an editor) edits the files between any two file operations: appends a line,
//! inserts one at the top, deletes one, replaces a file with a folder, grows a file past what
//! the page reads, or creates the file a plan is about to create. At the end every line that
//! was ever written, and neither deleted by the outside writer nor shown as removed in a
//! reviewed diff, must still be in some file.
//!
//! Both ways a plan is made are checked: the page's ([`memdiag_web::engine::write::apply`], over the
//! same [`Dir`] and [`FileRef`] traits the browser's handles implement) and the shell
//! script's ([`memdiag_core::cleanup::Plan::script`], run by `sh` on a scratch folder, with
//! the outside edits made at each `cksum` the script runs).
//!
//! The model's operations are atomic, and `write_if` and `remove_if` are compare-and-write
//! in one step, as the browser's handles make them up to the moment of the write itself
//! (see `web/src/engine/write.rs`).

#![cfg(not(target_arch = "wasm32"))]

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::future::Future;
use std::rc::Rc;

use memdiag_core::cleanup::{self, Compaction, Plan};
use memdiag_tests::Fixture;
use memdiag_web::engine::write::{self, MemoryBackups};
use memdiag_web::page::live::{Dir, FileRef, Kind, LiveRoot, Stat, Target, Task};

const HOME: &str = "/home/alice";
const MEMORY: &str = ".claude/projects/-home-alice-app/memory";
/// Files larger than this cannot be read (as the page's `MAX_READ_BYTES`, scaled down).
const READ_CAP: usize = 64 * 1024;

// ----- a small random source ---------------------------------------------------------------

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

// ----- the model folder ----------------------------------------------------------------------

#[derive(Default)]
struct Model {
    files: BTreeMap<String, Vec<u8>>,
    dirs: BTreeSet<String>,
    rng: Option<Rng>,
    /// Outside edits still to make, and the percent chance of one at each operation.
    edits_left: u32,
    edit_chance: u64,
    /// Tokens the outside writer deleted (they may vanish).
    deleted: BTreeSet<String>,
    /// Every token ever written.
    written: BTreeSet<String>,
    counter: u32,
    /// A path the plan under test creates, which the outside writer may create first.
    contested: Option<String>,
}

fn tokens(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| w.len() > 1 && (w.starts_with('L') || w.starts_with('O')))
        .filter(|w| w[1..].chars().all(|c| c.is_ascii_digit()))
        .map(str::to_owned)
        .collect()
}

impl Model {
    fn put(&mut self, path: &str, text: &str) {
        let mut dir = path;
        while let Some((parent, _)) = dir.rsplit_once('/') {
            self.dirs.insert(parent.to_owned());
            dir = parent;
        }
        self.written.extend(tokens(text));
        self.files.insert(path.to_owned(), text.as_bytes().to_vec());
    }

    /// Maybe one outside edit, before an operation of the page.
    fn tick(&mut self) {
        if self.edits_left == 0 {
            return;
        }
        let Some(mut rng) = self.rng.take() else {
            return;
        };
        if rng.chance(self.edit_chance) {
            self.edits_left -= 1;
            self.outside_edit(&mut rng);
        }
        self.rng = Some(rng);
    }

    fn outside_edit(&mut self, rng: &mut Rng) {
        self.counter += 1;
        let token = format!("O{}", self.counter);
        let line = format!("- outside note {token}\n");
        let memory_files: Vec<String> = self
            .files
            .keys()
            .filter(|p| p.starts_with(MEMORY))
            .cloned()
            .collect();
        let kind = rng.below(7);
        if kind == 6 {
            if let Some(path) = self.contested.clone() {
                if !self.files.contains_key(&path) && !self.dirs.contains(&path) {
                    self.put(&path, &line);
                    return;
                }
            }
        }
        if memory_files.is_empty() {
            return;
        }
        let path = memory_files[rng.below(memory_files.len())].clone();
        let text = String::from_utf8_lossy(&self.files[&path]).into_owned();
        match kind {
            0 | 6 => self.put(&path, &format!("{text}{line}")),
            1 => self.put(&path, &format!("{line}{text}")),
            2 => {
                let lines: Vec<&str> = text.split_inclusive('\n').collect();
                if lines.is_empty() {
                    return;
                }
                let gone = rng.below(lines.len());
                self.deleted.extend(tokens(lines[gone]));
                let kept: String = lines
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| *i != gone)
                    .map(|(_, l)| *l)
                    .collect();
                self.files.insert(path, kept.into_bytes());
            }
            3 => {
                // A folder where the file was: everything in it is the writer's to delete.
                self.deleted.extend(tokens(&text));
                self.files.remove(&path);
                self.dirs.insert(path);
            }
            4 => {
                let big = format!("{text}{line}{}\n", "x".repeat(READ_CAP));
                self.put(&path, &big);
            }
            _ => {
                // Rewritten whole with one line more in the middle.
                let lines: Vec<&str> = text.split_inclusive('\n').collect();
                let at = rng.below(lines.len() + 1);
                let mut out: String = lines[..at].concat();
                out.push_str(&line);
                out.push_str(&lines[at..].concat());
                self.put(&path, &out);
            }
        }
    }

    /// The tokens in any file now.
    fn present(&self) -> BTreeSet<String> {
        self.files
            .values()
            .flat_map(|b| tokens(&String::from_utf8_lossy(b)))
            .collect()
    }
}

type Shared = Rc<RefCell<Model>>;

struct ModelDir {
    model: Shared,
    path: String,
}

struct ModelFile {
    model: Shared,
    path: String,
}

fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_owned()
    } else {
        format!("{dir}/{name}")
    }
}

fn ready<T: 'static>(value: Result<T, String>) -> Task<'static, T> {
    Box::pin(async move { value })
}

impl Dir for ModelDir {
    fn name(&self) -> String {
        self.path.rsplit('/').next().unwrap_or("alice").to_owned()
    }

    fn entries(&self, _limit: Option<usize>) -> Task<'_, Vec<(String, Kind)>> {
        let mut model = self.model.borrow_mut();
        model.tick();
        let prefix = join(&self.path, "");
        let direct = |p: &String| {
            p.strip_prefix(&prefix)
                .filter(|rest| !rest.is_empty() && !rest.contains('/'))
                .map(str::to_owned)
        };
        let out = model
            .dirs
            .iter()
            .filter_map(direct)
            .map(|n| (n, Kind::Dir))
            .chain(
                model
                    .files
                    .keys()
                    .filter_map(direct)
                    .map(|n| (n, Kind::File)),
            )
            .collect();
        ready(Ok(out))
    }

    fn dir<'a>(&'a self, name: &'a str) -> Task<'a, Option<Rc<dyn Dir>>> {
        let path = join(&self.path, name);
        let mut model = self.model.borrow_mut();
        model.tick();
        let found = model.dirs.contains(&path).then(|| {
            Rc::new(ModelDir {
                model: self.model.clone(),
                path,
            }) as Rc<dyn Dir>
        });
        ready(Ok(found))
    }

    fn file<'a>(&'a self, name: &'a str, create: bool) -> Task<'a, Option<Rc<dyn FileRef>>> {
        let path = join(&self.path, name);
        let mut model = self.model.borrow_mut();
        model.tick();
        if model.dirs.contains(&path) {
            return ready(Err(format!("a folder named {name} is in the way")));
        }
        if !model.files.contains_key(&path) {
            if !create {
                return ready(Ok(None));
            }
            model.files.insert(path.clone(), Vec::new());
        }
        ready(Ok(Some(Rc::new(ModelFile {
            model: self.model.clone(),
            path,
        }) as Rc<dyn FileRef>)))
    }

    fn remove<'a>(&'a self, name: &'a str) -> Task<'a, ()> {
        let path = join(&self.path, name);
        let mut model = self.model.borrow_mut();
        model.tick();
        let result = model
            .files
            .remove(&path)
            .map(|_| ())
            .ok_or_else(|| "NotFoundError".to_owned());
        ready(result)
    }

    fn remove_if<'a>(&'a self, name: &'a str, expected: &'a [u8]) -> Task<'a, bool> {
        let path = join(&self.path, name);
        let mut model = self.model.borrow_mut();
        model.tick();
        let holds = model.files.get(&path).is_some_and(|b| b == expected);
        if holds {
            model.files.remove(&path);
        }
        ready(Ok(holds))
    }

    fn permission(&self, _write: bool, _ask: bool) -> Task<'_, bool> {
        ready(Ok(true))
    }
}

impl FileRef for ModelFile {
    fn stat(&self) -> Task<'_, Stat> {
        let mut model = self.model.borrow_mut();
        model.tick();
        let stat = model
            .files
            .get(&self.path)
            .map(|b| Stat {
                size: b.len() as u64,
                modified_ms: None,
            })
            .ok_or_else(|| "NotFoundError".to_owned());
        ready(stat)
    }

    fn read(&self) -> Task<'_, Vec<u8>> {
        let mut model = self.model.borrow_mut();
        model.tick();
        let bytes = match model.files.get(&self.path) {
            Some(b) if b.len() > READ_CAP => Err("too large to read".to_owned()),
            Some(b) => Ok(b.clone()),
            None => Err("NotFoundError: the file is gone".to_owned()),
        };
        ready(bytes)
    }

    fn write(&self, bytes: Vec<u8>) -> Task<'_, ()> {
        let mut model = self.model.borrow_mut();
        model.tick();
        if model.dirs.contains(&self.path) {
            return ready(Err("TypeMismatchError".to_owned()));
        }
        model
            .written
            .extend(tokens(&String::from_utf8_lossy(&bytes)));
        model.files.insert(self.path.clone(), bytes);
        ready(Ok(()))
    }

    fn write_if<'a>(&'a self, expected: &'a [u8], bytes: Vec<u8>) -> Task<'a, bool> {
        let mut model = self.model.borrow_mut();
        model.tick();
        let holds = model.files.get(&self.path).is_some_and(|b| b == expected);
        if holds {
            model
                .written
                .extend(tokens(&String::from_utf8_lossy(&bytes)));
            model.files.insert(self.path.clone(), bytes);
        }
        ready(Ok(holds))
    }
}

/// Runs a future whose every step is ready at once (the model never waits).
fn run<T>(future: impl Future<Output = T>) -> T {
    let mut future = std::pin::pin!(future);
    let mut context = std::task::Context::from_waker(std::task::Waker::noop());
    loop {
        if let std::task::Poll::Ready(value) = future.as_mut().poll(&mut context) {
            return value;
        }
    }
}

// ----- the folder a run starts from -----------------------------------------------------------

/// A memory folder of `rng`'s making: an index (sometimes past its 200-line cap) whose lines
/// link topic files that exist, topic files that do not, or nothing; and topic files no line
/// links. Every line carries a token `L<n>`.
fn starting_files(rng: &mut Rng) -> Vec<(String, String)> {
    let mut token = 0;
    let mut next = || {
        token += 1;
        format!("L{token}")
    };
    let mut files = Vec::new();
    let mut index = String::new();
    let entries = if rng.chance(40) {
        200 + rng.below(30)
    } else {
        3 + rng.below(12)
    };
    for i in 0..entries {
        match rng.below(4) {
            0 => {
                let name = format!("t{i}.md");
                index.push_str(&format!("- [t{i}]({name}) — topic {}\n", next()));
                files.push((
                    format!("{MEMORY}/{name}"),
                    format!("---\ndescription: d {}\n---\nbody {}\n", next(), next()),
                ));
            }
            1 => index.push_str(&format!("- [gone{i}](gone{i}.md) — dead {}\n", next())),
            _ => index.push_str(&format!("- plain note {}\n", next())),
        }
    }
    for i in 0..rng.below(3) {
        files.push((
            format!("{MEMORY}/orphan{i}.md"),
            format!(
                "---\ndescription: o {}\n---\norphan body {}\n",
                next(),
                next()
            ),
        ));
    }
    files.push((format!("{MEMORY}/MEMORY.md"), index));
    files
}

/// The plans a folder offers, by kind, planned from an analysis of `files`.
fn plans(files: &[(String, String)]) -> Vec<Plan> {
    let mut text = format!("//@ project={HOME}/app\n");
    for (path, body) in files {
        text.push_str(&format!("//- {HOME}/{path}\n{body}"));
    }
    let mut fixture = Fixture::parse(&text);
    let report = fixture.analyze();
    let tree = &fixture.tree;
    let all = cleanup::memory_cleanups(&report, tree);
    let Some(memory) = all.first() else {
        return Vec::new();
    };
    let lines: Vec<(u64, String)> = memory
        .dead_lines
        .iter()
        .map(|d| (d.line, d.text.clone()))
        .collect();
    let orphans: Vec<String> = memory.orphans.iter().map(|o| o.path.clone()).collect();
    let mut out = Vec::new();
    out.extend(cleanup::remove_lines(tree, &memory.index, &lines).ok());
    out.extend(cleanup::index_orphans(&report, tree, &memory.index, &orphans).ok());
    out.extend(cleanup::delete_files(tree, &orphans).ok());
    if let Some(over) = &memory.over_cap {
        let archive = Compaction::MoveTo(over.suggested_topic.clone());
        out.extend(cleanup::compact(&report, tree, &memory.index, &archive).ok());
        out.extend(cleanup::compact(&report, tree, &memory.index, &Compaction::Drop).ok());
    }
    out
}

/// A model folder holding `files`, and the live root over it.
fn model_with(files: &[(String, String)]) -> (Shared, Rc<LiveRoot>) {
    let model: Shared = Rc::new(RefCell::new(Model::default()));
    for (path, body) in files {
        model.borrow_mut().put(path, body);
    }
    let root = Rc::new(LiveRoot {
        dir: Rc::new(ModelDir {
            model: model.clone(),
            path: String::new(),
        }),
    });
    (model, root)
}

fn targets(plan: &Plan, root: &Rc<LiveRoot>) -> Vec<Target> {
    plan.changes
        .iter()
        .map(|c| Target {
            path: c.path.clone(),
            root: root.clone(),
            rel: c
                .path
                .strip_prefix(&format!("{HOME}/"))
                .expect("below home")
                .to_owned(),
        })
        .collect()
}

/// The tokens a plan's diff shows removed.
fn removed_in_diff(plan: &Plan) -> BTreeSet<String> {
    plan.changes
        .iter()
        .flat_map(|c| c.lines())
        .filter(|(mark, _)| *mark == '-')
        .flat_map(|(_, line)| tokens(line))
        .collect()
}

fn lost(model: &Model, reviewed: &BTreeSet<String>) -> Vec<String> {
    let present = model.present();
    model
        .written
        .iter()
        .filter(|t| !present.contains(*t) && !model.deleted.contains(*t) && !reviewed.contains(*t))
        .cloned()
        .collect()
}

// ----- the page's way -------------------------------------------------------------------------

#[test]
fn the_page_never_loses_a_line_outside_the_reviewed_diff() {
    let mut runs = 0;
    let mut made = 0;
    for seed in 1..=600_u64 {
        let mut rng = Rng(seed);
        let files = starting_files(&mut rng);
        let all = plans(&files);
        if all.is_empty() {
            continue;
        }
        let plan = all[rng.below(all.len())].clone();
        let (model, root) = model_with(&files);
        {
            let mut m = model.borrow_mut();
            m.contested = plan
                .changes
                .iter()
                .find(|c| c.before.is_none())
                .map(|c| c.path.strip_prefix(&format!("{HOME}/")).unwrap().to_owned());
            m.rng = Some(Rng(seed.wrapping_mul(31)));
            m.edits_left = 1 + (seed % 3) as u32;
            m.edit_chance = 4 + seed % 20;
        }
        let backups = MemoryBackups::default();
        let mut reviewed = removed_in_diff(&plan);
        let result = run(write::apply(&plan, &targets(&plan, &root), &backups));
        runs += 1;
        if result.is_ok() {
            made += 1;
            assert_eq!(
                backups.kept.borrow().len(),
                1,
                "seed {seed}: a backup first"
            );
            match rng.below(3) {
                0 => {
                    let undo = plan.reverse();
                    reviewed.extend(removed_in_diff(&undo));
                    let _ = run(write::apply(&undo, &targets(&undo, &root), &backups));
                }
                1 => {
                    if let Ok(restore) = run(write::restoring(&plan, &targets(&plan, &root))) {
                        reviewed.extend(removed_in_diff(&restore));
                        let _ = run(write::apply(&restore, &targets(&restore, &root), &backups));
                    }
                }
                _ => {}
            }
        } else {
            assert!(
                backups.kept.borrow().len() <= 1,
                "seed {seed}: at most one backup"
            );
        }
        let m = model.borrow();
        let gone = lost(&m, &reviewed);
        assert!(
            gone.is_empty(),
            "seed {seed}: {} lost lines {gone:?} outside the reviewed diff ({:?})",
            plan.title,
            result
        );
    }
    // The runs must both make plans and refuse some, or the property says little.
    assert!(runs > 300, "{runs} runs");
    assert!(
        made > 50 && made < runs,
        "{made} of {runs} runs made their plan"
    );
}

#[test]
fn a_plan_made_without_outside_edits_changes_exactly_its_diff_and_undoes_to_the_byte() {
    for seed in 1..=120_u64 {
        let mut rng = Rng(seed);
        let files = starting_files(&mut rng);
        for plan in plans(&files) {
            let (model, root) = model_with(&files);
            let before = model.borrow().files.clone();
            let backups = MemoryBackups::default();
            run(write::apply(&plan, &targets(&plan, &root), &backups)).expect("made");
            let mut expected = before.clone();
            for change in &plan.changes {
                let rel = change.path.strip_prefix(&format!("{HOME}/")).unwrap();
                match &change.after {
                    Some(text) => expected.insert(rel.to_owned(), text.clone().into_bytes()),
                    None => expected.remove(rel),
                };
            }
            assert_eq!(
                model.borrow().files,
                expected,
                "seed {seed}: {}",
                plan.title
            );
            let undo = plan.reverse();
            run(write::apply(&undo, &targets(&undo, &root), &backups)).expect("undone");
            assert_eq!(
                model.borrow().files,
                before,
                "seed {seed}: undo of {}",
                plan.title
            );
        }
    }
}

#[test]
fn a_folder_in_the_way_of_a_new_file_stops_the_plan_before_the_index_changes() {
    // The second ordinary sequence that lost lines: Move with a folder at the archive's path.
    let mut rng = Rng(7);
    let mut files;
    let plan = loop {
        files = starting_files(&mut rng);
        if let Some(plan) = plans(&files)
            .into_iter()
            .find(|p| p.changes.iter().any(|c| c.before.is_none()))
        {
            break plan;
        }
    };
    let (model, root) = model_with(&files);
    let archive = plan
        .changes
        .iter()
        .find(|c| c.before.is_none())
        .map(|c| c.path.strip_prefix(&format!("{HOME}/")).unwrap().to_owned())
        .expect("a new file");
    model.borrow_mut().dirs.insert(archive.clone());
    let before = model.borrow().files.clone();
    let backups = MemoryBackups::default();
    let error = run(write::apply(&plan, &targets(&plan, &root), &backups)).expect_err("refused");
    let name = archive.rsplit('/').next().unwrap();
    assert!(
        error.contains(&format!("a folder named {name} is in the way")),
        "{error}"
    );
    assert!(error.contains("nothing was changed"), "{error}");
    assert_eq!(model.borrow().files, before);
    assert!(
        backups.kept.borrow().is_empty(),
        "no backup for a plan refused before it"
    );
}

#[test]
fn no_backup_no_write() {
    let mut rng = Rng(3);
    let files = starting_files(&mut rng);
    let plan = plans(&files).into_iter().next().expect("a plan");
    let (model, root) = model_with(&files);
    let before = model.borrow().files.clone();
    let backups = MemoryBackups::default();
    *backups.refuse.borrow_mut() = Some("quota exceeded".to_owned());
    let error = run(write::apply(&plan, &targets(&plan, &root), &backups)).expect_err("refused");
    assert!(
        error.contains("no backup could be kept (quota exceeded)"),
        "{error}"
    );
    assert_eq!(model.borrow().files, before);
}

// ----- the script's way -----------------------------------------------------------------------

/// A scratch folder for one run.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir =
        std::env::temp_dir().join(format!("memdiag-write-model-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

#[test]
fn the_script_never_loses_a_line_outside_the_reviewed_diff() {
    if std::process::Command::new("sh")
        .arg("-c")
        .arg("true")
        .status()
        .is_err()
    {
        panic!("the script property needs sh");
    }
    let mut runs = 0;
    let mut made = 0;
    for seed in 1..=150_u64 {
        let mut rng = Rng(seed);
        let files = starting_files(&mut rng);
        let all = plans(&files);
        if all.is_empty() {
            continue;
        }
        // Plans of two or more files first: their script has a check between two writes.
        let plan = all
            .iter()
            .filter(|p| p.changes.len() > 1 || seed % 3 == 0)
            .nth(rng.below(all.len()))
            .unwrap_or(&all[0])
            .clone();
        let dir = scratch(&seed.to_string());
        let home = dir.join("home");
        // The plan names /home/alice/…; the script runs on the same files below the scratch
        // folder.
        let script = plan
            .script()
            .replace(&format!("'{HOME}/"), &format!("'{}/", home.display()));
        let mut written = BTreeSet::new();
        for (path, body) in &files {
            let file = home.join(path);
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(&file, body).unwrap();
            written.extend(tokens(body));
        }
        // The outside writer: at the Nth `cksum` the script runs, one line more at the top or
        // the end of one of the plan's files (or the file it is about to create).
        let shim = dir.join("bin");
        std::fs::create_dir_all(&shim).unwrap();
        let target = plan.changes[rng.below(plan.changes.len())]
            .path
            .replace(HOME, &home.display().to_string());
        let at = 1 + rng.below(3 * plan.changes.len());
        let token = format!("O{seed}");
        let edit = if rng.chance(50) {
            format!("printf '%s\\n' '- outside {token}' >> '{target}'")
        } else {
            format!("{{ printf '%s\\n' '- outside {token}'; cat '{target}' 2>/dev/null; }} > '{target}.tmp' && mv '{target}.tmp' '{target}'")
        };
        let real = String::from_utf8(
            std::process::Command::new("sh")
                .args(["-c", "command -v cksum"])
                .output()
                .unwrap()
                .stdout,
        )
        .unwrap();
        std::fs::write(
            shim.join("cksum"),
            format!(
                "#!/bin/sh\nn=$(cat '{count}' 2>/dev/null || echo 0); n=$((n+1)); echo $n > '{count}'\n\
                 if [ \"$n\" -eq {at} ]; then {edit}; : > '{edited}'; fi\nexec {real} \"$@\"",
                count = dir.join("count").display(),
                edited = dir.join("edited").display(),
                real = real.trim()
            ),
        )
        .unwrap();
        let _ = std::process::Command::new("chmod")
            .args(["+x", &shim.join("cksum").display().to_string()])
            .status();
        std::fs::write(dir.join("plan.sh"), &script).unwrap();
        let status = std::process::Command::new("sh")
            .arg(dir.join("plan.sh"))
            .env(
                "PATH",
                format!(
                    "{}:{}",
                    shim.display(),
                    std::env::var("PATH").unwrap_or_default()
                ),
            )
            .env("MEMDIAG_BACKUP_DIR", dir.join("backup"))
            .stderr(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .status()
            .expect("sh runs");
        runs += 1;
        if status.success() {
            made += 1;
        }
        if dir.join("edited").exists() {
            written.insert(token);
        }
        let mut present = BTreeSet::new();
        for entry in walk(&home) {
            present.extend(tokens(&std::fs::read_to_string(entry).unwrap_or_default()));
        }
        let reviewed = removed_in_diff(&plan);
        let gone: Vec<&String> = written
            .iter()
            .filter(|t| !present.contains(*t) && !reviewed.contains(*t))
            .collect();
        assert!(gone.is_empty(), "seed {seed}: {} lost {gone:?}", plan.title);
        // A script that wrote anything kept a backup of every file it changed first.
        if status.success() {
            let copies = walk(&dir.join("backup")).len();
            let kept = plan.changes.iter().filter(|c| c.before.is_some()).count();
            assert_eq!(copies, kept, "seed {seed}: backups");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(
        made > 5 && made < runs,
        "{made} of {runs} scripts ran through"
    );
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}
