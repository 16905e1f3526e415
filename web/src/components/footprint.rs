//! The footprint: the "Memory sources" bar, what every session costs, and the summary cards.
//!
//! The bar splits the user's own text by group (the files every session sends and the listed
//! skills' lines); the cost line adds Claude Code's own text around it, as the report's
//! `session.cost` models it. Both come from the report: the page adds nothing up itself.

use memdiag_core::report::{Footprint, Group, SessionCost};
use wasm_bindgen::JsCast;
use web_sys::HtmlElement;
use yew::{component, html, use_effect_with, use_node_ref, Callback, Html, Properties};

use crate::components::tree::group_slug;
use crate::state::{grouped, Unit};

/// Props of [`FootprintBar`].
#[derive(Properties, PartialEq)]
pub struct FootprintBarProps {
    /// The report's footprint.
    pub footprint: Footprint,
    /// Characters or bytes.
    pub unit: Unit,
    /// Switches the unit.
    #[prop_or_default]
    pub on_unit: Callback<Unit>,
    /// What every session carries, the user's text and Claude Code's own; no cost line
    /// without it.
    #[prop_or_default]
    pub cost: Option<SessionCost>,
}

/// The "Memory sources" bar: one segment per group, as wide as its share.
#[component]
pub fn FootprintBar(props: &FootprintBarProps) -> Html {
    let bar_ref = use_node_ref();
    // Widths go through the CSS object model: the page's Content-Security-Policy blocks style
    // attributes, and this way needs no exception.
    {
        let bar_ref = bar_ref.clone();
        use_effect_with((props.footprint.clone(), props.unit), move |_| {
            let Some(bar) = bar_ref.cast::<HtmlElement>() else {
                return;
            };
            let Ok(segments) = bar.query_selector_all("[data-percent]") else {
                return;
            };
            for i in 0..segments.length() {
                let Some(segment) = segments
                    .get(i)
                    .and_then(|n| n.dyn_into::<HtmlElement>().ok())
                else {
                    continue;
                };
                let percent = segment.get_attribute("data-percent").unwrap_or_default();
                let _ = segment
                    .style()
                    .set_property("width", &format!("{percent}%"));
            }
        });
    }
    let footprint = &props.footprint;
    let (total, unit_name) = match props.unit {
        Unit::Chars => (footprint.chars, "chars"),
        Unit::Bytes => (footprint.bytes, "bytes"),
    };
    let value_of = |group: Group| -> (u64, u64) {
        footprint
            .groups
            .get(group.name())
            .map(|g| {
                (
                    match props.unit {
                        Unit::Chars => g.chars,
                        Unit::Bytes => g.bytes,
                    },
                    g.files,
                )
            })
            .unwrap_or((0, 0))
    };
    let share = |value: u64| {
        if total == 0 {
            0.0
        } else {
            value as f64 * 100.0 / total as f64
        }
    };
    let unit_button = |unit: Unit, label: &'static str| {
        let on_unit = props.on_unit.clone();
        let active = props.unit == unit;
        html! {
            <button
                class={if active { "toggle active" } else { "toggle" }}
                aria-pressed={active.to_string()}
                data-testid={format!("unit-{}", label.to_ascii_lowercase())}
                onclick={Callback::from(move |_| on_unit.emit(unit))}
            >{ label }</button>
        }
    };
    html! {
        <section class="footprint" aria-label="Memory sources" data-testid="footprint"
            data-unit={unit_name} data-total={total.to_string()}>
            <div class="footprint-head">
                <h2>{ "Memory sources" }</h2>
                <span class="footprint-total" title="Your files as Claude Code sends them, and your skills' listing lines">
                    { format!("{} {unit_name} of your text in every session", grouped(total)) }
                </span>
                <span class="unit-toggle" role="group" aria-label="Unit">
                    { unit_button(Unit::Chars, "Chars") }
                    { unit_button(Unit::Bytes, "Bytes") }
                </span>
            </div>
            <div class="bar" ref={bar_ref} role="img" aria-label={bar_label(footprint, props.unit)} data-testid="footprint-bar">
                { for Group::ALL.iter().filter_map(|&group| {
                    let (value, files) = value_of(group);
                    (value > 0).then(|| {
                        let percent = share(value);
                        let tip = format!("{}: {} {unit_name} ({percent:.1}%) · {files} files", group.name(), grouped(value));
                        html! {
                            <div
                                key={group.name()}
                                class={format!("segment g-{}", group_slug(group))}
                                data-percent={format!("{percent:.4}")}
                                title={tip}
                                data-testid="segment"
                                data-group={group.name()}
                                data-value={value.to_string()}
                            ></div>
                        }
                    })
                }) }
                if total == 0 {
                    <div class="bar-empty">{ "Nothing loads in every session." }</div>
                }
            </div>
            <ul class="legend">
                { for Group::ALL.iter().map(|&group| {
                    let (value, files) = value_of(group);
                    html! {
                        <li key={group.name()} class={if value == 0 { "empty" } else { "" }}
                            title={format!("{}: {} {unit_name} · {files} files", group.name(), grouped(value))}
                            data-testid="legend-item" data-group={group.name()} data-value={value.to_string()}>
                            <span class={format!("swatch g-{}", group_slug(group))} aria-hidden="true"></span>
                            { group.name() }
                            <span class="legend-value">{ grouped(value) }</span>
                        </li>
                    }
                }) }
            </ul>
            if let Some(cost) = &props.cost {
                { session_cost(cost) }
            }
        </section>
    }
}

