//! Live folders over an in-memory folder that implements the page's [`Dir`] and [`FileRef`]
//! (the methods of the File System Access handles the page calls), in a real browser: the
//! walk and what it skips, the analysis reading only what it needs, Refresh reading only
//! changed files, and each clean-up written, refused when a file changed, and undone.
//!
//! The fake records every call (`list`, `open`, `stat`, `read`, `write`, `remove`), so a test
//! can prove that no transcript folder was ever listed and no transcript ever opened.

#![cfg(target_arch = "wasm32")]

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use memdiag_core::cleanup::{self, Compaction};
use memdiag_core::report::Report;
use memdiag_core::Tree;
use memdiag_web::engine::ingest as engine_ingest;
use memdiag_web::engine::write;
use memdiag_web::page::ingest::{self, Source};
use memdiag_web::page::live::{self, Dir, FileRef, Kind, Stat, Task};
use memdiag_web::page::state::Inputs;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

// --- the fake folder -------------------------------------------------------------------------

#[derive(Default)]
struct Fs {
    /// Files by path below the root, with their bytes and date.
    files: BTreeMap<String, (Vec<u8>, f64)>,
    /// Folders by path below the root (`""` is the root).
    dirs: std::collections::BTreeSet<String>,
    /// Every call, as `<verb> <path>`.
    log: Vec<String>,
    /// Whether write permission was asked for, and granted.
    write_asked: bool,
    write_granted: bool,
    clock: f64,
}

#[derive(Clone)]
struct FakeDir {
    fs: Rc<RefCell<Fs>>,
    path: String,
    name: String,
}

struct FakeFile {
    fs: Rc<RefCell<Fs>>,
    path: String,
}

fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_owned()
    } else {
        format!("{dir}/{name}")
    }
}

impl Fs {
    fn put(&mut self, path: &str, text: &str) {
        self.clock += 1000.0;
        let mut dir = path;
        while let Some((parent, _)) = dir.rsplit_once('/') {
            self.dirs.insert(parent.to_owned());
            dir = parent;
        }
        self.files
            .insert(path.to_owned(), (text.as_bytes().to_vec(), self.clock));
    }

    fn text(&self, path: &str) -> Option<String> {
        self.files
            .get(path)
            .map(|(b, _)| String::from_utf8_lossy(b).into_owned())
    }

    fn took(&self, verb: &str) -> Vec<String> {
        self.log
            .iter()
            .filter_map(|l| l.strip_prefix(&format!("{verb} ")))
            .map(str::to_owned)
            .collect()
    }
}

impl Dir for FakeDir {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn entries(&self, limit: Option<usize>) -> Task<'_, Vec<(String, Kind)>> {
        let mut fs = self.fs.borrow_mut();
        fs.log.push(format!("list {}", self.path));
        let prefix = if self.path.is_empty() {
            String::new()
        } else {
            format!("{}/", self.path)
        };
        let direct = |p: &String| {
            p.strip_prefix(&prefix)
                .filter(|rest| !rest.is_empty() && !rest.contains('/'))
                .map(str::to_owned)
        };
        let mut out: Vec<(String, Kind)> = fs
            .dirs
            .iter()
            .filter_map(direct)
            .map(|n| (n, Kind::Dir))
            .chain(fs.files.keys().filter_map(direct).map(|n| (n, Kind::File)))
            .collect();
        if let Some(limit) = limit {
            out.truncate(limit);
        }
        Box::pin(async move { Ok(out) })
    }

    fn dir<'a>(&'a self, name: &'a str) -> Task<'a, Option<Rc<dyn Dir>>> {
        let path = join(&self.path, name);
        let mut fs = self.fs.borrow_mut();
        fs.log.push(format!("open {path}"));
        let found = fs.dirs.contains(&path).then(|| {
            Rc::new(FakeDir {
                fs: self.fs.clone(),
                path,
                name: name.to_owned(),
            }) as Rc<dyn Dir>
        });
        Box::pin(async move { Ok(found) })
    }

    fn file<'a>(&'a self, name: &'a str, create: bool) -> Task<'a, Option<Rc<dyn FileRef>>> {
        let path = join(&self.path, name);
        let mut fs = self.fs.borrow_mut();
        // As the browser's getFileHandle: a folder of that name is in the way.
        if fs.dirs.contains(&path) {
            let message = format!("a folder named {name} is in the way");
            return Box::pin(async move { Err(message) });
        }
        let exists = fs.files.contains_key(&path);
        if create && !exists {
            if !fs.write_granted {
                return Box::pin(async { Err("NotAllowedError".to_owned()) });
            }
            fs.log.push(format!("create {path}"));
            fs.clock += 1000.0;
            let clock = fs.clock;
            fs.files.insert(path.clone(), (Vec::new(), clock));
        }
        let found = (exists || create).then(|| {
            Rc::new(FakeFile {
                fs: self.fs.clone(),
                path,
            }) as Rc<dyn FileRef>
        });
        Box::pin(async move { Ok(found) })
    }

    fn remove<'a>(&'a self, name: &'a str) -> Task<'a, ()> {
        let path = join(&self.path, name);
        let mut fs = self.fs.borrow_mut();
        if !fs.write_granted {
            return Box::pin(async { Err("NotAllowedError".to_owned()) });
        }
        fs.log.push(format!("remove {path}"));
        let result = fs
            .files
            .remove(&path)
            .map(|_| ())
            .ok_or_else(|| "NotFoundError".to_owned());
        Box::pin(async move { result })
    }

    fn permission(&self, write: bool, ask: bool) -> Task<'_, bool> {
        let mut fs = self.fs.borrow_mut();
        if write && ask {
            fs.write_asked = true;
            fs.write_granted = true;
        }
        let granted = !write || fs.write_granted;
        Box::pin(async move { Ok(granted) })
    }
}

