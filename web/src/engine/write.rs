//! Making a clean-up [`Plan`] in live folders, so that no byte the person wrote is lost.
//!
//! The File System Access API has no compare-and-swap, so the page keeps these rules:
//! - **Checked against the disk, not the page.** Every file is read and compared with the
//!   plan's `before` before anything is written. Each write then happens only while the file
//!   still holds that text ([`FileRef::write_if`] opens the write first and reads after;
//!   [`crate::wire::folders::Dir::remove_if`] sets the file aside first where the browser can rename):
//!   a file that differs stops the plan. Something "in the way" (a folder where a file goes)
//!   is an error with its own words, never taken as "absent".
//! - **A backup first.** Before the first write, the plan, with every file's text as just
//!   verified, goes to a [`Backups`] store that outlives the tab (the page's is the browser's
//!   origin-private storage, [`crate::wire::folders::OriginBackups`]). No backup, no write.
//! - **New files first, and read back.** Files the plan creates are written and read back
//!   before any existing file changes; then the files it rewrites; deletions last
//!   ([`Plan::in_safe_order`]). Every write is the whole file, read back and compared.
//! - **All or nothing.** When a step fails, the steps already made are put back, each only
//!   while it still holds what the page wrote; the message says what was put back and what
//!   was left (a file someone changed in between), and the backup stays listed.
//!
//! What is left is the browser's own write: an edit that lands while the page's write of the
//! same file is open (between the read in `write_if` and the swap on close) is overwritten,
//! and the backup holds the text the page read. The property test `web/tests/write_model.rs`
//! makes every clean-up kind, and its undo, with outside edits between every two file
//! operations, and checks that no line outside the reviewed diff is ever lost.
//!
//! The module knows only the [`crate::wire::folders::Dir`] and [`FileRef`] traits, so the same code runs over the
//! browser's handles and over the in-memory folders of the tests, natively and in a browser.

use std::cell::RefCell;
use std::rc::Rc;

use memdiag_core::cleanup::{Change, Plan};

use crate::wire::folders::{Dir, FileRef, JsDir, Kind, OriginBackups, Target, Task, BACKUPS_KEPT};

/// Where a plan's backup goes before its first write.
pub trait Backups {
    /// Keeps `plan` (whose `before` texts were just verified against the disk); returns the
    /// backup's name, for the messages and the list of backups.
    ///
    /// # Errors
    /// When the backup could not be kept: the plan is then not made.
    fn keep<'a>(&'a self, plan: &'a Plan) -> Task<'a, String>;
}

/// Backups kept in memory: the tests' store.
#[derive(Default)]
pub struct MemoryBackups {
    /// Every plan kept, oldest first, with its name.
    pub kept: RefCell<Vec<(String, Plan)>>,
    /// When set, keeping fails with this message.
    pub refuse: RefCell<Option<String>>,
}

impl Backups for MemoryBackups {
    fn keep<'a>(&'a self, plan: &'a Plan) -> Task<'a, String> {
        Box::pin(async move {
            if let Some(why) = self.refuse.borrow().clone() {
                return Err(why);
            }
            let mut kept = self.kept.borrow_mut();
            let name = format!("backup-{}", kept.len() + 1);
            kept.push((name.clone(), plan.clone()));
            Ok(name)
        })
    }
}

/// A plan made: the backup that holds what it changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    /// The backup's name ([`Backups::keep`]).
    pub backup: String,
}

/// Makes `plan` in the live folders of `targets` (one per change, by path; see
/// `page::live::targets`), by the rules of this module.
///
/// # Errors
/// A message for a person that says what was changed, if anything: nothing when a file
/// differs from the plan or no backup could be kept; when a step fails, the steps before it
/// are put back and the message says so.
pub async fn apply(
    plan: &Plan,
    targets: &[Target],
    backups: &dyn Backups,
) -> Result<Applied, String> {
    let steps = ordered(plan, targets)?;
    for step in &steps {
        let current = read_current(step).await?;
        if !same(current.as_deref(), step.change.before.as_deref()) {
            return Err(changed_message(&step.change.path));
        }
    }
    let backup = backups
        .keep(plan)
        .await
        .map_err(|why| format!("no backup could be kept ({why}), so nothing was changed"))?;
    let mut made: Vec<&Step<'_>> = Vec::new();
    for step in &steps {
        match make(step).await {
            Ok(()) => made.push(step),
            Err(failure) => {
                let left = roll_back(&made).await;
                return Err(failure_message(step, &failure, &made, &left, &backup));
            }
        }
    }
    Ok(Applied { backup })
}

