//! The Markdown preview: the engine lays the source out as [`Piece`]s (pulldown-cmark
//! events, with the depth cap applied) and the page builds Yew nodes from them.
//!
//! The layout runs in the analysis worker ([`layout`] is engine code), so the page's
//! first-paint wasm holds no Markdown parser; the worker answers a `preview` message beside
//! any running analysis ([`crate::page::worker_host::Host::preview`]). Without a worker (the
//! component tests) the page lays it out in place, through the same wire ([`to_wire`],
//! [`from_wire`]).
//!
//! A `CLAUDE.md` is untrusted input. The preview never sets `innerHTML`: every piece of text,
//! raw HTML included, becomes a text node, which the browser shows and never parses; the page
//! builds only the elements and attributes [`TAGS`] and [`ATTRIBUTES`] name, whatever the
//! wire says. Links keep their target as a tooltip but get no `href`, so nothing in a
//! dropped file can make the page navigate or fetch; images show their alt text instead of
//! loading.

use std::rc::Rc;

use crate::page::worker_host::Failure;
use js_sys::Array;
#[cfg(feature = "engine")]
use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use yew::platform::spawn_local;
use yew::virtual_dom::{VNode, VTag, VText};
use yew::{component, html, use_context, use_effect_with, use_state, AttrValue, Html, Properties};

/// Sources longer than this are previewed only in part, to keep the page responsive.
const PREVIEW_LIMIT: usize = 256 * 1024;

/// Elements nest at most this deep in the preview; what nests deeper is shown flat, inside
/// the deepest element. Building, drawing and dropping nodes recurse once per level, and
/// 5,000 nested `>` overflowed the wasm stack.
pub const MAX_DEPTH: usize = 32;

/// The elements a preview may hold: the page builds no other.
pub const TAGS: &[&str] = &[
    "p",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "blockquote",
    "pre",
    "code",
    "ol",
    "ul",
    "li",
    "div",
    "dl",
    "dt",
    "dd",
    "table",
    "thead",
    "tr",
    "th",
    "td",
    "em",
    "strong",
    "del",
    "sup",
    "sub",
    "a",
    "span",
    "br",
    "hr",
];

/// The attributes a preview's elements may have: the page sets no other.
pub const ATTRIBUTES: &[&str] = &["class", "data-lang", "data-testid", "start", "title"];

/// One step of a laid-out preview.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    /// Opens an element (one of [`TAGS`]) with its attributes (of [`ATTRIBUTES`]).
    Open(&'static str, Vec<(&'static str, String)>),
    /// Closes the innermost open element.
    Close,
    /// A text node.
    Text(String),
}

/// Props of [`Markdown`].
#[derive(Properties, PartialEq)]
pub struct MarkdownProps {
    /// The Markdown source.
    pub source: AttrValue,
}

/// A rendered Markdown preview. With a worker, the preview shows once the worker has laid
/// it out (a "Rendering" note meanwhile); `data-testid="markdown-preview"` appears only with
/// the content.
#[component]
pub fn Markdown(props: &MarkdownProps) -> Html {
    let source = props.source.as_str();
    let (shown, cut) = if source.len() > PREVIEW_LIMIT {
        let mut end = PREVIEW_LIMIT;
        while !source.is_char_boundary(end) {
            end -= 1;
        }
        (&source[..end], true)
    } else {
        (source, false)
    };
    let host = use_context::<crate::Page>().and_then(|page| page.engine.host());
    // The layout the worker sent, for the source it was asked for.
    let laid_out = use_state(|| None::<(AttrValue, Result<Rc<Vec<Piece>>, String>)>);
    {
        let laid_out = laid_out.setter();
        let shown = AttrValue::from(shown.to_owned());
        use_effect_with((props.source.clone(), host.is_some()), move |_| {
            if let Some(host) = host {
                spawn_local(async move {
                    let pieces = host
                        .preview(&shown)
                        .await
                        .map(|items| Rc::new(from_wire(wire_of(&items))))
                        .map_err(|failure| match failure {
                            Failure::Crashed(detail) | Failure::Message(detail) => detail,
                            Failure::Cancelled => String::new(),
                        });
                    laid_out.set(Some((shown, pieces)));
                });
            }
        });
    }
    let pieces = match &*laid_out {
        Some((asked, pieces)) if asked.as_str() == shown => Some(pieces.clone()),
        _ => in_place(shown),
    };
    match pieces {
        Some(Ok(pieces)) => html! {
            <div class="markdown" data-testid="markdown-preview">
                { build(&pieces) }
                if cut {
                    <p class="muted">{ "The preview stops here; the file is longer. The raw view shows all of it." }</p>
                }
            </div>
        },
        Some(Err(message)) => html! {
            <p class="empty-text error-text" data-testid="markdown-failed">{ format!("The preview could not be made: {message}") }</p>
        },
        None => {
            html! { <p class="muted" data-testid="markdown-waiting">{ "Rendering the preview…" }</p> }
        }
    }
}