impl FileRef for FakeFile {
    fn stat(&self) -> Task<'_, Stat> {
        let mut fs = self.fs.borrow_mut();
        fs.log.push(format!("stat {}", self.path));
        let stat = fs
            .files
            .get(&self.path)
            .map(|(bytes, modified)| Stat {
                size: bytes.len() as u64,
                modified_ms: Some(*modified),
            })
            .ok_or_else(|| "NotFoundError".to_owned());
        Box::pin(async move { stat })
    }

    fn read(&self) -> Task<'_, Vec<u8>> {
        let mut fs = self.fs.borrow_mut();
        fs.log.push(format!("read {}", self.path));
        let bytes = fs
            .files
            .get(&self.path)
            .map(|(b, _)| b.clone())
            .ok_or_else(|| "NotFoundError".to_owned());
        Box::pin(async move { bytes })
    }

    fn write(&self, bytes: Vec<u8>) -> Task<'_, ()> {
        let mut fs = self.fs.borrow_mut();
        if !fs.write_granted {
            return Box::pin(async { Err("NotAllowedError".to_owned()) });
        }
        fs.log.push(format!("write {}", self.path));
        fs.clock += 1000.0;
        let clock = fs.clock;
        fs.files.insert(self.path.clone(), (bytes, clock));
        Box::pin(async { Ok(()) })
    }
}

// --- a config directory ------------------------------------------------------------------------

const MEMORY: &str = "projects/-home-alice-app/memory";

/// A `~/.claude` with what the analysis reads, and the bulk it must never open.
fn config_dir() -> (Rc<RefCell<Fs>>, Rc<dyn Dir>) {
    let fs = Rc::new(RefCell::new(Fs::default()));
    {
        let mut f = fs.borrow_mut();
        f.dirs.insert(String::new());
        f.put("CLAUDE.md", "be brief\n");
        f.put("settings.json", "{}\n");
        f.put("history.jsonl", "{}\n");
        f.put("rules/style.md", "small diffs\n");
        f.put(
            &format!("{MEMORY}/MEMORY.md"),
            "- [Build](build.md) — how the build runs\n- [Old](old.md) — removed long ago\n",
        );
        f.put(
            &format!("{MEMORY}/build.md"),
            "---\ntype: project\n---\npnpm build\n",
        );
        f.put(
            &format!("{MEMORY}/payments.md"),
            "---\ndescription: refunds retry\ntype: project\n---\nthree times\n",
        );
        // The bulk the walk must never enter, and the transcripts it must never open.
        f.put("projects/-home-alice-app/0b7e.jsonl", "{\"secret\":1}\n");
        f.put(
            "projects/-home-alice-app/0b7e/subagents/agent-1.jsonl",
            "{}\n",
        );
        f.put("projects/-home-alice-app/0b7e/tool-results/out.txt", "x\n");
        f.put("projects/-home-alice-other/1c2d.jsonl", "{}\n");
        f.put("projects/-home-alice-other/1c2d/tool-results/r.txt", "{}\n");
        f.put("todos/t.json", "[]\n");
        f.put("file-history/a/CLAUDE.md", "old\n");
        f.put("shell-snapshots/s.sh", "echo\n");
        f.put("debug/latest", "log\n");
    }
    let root = Rc::new(FakeDir {
        fs: fs.clone(),
        path: String::new(),
        name: ".claude".to_owned(),
    }) as Rc<dyn Dir>;
    (fs, root)
}

fn inputs() -> Inputs {
    Inputs {
        home: "/home/alice".to_owned(),
        project: "/home/alice/app".to_owned(),
        ..Inputs::default()
    }
}

async fn analyse(sources: &[Rc<Source>]) -> (Report, Tree) {
    let (report, tree, _) = engine_ingest::run_analysis(sources.to_vec(), inputs(), |_| {})
        .await
        .expect("the analysis runs");
    (report, tree)
}

/// Nothing below a transcript folder or a bulk folder was listed, opened, stat'd or read, and
/// no transcript was stat'd or read.
fn assert_no_bulk_touched(fs: &Fs) {
    for line in &fs.log {
        let (verb, path) = line.split_once(' ').unwrap_or((line, ""));
        let bulk = ["todos", "file-history", "shell-snapshots", "debug"]
            .iter()
            .any(|b| path == *b || path.starts_with(&format!("{b}/")));
        let transcript_folder = path.starts_with("projects/")
            && path
                .split('/')
                .nth(2)
                .is_some_and(|third| third != "memory");
        assert!(!bulk, "{line}");
        assert!(!transcript_folder, "{line}");
        if path.ends_with(".jsonl") {
            assert!(verb != "stat" && verb != "read", "{line}");
        }
    }
}

// --- tests -------------------------------------------------------------------------------------

#[wasm_bindgen_test]
async fn the_walk_lists_what_the_analysis_reads_and_skips_the_bulk() {
    let (fs, root) = config_dir();
    let walked = live::walk(&root, &|_| {}).await.expect("walk");
    let rels: Vec<&str> = walked.files.iter().map(|f| f.rel.as_str()).collect();
    assert_eq!(
        rels,
        [
            "CLAUDE.md",
            "history.jsonl",
            &format!("{MEMORY}/MEMORY.md"),
            &format!("{MEMORY}/build.md"),
            &format!("{MEMORY}/payments.md"),
            "projects/-home-alice-other/1c2d.jsonl",
            "rules/style.md",
            "settings.json",
        ]
    );
    // The project without memory shows in the picker by one transcript's name, never opened.
    let source = live::open(root.clone(), &|_| {}).await.expect("open");
    assert_eq!(
        source.project_folder_names(),
        ["-home-alice-app", "-home-alice-other"]
    );
    let fs = fs.borrow();
    assert_no_bulk_touched(&fs);
    // Folders listed: the root, projects/, the memory folder, rules/, and a peek at the
    // project without memory; never a transcript folder or a bulk folder.
    let listed = fs.took("list");
    assert!(listed.contains(&"projects/-home-alice-other".to_owned()));
    assert!(
        !listed.contains(&"projects/-home-alice-app".to_owned()),
        "{listed:?}"
    );
    for folder in &listed {
        assert!(
            !folder.contains("/0b7e") && !folder.contains("/1c2d"),
            "{folder}"
        );
    }
}

