//! The footprint: the "Memory sources" bar, what every session costs, and the summary cards.
//!
//! The bar splits the user's own text by group (the files every session sends and the listed
//! skills' lines, without what Claude Code writes into a `MEMORY.md` as it sends it); the
//! cost line adds the sub-agents' listing lines to the user's part and Claude Code's own text
//! around it, as the report's `session.cost` models it. Each says what it counts, so that two
//! "of your text" figures that differ say why. Both come from the report: the page adds
//! nothing up itself.

use memdiag_core::report::{Figure, Footprint, Group, LaterCost, Report, SessionCost};
use wasm_bindgen::JsCast;
use web_sys::HtmlElement;
use yew::{component, html, use_effect_with, use_node_ref, Callback, Html, Properties};

use crate::page::components::tree::group_slug;
use crate::page::decimal::fixed;
use crate::page::state::{display_path, grouped, Shared, TreeItem, Unit};

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
    /// A segment or legend entry was clicked: selects its group in the tree.
    #[prop_or_default]
    pub on_group: Callback<Group>,
    /// The demo is shown: its text is sample text, not the person's.
    #[prop_or_default]
    pub sample: bool,
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
        Unit::Chars => (footprint.utf16, "chars"),
        Unit::Bytes => (footprint.bytes, "bytes"),
    };
    let value_of = |group: Group| -> (u64, u64) {
        footprint
            .groups
            .get(group.name())
            .map(|g| {
                (
                    match props.unit {
                        Unit::Chars => g.utf16,
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
                <span class="footprint-total" data-testid="footprint-total" title="Your files as Claude Code sends them (without the text it adds to a MEMORY.md), and your skills' listing lines">
                    { format!("{} {} of {} in every session, in files and skills' listing lines", grouped(total),
                        if props.unit == Unit::Chars { "characters" } else { "bytes" }, whose(props.sample)) }
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
                        let tip = format!("{}: {} {unit_name} ({}%) · {files} files", group.name(), grouped(value), fixed(percent, 1));
                        let on_group = props.on_group.clone();
                        // The mouse's shortcut: each segment selects its group. They take no
                        // focus; the legend's buttons below do the same by keyboard (one per
                        // group, empty ones too), and the bar's label reads out every share.
                        html! {
                            <div
                                key={group.name()}
                                aria-hidden="true"
                                onclick={Callback::from(move |_| on_group.emit(group))}
                                class={format!("segment g-{}", group_slug(group))}
                                data-percent={fixed(percent, 4)}
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
                            <button class="legend-button" data-testid="legend-select" data-group={group.name()}
                                title={format!("Show {} in the tree", group.name())}
                                onclick={{ let on_group = props.on_group.clone(); Callback::from(move |_| on_group.emit(group)) }}>
                                <span class={format!("swatch g-{}", group_slug(group))} aria-hidden="true"></span>
                                { group.name() }
                                <span class="legend-value">{ grouped(value) }</span>
                            </button>
                        </li>
                    }
                }) }
            </ul>
            if let Some(cost) = &props.cost {
                { session_cost(cost, props.sample) }
            }
        </section>
    }
}

/// One line: the tokens every session starts with, and how much of it is the user's text.
/// "your text", or "sample text" for the demo's.
fn whose(sample: bool) -> &'static str {
    if sample {
        "sample text"
    } else {
        "your text"
    }
}

