//! The Markdown preview, built from pulldown-cmark events into Yew nodes.
//!
//! A `CLAUDE.md` is untrusted input. The preview never sets `innerHTML`: every piece of text,
//! raw HTML included, becomes a text node, which the browser shows and never parses. Links
//! keep their target as a tooltip but get no `href`, so nothing in a dropped file can make the
//! page navigate or fetch; images show their alt text instead of loading.

use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use yew::virtual_dom::{VNode, VTag, VText};
use yew::{component, html, AttrValue, Html, Properties};

/// Sources longer than this are previewed only in part, to keep the page responsive.
const PREVIEW_LIMIT: usize = 256 * 1024;

/// Elements nest at most this deep in the preview; what nests deeper is shown flat, inside
/// the deepest element. Building, drawing and dropping nodes recurse once per level, and
/// 5,000 nested `>` overflowed the wasm stack.
pub const MAX_DEPTH: usize = 32;

/// Props of [`Markdown`].
#[derive(Properties, PartialEq)]
pub struct MarkdownProps {
    /// The Markdown source.
    pub source: AttrValue,
}

/// A rendered Markdown preview.
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
    html! {
        <div class="markdown" data-testid="markdown-preview">
            { render(shown) }
            if cut {
                <p class="muted">{ "The preview stops here; the file is longer. The raw view shows all of it." }</p>
            }
        </div>
    }
}

/// One open element while events are turned into nodes.
struct Frame {
    tag: Option<VTag>,
    children: Vec<VNode>,
}

/// Renders Markdown to Yew nodes, with every raw HTML fragment kept as text.
pub fn render(source: &str) -> Html {
    // No strikethrough: `~` starts every home-relative import (`@~/notes.md`), and two of
    // them on one line would strike out the text between.
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_YAML_STYLE_METADATA_BLOCKS
        | Options::ENABLE_PLUSES_DELIMITED_METADATA_BLOCKS;
    let mut stack = vec![Frame {
        tag: None,
        children: Vec::new(),
    }];
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
            Event::Start(_) if flattened > 0 || stack.len() > MAX_DEPTH => {
                if flattened == 0 {
                    let mut note = VTag::new("span");
                    note.add_attribute("class", "md-flat muted");
                    note.add_attribute("data-testid", "markdown-flat");
                    note.add_child(
                        VText::new(format!(
                            "[nested deeper than {MAX_DEPTH} levels: shown flat from here] "
                        ))
                        .into(),
                    );
                    push(&mut stack, note.into());
                }
                flattened += 1;
            }
            // Ends come innermost first: the flattened elements close before any built one.
            Event::End(_) if flattened > 0 => flattened -= 1,
            Event::Start(tag) => {
                if matches!(tag, Tag::TableHead) {
                    in_table_head = true;
                }
                stack.push(Frame {
                    tag: Some(open(tag, in_table_head)),
                    children: Vec::new(),
                });
            }
            Event::End(end) => {
                if matches!(end, TagEnd::TableHead) {
                    in_table_head = false;
                }
                if stack.len() > 1 {
                    let frame = stack.pop().expect("more than one frame");
                    let node = close(frame, end);
                    push(&mut stack, node);
                }
            }
            Event::Text(text) | Event::InlineMath(text) | Event::DisplayMath(text) => {
                push(&mut stack, VText::new(text.to_string()).into());
            }
            Event::Code(text) => {
                let mut code = VTag::new("code");
                code.add_child(VText::new(text.to_string()).into());
                push(&mut stack, code.into());
            }
            Event::Html(text) | Event::InlineHtml(text) => {
                let mut span = VTag::new("span");
                span.add_attribute("class", "md-raw-html");
                span.add_child(VText::new(text.to_string()).into());
                push(&mut stack, span.into());
            }
            Event::FootnoteReference(label) => {
                let mut sup = VTag::new("sup");
                sup.add_child(VText::new(format!("[{label}]")).into());
                push(&mut stack, sup.into());
            }
            Event::SoftBreak => push(&mut stack, VText::new("\n").into()),
            Event::HardBreak => push(&mut stack, VTag::new("br").into()),
            Event::Rule => push(&mut stack, VTag::new("hr").into()),
            Event::TaskListMarker(done) => {
                push(
                    &mut stack,
                    VText::new(if done { "☑ " } else { "☐ " }).into(),
                );
            }
        }
    }
    // Unbalanced input cannot happen with pulldown-cmark, but fold any open frame anyway.
    while stack.len() > 1 {
        let frame = stack.pop().expect("more than one frame");
        let node = close(frame, TagEnd::Paragraph);
        push(&mut stack, node);
    }
    let root = stack.pop().expect("the root frame");
    VNode::from_iter(root.children)
}

fn push(stack: &mut [Frame], node: VNode) {
    if let Some(frame) = stack.last_mut() {
        frame.children.push(node);
    }
}

/// The element a start tag opens.
fn open(tag: Tag<'_>, in_table_head: bool) -> VTag {
    let element = |name: &'static str| VTag::new(name);
    match tag {
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
            let mut pre = element("pre");
            if let CodeBlockKind::Fenced(lang) = kind {
                if !lang.is_empty() {
                    pre.add_attribute("data-lang", lang.to_string());
                }
            }
            pre
        }
        Tag::HtmlBlock => {
            let mut pre = element("pre");
            pre.add_attribute("class", "md-raw-html");
            pre
        }
        Tag::List(Some(start)) => {
            let mut list = element("ol");
            if start != 1 {
                list.add_attribute("start", start.to_string());
            }
            list
        }
        Tag::List(None) => element("ul"),
        Tag::Item => element("li"),
        Tag::FootnoteDefinition(_) => {
            let mut div = element("div");
            div.add_attribute("class", "md-footnote");
            div
        }
        Tag::DefinitionList => element("dl"),
        Tag::DefinitionListTitle => element("dt"),
        Tag::DefinitionListDefinition => element("dd"),
        Tag::Table(_) => element("table"),
        Tag::TableHead => element("thead"),
        Tag::TableRow => element("tr"),
        Tag::TableCell => element(if in_table_head { "th" } else { "td" }),
        Tag::Emphasis => element("em"),
        Tag::Strong => element("strong"),
        Tag::Strikethrough => element("del"),
        Tag::Superscript => element("sup"),
        Tag::Subscript => element("sub"),
        Tag::Link { dest_url, .. } => {
            // No href: a link in a dropped file must not take the person anywhere.
            let mut link = element("a");
            link.add_attribute("class", "md-link");
            link.add_attribute("title", dest_url.to_string());
            link
        }
        Tag::Image { dest_url, .. } => {
            let mut image = element("span");
            image.add_attribute("class", "md-image");
            image.add_attribute("title", dest_url.to_string());
            image
        }
        Tag::MetadataBlock(_) => element("div"),
    }
}

/// The node a closed frame becomes.
fn close(frame: Frame, end: TagEnd) -> VNode {
    let Some(mut tag) = frame.tag else {
        return VNode::from_iter(frame.children);
    };
    match end {
        TagEnd::CodeBlock => {
            let mut code = VTag::new("code");
            code.add_children(frame.children);
            tag.add_child(code.into());
        }
        TagEnd::TableHead => {
            // pulldown-cmark puts header cells straight into the head; HTML wants a row.
            let mut row = VTag::new("tr");
            row.add_children(frame.children);
            tag.add_child(row.into());
        }
        TagEnd::Image => {
            tag.add_child(VText::new("[image: ").into());
            tag.add_children(frame.children);
            tag.add_child(VText::new("]").into());
        }
        _ => tag.add_children(frame.children),
    }
    tag.into()
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