#[wasm_bindgen_test]
async fn the_analysis_reads_no_transcript_and_refresh_reads_only_changed_files() {
    let (fs, root) = config_dir();
    let source = Rc::new(live::open(root, &|_| {}).await.expect("open"));
    let (report, _) = analyse(std::slice::from_ref(&source)).await;
    assert!(report
        .files
        .iter()
        .any(|r| r.path.ends_with("/memory/MEMORY.md")));
    assert_no_bulk_touched(&fs.borrow());
    let first_reads = fs.borrow().took("read");
    assert!(first_reads.contains(&"CLAUDE.md".to_owned()));

    // An edit in the person's editor, then Refresh.
    fs.borrow_mut().put("CLAUDE.md", "be brief, and kind\n");
    fs.borrow_mut().log.clear();
    let fresh = Rc::new(
        ingest::reread(&source, &|_| {}, None)
            .await
            .expect("refresh")
            .expect("a live source reads again"),
    );
    let changes = live::changed_files(&source, &fresh);
    assert_eq!(changes.changed, ["CLAUDE.md"]);
    assert!(changes.added.is_empty() && changes.removed.is_empty());
    let (report, _) = analyse(std::slice::from_ref(&fresh)).await;
    let log = fs.borrow();
    // Every file was asked its size and date; only the changed one was read again.
    assert_eq!(log.took("read"), ["CLAUDE.md"]);
    assert!(log.took("stat").contains(&"rules/style.md".to_owned()));
    assert_no_bulk_touched(&log);
    let user = report
        .files
        .iter()
        .find(|r| r.path == "/home/alice/.claude/CLAUDE.md")
        .expect("user file");
    assert_eq!(user.size, Some("be brief, and kind\n".len() as u64));
}

#[wasm_bindgen_test]
async fn a_clean_up_writes_only_its_files_asks_for_write_permission_then_and_undoes() {
    let (fs, root) = config_dir();
    let backups = write::MemoryBackups::default();
    let source = Rc::new(live::open(root, &|_| {}).await.expect("open"));
    let sources = vec![source.clone()];
    let (report, tree) = analyse(&sources).await;
    assert!(
        !fs.borrow().write_asked,
        "write permission asked before a clean-up"
    );
    let all = cleanup::memory_cleanups(&report, &tree);
    let memory = &all[0];
    assert_eq!(memory.dead_lines.len(), 1);
    assert_eq!(memory.orphans.len(), 1);

    // Remove the dead line.
    let plan = cleanup::remove_lines(
        &tree,
        &memory.index,
        &[(2, memory.dead_lines[0].text.clone())],
    )
    .expect("plan");
    let targets = live::targets(&plan, &sources, &inputs()).expect("live targets");
    live::ask_write(&targets).await.expect("permission");
    assert!(fs.borrow().write_asked);
    fs.borrow_mut().log.clear();
    write::apply(&plan, &targets, &backups)
        .await
        .expect("applied");
    let index = format!("{MEMORY}/MEMORY.md");
    assert_eq!(
        fs.borrow().text(&index).as_deref(),
        Some("- [Build](build.md) — how the build runs\n")
    );
    assert_eq!(fs.borrow().took("write"), [index.as_str()]);
    assert!(fs.borrow().took("remove").is_empty());

    // Undo restores it; an undo after another edit is refused and writes nothing.
    write::apply(&plan.reverse(), &targets, &backups)
        .await
        .expect("undone");
    assert_eq!(fs.borrow().text(&index), plan.changes[0].before.clone());
    write::apply(&plan, &targets, &backups)
        .await
        .expect("applied again");
    fs.borrow_mut().put(&index, "edited elsewhere\n");
    fs.borrow_mut().log.clear();
    let refused = write::apply(&plan.reverse(), &targets, &backups).await;
    assert!(refused.is_err_and(|e| e.contains("changed since the page read it")));
    assert!(fs.borrow().took("write").is_empty());
}

#[wasm_bindgen_test]
async fn orphans_are_linked_or_deleted_and_an_index_compacted_into_a_new_file() {
    let (fs, root) = config_dir();
    let backups = write::MemoryBackups::default();
    let source = Rc::new(live::open(root.clone(), &|_| {}).await.expect("open"));
    let sources = vec![source.clone()];
    let (report, tree) = analyse(&sources).await;
    let memory = cleanup::memory_cleanups(&report, &tree).remove(0);
    let orphans: Vec<String> = memory.orphans.iter().map(|o| o.path.clone()).collect();
    let payments = format!("{MEMORY}/payments.md");

    let link = cleanup::index_orphans(&report, &tree, &memory.index, &orphans).expect("plan");
    let targets = live::targets(&link, &sources, &inputs()).expect("targets");
    live::ask_write(&targets).await.expect("permission");
    write::apply(&link, &targets, &backups)
        .await
        .expect("linked");
    assert!(fs
        .borrow()
        .text(&format!("{MEMORY}/MEMORY.md"))
        .is_some_and(|t| t.ends_with("- [payments](payments.md) — refunds retry\n")));
    write::apply(&link.reverse(), &targets, &backups)
        .await
        .expect("undone");

    let delete = cleanup::delete_files(&tree, &orphans).expect("plan");
    let targets = live::targets(&delete, &sources, &inputs()).expect("targets");
    write::apply(&delete, &targets, &backups)
        .await
        .expect("deleted");
    assert!(fs.borrow().text(&payments).is_none());
    assert_eq!(fs.borrow().took("remove"), [payments.as_str()]);
    write::apply(&delete.reverse(), &targets, &backups)
        .await
        .expect("undone");
    assert!(fs
        .borrow()
        .text(&payments)
        .is_some_and(|t| t.contains("three times")));

    // An over-cap index: refresh, analyse, move the entries past the cap into a new file.
    let long: String = (1..=230).map(|i| format!("- entry {i}\n")).collect();
    fs.borrow_mut().put(&format!("{MEMORY}/MEMORY.md"), &long);
    let fresh = Rc::new(
        ingest::reread(&source, &|_| {}, None)
            .await
            .expect("refresh")
            .expect("live"),
    );
    let sources = vec![fresh];
    let (report, tree) = analyse(&sources).await;
    let memory = cleanup::memory_cleanups(&report, &tree).remove(0);
    let over = memory.over_cap.expect("over the cap");
    let plan = cleanup::compact(
        &report,
        &tree,
        &memory.index,
        &Compaction::MoveTo(over.suggested_topic.clone()),
    )
    .expect("plan");
    let targets = live::targets(&plan, &sources, &inputs()).expect("targets");
    write::apply(&plan, &targets, &backups)
        .await
        .expect("compacted");
    let archive = format!("{MEMORY}/index-archive.md");
    assert!(fs
        .borrow()
        .text(&archive)
        .is_some_and(|t| t.contains("- entry 230\n")));
    assert_eq!(
        fs.borrow()
            .text(&format!("{MEMORY}/MEMORY.md"))
            .map(|t| t.lines().count()),
        Some(200)
    );
    write::apply(&plan.reverse(), &targets, &backups)
        .await
        .expect("undone");
    assert!(fs.borrow().text(&archive).is_none());
    assert_eq!(fs.borrow().text(&format!("{MEMORY}/MEMORY.md")), Some(long));
}

