//! Clean-up plans across the page's two wasm modules: the analysis worker plans them (a plan
//! reads Markdown, frontmatter and the index's caps, which only the engine has), the page
//! reviews and writes them ([`crate::page::components::cleanup`], [`crate::page::live`]).
//!
//! A finished run's `done` message carries the clean-ups each memory folder offers
//! ([`memdiag_core::cleanup::memory_cleanups`]), [`crate::wire::pack`]ed; a click asks the worker
//! for the plan ([`plan`]), which comes back packed too: its changes with their marked lines
//! ([`memdiag_core::cleanup::Change::lines`]), so that the page's diff, script and undo are
//! the core's own. Where the page has no worker (the component tests), it plans in place.

use memdiag_core::cleanup::{MemoryCleanups, Plan};
use memdiag_core::report::Report;
use memdiag_core::Tree;

use crate::page::runs::Engine;
use crate::page::state::Inputs;
use crate::page::worker_host::Remote;
pub use crate::wire::cleanups::Ask;
use crate::wire::messages::{get, ToWorker};
use crate::wire::pack;

/// A plan with its unified diff and its shell script, made where it was planned: the page's
/// first-paint wasm holds neither the diff's nor the script's code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Planned {
    /// The plan.
    pub plan: Plan,
    /// [`Plan::diff`].
    pub diff: String,
    /// [`Plan::script`].
    pub script: String,
}

/// The plan for `ask` over the analysis shown: from the worker (`remote`), or made here
/// where the page has no worker.
///
/// # Errors
/// Why nothing can be planned, for a person.
pub async fn plan(
    remote: Option<&Remote>,
    report: &Report,
    tree: &Tree,
    ask: Ask,
) -> Result<Planned, String> {
    match remote {
        Some(remote) => {
            let answer = remote
                .ask(ToWorker::Plan, vec![("ask", pack::to_js(&ask))])
                .await?;
            let plan = pack::from_js(&get(&answer, "plan"))
                .ok_or_else(|| "the analysis worker sent no plan".to_owned())?;
            Ok(Planned {
                plan,
                diff: get(&answer, "diff").as_string().unwrap_or_default(),
                script: get(&answer, "script").as_string().unwrap_or_default(),
            })
        }
        None => plan_here(report, tree, &ask).map(planned),
    }
}

#[cfg(feature = "engine")]
fn planned(plan: Plan) -> Planned {
    Planned {
        diff: plan.diff(),
        script: plan.script(),
        plan,
    }
}

#[cfg(not(feature = "engine"))]
fn planned(plan: Plan) -> Planned {
    Planned {
        plan,
        diff: String::new(),
        script: String::new(),
    }
}

#[cfg(feature = "engine")]
fn plan_here(report: &Report, tree: &Tree, ask: &Ask) -> Result<Plan, String> {
    crate::engine::cleanups::plan(report, tree, ask)
}

#[cfg(not(feature = "engine"))]
fn plan_here(_: &Report, _: &Tree, _: &Ask) -> Result<Plan, String> {
    Err(crate::page::worker_host::NO_WORKER.to_owned())
}

/// The clean-ups each memory folder of the analysis offers: as the worker sent them, or
/// found here where the page has no worker.
pub fn memory_cleanups(
    remote: Option<&Remote>,
    report: &Report,
    tree: &Tree,
) -> Vec<MemoryCleanups> {
    match remote {
        Some(remote) => pack::from_js(remote.cleanups()).unwrap_or_default(),
        None => cleanups_here(report, tree),
    }
}

#[cfg(feature = "engine")]
fn cleanups_here(report: &Report, tree: &Tree) -> Vec<MemoryCleanups> {
    memdiag_core::cleanup::memory_cleanups(report, tree)
}

#[cfg(not(feature = "engine"))]
fn cleanups_here(_: &Report, _: &Tree) -> Vec<MemoryCleanups> {
    Vec::new()
}

/// A backup of a clean-up kept in this browser ([`crate::page::live::OriginBackups`]).
pub use crate::page::live::Backup;
/// How many backups the browser keeps.
pub use crate::page::live::BACKUPS_KEPT;

/// The backups of clean-ups made from this browser, newest first.
///
/// # Errors
/// Why the browser's storage cannot be read.
pub fn backups() -> impl std::future::Future<Output = Result<Vec<Backup>, String>> {
    crate::page::live::OriginBackups::list()
}