fn session_cost(cost: &SessionCost, sample: bool) -> Html {
    let (ib, sl, ms, ag, total) = (
        cost.instruction_block,
        cost.skills_listing,
        cost.memory_section,
        cost.agents,
        cost.total,
    );
    let user_tip = format!(
        "Your files as sent (without the text Claude Code adds to a MEMORY.md): {} · your skills' listing lines: {} · your sub-agents' listing lines: {}",
        grouped(ib.user),
        grouped(sl.user),
        grouped(ag.user)
    );
    let claude_tip = format!(
        "The instruction block's header, one \"Contents of …\" line per file and what it adds to a MEMORY.md (its sentence on quoted notes, the > marks, the warning after a cut): {} · the skills listing's header and built-in skills: {} · the memory instructions: {} · the built-in sub-agents: {}",
        grouped(ib.claude_code),
        grouped(sl.claude_code),
        grouped(ms.claude_code),
        grouped(ag.claude_code)
    );
    html! {
        <p class="session-cost" data-testid="session-cost"
            data-user={total.user.to_string()} data-claude-code={total.claude_code.to_string()}
            data-total={total.total().to_string()} data-tokens={cost.tokens_estimate.to_string()}>
            <strong title="Characters divided by 4: a rough estimate, not a tokenizer's count">
                { format!("≈ {} tokens", grouped(cost.tokens_estimate)) }
            </strong>
            { " in every session (estimate" }
            <span data-testid="session-window" data-share={fixed(share_of(cost.tokens_estimate, WINDOW_200K), 2)}>
                { format!(", {}", window_shares(cost.tokens_estimate)) }
            </span>
            { "): " }
            <span class="part" title={user_tip} data-testid="session-user">{ format!("{} of {}", grouped(total.user), whose(sample)) }
                if ag.user > 0 {
                    { format!(" (sub-agents' listing lines included: {})", grouped(ag.user)) }
                }
            </span>
            { " + " }
            <span class="part" title={claude_tip}>{ format!("{} of Claude Code's own", grouped(total.claude_code)) }</span>
            { format!(" = {} ", grouped(total.total())) }
            <abbr title="Characters as Claude Code counts them: UTF-16 units (JavaScript string length), so an emoji counts 2">{ "characters" }</abbr>
            { " in all" }
        </p>
    }
}

/// The context windows the page compares figures with: 200k tokens, and the 1M of the
/// long-context models.
pub const WINDOW_200K: u64 = 200_000;
/// See [`WINDOW_200K`].
pub const WINDOW_1M: u64 = 1_000_000;

/// `tokens` as a percentage of a window of `window` tokens.
pub fn share_of(tokens: u64, window: u64) -> f64 {
    tokens as f64 * 100.0 / window as f64
}

/// `≈ 1.8 % of a 200k window, ≈ 0.4 % of 1M`: an estimate, as the token figure it comes
/// from; `< 0.1 %` below a tenth of a percent.
pub fn window_shares(tokens: u64) -> String {
    let percent = |window| {
        let p = share_of(tokens, window);
        if p > 0.0 && p < 0.1 {
            "< 0.1 %".to_owned()
        } else {
            format!("≈ {} %", fixed(p, 1))
        }
    };
    format!(
        "{} of a 200k window, {} of 1M",
        percent(WINDOW_200K),
        percent(WINDOW_1M)
    )
}

/// Tokens of a figure by the report's estimate: UTF-16 units divided by 4, rounded half
/// up, as `session.cost.tokens_estimate` is made.
pub fn figure_tokens(figure: Figure) -> u64 {
    units_tokens(figure.utf16)
}

/// Tokens of `utf16` units by the report's estimate: divided by 4, rounded half up.
pub fn units_tokens(utf16: u64) -> u64 {
    (utf16 + 2) / 4
}

/// Props of [`contributors`].
#[derive(Properties, PartialEq)]
pub struct ContributorsProps {
    /// The report.
    pub report: Shared<Report>,
    /// Selects a file's row in the tree.
    #[prop_or_default]
    pub on_select: Callback<TreeItem>,
}

/// How many contributors the list shows.
pub const TOP_CONTRIBUTORS: usize = 8;

