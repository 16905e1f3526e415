//! The wire form of a Markdown preview: the [`Piece`]s the engine lays a source out as, and
//! the strings they travel as between the worker and the page ([`to_wire`], [`from_wire`]).
//! Only the elements and attributes [`TAGS`] and [`ATTRIBUTES`] name survive the trip,
//! whatever the strings say.

use js_sys::Array;

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