/// Deletes the backup `name`.
///
/// # Errors
/// Why the browser's storage refused.
pub fn forget_backup(name: &str) -> impl std::future::Future<Output = Result<(), String>> + '_ {
    crate::page::live::OriginBackups::remove(name)
}

/// True when one of the sources `engine` analyses is a live folder (opened in place).
pub fn any_live(engine: &Engine) -> bool {
    engine
        .sources()
        .iter()
        .any(|s| matches!(s.origin, crate::wire::sources::Origin::Live(_)))
}

/// How clean-ups are made here, for the panel to say: from the page in live folders, as a
/// shell script for a copy or a shared report, or why this browser has no live folders.
pub fn mode_note(engine: &Engine, read_only: bool) -> String {
    if read_only {
        "This is a shared report, read-only: each clean-up comes as a shell script to run on \
         the machine the files came from."
            .to_owned()
    } else if any_live(engine) {
        "Changes are made in your folder once you confirm them, each with a diff first and an \
         undo after."
            .to_owned()
    } else if crate::page::live::supported() {
        "These files came from a zip or a copy of a folder, so each clean-up comes as a shell \
         script. Open the folder with Choose folder to make them from the page."
            .to_owned()
    } else {
        crate::page::live::UNSUPPORTED_NOTE.to_owned()
    }
}

/// True when every change of `plan` lands in a live folder the page may write to.
pub fn writable(plan: &Plan, engine: &Engine, inputs: &Inputs, read_only: bool) -> bool {
    !read_only && crate::page::live::targets(plan, &engine.sources(), inputs).is_ok()
}

/// Makes `plan` (or, with `undo`, puts back what it made) in the live folders it lands in,
/// after asking the browser for write permission: the analysis of `job` in the worker writes
/// it ([`apply`]). `unplaced` words the error when a file lands in no live folder.
///
/// # Errors
/// A message for a person: where no folder was found, permission refused, or what [`apply`]
/// says.
pub async fn make(
    engine: &Engine,
    job: Option<u64>,
    plan: &Plan,
    inputs: &Inputs,
    undo: bool,
    unplaced: fn(String) -> String,
) -> Result<(), String> {
    let targets = crate::page::live::targets(plan, &engine.sources(), inputs).map_err(unplaced)?;
    crate::page::live::ask_write(&targets).await?;
    apply(engine.remote(job).as_ref(), plan, &targets, undo).await
}

/// Makes a reviewed plan in the live folders of `targets`: in the analysis worker, which
/// holds the code that writes ([`crate::engine::write`], with its backup in the browser's storage),
/// handed the folders' handles; or here where the page has no worker (the component tests).
/// With `restore`, the plan is a backup's, and what is made is putting back its files
/// ([`crate::engine::write::restoring`]).
///
/// # Errors
/// A message for a person: what was changed, if anything, and why not the rest.
pub async fn apply(
    remote: Option<&Remote>,
    plan: &Plan,
    targets: &[crate::page::live::Target],
    restore: bool,
) -> Result<(), String> {
    match remote {
        Some(remote) => {
            let places = js_sys::Array::new();
            for target in targets {
                let handle = target.root.dir.handle().ok_or_else(|| {
                    format!("{} is in no folder the browser handed over", target.path)
                })?;
                let place = js_sys::Array::of3(
                    &target.path.as_str().into(),
                    &target.rel.as_str().into(),
                    &handle,
                );
                places.push(&place);
            }
            remote
                .ask(
                    ToWorker::Apply,
                    vec![
                        ("plan", pack::to_js(plan)),
                        ("targets", places.into()),
                        ("restore", restore.into()),
                    ],
                )
                .await
                .map(|_| ())
        }
        None => apply_here(plan, targets, restore).await,
    }
}

#[cfg(feature = "engine")]
async fn apply_here(
    plan: &Plan,
    targets: &[crate::page::live::Target],
    restore: bool,
) -> Result<(), String> {
    crate::engine::cleanups::apply(plan, targets, restore).await
}

#[cfg(not(feature = "engine"))]
async fn apply_here(_: &Plan, _: &[crate::page::live::Target], _: bool) -> Result<(), String> {
    Err(crate::page::worker_host::NO_WORKER.to_owned())
}
