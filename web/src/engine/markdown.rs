//! The Markdown preview's layout, in the analysis worker: the source as [`Piece`]s
//! (pulldown-cmark events, with the depth cap applied), so that the page's first-paint wasm
//! holds no Markdown parser. The page builds the nodes
//! ([`crate::page::components::markdown`] is not reached from here: the pieces travel in
//! the wire's form).

use js_sys::Array;
use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

use crate::wire::markdown::{to_wire, Piece, MAX_DEPTH};

/// The worker's answer to a `preview` message: the layout of its `source`, as [`to_wire`]
/// writes it.
pub(crate) fn answer(data: &wasm_bindgen::JsValue) {
    use crate::wire::messages::{get, text, ToPage};
    let pieces: Array = to_wire(&layout(&text(data, "source")))
        .iter()
        .map(|item| wasm_bindgen::JsValue::from_str(item))
        .collect();
    crate::engine::reply::post(&[
        ("type", ToPage::Previewed.into()),
        ("req", get(data, "req")),
        ("pieces", pieces.into()),
    ]);
}

/// Lays Markdown out as pieces, with every raw HTML fragment kept as text.
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
fn end_of(pieces: &mut Vec<Piece>, end: TagEnd) {
    match end {
        TagEnd::CodeBlock | TagEnd::TableHead => pieces.extend([Piece::Close, Piece::Close]),
        TagEnd::Image => pieces.extend([Piece::Text("]".to_owned()), Piece::Close]),
        _ => pieces.push(Piece::Close),
    }
}
