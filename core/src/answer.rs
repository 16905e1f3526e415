//! The one analysis protocol. A turn of the analysis says what it still needs as a value
//! ([`Requests`](crate::Requests)); whoever holds the files answers it ([`Answerer`]); one driver ([`drive`])
//! runs the two until the report is done. The command answers from the disk, the page's
//! worker from the dropped files, a zip from its archive, the tests from their fixtures: each
//! only answers, none decides what comes next.

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use crate::analyze::{Analysis, AnalyzeError, Step};
use crate::input::Input;
use crate::report::Report;
use crate::tree::{ContentSource, ListingAsk, Probe, Tree};
use crate::vpath::VPath;

/// Whoever holds the files: answers a turn's requests by putting what it finds into the
/// tree. Each method gets the whole batch, so that an answerer that waits for each answer
/// (the page's worker, reading the browser's files) can ask for many at once.
pub trait Answerer {
    /// Lists each folder: inserts its entries (subfolders unlisted again, unless
    /// [`ListingAsk::deep`]) and calls [`Tree::set_listed`].
    fn list(&mut self, tree: &mut Tree, asks: &[ListingAsk]) -> impl Future<Output = ()>;

    /// Says what is at each path ([`ContentSource::probe`]).
    fn probe(&mut self, tree: &mut Tree, probes: &[Probe]) -> impl Future<Output = ()>;

    /// Hands over each file's size and date with [`Tree::set_stat`].
    fn stat(&mut self, tree: &mut Tree, paths: &[VPath]) -> impl Future<Output = ()>;

    /// Reads each file and hands it over with [`Tree::set_contents`] (an error for a file it
    /// cannot read: the analysis records it and goes on).
    fn read(&mut self, tree: &mut Tree, paths: &[VPath]) -> impl Future<Output = ()>;

    /// Called before each turn of the analysis runs (the page times its turns).
    fn turn_starts(&mut self) {}

    /// Called after each turn of the analysis has run.
    fn turn_ends(&mut self) {}
}

/// Runs the analysis of `input` over `tree` to its report, `answerer` answering each turn's
/// requests. After [`crate::MAX_TURNS`] turns it gives up with [`AnalyzeError::Endless`].
///
/// # Errors
/// As [`Analysis::turn`].
pub async fn drive<A: Answerer>(
    tree: &mut Tree,
    input: &Input,
    answerer: &mut A,
) -> Result<Report, AnalyzeError> {
    let mut analysis = Analysis::new(input);
    loop {
        answerer.turn_starts();
        let step = analysis.turn(tree);
        answerer.turn_ends();
        let needs = match step? {
            Step::Done(report) => return Ok(*report),
            Step::Needs(needs) => needs,
        };
        if !needs.listings.is_empty() {
            answerer.list(tree, &needs.listings).await;
        }
        let probes = tree.probes_still_wanted(needs.probes);
        if !probes.is_empty() {
            answerer.probe(tree, &probes).await;
        }
        if !needs.stats.is_empty() {
            answerer.stat(tree, &needs.stats).await;
        }
        // What the turn wanted read while the sizes were pending, now that they are known:
        // read in this round, not a turn later.
        let mut reads = needs.reads;
        reads.extend(tree.take_reads_once_sized());
        if !reads.is_empty() {
            answerer.read(tree, &reads).await;
        }
    }
}

/// A synchronous [`ContentSource`] as an [`Answerer`]: each request in turn.
pub struct Synchronous<'s>(pub &'s mut dyn ContentSource);

impl Answerer for Synchronous<'_> {
    async fn list(&mut self, tree: &mut Tree, asks: &[ListingAsk]) {
        for ask in asks {
            self.0.list(tree, ask);
        }
    }

    async fn probe(&mut self, tree: &mut Tree, probes: &[Probe]) {
        for probe in probes {
            self.0.probe(tree, probe);
        }
    }

    async fn stat(&mut self, tree: &mut Tree, paths: &[VPath]) {
        for path in paths {
            self.0.stat(tree, path);
        }
    }

    async fn read(&mut self, tree: &mut Tree, paths: &[VPath]) {
        for path in paths {
            let contents = self.0.read(path);
            tree.set_contents(path, contents);
        }
    }
}

/// Runs the analysis to completion, reading each requested file from `source`: [`drive`]
/// over a synchronous source (the command, a zip, a shared snapshot, the tests).
///
/// # Errors
/// As [`Analysis::turn`].
pub fn analyze_with(
    tree: &mut Tree,
    input: &Input,
    source: &mut dyn ContentSource,
) -> Result<Report, AnalyzeError> {
    drive_at_once(tree, input, &mut Synchronous(source))
}

/// [`drive`] for an answerer that never waits (every answer is there when asked), without
/// an async runtime.
///
/// # Errors
/// As [`Analysis::turn`].
pub fn drive_at_once<A: Answerer>(
    tree: &mut Tree,
    input: &Input,
    answerer: &mut A,
) -> Result<Report, AnalyzeError> {
    run_to_end(drive(tree, input, answerer))
}

/// Polls a future that never waits (every answer of a synchronous source is there at once)
/// to its end, without a runtime.
fn run_to_end<T>(future: impl Future<Output = T>) -> T {
    let mut future = pin!(future);
    let mut context = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(value) = future.as_mut().poll(&mut context) {
            return value;
        }
    }
}
