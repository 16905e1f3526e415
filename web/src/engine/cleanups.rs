//! Clean-ups in the analysis worker: plans (a plan reads Markdown, frontmatter and the
//! index's caps, which only the engine has) and making a reviewed plan in the live folders
//! whose handles the page hands over ([`crate::engine::write`]), with the answers to the
//! page's `plan` and `apply` messages.

use memdiag_core::cleanup::Plan;
use memdiag_core::report::Report;
use memdiag_core::Tree;
use wasm_bindgen::JsValue;

use crate::wire::cleanups::Ask;
use crate::wire::messages::{get, ToPage};
use crate::wire::pack;

/// The plan for `ask` over the analysis of `tree` into `report`.
///
/// # Errors
/// Why nothing can be planned, for a person.
pub fn plan(report: &Report, tree: &Tree, ask: &Ask) -> Result<Plan, String> {
    use memdiag_core::cleanup;
    let planned = match ask {
        Ask::RemoveLines(index, lines) => cleanup::remove_lines(tree, index, lines),
        Ask::IndexOrphans(index, topics) => cleanup::index_orphans(report, tree, index, topics),
        Ask::DeleteFiles(paths) => cleanup::delete_files(tree, paths),
        Ask::DeleteRow(path) => match report.files.iter().find(|row| &row.path == path) {
            Some(row) => cleanup::delete_row(tree, row),
            None => Err(cleanup::CleanupError::NotInSnapshot(path.clone())),
        },
        Ask::Compact(index, how) => cleanup::compact(report, tree, index, how),
    };
    planned.map_err(|error| error.to_string())
}

/// The worker's answer to a `plan` message: the plan for its `ask` over the analysis the
/// message carries, or why there is none (a `failed` message).
pub(crate) fn answer(data: &JsValue) {
    use crate::engine::reply::{failed, post};
    use crate::wire::messages::tree_from;
    let Some(report) = pack::from_js::<Report>(&get(data, "report")) else {
        return failed("the report could not be read");
    };
    let Some(ask) = pack::from_js::<Ask>(&get(data, "ask")) else {
        return failed("the clean-up asked for could not be read");
    };
    let tree = tree_from(&get(data, "tree"));
    match plan(&report, &tree, &ask) {
        Ok(plan) => post(&[
            ("type", ToPage::Planned.into()),
            ("diff", plan.diff().into()),
            ("script", plan.script().into()),
            ("plan", pack::to_js(&plan)),
        ]),
        Err(message) => failed(&message),
    }
}

/// Makes `plan` in the live folders of `targets` (with `restore`, puts back a backup's
/// files), a backup first.
///
/// # Errors
/// A message for a person: what was changed, if anything, and why not the rest.
pub async fn apply(
    plan: &Plan,
    targets: &[crate::wire::folders::Target],
    restore: bool,
) -> Result<(), String> {
    let backups = crate::wire::folders::OriginBackups;
    if restore {
        let restoring = crate::engine::write::restoring(plan, targets).await?;
        crate::engine::write::apply(&restoring, targets, &backups).await
    } else {
        crate::engine::write::apply(plan, targets, &backups).await
    }
    .map(|_| ())
}

/// The worker's answer to an `apply` message: the plan made in the folders whose handles
/// the message carries, then `applied`, or why not (a `failed` message).
pub(crate) async fn answer_apply(data: JsValue) {
    use std::rc::Rc;

    use crate::engine::reply::{failed, post};
    use crate::wire::folders::{Dir, JsDir, LiveRoot, Target};
    let Some(plan) = pack::from_js::<Plan>(&get(&data, "plan")) else {
        return failed("the clean-up to make could not be read");
    };
    let places: js_sys::Array = get(&data, "targets").into();
    let mut targets = Vec::new();
    for place in places.iter() {
        let place: js_sys::Array = place.into();
        let (Some(path), Some(rel)) = (place.get(0).as_string(), place.get(1).as_string()) else {
            return failed("the clean-up's places could not be read");
        };
        targets.push(Target {
            path,
            rel,
            root: Rc::new(LiveRoot {
                dir: Rc::new(JsDir(place.get(2))) as Rc<dyn Dir>,
            }),
        });
    }
    let restore = get(&data, "restore").as_bool().unwrap_or(false);
    match apply(&plan, &targets, restore).await {
        Ok(()) => post(&[("type", ToPage::Applied.into())]),
        Err(message) => failed(&message),
    }
}