#[wasm_bindgen_test]
async fn a_source_that_is_not_live_gets_no_write_targets() {
    let (_, root) = config_dir();
    let live_source = live::open(root, &|_| {}).await.expect("open");
    // The same files, as a folder without a handle (the folder input's way).
    let files = live_source
        .files
        .iter()
        .map(|f| ingest::SourceFile {
            rel: f.rel.clone(),
            size: f.size,
            modified: f.modified.clone(),
            reader: ingest::Reader::Remote,
        })
        .collect();
    let copy = Rc::new(Source::folder(".claude".to_owned(), files, None));
    let tree_source = Rc::new(live_source);
    let (report, tree) = analyse(std::slice::from_ref(&tree_source)).await;
    let memory = cleanup::memory_cleanups(&report, &tree).remove(0);
    let plan = cleanup::remove_lines(
        &tree,
        &memory.index,
        &[(2, memory.dead_lines[0].text.clone())],
    )
    .expect("plan");
    let refused = live::targets(&plan, &[copy], &inputs());
    assert!(refused.is_err_and(|e| e.contains("cannot write to")));
}

// --- the page ----------------------------------------------------------------------------------

mod page {
    use std::time::Duration;

    use wasm_bindgen::JsCast;
    use web_sys::{Element, HtmlElement};

    pub(crate) fn container() -> Element {
        let document = web_sys::window().unwrap().document().unwrap();
        let div = document.create_element("div").unwrap();
        document.body().unwrap().append_child(&div).unwrap();
        div
    }

    pub(crate) async fn settle() {
        for _ in 0..3 {
            yew::platform::time::sleep(Duration::ZERO).await;
        }
    }

    pub(crate) fn all(root: &Element, selector: &str) -> Vec<Element> {
        let list = root.query_selector_all(selector).unwrap();
        (0..list.length())
            .filter_map(|i| list.get(i))
            .filter_map(|n| n.dyn_into::<Element>().ok())
            .collect()
    }

    pub(crate) fn one(root: &Element, selector: &str) -> Element {
        root.query_selector(selector)
            .unwrap()
            .unwrap_or_else(|| panic!("nothing matches {selector}"))
    }

    pub(crate) fn click(element: &Element) {
        element.clone().unchecked_into::<HtmlElement>().click();
    }

    pub(crate) fn run_of(root: &Element) -> u64 {
        one(root, "[data-testid=app]")
            .get_attribute("data-run")
            .and_then(|r| r.parse().ok())
            .unwrap_or(0)
    }

    /// Waits until a run newer than `after` has finished.
    pub(crate) async fn wait_for_run(root: &Element, after: u64) {
        for _ in 0..500 {
            settle().await;
            if let Ok(Some(app)) = root.query_selector("[data-testid=app]") {
                let run: u64 = app
                    .get_attribute("data-run")
                    .and_then(|r| r.parse().ok())
                    .unwrap_or(0);
                if run > after && app.get_attribute("data-ready").as_deref() == Some("true") {
                    return;
                }
            }
            yew::platform::time::sleep(Duration::from_millis(20)).await;
        }
        panic!("no run after {after} finished");
    }

