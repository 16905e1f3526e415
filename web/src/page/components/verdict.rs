//! The verdict: the first block after an analysis, saying what is lost or broken, most
//! harmful first, one line each, each a link to its file; or, when nothing is, one line with
//! what every session costs. The lines and their order are the core's
//! ([`memdiag_core::report::verdict`]), so the page, the command and SARIF agree.

use memdiag_core::report::{Harm, Report};
use yew::prelude::*;

use crate::page::state::grouped;

/// The verdict block of `report`; a line's click hands `on_open` its file and line. A plain
/// function, not a component: it holds no state, and a component of its own costs the
/// page's first-paint wasm some kilobytes.
pub fn verdict(report: &Report, on_open: &Callback<(String, Option<u64>)>) -> Html {
    let cost = report.session.cost;
    if report.verdict.is_empty() {
        return html! {
            <section class="verdict verdict-ok" data-testid="verdict" aria-label="Verdict">
                <p data-testid="verdict-ok">
                    <strong>{ "Nothing is lost or broken." }</strong>
                    { format!(" Every session carries {} characters (about {} tokens) from these files.",
                        grouped(cost.total.total()), grouped(cost.tokens_estimate)) }
                </p>
            </section>
        };
    }
    let losing = report
        .verdict
        .iter()
        .filter(|l| matches!(l.harm, Harm::Cuts | Harm::Drops))
        .count();
    let heading = if losing == 0 {
        "Worth a look".to_owned()
    } else {
        "What is lost or broken".to_owned()
    };
    html! {
        <section class="verdict" data-testid="verdict" aria-labelledby="verdict-title">
            <h2 id="verdict-title">{ heading }</h2>
            <ol class="verdict-lines">
                { for report.verdict.iter().map(|line| {
                    let class = match line.harm {
                        Harm::Cuts | Harm::Drops => "verdict-loses",
                        Harm::Wastes => "verdict-wastes",
                        Harm::Warns => "verdict-warns",
                    };
                    let mark = match line.harm {
                        Harm::Cuts | Harm::Drops => "✗",
                        Harm::Wastes => "!",
                        Harm::Warns => "·",
                    };
                    let text = line.message.clone();
                    let body = match &line.path {
                        Some(path) => {
                            let target = (path.clone(), line.line);
                            let onclick = on_open.reform(move |_: MouseEvent| target.clone());
                            html! {
                                <button class="linkish" data-testid="verdict-link" data-path={path.clone()}
                                    title={path.clone()} {onclick}>{ text }</button>
                            }
                        }
                        None => html! { <span>{ text }</span> },
                    };
                    html! {
                        <li class={classes!("verdict-line", class)} data-testid="verdict-line"
                            data-code={line.code.as_str()} data-harm={class.trim_start_matches("verdict-")}>
                            <span class="verdict-mark" aria-hidden="true">{ mark }</span>
                            { body }
                        </li>
                    }
                }) }
            </ol>
        </section>
    }
}