/// The largest parts of what every session carries: each file as sent, the user's skills'
/// listing lines, and Claude Code's own text, with their share of the session.
pub fn contributors(props: &ContributorsProps) -> Html {
    let report = &props.report;
    let cost = &report.session.cost;
    let total = cost.total.total();
    // (label, UTF-16 units, the row it opens)
    let mut parts: Vec<(String, u64, Option<usize>, &'static str)> = report
        .session
        .files
        .iter()
        .map(|f| {
            let row = report.files.get(f.row);
            let label = row
                .map(|row| display_path(row, &report.context))
                .unwrap_or_else(|| f.path.clone());
            // The file's own text: what Claude Code writes into it as it sends it is in its
            // own part below.
            let own = row.and_then(|r| r.claude_code).map_or(0, |m| m.utf16);
            (
                label,
                f.loaded.utf16.saturating_sub(own),
                Some(f.row),
                "file",
            )
        })
        .collect();
    if cost.skills_listing.user > 0 {
        parts.push((
            format!(
                "Your skills' listing lines ({})",
                report.session.skills.len()
            ),
            cost.skills_listing.user,
            None,
            "skills",
        ));
    }
    if cost.agents.user > 0 {
        parts.push((
            format!(
                "Your sub-agents' listing lines ({})",
                report.session.agents.len()
            ),
            cost.agents.user,
            None,
            "agents",
        ));
    }
    if cost.total.claude_code > 0 {
        parts.push((
            "Claude Code's own text (headers, one line per file, memory instructions, built-in skills and agents)".to_owned(),
            cost.total.claude_code,
            None,
            "claude-code",
        ));
    }
    crate::sort_by(&mut parts, |a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    if parts.is_empty() || total == 0 {
        return Html::default();
    }
    let shown = parts.len().min(TOP_CONTRIBUTORS);
    html! {
        <section class="contributors" aria-label="Largest contributors" data-testid="contributors">
            <h3>{ format!("Largest parts of every session ({shown} of {})", parts.len()) }</h3>
            <ol>
                { for parts.iter().take(TOP_CONTRIBUTORS).map(|(label, units, row, kind)| {
                    let percent = *units as f64 * 100.0 / total as f64;
                    let text = format!("{} % · {} characters", fixed(percent, 1), grouped(*units));
                    html! {
                        // Unkeyed: eight items redrawn in place, so the list always numbers
                        // from 1 (keyed by label, it read "2." first once the project folder
                        // had come before the ~/.claude; two parts may share a label).
                        <li data-testid="contributor" data-kind={*kind}
                            data-units={units.to_string()} data-row={row.map(|r| r.to_string())}>
                            if let Some(row) = *row {
                                <button class="linkish" onclick={{ let s = props.on_select.clone(); Callback::from(move |_| s.emit(TreeItem::File(row))) }}>
                                    { label.clone() }
                                </button>
                            } else {
                                <span>{ label.clone() }</span>
                            }
                            <span class="muted small">{ format!(" {text}") }</span>
                        </li>
                    }
                }) }
            </ol>
        </section>
    }
}

/// Props of [`later_loads`].
#[derive(Properties, PartialEq)]
pub struct LaterLoadsProps {
    /// What can load after a session starts.
    pub later: LaterCost,
    /// The report: its plugins, hooks and MCP servers are listed below.
    pub report: Shared<Report>,
}

/// What loads only sometimes, each kind apart, none of it counted in every session: when
/// Claude reads files (nested instruction files, conditional rules), on demand, in
/// sub-agents.
pub fn later_loads(props: &LaterLoadsProps) -> Html {
    let later = &props.later;
    let session = &props.report.session;
    let mut configured: Vec<String> = (session.plugins.iter())
        .map(|p| {
            [
                "plugin ",
                p.name.as_str(),
                if p.enabled { "" } else { " (not enabled)" },
                ": from ",
                p.marketplace.as_deref().unwrap_or("a --plugin-dir folder"),
                ", read in ",
                &p.folder,
            ]
            .concat()
        })
        .collect();
    for n in &session.not_counted {
        configured.push(
            [
                n.describe().as_str(),
                if n.program.is_some() { " runs " } else { "" },
                n.program.as_deref().unwrap_or(""),
                ": ",
                n.when.label(),
                "; set in ",
                &n.path,
                " (",
                n.layer.label(),
                ")",
            ]
            .concat(),
        );
    }
    let rows = [
        (
            "on-read",
            "When Claude reads a file in a subfolder",
            "Nested CLAUDE.md files, their folders' rules and what they import: they attach with a Read below their folder",
            later.on_read,
        ),
        (
            "conditional",
            "When Claude reads a file a rule's paths match",
            "Conditional rules (paths: in the frontmatter) and their imports",
            later.conditional_rules,
        ),
        (
            "on-demand",
            "Only if Claude reads them",
            "Memory topic files and skill bodies",
            later.on_demand,
        ),
        (
            "agents",
            "In sub-agents only",
            "Sub-agents' own MEMORY.md indexes: a spawned sub-agent gets its own, the main session none",
            later.agent_memory,
        ),
    ];
    html! {
        <section class="later" aria-label="What loads only sometimes" data-testid="later">
            <h3>{ "Only sometimes, not in every session" }</h3>
            <ul>
                { for rows.iter().map(|(id, label, hint, figure)| {
                    let tokens = figure_tokens(*figure);
                    html! {
                        <li key={*id} data-testid={format!("later-{id}")} data-files={figure.files.to_string()}
                            data-utf16={figure.utf16.to_string()} title={*hint}>
                            <span class="later-label">{ *label }</span>
                            <span class="later-value">
                                if figure.files == 0 {
                                    { "nothing" }
                                } else {
                                    { format!("{} file{} · {} characters · ≈ {} tokens ({})", figure.files,
                                        if figure.files == 1 { "" } else { "s" }, grouped(figure.utf16), grouped(tokens),
                                        window_shares(tokens)) }
                                }
                            </span>
                        </li>
                    }
                }) }
            </ul>
            <p class="muted small">{ "Token figures are estimates (characters divided by 4), not a tokenizer's count. Each kind counts its files once; one read may bring several." }</p>
            if !configured.is_empty() {
                // Plugins with their source; hooks and MCP servers with where each is set and
                // when it runs: what they add is not counted, and the heading says so.
                <h3>{ "Plugins, and hooks and MCP servers (not counted)" }</h3>
                <p class="muted small">{ "Hooks and MCP servers add text when they run or connect, and no file says how much: every figure on this page leaves it out. The page never runs them." }</p>
                <ul data-testid="configured">
                    { for configured.into_iter().map(|line| html! { <li data-testid="configured-item">{ line }</li> }) }
                </ul>
            }
        </section>
    }
}

fn bar_label(footprint: &Footprint, unit: Unit) -> String {
    let parts: Vec<String> = Group::ALL
        .iter()
        .filter_map(|group| {
            let g = footprint.groups.get(group.name())?;
            let value = match unit {
                Unit::Chars => g.utf16,
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

/// Props of [`summary_cards`].
#[derive(Properties, PartialEq)]
pub struct SummaryCardsProps {
    /// The report's footprint.
    pub footprint: Footprint,
    /// What every session carries: the token estimate counts all of it.
    pub cost: SessionCost,
    /// The demo is shown: its text is sample text.
    #[prop_or_default]
    pub sample: bool,
}

/// The cards: Files, Chars, Bytes, Always loaded, and the token estimate of a whole session.
pub fn summary_cards(props: &SummaryCardsProps) -> Html {
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
            { card("files", "Files sent in every session", f.files, "Files Claude Code sends in every session's instruction block; the status line counts every file listed") }
            { card("chars", if props.sample { "Characters of sample text" } else { "Characters of your text" }, props.cost.total.user, "Characters of your text in every session: those files as sent, and your skills' and sub-agents' listing lines") }
            { card("bytes", "Bytes of those files", f.bytes, "UTF-8 bytes of those files as sent") }
            { card("always", "Of those, loaded always or at startup", f.always_loaded, "Of those files, the ones with the always or startup load type; the rest come with the files that import them") }
            <div class="card estimate" data-testid="card-tokens" data-value={tokens.to_string()}
                title="Your text and Claude Code's own text around it, in characters divided by 4: a rough estimate, not a tokenizer's count">
                <div class="card-value">{ format!("≈ {}", grouped(tokens)) }</div>
                <div class="card-label">{ "tokens in every session (estimate)" }</div>
                <div class="card-note" data-testid="card-window">{ window_shares(tokens) }</div>
            </div>
        </section>
    }
}