/// One line: the tokens every session starts with, and how much of it is the user's text.
fn session_cost(cost: &SessionCost) -> Html {
    let (ib, sl, ms, total) = (
        cost.instruction_block,
        cost.skills_listing,
        cost.memory_section,
        cost.total,
    );
    let user_tip = format!(
        "Your files as sent: {} · your skills' listing lines: {}",
        grouped(ib.user),
        grouped(sl.user)
    );
    let claude_tip = format!(
        "The instruction block's header and one \"Contents of …\" line per file: {} · the skills listing's header and built-in skills: {} · the memory instructions: {}",
        grouped(ib.claude_code),
        grouped(sl.claude_code),
        grouped(ms.claude_code)
    );
    html! {
        <p class="session-cost" data-testid="session-cost"
            data-user={total.user.to_string()} data-claude-code={total.claude_code.to_string()}
            data-total={total.total().to_string()} data-tokens={cost.tokens_estimate.to_string()}>
            <strong title="UTF-16 units divided by 4: a rough estimate, not a tokenizer's count">
                { format!("≈ {} tokens", grouped(cost.tokens_estimate)) }
            </strong>
            { " per session (estimate): " }
            <span class="part" title={user_tip}>{ format!("{} of your text", grouped(total.user)) }</span>
            { " + " }
            <span class="part" title={claude_tip}>{ format!("{} of Claude Code's own", grouped(total.claude_code)) }</span>
            { format!(" = {} ", grouped(total.total())) }
            <abbr title="Characters as Claude Code counts them: JavaScript string length, so an emoji counts 2">{ "UTF-16 units" }</abbr>
        </p>
    }
}

fn bar_label(footprint: &Footprint, unit: Unit) -> String {
    let parts: Vec<String> = Group::ALL
        .iter()
        .filter_map(|group| {
            let g = footprint.groups.get(group.name())?;
            let value = match unit {
                Unit::Chars => g.chars,
                Unit::Bytes => g.bytes,
            };
            (value > 0).then(|| format!("{} {}", group.name(), grouped(value)))
        })
        .collect();
    if parts.is_empty() {
        "Nothing loads in every session".to_owned()
    } else {
        parts.join(", ")
    }
}

/// Props of [`SummaryCards`].
#[derive(Properties, PartialEq)]
pub struct SummaryCardsProps {
    /// The report's footprint.
    pub footprint: Footprint,
    /// What every session carries: the token estimate counts all of it.
    pub cost: SessionCost,
}

/// The cards: Files, Chars, Bytes, Always loaded, and the token estimate of a whole session.
#[component]
pub fn SummaryCards(props: &SummaryCardsProps) -> Html {
    let f = &props.footprint;
    let tokens = props.cost.tokens_estimate;
    let card = |id: &'static str, label: &'static str, value: u64, hint: &'static str| {
        html! {
            <div class="card" data-testid={format!("card-{id}")} data-value={value.to_string()} title={hint}>
                <div class="card-value">{ grouped(value) }</div>
                <div class="card-label">{ label }</div>
            </div>
        }
    };
    html! {
        <section class="cards" aria-label="Footprint summary">
            { card("files", "Files", f.files, "Files Claude Code sends in every session's instruction block") }
            { card("chars", "Chars", f.chars, "Characters of your text: those files as sent, and your skills' listing lines") }
            { card("bytes", "Bytes", f.bytes, "UTF-8 bytes of the same") }
            { card("always", "Always loaded", f.always_loaded, "Of those files, the ones with the always or startup load type; the rest come with the files that import them") }
            <div class="card estimate" data-testid="card-tokens" data-value={tokens.to_string()}
                title="Your text and Claude Code's own text around it, in UTF-16 units divided by 4: a rough estimate, not a tokenizer's count">
                <div class="card-value">{ format!("≈ {}", grouped(tokens)) }</div>
                <div class="card-label">{ "tokens per session (estimate)" }</div>
            </div>
        </section>
    }
}