/// The preview laid out in the page itself, where there is no worker: with the engine, the
/// same layout and wire as the worker's; without it, `None` until the worker answers.
fn in_place(shown: &str) -> Option<Result<Rc<Vec<Piece>>, String>> {
    #[cfg(feature = "engine")]
    return Some(Ok(Rc::new(from_wire(to_wire(&layout(shown))))));
    #[cfg(not(feature = "engine"))]
    {
        let _ = shown;
        None
    }
}

/// Renders Markdown to Yew nodes (in place, through the wire), with every raw HTML fragment
/// kept as text.
#[cfg(feature = "engine")]
pub fn render(source: &str) -> Html {
    build(&from_wire(to_wire(&layout(source))))
}

/// The worker's answer to a `preview` message: the layout of its `source`, as [`to_wire`]
/// writes it.
#[cfg(feature = "engine")]
pub(crate) fn answer(data: &wasm_bindgen::JsValue) {
    use crate::wire::messages::{get, text};
    let pieces: Array = to_wire(&layout(&text(data, "source")))
        .iter()
        .map(|item| wasm_bindgen::JsValue::from_str(item))
        .collect();
    crate::engine::worker::post(&[
        ("type", "previewed".into()),
        ("req", get(data, "req")),
        ("pieces", pieces.into()),
    ]);
}

/// The pieces as the strings of a message field: one string per step, `<tag`, `@name`
/// followed by the value, `/` to close, `#text`. Plain strings, so that the wire is the same
/// (and testable natively) whether it crosses to the worker or stays in place.
pub fn to_wire(pieces: &[Piece]) -> Vec<String> {
    let mut items = Vec::new();
    for piece in pieces {
        match piece {
            Piece::Open(tag, attributes) => {
                items.push(format!("<{tag}"));
                for (name, value) in attributes {
                    items.push(format!("@{name}"));
                    items.push(value.clone());
                }
            }
            Piece::Close => items.push("/".to_owned()),
            Piece::Text(text) => items.push(format!("#{text}")),
        }
    }
    items
}

/// A `previewed` message's field as the strings [`from_wire`] reads; anything that is not a
/// string reads as empty text.
pub fn wire_of(items: &Array) -> Vec<String> {
    items
        .iter()
        .map(|item| item.as_string().unwrap_or_default())
        .collect()
}