/// What a backup's restore does, file by file: the plan that puts back every file of
/// `plan` that still holds what the plan wrote; files already as they were before are left
/// out.
///
/// # Errors
/// When the folders cannot be read, or a file holds neither the plan's text nor the text
/// before it (someone changed it since): nothing is to be restored then, and the message
/// names the file.
pub async fn restoring(plan: &Plan, targets: &[Target]) -> Result<Plan, String> {
    let reverse = plan.reverse();
    let mut changes = Vec::new();
    for step in ordered(&reverse, targets)? {
        let current = read_current(&step).await?;
        if same(current.as_deref(), step.change.before.as_deref()) {
            changes.push(step.change.clone());
        } else if !same(current.as_deref(), step.change.after.as_deref()) {
            return Err(format!(
                "{} changed since the backup was made, so nothing was restored: it holds \
                 neither the text the clean-up wrote nor the text before it",
                step.change.path
            ));
        }
    }
    if changes.is_empty() {
        return Err("every file is already as it was before the clean-up".to_owned());
    }
    Ok(Plan {
        title: format!("Restore: {}", plan.title),
        changes,
        notes: Vec::new(),
    })
}

// ----- the steps ---------------------------------------------------------------------------

/// One change and where it lands.
struct Step<'a> {
    change: &'a Change,
    target: &'a Target,
}

/// Why a step did not go through.
enum Failure {
    /// The file is not what the plan expects (someone changed it): nothing of it was touched.
    Changed,
    /// After the write, the file holds something else than what was written: someone wrote
    /// to it at the same time. It is left as it is.
    NotAsWritten,
    /// The browser refused or failed, with its words.
    Refused(String),
}

/// The plan's changes with their targets, in [`Plan::in_safe_order`].
fn ordered<'a>(plan: &'a Plan, targets: &'a [Target]) -> Result<Vec<Step<'a>>, String> {
    plan.in_safe_order()
        .into_iter()
        .map(|change| {
            let target = targets
                .iter()
                .find(|t| t.path == change.path)
                .ok_or_else(|| format!("{} has no place in a live folder", change.path))?;
            Ok(Step { change, target })
        })
        .collect()
}

/// The folder holding the target and the file's name; `None` when a folder on the way is
/// missing (the page never creates folders).
async fn place(
    target: &Target,
) -> Result<(Option<Rc<dyn crate::wire::folders::Dir>>, String), String> {
    let mut parts: Vec<&str> = target.rel.split('/').filter(|s| !s.is_empty()).collect();
    let name = parts.pop().ok_or("an empty path")?.to_owned();
    let mut dir = target.root.dir.clone();
    for part in parts {
        match dir.dir(part).await? {
            Some(next) => dir = next,
            None => return Ok((None, name)),
        }
    }
    Ok((Some(dir), name))
}

/// The file's bytes now, `None` when there is no file.
///
/// # Errors
/// When something else is in the way, or the file cannot be read.
async fn read_current(step: &Step<'_>) -> Result<Option<Vec<u8>>, String> {
    let path = &step.change.path;
    let (dir, name) = place(step.target)
        .await
        .map_err(|e| format!("{path} could not be looked up ({e}); nothing was changed"))?;
    let Some(dir) = dir else {
        return Ok(None);
    };
    let file = dir
        .file(&name, false)
        .await
        .map_err(|e| format!("{path}: {e}; nothing was changed"))?;
    match file {
        Some(file) => file
            .read()
            .await
            .map(Some)
            .map_err(|e| format!("{path} could not be read ({e}); nothing was changed")),
        None => Ok(None),
    }
}

fn same(current: Option<&[u8]>, text: Option<&str>) -> bool {
    current == text.map(str::as_bytes)
}

/// Makes one change: writes (or removes) the file only while it still holds the plan's
/// `before` ([`FileRef::write_if`], [`crate::wire::folders::Dir::remove_if`]), then reads it back.
async fn make(step: &Step<'_>) -> Result<(), Failure> {
    swap(
        step.target,
        step.change.before.as_deref(),
        step.change.after.as_deref(),
    )
    .await?;
    let now = read_current(step).await.map_err(Failure::Refused)?;
    if !same(now.as_deref(), step.change.after.as_deref()) {
        return Err(Failure::NotAsWritten);
    }
    Ok(())
}

/// Turns the file from `from` into `to` (`None`: no file), only while it holds `from`.
async fn swap(target: &Target, from: Option<&str>, to: Option<&str>) -> Result<(), Failure> {
    let (dir, name) = place(target).await.map_err(Failure::Refused)?;
    let Some(dir) = dir else {
        return Err(match from {
            Some(_) => Failure::Changed,
            None => Failure::Refused("its folder is gone".to_owned()),
        });
    };
    let done = match (from, to) {
        (Some(from), Some(to)) => match dir.file(&name, false).await.map_err(Failure::Refused)? {
            Some(file) => file
                .write_if(from.as_bytes(), to.as_bytes().to_vec())
                .await
                .map_err(Failure::Refused)?,
            None => false,
        },
        (Some(from), None) => dir
            .remove_if(&name, from.as_bytes())
            .await
            .map_err(Failure::Refused)?,
        (None, Some(to)) => {
            if dir
                .file(&name, false)
                .await
                .map_err(Failure::Refused)?
                .is_some()
            {
                return Err(Failure::Changed);
            }
            // Created empty, then written only while still empty: a file someone else made
            // in between is theirs.
            let file: Rc<dyn FileRef> = dir
                .file(&name, true)
                .await
                .map_err(Failure::Refused)?
                .ok_or_else(|| Failure::Refused("the browser did not create it".to_owned()))?;
            match file.write_if(b"", to.as_bytes().to_vec()).await {
                Ok(done) => done,
                Err(why) => {
                    // Leave no empty file of ours behind.
                    let _ = dir.remove_if(&name, b"").await;
                    return Err(Failure::Refused(why));
                }
            }
        }
        (None, None) => true,
    };
    if done {
        Ok(())
    } else {
        Err(Failure::Changed)
    }
}