    pub(crate) async fn wait_for(root: &Element, selector: &str) -> Element {
        for _ in 0..400 {
            settle().await;
            if let Ok(Some(found)) = root.query_selector(selector) {
                return found;
            }
            yew::platform::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("nothing matches {selector}");
    }

    pub(crate) async fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
        for _ in 0..400 {
            settle().await;
            if done() {
                return;
            }
            yew::platform::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("never: {what}");
    }

    /// Sets a text field's value and commits it, as pressing Enter does.
    pub(crate) fn type_into(field: &Element, value: &str) {
        let input: &web_sys::HtmlInputElement = field.unchecked_ref();
        input.set_value(value);
        let init = web_sys::EventInit::new();
        init.set_bubbles(true);
        let event = web_sys::Event::new_with_event_init_dict("change", &init).unwrap();
        field.dispatch_event(&event).unwrap();
    }
}

/// Opens `dir` live through "Choose folder", sets the project, and shows the health view.
async fn open_live_in_health(root: &web_sys::Element, dir: Rc<dyn Dir>) {
    use page::*;
    live::set_picker(Some(Rc::new(move || Some(dir.clone()))));
    let before = run_of(root);
    click(&one(root, "[data-testid=choose-folder]"));
    wait_for_run(root, before).await;
    live::set_picker(None);
    let before = run_of(root);
    type_into(&one(root, "[data-testid=input-project]"), "/home/alice/app");
    wait_for_run(root, before).await;
    click(&one(root, "[data-testid=view-health]"));
}

/// The demo is not a live folder: a clean-up is reviewed as a diff and offered as a script
/// only. Then "Choose folder" opens the in-memory folder live (through the picker the tests
/// put in the browser's place): a dead line is removed with a diff, a confirmation, write
/// permission asked only then, a rescan, and an undo; an orphan is deleted and undone.
#[wasm_bindgen_test]
async fn the_page_cleans_up_a_live_folder_with_a_diff_a_confirmation_and_an_undo() {
    use page::*;
    assert!(
        memdiag_web::wire::demo::available(),
        "the page is built with the demo"
    );
    let root = container();
    let _app = yew::Renderer::<memdiag_web::App>::with_root(root.clone()).render();
    wait_for_run(&root, 0).await;

    // The demo: a script, never a write.
    click(&one(&root, "[data-testid=view-health]"));
    let mode = wait_for(&root, "[data-testid=cleanup-mode]").await;
    assert!(mode
        .text_content()
        .unwrap_or_default()
        .contains("shell script"));
    click(&wait_for(&root, "[data-testid=cleanup-remove-lines]").await);
    let review = wait_for(&root, "[data-testid=cleanup-review]").await;
    assert!(one(&review, "[data-testid=cleanup-diff]")
        .text_content()
        .unwrap_or_default()
        .contains("deleted-topic.md"));
    assert!(review
        .query_selector("[data-testid=cleanup-confirm]")
        .unwrap()
        .is_none());
    assert!(review
        .query_selector("[data-testid=cleanup-script]")
        .unwrap()
        .is_some());
    click(&one(&review, "[data-testid=cleanup-cancel]"));
    settle().await;
    assert!(root
        .query_selector("[data-testid=cleanup-review]")
        .unwrap()
        .is_none());

    // The live folder.
    let (fs, dir) = config_dir();
    open_live_in_health(&root, dir).await;
    let mode = wait_for(&root, "[data-testid=cleanup-mode]").await;
    assert!(
        mode.text_content()
            .unwrap_or_default()
            .contains("Changes are made in your folder"),
        "{:?}",
        mode.text_content()
    );
    assert_eq!(all(&root, "[data-testid=dead-line]").len(), 1);
    assert_eq!(all(&root, "[data-testid=orphan]").len(), 1);

    click(&one(&root, "[data-testid=cleanup-remove-lines]"));
    let review = wait_for(&root, "[data-testid=cleanup-review]").await;
    let diff = one(&review, "[data-testid=cleanup-diff]")
        .text_content()
        .unwrap_or_default();
    assert!(
        diff.contains("-- [Old](old.md) — removed long ago"),
        "{diff}"
    );
    assert!(
        !fs.borrow().write_asked,
        "permission asked before the confirmation"
    );
    assert!(fs.borrow().took("write").is_empty());
    let before = run_of(&root);
    click(&one(&review, "[data-testid=cleanup-confirm]"));
    wait_for(&root, "[data-testid=cleanup-undo]").await;
    wait_for_run(&root, before).await;
    assert!(fs.borrow().write_asked);
    let index = format!("{MEMORY}/MEMORY.md");
    assert_eq!(fs.borrow().took("write"), [index.as_str()]);
    assert_eq!(
        fs.borrow().text(&index).as_deref(),
        Some("- [Build](build.md) — how the build runs\n")
    );
    // The rescan shows the line gone, and says what changed since the scan before.
    wait_until("the dead line is gone after the rescan", || {
        all(&root, "[data-testid=dead-line]").is_empty()
    })
    .await;
    let changes = one(&root, "[data-testid=scan-changes]")
        .text_content()
        .unwrap_or_default();
    assert!(
        changes.contains("removed (old.md)") && changes.contains("changed (MEMORY.md)"),
        "{changes}"
    );

    // Undo, then the line is back after the rescan.
    let before = run_of(&root);
    click(&one(&root, "[data-testid=cleanup-undo-button]"));
    wait_for_run(&root, before).await;
    wait_until("the undo restores the index", || {
        fs.borrow()
            .text(&index)
            .is_some_and(|t| t.contains("[Old](old.md)"))
    })
    .await;
    wait_until("the dead line is back", || {
        all(&root, "[data-testid=dead-line]").len() == 1
    })
    .await;

    // Delete the orphan, then undo.
    let payments = format!("{MEMORY}/payments.md");
    click(&one(&root, "[data-testid=cleanup-delete-orphans]"));
    let review = wait_for(&root, "[data-testid=cleanup-review]").await;
    assert!(one(&review, "[data-testid=cleanup-diff]")
        .text_content()
        .unwrap_or_default()
        .contains("+++ /dev/null"));
    let before = run_of(&root);
    click(&one(&review, "[data-testid=cleanup-confirm]"));
    wait_for_run(&root, before).await;
    assert!(fs.borrow().text(&payments).is_none());
    let before = run_of(&root);
    click(&one(&root, "[data-testid=cleanup-undo-button]"));
    wait_for_run(&root, before).await;
    assert!(fs
        .borrow()
        .text(&payments)
        .is_some_and(|t| t.contains("three times")));
    // Watch mode: an edit outside the page shows within a few seconds, with what changed.
    let watch = one(&root, "[data-testid=watch]");
    watch
        .clone()
        .unchecked_into::<web_sys::HtmlInputElement>()
        .set_checked(true);
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    watch
        .dispatch_event(&web_sys::Event::new_with_event_init_dict("change", &init).unwrap())
        .unwrap();
    fs.borrow_mut()
        .put("rules/style.md", "small diffs, always\n");
    let before = run_of(&root);
    wait_for_run(&root, before).await;
    wait_until("watch mode reports the edited rule", || {
        root.query_selector("[data-testid=scan-changes]")
            .ok()
            .flatten()
            .and_then(|e| e.text_content())
            .is_some_and(|t| t.contains("changed (style.md)"))
    })
    .await;
    watch
        .clone()
        .unchecked_into::<web_sys::HtmlInputElement>()
        .click();

    // Nothing but the listed files was ever written or removed, and no bulk was touched.
    let fs = fs.borrow();
    for path in fs.took("write").iter().chain(fs.took("remove").iter()) {
        assert!(path == &index || path == &payments, "{path}");
    }
    assert_no_bulk_touched(&fs);
}

/// The two ordinary sequences that lost lines (issue 30), through the page: a rescan after
/// Claude Code wrote a line at the top of the index, then "Remove the ticked lines"; unticking
/// one line, removing the rest, and pressing again; and Move with a folder where the archive
/// goes. Each changes nothing or only the lines its review showed, and a backup is listed.
/// Links into session data the walk never lists are not offered as dead.
#[wasm_bindgen_test]
async fn stale_ticks_and_a_folder_in_the_way_change_only_what_was_reviewed() {
    use page::*;
    let root = container();
    let _app = yew::Renderer::<memdiag_web::App>::with_root(root.clone()).render();
    wait_for_run(&root, 0).await;
    let (fs, dir) = config_dir();
    let index = format!("{MEMORY}/MEMORY.md");
    fs.borrow_mut().put(
        &index,
        "- [Build](build.md) — how the build runs\n\
         - [Old](old.md) — removed long ago\n\
         - [Older](older.md) — removed too\n\
         - [Oldest](oldest.md) — removed first\n\
         - [Session](../0b7e.jsonl) — the session it came from\n\
         - [Output](../0b7e/tool-results/out.txt) — a tool result\n",
    );
    open_live_in_health(&root, dir).await;
    wait_for(&root, "[data-testid=cleanup-mode]").await;
    let dead = |root: &web_sys::Element| -> Vec<String> {
        all(root, "[data-testid=dead-line]")
            .iter()
            .map(|e| e.get_attribute("value").unwrap_or_default())
            .collect()
    };
    // Lines that exist but were never listed (a transcript, a tool result) are not dead.
    assert_eq!(dead(&root), ["2", "3", "4"]);

    // Claude Code writes a line at the top; the page reads the folder again.
    let text = fs.borrow().text(&index).unwrap();
    fs.borrow_mut().put(
        &index,
        &format!(
            "- [New](new.md) — written just now
{text}"
        ),
    );
    let before = run_of(&root);
    click(&one(&root, "[data-testid=refresh]"));
    wait_for_run(&root, before).await;
    wait_until("the list shows the lines where they are now", || {
        dead(&root) == ["1", "3", "4", "5"]
    })
    .await;
    // Untick line 3 (Old), remove the rest: only New (dead too, line 1), Older and Oldest go.
    let boxes = all(&root, "[data-testid=dead-line]");
    boxes[1].unchecked_ref::<web_sys::HtmlElement>().click();
    settle().await;
    click(&one(&root, "[data-testid=cleanup-remove-lines]"));
    let review = wait_for(&root, "[data-testid=cleanup-review]").await;
    let diff = one(&review, "[data-testid=cleanup-diff]")
        .text_content()
        .unwrap_or_default();
    assert!(diff.contains("-- [New](new.md)"), "{diff}");
    assert!(diff.contains("-- [Oldest](oldest.md)"), "{diff}");
    assert!(!diff.contains("-- [Old](old.md)"), "{diff}");
    assert!(!diff.contains("-- [Build]"), "{diff}");
    let before = run_of(&root);
    click(&one(&review, "[data-testid=cleanup-confirm]"));
    wait_for_run(&root, before).await;
    let now = fs.borrow().text(&index).unwrap();
    assert_eq!(
        now,
        "- [Build](build.md) — how the build runs\n\
         - [Old](old.md) — removed long ago\n\
         - [Session](../0b7e.jsonl) — the session it came from\n\
         - [Output](../0b7e/tool-results/out.txt) — a tool result\n"
    );
    // Pressing the button again removes the one line left ticked, now line 2, and nothing
    // else.
    wait_until("the list is the one line left", || dead(&root) == ["2"]).await;
    click(&one(&root, "[data-testid=cleanup-remove-lines]"));
    let review = wait_for(&root, "[data-testid=cleanup-review]").await;
    let before = run_of(&root);
    click(&one(&review, "[data-testid=cleanup-confirm]"));
    wait_for_run(&root, before).await;
    assert!(fs
        .borrow()
        .text(&index)
        .is_some_and(|t| t.starts_with("- [Build](build.md)")
            && !t.contains("[Old]")
            && t.contains("../0b7e.jsonl")));
    wait_for(&root, "[data-testid=cleanup-backup]").await;

    // An index past its caps, and a folder where its archive would go.
    let long: String = (1..=230).map(|i| format!("- entry {i}\n")).collect();
    fs.borrow_mut().put(&index, &long);
    fs.borrow_mut()
        .dirs
        .insert(format!("{MEMORY}/index-archive.md"));
    let before = run_of(&root);
    click(&one(&root, "[data-testid=refresh]"));
    wait_for_run(&root, before).await;
    click(&wait_for(&root, "[data-testid=cleanup-compact-move]").await);
    let review = wait_for(&root, "[data-testid=cleanup-review]").await;
    let before = run_of(&root);
    click(&one(&review, "[data-testid=cleanup-confirm]"));
    wait_for_run(&root, before).await;
    let message = wait_for(&root, "[data-testid=cleanup-message]")
        .await
        .text_content()
        .unwrap_or_default();
    assert!(
        message.contains("a folder named index-archive.md is in the way"),
        "{message}"
    );
    assert!(message.contains("nothing was changed"), "{message}");
    assert_eq!(fs.borrow().text(&index), Some(long));
}

/// A dropped folder whose handle the browser gave is opened live, through the browser's own
/// handle (an origin-private folder here, as a drop's `getAsFileSystemHandle` would give a
/// real one); a drop without a handle is left to the usual entry walk.
#[wasm_bindgen_test]
async fn a_dropped_folder_with_a_handle_opens_live_through_the_browsers_handle() {
    use js_sys::{Object, Promise, Reflect};
    use wasm_bindgen::JsValue;
    use wasm_bindgen_futures::JsFuture;

    let window = web_sys::window().unwrap();
    let navigator = Reflect::get(&window, &"navigator".into()).unwrap();
    let storage = Reflect::get(&navigator, &"storage".into()).unwrap();
    let Ok(get_directory) = Reflect::get(&storage, &"getDirectory".into())
        .and_then(|f| f.dyn_into::<js_sys::Function>())
    else {
        return; // A browser without an origin-private file system has no handles to give.
    };
    let call = |target: &JsValue, method: &str, args: &[JsValue]| -> Promise {
        let f: js_sys::Function = Reflect::get(target, &method.into())
            .unwrap()
            .unchecked_into();
        f.apply(target, &args.iter().collect())
            .unwrap()
            .unchecked_into()
    };
    let create = Object::new();
    Reflect::set(&create, &"create".into(), &true.into()).unwrap();
    let root = JsFuture::from(
        get_directory
            .call0(&storage)
            .unwrap()
            .unchecked_into::<Promise>(),
    )
    .await
    .unwrap();
    let claude = JsFuture::from(call(
        &root,
        "getDirectoryHandle",
        &[".claude".into(), create.clone().into()],
    ))
    .await
    .unwrap();
    let mut dir = claude.clone();
    for part in ["projects", "-home-alice-app", "memory"] {
        dir = JsFuture::from(call(
            &dir,
            "getDirectoryHandle",
            &[part.into(), create.clone().into()],
        ))
        .await
        .unwrap();
    }
    let file = JsFuture::from(call(
        &dir,
        "getFileHandle",
        &["MEMORY.md".into(), create.clone().into()],
    ))
    .await
    .unwrap();
    let writable = JsFuture::from(call(&file, "createWritable", &[]))
        .await
        .unwrap();
    JsFuture::from(call(&writable, "write", &["- [a](a.md)\n".into()]))
        .await
        .unwrap();
    JsFuture::from(call(&writable, "close", &[])).await.unwrap();

    let entry = Object::new();
    Reflect::set(&entry, &"isDirectory".into(), &true.into()).unwrap();
    Reflect::set(&entry, &"name".into(), &".claude".into()).unwrap();
    let item = ingest::DroppedItem {
        entry: entry.clone().unchecked_into(),
        handle: Some(Promise::resolve(&claude)),
    };
    let source = ingest::from_drop(&item, &|_| {})
        .await
        .expect("a folder with a handle opens live")
        .expect("the walk succeeds");
    assert!(matches!(source.origin, ingest::Origin::Live(_)));
    assert_eq!(source.info().kind, "live folder");
    let rels: Vec<&str> = source.files.iter().map(|f| f.rel.as_str()).collect();
    assert_eq!(rels, ["projects/-home-alice-app/memory/MEMORY.md"]);
    assert_eq!(source.files[0].size, "- [a](a.md)\n".len() as u64);
    let no_handle = ingest::DroppedItem {
        entry: entry.unchecked_into(),
        handle: None,
    };
    assert!(ingest::from_drop(&no_handle, &|_| {}).await.is_none());
    JsFuture::from(call(
        &root,
        "removeEntry",
        &[".claude".into(), {
            let o = Object::new();
            Reflect::set(&o, &"recursive".into(), &true.into()).unwrap();
            o.into()
        }],
    ))
    .await
    .unwrap();
}

/// The file open in the file view, deleted from its own "Delete this file…" button: the
/// rescan that follows settles, the file view moves off the deleted file, and undo brings the
/// file back (the same delete from the Health checklist is the test above).
#[wasm_bindgen_test]
async fn the_file_views_delete_removes_the_open_file_and_the_rescan_settles() {
    use page::*;
    let root = container();
    let _app = yew::Renderer::<memdiag_web::App>::with_root(root.clone()).render();
    wait_for_run(&root, 0).await;
    let (fs, dir) = config_dir();
    live::set_picker(Some(Rc::new(move || Some(dir.clone()))));
    let before = run_of(&root);
    click(&one(&root, "[data-testid=choose-folder]"));
    wait_for_run(&root, before).await;
    live::set_picker(None);
    let before = run_of(&root);
    type_into(
        &one(&root, "[data-testid=input-project]"),
        "/home/alice/app",
    );
    wait_for_run(&root, before).await;

    let payments = format!("{MEMORY}/payments.md");
    let path = format!("/home/alice/.claude/{payments}");
    let row = format!("[data-testid=tree-row][data-path=\"{path}\"]");
    click(&wait_for(&root, &row).await);
    wait_for(
        &root,
        &format!("[data-testid=file-view][data-path=\"{path}\"]"),
    )
    .await;
    click(&wait_for(&root, "[data-testid=cleanup-delete-file]").await);
    let review = wait_for(&root, "[data-testid=cleanup-review]").await;
    assert!(one(&review, "[data-testid=cleanup-diff]")
        .text_content()
        .unwrap_or_default()
        .contains("-three times"));
    let before = run_of(&root);
    click(&one(&review, "[data-testid=cleanup-confirm]"));
    wait_for(&root, "[data-testid=cleanup-undo]").await;
    wait_for_run(&root, before).await;
    assert!(fs.borrow().text(&payments).is_none());
    assert_eq!(fs.borrow().took("remove"), [payments.as_str()]);
    wait_until("the deleted file's row is gone", || {
        all(&root, &row).is_empty()
    })
    .await;
    let shown = one(&root, "[data-testid=file-view]").get_attribute("data-path");
    assert_ne!(shown.as_deref(), Some(path.as_str()));

    let before = run_of(&root);
    click(&one(&root, "[data-testid=cleanup-undo-button]"));
    wait_for_run(&root, before).await;
    assert!(fs
        .borrow()
        .text(&payments)
        .is_some_and(|t| t.contains("three times")));
    wait_for(&root, &row).await;
    assert_no_bulk_touched(&fs.borrow());
}

/// The origin-private file system, for tests that need the browser's own handles.
mod opfs {
    use js_sys::{Object, Promise, Reflect};
    use wasm_bindgen::{JsCast, JsValue};
    use wasm_bindgen_futures::JsFuture;