/// The pieces [`to_wire`] wrote. An element or attribute the lists do not name becomes a
/// `span` or is left out; every other string is text.
pub fn from_wire(items: impl IntoIterator<Item = String>) -> Vec<Piece> {
    let known = |list: &[&'static str], name: &str| list.iter().copied().find(|k| *k == name);
    let mut pieces = Vec::new();
    let mut items = items.into_iter();
    while let Some(item) = items.next() {
        if item == "/" {
            pieces.push(Piece::Close);
        } else if let Some(tag) = item.strip_prefix('<') {
            pieces.push(Piece::Open(known(TAGS, tag).unwrap_or("span"), Vec::new()));
        } else if let Some(name) = item.strip_prefix('@') {
            let value = items.next().unwrap_or_default();
            if let (Some(name), Some(Piece::Open(_, attributes))) =
                (known(ATTRIBUTES, name), pieces.last_mut())
            {
                attributes.push((name, value));
            }
        } else {
            let text = item.strip_prefix('#').unwrap_or(&item);
            pieces.push(Piece::Text(text.to_owned()));
        }
    }
    pieces
}

/// One open element while pieces are turned into nodes.
struct Frame {
    tag: Option<VTag>,
    children: Vec<VNode>,
}

/// The nodes of a laid-out preview. A close with nothing open is ignored, and elements left
/// open at the end are closed.
pub fn build(pieces: &[Piece]) -> Html {
    let mut stack = vec![Frame {
        tag: None,
        children: Vec::new(),
    }];
    for piece in pieces {
        match piece {
            Piece::Open(name, attributes) => {
                let mut tag = VTag::new(*name);
                for (key, value) in attributes {
                    tag.add_attribute(key, value.clone());
                }
                stack.push(Frame {
                    tag: Some(tag),
                    children: Vec::new(),
                });
            }
            Piece::Close => close(&mut stack),
            Piece::Text(text) => push(&mut stack, VText::new(text.clone()).into()),
        }
    }
    while stack.len() > 1 {
        close(&mut stack);
    }
    let root = stack.pop().expect("the root frame");
    VNode::from_iter(root.children)
}

fn close(stack: &mut Vec<Frame>) {
    if stack.len() > 1 {
        let frame = stack.pop().expect("more than one frame");
        let node = match frame.tag {
            Some(mut tag) => {
                tag.add_children(frame.children);
                tag.into()
            }
            None => VNode::from_iter(frame.children),
        };
        push(stack, node);
    }
}

fn push(stack: &mut [Frame], node: VNode) {
    if let Some(frame) = stack.last_mut() {
        frame.children.push(node);
    }
}

/// Lays Markdown out as pieces, with every raw HTML fragment kept as text.
#[cfg(feature = "engine")]
pub fn layout(source: &str) -> Vec<Piece> {
    // No strikethrough: `~` starts every home-relative import (`@~/notes.md`), and two of
    // them on one line would strike out the text between.
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_YAML_STYLE_METADATA_BLOCKS
        | Options::ENABLE_PLUSES_DELIMITED_METADATA_BLOCKS;
    let mut pieces = Vec::new();
    let text = |text: &str| Piece::Text(text.to_owned());
    // Elements built and still open (each start event is one, whatever it opens).
    let mut open = 0usize;
    let mut skip_depth = 0usize;
    // Elements opened past MAX_DEPTH: not built, their contents go to the deepest one.
    let mut flattened = 0usize;
    let mut in_table_head = false;
    for event in Parser::new_ext(source, options) {
        if skip_depth > 0 {
            match event {
                Event::Start(_) => skip_depth += 1,
                Event::End(_) => skip_depth -= 1,
                _ => {}
            }
            continue;
        }
        match event {
            Event::Start(Tag::MetadataBlock(_)) => skip_depth = 1,
            Event::Start(_) if flattened > 0 || open >= MAX_DEPTH => {
                if flattened == 0 {
                    pieces.push(Piece::Open(
                        "span",
                        vec![
                            ("class", "md-flat muted".to_owned()),
                            ("data-testid", "markdown-flat".to_owned()),
                        ],
                    ));
                    pieces.push(Piece::Text(format!(
                        "[nested deeper than {MAX_DEPTH} levels: shown flat from here] "
                    )));
                    pieces.push(Piece::Close);
                }
                flattened += 1;
            }
            // Ends come innermost first: the flattened elements close before any built one.
            Event::End(_) if flattened > 0 => flattened -= 1,
            Event::Start(tag) => {
                if matches!(tag, Tag::TableHead) {
                    in_table_head = true;
                }
                open += 1;
                start(&mut pieces, tag, in_table_head);
            }
            Event::End(end) => {
                if matches!(end, TagEnd::TableHead) {
                    in_table_head = false;
                }
                if open > 0 {
                    open -= 1;
                    end_of(&mut pieces, end);
                }
            }
            Event::Text(t) | Event::InlineMath(t) | Event::DisplayMath(t) => pieces.push(text(&t)),
            Event::Code(t) => {
                pieces.push(Piece::Open("code", Vec::new()));
                pieces.push(text(&t));
                pieces.push(Piece::Close);
            }
            Event::Html(t) | Event::InlineHtml(t) => {
                pieces.push(Piece::Open(
                    "span",
                    vec![("class", "md-raw-html".to_owned())],
                ));
                pieces.push(text(&t));
                pieces.push(Piece::Close);
            }
            Event::FootnoteReference(label) => {
                pieces.push(Piece::Open("sup", Vec::new()));
                pieces.push(Piece::Text(format!("[{label}]")));
                pieces.push(Piece::Close);
            }
            Event::SoftBreak => pieces.push(text("\n")),
            Event::HardBreak => pieces.extend([Piece::Open("br", Vec::new()), Piece::Close]),
            Event::Rule => pieces.extend([Piece::Open("hr", Vec::new()), Piece::Close]),
            Event::TaskListMarker(done) => pieces.push(text(if done { "☑ " } else { "☐ " })),
        }
    }
    pieces
}

/// The pieces a start tag opens (more than one element for a code block and a table head).
#[cfg(feature = "engine")]
fn start(pieces: &mut Vec<Piece>, tag: Tag<'_>, in_table_head: bool) {
    let element = |name: &'static str| Piece::Open(name, Vec::new());
    let with = |name: &'static str, key: &'static str, value: String| {
        Piece::Open(name, vec![(key, value)])
    };
    let piece = match tag {
        Tag::Paragraph => element("p"),
        Tag::Heading { level, .. } => element(match level {
            HeadingLevel::H1 => "h1",
            HeadingLevel::H2 => "h2",
            HeadingLevel::H3 => "h3",
            HeadingLevel::H4 => "h4",
            HeadingLevel::H5 => "h5",
            HeadingLevel::H6 => "h6",
        }),
        Tag::BlockQuote(_) => element("blockquote"),
        Tag::CodeBlock(kind) => {
            pieces.push(match kind {
                CodeBlockKind::Fenced(lang) if !lang.is_empty() => {
                    with("pre", "data-lang", lang.to_string())
                }
                _ => element("pre"),
            });
            element("code")
        }
        Tag::HtmlBlock => with("pre", "class", "md-raw-html".to_owned()),
        Tag::List(Some(start)) if start != 1 => with("ol", "start", start.to_string()),
        Tag::List(Some(_)) => element("ol"),
        Tag::List(None) => element("ul"),
        Tag::Item => element("li"),
        Tag::FootnoteDefinition(_) => with("div", "class", "md-footnote".to_owned()),
        Tag::DefinitionList => element("dl"),
        Tag::DefinitionListTitle => element("dt"),
        Tag::DefinitionListDefinition => element("dd"),
        Tag::Table(_) => element("table"),
        // pulldown-cmark puts header cells straight into the head; HTML wants a row.
        Tag::TableHead => {
            pieces.push(element("thead"));
            element("tr")
        }
        Tag::TableRow => element("tr"),
        Tag::TableCell => element(if in_table_head { "th" } else { "td" }),
        Tag::Emphasis => element("em"),
        Tag::Strong => element("strong"),
        Tag::Strikethrough => element("del"),
        Tag::Superscript => element("sup"),
        Tag::Subscript => element("sub"),
        // No href: a link in a dropped file must not take the person anywhere.
        Tag::Link { dest_url, .. } => Piece::Open(
            "a",
            vec![
                ("class", "md-link".to_owned()),
                ("title", dest_url.to_string()),
            ],
        ),
        Tag::Image { dest_url, .. } => {
            pieces.push(Piece::Open(
                "span",
                vec![
                    ("class", "md-image".to_owned()),
                    ("title", dest_url.to_string()),
                ],
            ));
            Piece::Text("[image: ".to_owned())
        }
        Tag::MetadataBlock(_) => element("div"),
    };
    pieces.push(piece);
}

/// The pieces an end tag closes, matching [`start`].
#[cfg(feature = "engine")]
fn end_of(pieces: &mut Vec<Piece>, end: TagEnd) {
    match end {
        TagEnd::CodeBlock | TagEnd::TableHead => pieces.extend([Piece::Close, Piece::Close]),
        TagEnd::Image => pieces.extend([Piece::Text("]".to_owned()), Piece::Close]),
        _ => pieces.push(Piece::Close),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn renders_without_panicking_on_odd_input() {
        for source in [
            "",
            "<script>x</script>",
            "| a |\n|---|\n| b |",
            "---\nname: x\n---\nbody",
            "![a](b.png)",
        ] {
            let _ = super::render(source);
        }
    }

    /// How deep elements nest in a rendered node.
    fn depth(node: &yew::virtual_dom::VNode) -> usize {
        use yew::virtual_dom::VNode;
        match node {
            VNode::VTag(tag) => 1 + tag.children().map_or(0, depth),
            VNode::VList(list) => list.iter().map(depth).max().unwrap_or(0),
            _ => 0,
        }
    }

    #[test]
    fn deep_nesting_is_rendered_flat_past_the_limit() {
        let deep = format!("{} words\n\n{}x\n", ">".repeat(5000), "- ".repeat(3000));
        let rendered = super::render(&deep);
        let nested = depth(&rendered);
        assert!(
            (super::MAX_DEPTH..=super::MAX_DEPTH + 1).contains(&nested),
            "{nested}"
        );
        // Dropping the nodes does not overflow the stack either.
        drop(rendered);
        // Shallow nesting keeps every level: three quotes and the paragraph.
        assert_eq!(depth(&super::render("> > > x\n")), 4);
    }
}