/// Puts back the steps made, newest first, each only while its file still holds what the
/// step wrote. Returns the paths left as they are, with why.
async fn roll_back(made: &[&Step<'_>]) -> Vec<(String, String)> {
    let mut left = Vec::new();
    for step in made.iter().rev() {
        let path = step.change.path.clone();
        let undone = swap(
            step.target,
            step.change.after.as_deref(),
            step.change.before.as_deref(),
        )
        .await;
        match undone {
            Ok(()) => {}
            Err(Failure::Changed) => {
                left.push((path, "it changed again since the page wrote it".to_owned()));
            }
            Err(Failure::NotAsWritten) => {
                left.push((path, "it could not be put back".to_owned()));
            }
            Err(Failure::Refused(why)) => left.push((path, why)),
        }
    }
    left
}

fn changed_message(path: &str) -> String {
    format!("{path} changed since the page read it; nothing was changed. Refresh, then try again.")
}

fn failure_message(
    step: &Step<'_>,
    failure: &Failure,
    made: &[&Step<'_>],
    left: &[(String, String)],
    backup: &str,
) -> String {
    let path = &step.change.path;
    let what = match failure {
        Failure::Changed => format!("{path} changed since the page read it"),
        Failure::NotAsWritten => format!(
            "{path} does not hold what the page wrote: something else wrote to it at the same \
             time, so it is left as it is"
        ),
        Failure::Refused(why) => format!("could not change {path}: {}", in_words(why, path)),
    };
    let after = if made.is_empty() {
        "Nothing was changed.".to_owned()
    } else if left.is_empty() {
        format!(
            "The {} already changed {} put back, so nothing is changed.",
            plural(made.len(), "file"),
            if made.len() == 1 { "was" } else { "were" },
        )
    } else {
        let kept: Vec<String> = left.iter().map(|(p, why)| format!("{p} ({why})")).collect();
        format!(
            "Not everything could be put back: {}. The backup {backup} holds the text before \
             the clean-up (Backups, below).",
            kept.join("; ")
        )
    };
    format!("{what}. {after}")
}

/// A browser error in plain words where its name says what happened.
fn in_words(why: &str, path: &str) -> String {
    let name = path.rsplit('/').next().unwrap_or(path);
    if why.starts_with("TypeMismatchError") {
        format!("a folder named {name} is in the way")
    } else if why.starts_with("NotAllowedError") {
        "the browser did not allow writing there".to_owned()
    } else if why.starts_with("QuotaExceededError") {
        "the disk or the browser's quota is full".to_owned()
    } else {
        why.to_owned()
    }
}

fn plural(count: usize, what: &str) -> String {
    if count == 1 {
        format!("1 {what}")
    } else {
        format!("{count} {what}s")
    }
}

/// The page's store: the browser's origin-private storage.
impl Backups for OriginBackups {
    fn keep<'a>(&'a self, plan: &'a Plan) -> Task<'a, String> {
        Box::pin(async move {
            let folder = OriginBackups::folder(true)
                .await?
                .ok_or("the backup folder could not be made")?;
            let dir = JsDir(folder);
            let now = js_sys::Date::new_0();
            let made: String = now.to_iso_string().into();
            let mut existing: Vec<String> = dir
                .entries(None)
                .await?
                .into_iter()
                .filter(|(_, kind)| *kind == Kind::File)
                .map(|(name, _)| name)
                .collect();
            crate::wire::order::sort_by(&mut existing, |a, b| a.cmp(b));
            // Sortable by time: the ISO time without its punctuation, then a counter.
            let stamp: String = made.chars().filter(char::is_ascii_alphanumeric).collect();
            let mut n = 1;
            let name = loop {
                let name = format!("{stamp}-{n}.backup");
                if !existing.contains(&name) {
                    break name;
                }
                n += 1;
            };
            let file = dir
                .file(&name, true)
                .await?
                .ok_or("the backup file could not be made")?;
            let bytes = crate::wire::pack::to_bytes(&(made, plan.clone()));
            file.write(bytes.clone()).await?;
            // Read back: a backup that does not hold the plan is no backup.
            if file.read().await? != bytes {
                return Err("the backup did not read back as written".to_owned());
            }
            for old in existing.iter().rev().skip(BACKUPS_KEPT - 1) {
                let _ = dir.remove(old).await;
            }
            Ok(name)
        })
    }
}
