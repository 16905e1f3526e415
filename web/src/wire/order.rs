//! One shared instance of the standard library's sort, which both wasm modules use.

/// Sorts `items` stably by `compare`, through one shared instance of the standard library's
/// sort (over indices, the comparison behind a `dyn`). Each `sort_by` of a type of its own
/// costs the page's wasm some 3 to 5 KB of sorting code; the page's lists are short.
pub fn sort_by<T>(items: &mut Vec<T>, compare: impl Fn(&T, &T) -> std::cmp::Ordering) {
    let order = sorted_indices(items.len(), &|a, b| compare(&items[a], &items[b]));
    let mut slots: Vec<Option<T>> = std::mem::take(items).into_iter().map(Some).collect();
    items.extend(order.into_iter().filter_map(|i| slots[i].take()));
}

/// The indices `0..len` in the order `compare` gives them (stable).
pub(crate) fn sorted_indices(
    len: usize,
    compare: &dyn Fn(usize, usize) -> std::cmp::Ordering,
) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    order.sort_by(|&a, &b| compare(a, b));
    order
}