    fn call(target: &JsValue, method: &str, args: &[JsValue]) -> Promise {
        let f: js_sys::Function = Reflect::get(target, &method.into())
            .unwrap()
            .unchecked_into();
        f.apply(target, &args.iter().collect())
            .unwrap()
            .unchecked_into()
    }

    fn options(key: &str) -> JsValue {
        let o = Object::new();
        Reflect::set(&o, &key.into(), &true.into()).unwrap();
        o.into()
    }

    /// The origin-private root, `None` in a browser without one.
    pub(crate) async fn root() -> Option<JsValue> {
        let window = web_sys::window().unwrap();
        let storage = Reflect::get(
            &Reflect::get(&window, &"navigator".into()).ok()?,
            &"storage".into(),
        )
        .ok()?;
        let get: js_sys::Function = Reflect::get(&storage, &"getDirectory".into())
            .ok()?
            .dyn_into()
            .ok()?;
        JsFuture::from(get.call0(&storage).ok()?.unchecked_into::<Promise>())
            .await
            .ok()
    }

    /// The folder at `path` below `dir` (`/`-separated), created.
    pub(crate) async fn folder(dir: &JsValue, path: &str) -> JsValue {
        let mut dir = dir.clone();
        for part in path.split('/').filter(|p| !p.is_empty()) {
            dir = JsFuture::from(call(
                &dir,
                "getDirectoryHandle",
                &[part.into(), options("create")],
            ))
            .await
            .unwrap();
        }
        dir
    }

