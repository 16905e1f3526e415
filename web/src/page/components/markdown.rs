//! The Markdown preview: the engine lays the source out as [`Piece`]s (pulldown-cmark
//! events, with the depth cap applied) and the page builds Yew nodes from them.
//!
//! The layout runs in the analysis worker (`engine::markdown::layout`), so the page's
//! first-paint wasm holds no Markdown parser; the worker answers a `preview` message beside
//! any running analysis ([`crate::page::runs::Engine::preview`]). Without a worker (the
//! component tests) the page lays it out in place, through the same wire
//! ([`crate::wire::markdown`]).
//!
//! A `CLAUDE.md` is untrusted input. The preview never sets `innerHTML`: every piece of text,
//! raw HTML included, becomes a text node, which the browser shows and never parses; the page
//! builds only the elements and attributes `TAGS` and `ATTRIBUTES` name, whatever the
//! wire says. Links keep their target as a tooltip but get no `href`, so nothing in a
//! dropped file can make the page navigate or fetch; images show their alt text instead of
//! loading.

use std::rc::Rc;

use yew::platform::spawn_local;
use yew::virtual_dom::{VNode, VTag, VText};
use yew::{component, html, use_context, use_effect_with, use_state, AttrValue, Html, Properties};

use crate::wire::markdown::{from_wire, Piece};

/// Sources longer than this are previewed only in part, to keep the page responsive.
const PREVIEW_LIMIT: usize = 256 * 1024;

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
    let engine = use_context::<crate::Page>()
        .map(|page| page.engine)
        .filter(|engine| engine.host().is_some());
    // The layout the worker sent, for the source it was asked for.
    let laid_out = use_state(|| None::<(AttrValue, Result<Rc<Vec<Piece>>, String>)>);
    {
        let laid_out = laid_out.setter();
        let shown = AttrValue::from(shown.to_owned());
        use_effect_with((props.source.clone(), engine.is_some()), move |_| {
            if let Some(engine) = engine {
                spawn_local(async move {
                    let Some(asked) = engine.preview(&shown) else {
                        return;
                    };
                    let pieces = asked.await.map(|items| Rc::new(from_wire(items)));
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
    crate::page::runs::Engine::preview_here(shown).map(|items| Ok(Rc::new(from_wire(items))))
}

/// Renders Markdown to Yew nodes (in place, through the wire), with every raw HTML fragment
/// kept as text.
#[cfg(feature = "engine")]
pub fn render(source: &str) -> Html {
    build(&from_wire(
        crate::page::runs::Engine::preview_here(source).unwrap_or_default(),
    ))
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
            (crate::wire::markdown::MAX_DEPTH..=crate::wire::markdown::MAX_DEPTH + 1)
                .contains(&nested),
            "{nested}"
        );
        // Dropping the nodes does not overflow the stack either.
        drop(rendered);
        // Shallow nesting keeps every level: three quotes and the paragraph.
        assert_eq!(depth(&super::render("> > > x\n")), 4);
    }
}