    /// Writes `text` to `name` in `dir`.
    pub(crate) async fn write(dir: &JsValue, name: &str, text: &str) {
        let file = JsFuture::from(call(
            dir,
            "getFileHandle",
            &[name.into(), options("create")],
        ))
        .await
        .unwrap();
        let writable = JsFuture::from(call(&file, "createWritable", &[]))
            .await
            .unwrap();
        JsFuture::from(call(&writable, "write", &[text.into()]))
            .await
            .unwrap();
        JsFuture::from(call(&writable, "close", &[])).await.unwrap();
    }

    /// Removes `name` (a folder with all it holds) from `dir`.
    pub(crate) async fn remove(dir: &JsValue, name: &str) {
        JsFuture::from(call(
            dir,
            "removeEntry",
            &[name.into(), options("recursive")],
        ))
        .await
        .unwrap();
    }
}

/// A file deleted after the walk listed it and before the analysis read it (the person's
/// editor, another tab): the run still ends, with a report, and the file carries a message
/// that says it is gone, through the browser's own handles.
#[wasm_bindgen_test]
async fn a_file_gone_between_listing_and_reading_ends_with_a_message() {
    let Some(root) = opfs::root().await else {
        return; // No origin-private file system: no browser handles to test.
    };
    let base = opfs::folder(&root, "gone-test").await;
    let claude = opfs::folder(&base, ".claude").await;
    opfs::write(&claude, "CLAUDE.md", "be brief\n").await;
    opfs::write(&claude, "settings.json", "{}\n").await;
    let rules = opfs::folder(&claude, "rules").await;
    opfs::write(&rules, "style.md", "small diffs\n").await;

    let source = live::open(Rc::new(live::JsDir(claude.clone())), &|_| {})
        .await
        .expect("the walk succeeds");
    assert!(source.files.iter().any(|f| f.rel == "CLAUDE.md"));
    // Gone before the analysis reads it.
    opfs::remove(&claude, "CLAUDE.md").await;
    let (report, tree) = analyse(&[Rc::new(source)]).await;
    let path = "/home/alice/.claude/CLAUDE.md";
    let finding = report
        .diagnostics
        .iter()
        .find(|d| d.code == "file-unreadable" && d.path.as_deref() == Some(path))
        .unwrap_or_else(|| panic!("no finding for {path}: {:?}", report.diagnostics));
    assert!(
        finding.message.contains("the file is gone"),
        "{}",
        finding.message
    );
    let entry = tree
        .file(&memdiag_core::VPath::new(path).unwrap())
        .expect("still listed");
    assert!(matches!(
        &entry.contents,
        memdiag_core::Contents::Unreadable(m) if m.contains("deleted or moved")
    ));
    // What was still there was read as usual.
    assert!(report
        .files
        .iter()
        .any(|r| r.path == "/home/alice/.claude/rules/style.md" && r.size == Some(12)));
    opfs::remove(&root, "gone-test").await;
}

/// A live file whose browser call never settles (a folder on a drive that stopped
/// answering) ends with a message after the read timeout instead of holding the run forever.
#[wasm_bindgen_test]
async fn a_live_read_that_never_settles_times_out_with_a_message() {
    let never = js_sys::Function::new_no_args("return new Promise(() => {})");
    let handle = js_sys::Object::new();
    js_sys::Reflect::set(&handle, &"getFile".into(), &never).unwrap();
    let file = live::JsFile(handle.into());
    live::set_read_timeout(Some(50));
    let read = file.read().await;
    let stat = file.stat().await;
    live::set_read_timeout(None);
    let message = read.expect_err("a read that never settles fails");
    assert!(
        message.contains("did not hand the file over within 0.05 s"),
        "{message}"
    );
    assert!(stat.is_err());
}

/// A project's `node_modules` is listed whole (Claude Code attaches a `CLAUDE.md` there when
/// it reads a file there), but only its Markdown files are asked their sizes by the walk; the
/// rest are looked up only when the analysis looks at them.
#[wasm_bindgen_test]
async fn a_projects_node_modules_is_listed_but_its_files_sizes_are_asked_lazily() {
    let fs = Rc::new(RefCell::new(Fs::default()));
    {
        let mut f = fs.borrow_mut();
        f.dirs.insert(String::new());
        f.put("CLAUDE.md", "# App\n");
        f.put("src/index.ts", "export {};\n");
        f.put("node_modules/pkg/CLAUDE.md", "pkg notes\n");
        for i in 0..30 {
            f.put(&format!("node_modules/pkg/lib/f{i}.js"), "//\n");
        }
    }
    let root = Rc::new(FakeDir {
        fs: fs.clone(),
        path: String::new(),
        name: "app".to_owned(),
    }) as Rc<dyn Dir>;
    let walked = live::walk(&root, &|_| {}).await.expect("walk");
    assert_eq!(walked.files.len(), 33, "every file is listed");
    let stats = fs.borrow().took("stat");
    assert!(stats.contains(&"node_modules/pkg/CLAUDE.md".to_owned()));
    assert!(stats.contains(&"src/index.ts".to_owned()));
    assert!(
        !stats.iter().any(|p| p.ends_with(".js")),
        "sizes asked in node_modules: {stats:?}"
    );
    // The analysis still finds the nested CLAUDE.md below node_modules.
    let source = Rc::new(live::open(root, &|_| {}).await.expect("open"));
    let (report, _) = analyse(&[source]).await;
    assert!(
        report
            .files
            .iter()
            .any(|r| r.path == "/home/alice/app/node_modules/pkg/CLAUDE.md"),
        "{:?}",
        report.files.iter().map(|r| &r.path).collect::<Vec<_>>()
    );
}
