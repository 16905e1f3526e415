//! `memdiag verify LOG`: what a real session loaded, from the log `memdiag hook
//! instructions-loaded` keeps, against what memdiag predicts for the same project.
//!
//! The log has one JSON line per InstructionsLoaded event. The events of one session (the
//! last in the log, or `--session ID`) are put in three kinds: at startup (`session_start`,
//! and the `include`s of those files), on each Read (`nested_traversal` and
//! `path_glob_match` with the file read as `trigger_file_path`, and their `include`s), and in
//! each sub-agent (events that carry an `agent_type`; 2.1.328 and 2.1.337 send none).
//! memdiag then analyses the project the events name (their `cwd`, unless `--project` or
//! `--mount` says otherwise) with the session's Reads in their order, and compares: the
//! startup files with the instruction block's (auto memory's `MEMORY.md` has no event and
//! is left out), each Read's files with what memdiag says it attaches, each sub-agent's with
//! what it receives.
//! Files are compared as sets: each event is a hook process of its own, and they reach the
//! log in the order they finish, not the order Claude Code loaded the files.
//! The release is the one the hook saw (`release` in the log, from Claude Code's `AI_AGENT`),
//! and the session `print` when its `entrypoint` is the SDK's (`claude -p`), unless
//! `--claude-version` or `--session` say otherwise. Exit 0 when all agree, 1 when something
//! differs (each difference on a line), 2 when the log cannot be read.

use std::collections::BTreeSet;
use std::process::ExitCode;

use memdiag_core::report::{Report, SentLabel};
use serde_json::Value;

use crate::local;

/// The most of a log read: ten times what the hook keeps, for a log joined by hand.
const MAX_LOG_BYTES: u64 = 16 * 1024 * 1024;

/// One event of the log, as `verify` reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Event {
    pub(crate) session: Option<String>,
    pub(crate) cwd: Option<String>,
    pub(crate) agent: Option<String>,
    pub(crate) file: String,
    pub(crate) reason: String,
    pub(crate) trigger: Option<String>,
    pub(crate) parent: Option<String>,
}

/// When a logged file loaded.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Moment {
    Startup,
    Read(String),
    Agent(String),
}

/// What the session loaded, by moment, each moment's files in the order they came.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Loaded {
    pub(crate) moments: Vec<(Moment, Vec<String>)>,
}

impl Loaded {
    fn push(&mut self, moment: Moment, file: &str) {
        match self.moments.iter_mut().find(|(m, _)| *m == moment) {
            Some((_, files)) => {
                if !files.iter().any(|f| f == file) {
                    files.push(file.to_owned());
                }
            }
            None => self.moments.push((moment, vec![file.to_owned()])),
        }
    }

    /// The files read, in the order of their first event.
    pub(crate) fn reads(&self) -> Vec<String> {
        self.moments
            .iter()
            .filter_map(|(m, _)| match m {
                Moment::Read(path) => Some(path.clone()),
                _ => None,
            })
            .collect()
    }
}

/// Runs `memdiag verify LOG [--session ID] [scan options]`.
pub(crate) fn main(args: &[String]) -> ExitCode {
    match run(args) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("memdiag: verify: {message}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<ExitCode, String> {
    let mut log = None;
    let mut session = None;
    let mut rest = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        if arg == "--session" {
            session = Some(args.next().ok_or("--session needs a value")?.clone());
        } else if let Some(value) = arg.strip_prefix("--session=") {
            session = Some(value.to_owned());
        } else if log.is_none() && !arg.starts_with('-') {
            log = Some(arg.clone());
        } else {
            rest.push(arg.clone());
        }
    }
    let log = log.ok_or("usage: memdiag verify LOG [--session ID] [scan options]")?;
    let text = read_log(&log)?;
    let (events, skipped) = parse_log(&text);
    if skipped > 0 {
        eprintln!("memdiag: verify: {skipped} line(s) of {log} are not events; left out");
    }
    let session = session
        .or_else(|| events.iter().rev().find_map(|e| e.session.clone()))
        .ok_or("the log holds no event with a session_id")?;
    let events: Vec<Event> = events
        .into_iter()
        .filter(|e| e.session.as_deref() == Some(session.as_str()))
        .collect();
    if events.is_empty() {
        return Err(format!("the log holds no event of session {session}"));
    }
    let loaded = classify(&events);
    let names_project = rest
        .iter()
        .any(|a| a == "--project" || a.starts_with("--project=") || a == "--mount");
    if !names_project {
        let cwd = events
            .iter()
            .find_map(|e| e.cwd.clone())
            .ok_or("the events name no cwd: give --project")?;
        rest.extend(["--project".to_owned(), cwd]);
    }
    // The release and the kind of session the hook saw, unless the flags say otherwise.
    let facts = |key: &str| {
        text.lines()
            .rev()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter(|v| v.get("session_id").and_then(Value::as_str) == Some(session.as_str()))
            .find_map(|v| v.get(key).and_then(Value::as_str).map(str::to_owned))
    };
    let flag_given = |flag: &str| {
        rest.iter()
            .any(|a| a == flag || a.starts_with(&format!("{flag}=")))
    };
    let mut more = Vec::new();
    if !flag_given("--claude-version") {
        if let Some(release) = facts("release") {
            more.extend(["--claude-version".to_owned(), release]);
        }
    }
    if !flag_given("--session") {
        if let Some(entrypoint) = facts("entrypoint") {
            let kind = if entrypoint.starts_with("sdk") {
                "print"
            } else {
                "interactive"
            };
            more.extend(["--session".to_owned(), kind.to_owned()]);
        }
    }
    rest.extend(more);
    rest.extend(
        loaded
            .reads()
            .into_iter()
            .flat_map(|r| ["--read".to_owned(), r]),
    );
    let (input, sources) = match crate::parse_args(&rest, &crate::Host::from_env())? {
        crate::Command::Scan(scan) if scan.share.is_none() => (scan.input, scan.sources),
        _ => return Err("verify takes the scan's options only".to_owned()),
    };
    let report = local::scan(&input, &sources)?;
    let differences = compare(&loaded, &report);
    let mut out = format!(
        "memdiag verify: session {session}, {} event(s), project {}, Claude Code {}\n",
        events.len(),
        report.context.project.as_deref().unwrap_or("(none)"),
        report.context.version
    );
    for (moment, files) in &loaded.moments {
        let differs = differences.iter().any(|d| d.moment == *moment);
        out.push_str(&format!(
            "{} {}: {} file(s) loaded{}\n",
            if differs { "✗" } else { "✓" },
            describe(moment),
            files.len(),
            if differs { "" } else { ", as predicted" }
        ));
        for difference in differences.iter().filter(|d| d.moment == *moment) {
            out.push_str(&format!("    {}\n", difference.text));
        }
    }
    for difference in differences
        .iter()
        .filter(|d| !loaded.moments.iter().any(|(m, _)| *m == d.moment))
    {
        out.push_str(&format!(
            "✗ {}: nothing loaded\n    {}\n",
            describe(&difference.moment),
            difference.text
        ));
    }
    if differences.is_empty() {
        out.push_str("No difference: memdiag predicts what this session loaded.\n");
    } else {
        out.push_str(&format!(
            "{} difference(s). If the project and release are right (--claude-version), \
             please report it with a sanitized share (memdiag --share-zip FILE).\n",
            differences.len()
        ));
    }
    print!("{out}");
    Ok(if differences.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn read_log(path: &str) -> Result<String, String> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|error| format!("{path}: {error}"))?;
    let mut bytes = Vec::new();
    file.take(MAX_LOG_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|error| format!("{path}: {error}"))?;
    if bytes.len() as u64 > MAX_LOG_BYTES {
        return Err(format!("{path} is over 16 MiB"));
    }
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// The events of a log, and how many lines were not events.
pub(crate) fn parse_log(text: &str) -> (Vec<Event>, usize) {
    let mut events = Vec::new();
    let mut skipped = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let Ok(value) = serde_json::from_str::<Value>(line) else {
            skipped += 1;
            continue;
        };
        let text = |key: &str| value.get(key).and_then(Value::as_str).map(str::to_owned);
        match (text("file_path"), text("load_reason")) {
            (Some(file), Some(reason)) => events.push(Event {
                session: text("session_id"),
                cwd: text("cwd"),
                agent: text("agent_type").or_else(|| text("agent_id")),
                file,
                reason,
                trigger: text("trigger_file_path"),
                parent: text("parent_file_path"),
            }),
            _ => skipped += 1,
        }
    }
    (events, skipped)
}

/// Puts each event under the moment it loaded at: an include under its parent's. Each
/// event is a hook process of its own and they append to the log as they finish, so the log's
/// order is not the load order (seen on 2.1.328): an include may come before its parent.
pub(crate) fn classify(events: &[Event]) -> Loaded {
    let direct = |event: &Event| -> Option<Option<Moment>> {
        match (&event.agent, event.reason.as_str()) {
            (Some(agent), _) => Some(Some(Moment::Agent(agent.clone()))),
            // A compaction reloads what the session had: nothing new to check.
            (None, "compact") => Some(None),
            (None, "nested_traversal" | "path_glob_match") => Some(Some(match &event.trigger {
                Some(trigger) => Moment::Read(trigger.clone()),
                None => Moment::Startup,
            })),
            (None, "include") => None,
            (None, _) => Some(Some(Moment::Startup)),
        }
    };
    let mut moments: Vec<Option<Option<Moment>>> = events.iter().map(direct).collect();
    // Includes take their parent's moment; a chain of includes settles in as many rounds as
    // it is long, and the rounds are bounded by the events.
    for _ in 0..events.len() {
        let mut changed = false;
        for (index, event) in events.iter().enumerate() {
            if moments[index].is_some() {
                continue;
            }
            let parent = event.parent.as_ref().and_then(|parent| {
                events
                    .iter()
                    .zip(&moments)
                    .find(|(e, m)| &e.file == parent && e.agent == event.agent && m.is_some())
                    .and_then(|(_, m)| m.clone())
            });
            if let Some(moment) = parent {
                moments[index] = Some(moment);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mut loaded = Loaded::default();
    for (event, moment) in events.iter().zip(moments) {
        // An include whose parent has no event counts at startup.
        match moment.unwrap_or(Some(Moment::Startup)) {
            Some(moment) => loaded.push(moment, &event.file),
            None => continue,
        }
    }
    loaded
}

/// One way the session and the prediction differ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Difference {
    pub(crate) moment: Moment,
    pub(crate) text: String,
}

/// Where what the session loaded and what `report` predicts differ, moment by moment.
pub(crate) fn compare(loaded: &Loaded, report: &Report) -> Vec<Difference> {
    let mut differences = Vec::new();
    // The instruction block's files, but auto memory's (no event is sent for them) and the
    // managed settings' text (not a file).
    let startup: Vec<String> = report
        .session
        .files
        .iter()
        .filter(|f| f.label != Some(SentLabel::AutoMemory) && f.path.starts_with('/'))
        .map(|f| f.path.clone())
        .collect();
    let logged = |moment: &Moment| -> Vec<String> {
        loaded
            .moments
            .iter()
            .find(|(m, _)| m == moment)
            .map(|(_, files)| files.clone())
            .unwrap_or_default()
    };
    differ(
        &mut differences,
        Moment::Startup,
        &logged(&Moment::Startup),
        &startup,
    );
    for read in loaded.reads() {
        let predicted: Vec<String> = report
            .reads
            .iter()
            .find(|r| r.path == read)
            .map(|r| r.files.iter().map(|f| f.path.clone()).collect())
            .unwrap_or_default();
        let moment = Moment::Read(read);
        differ(
            &mut differences,
            moment.clone(),
            &logged(&moment),
            &predicted,
        );
    }
    for (moment, files) in &loaded.moments {
        let Moment::Agent(name) = moment else {
            continue;
        };
        let predicted: Vec<String> = report
            .health
            .agents
            .iter()
            .find(|a| &a.name == name && a.shadowed_by.is_none())
            .map(|a| {
                a.receives
                    .iter()
                    .filter(|f| f.label != Some(SentLabel::AutoMemory))
                    .map(|f| f.path.clone())
                    .collect()
            })
            .unwrap_or_default();
        differ(&mut differences, moment.clone(), files, &predicted);
    }
    differences
}

fn differ(out: &mut Vec<Difference>, moment: Moment, loaded: &[String], predicted: &[String]) {
    let loaded_set: BTreeSet<&String> = loaded.iter().collect();
    let predicted_set: BTreeSet<&String> = predicted.iter().collect();
    for file in loaded.iter().filter(|f| !predicted_set.contains(f)) {
        out.push(Difference {
            moment: moment.clone(),
            text: format!("loaded, not predicted: {file}"),
        });
    }
    for file in predicted.iter().filter(|f| !loaded_set.contains(f)) {
        out.push(Difference {
            moment: moment.clone(),
            text: format!("predicted, not loaded: {file}"),
        });
    }
}

fn describe(moment: &Moment) -> String {
    match moment {
        Moment::Startup => "at startup".to_owned(),
        Moment::Read(path) => format!("on the Read of {path}"),
        Moment::Agent(name) => format!("in sub-agent {name}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use memdiag_core::report::{ReadAnswer, SentFile};

    /// Recorded from Claude Code 2.1.328 through `memdiag hook instructions-loaded`: a session
    /// whose CLAUDE.md imports notes.md, then a Read of src/main.py (a nested CLAUDE.md and a
    /// conditional rule); sub-agents send no event.
    const LOG: &str = r#"{"cwd":"/h/app","file_path":"/h/.claude/CLAUDE.md","load_reason":"session_start","memory_type":"User","session_id":"s1","time":"2026-12-07T17:58:45Z"}
{"cwd":"/h/app","file_path":"/h/app/CLAUDE.md","load_reason":"session_start","memory_type":"Project","session_id":"s1","time":"2026-12-07T17:58:45Z"}
{"cwd":"/h/app","file_path":"/h/app/notes.md","load_reason":"include","memory_type":"Project","parent_file_path":"/h/app/CLAUDE.md","session_id":"s1","time":"2026-12-07T17:58:45Z"}
{"cwd":"/h/app","file_path":"/h/app/src/CLAUDE.md","load_reason":"nested_traversal","memory_type":"Project","session_id":"s1","time":"2026-12-07T17:58:47Z","trigger_file_path":"/h/app/src/main.py"}
{"cwd":"/h/app","file_path":"/h/app/.claude/rules/py.md","globs":["**/*.py"],"load_reason":"path_glob_match","memory_type":"Project","session_id":"s1","time":"2026-12-07T17:58:47Z","trigger_file_path":"/h/app/src/main.py"}
not json
{"cwd":"/h/app","file_path":"/h/app/src/lib/CLAUDE.md","load_reason":"nested_traversal","memory_type":"Project","session_id":"s1","trigger_file_path":"/h/app/src/lib/x.py","agent_type":"helper"}
"#;

    fn sent(path: &str, label: Option<SentLabel>) -> SentFile {
        SentFile {
            path: path.to_owned(),
            label,
            ..SentFile::default()
        }
    }

    /// The prediction that matches the log's main session.
    fn report() -> Report {
        let mut report = Report::default();
        report.session.files = vec![
            sent("/h/.claude/CLAUDE.md", Some(SentLabel::User)),
            sent("/h/app/CLAUDE.md", Some(SentLabel::Project)),
            sent("/h/app/notes.md", Some(SentLabel::Project)),
            sent(
                "/h/.claude/projects/-h-app/memory/MEMORY.md",
                Some(SentLabel::AutoMemory),
            ),
        ];
        report.reads = vec![ReadAnswer {
            path: "/h/app/src/main.py".to_owned(),
            files: vec![
                sent("/h/app/src/CLAUDE.md", None),
                sent("/h/app/.claude/rules/py.md", None),
            ],
            ..ReadAnswer::default()
        }];
        report
    }

    fn main_session() -> Loaded {
        let (events, skipped) = parse_log(LOG);
        assert_eq!(skipped, 1);
        let main: Vec<Event> = events.into_iter().filter(|e| e.agent.is_none()).collect();
        classify(&main)
    }

    #[test]
    fn the_log_is_put_in_moments() {
        let loaded = main_session();
        assert_eq!(
            loaded.moments,
            vec![
                (
                    Moment::Startup,
                    vec![
                        "/h/.claude/CLAUDE.md".to_owned(),
                        "/h/app/CLAUDE.md".to_owned(),
                        "/h/app/notes.md".to_owned()
                    ]
                ),
                (
                    Moment::Read("/h/app/src/main.py".to_owned()),
                    vec![
                        "/h/app/src/CLAUDE.md".to_owned(),
                        "/h/app/.claude/rules/py.md".to_owned()
                    ]
                ),
            ]
        );
        let (events, _) = parse_log(LOG);
        let all = classify(&events);
        assert_eq!(
            all.moments.last().unwrap().0,
            Moment::Agent("helper".to_owned())
        );
    }

    #[test]
    fn a_right_prediction_has_no_difference() {
        assert_eq!(compare(&main_session(), &report()), vec![]);
    }

    #[test]
    fn a_wrong_prediction_is_reported() {
        let mut wrong = report();
        // Predicts the import is not sent, and a rule the Read did not attach.
        wrong.session.files.remove(2);
        wrong.reads[0]
            .files
            .push(sent("/h/app/.claude/rules/go.md", None));
        let differences = compare(&main_session(), &wrong);
        let texts: Vec<&str> = differences.iter().map(|d| d.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "loaded, not predicted: /h/app/notes.md",
                "predicted, not loaded: /h/app/.claude/rules/go.md"
            ]
        );
        assert_eq!(differences[0].moment, Moment::Startup);

        // The log's order is the hooks' finishing order, not the load order: no difference.
        let mut swapped = report();
        swapped.session.files.swap(0, 1);
        assert_eq!(compare(&main_session(), &swapped), vec![]);
    }

    #[test]
    fn an_include_logged_before_its_parent_still_takes_its_moment() {
        let (mut events, _) = parse_log(LOG);
        events.retain(|e| e.agent.is_none());
        // notes.md's include first, then a second-level include of it, then the rest.
        let include = events.remove(2);
        let mut deeper = include.clone();
        deeper.file = "/h/app/deeper.md".to_owned();
        deeper.parent = Some("/h/app/notes.md".to_owned());
        events.insert(0, deeper);
        events.insert(0, include);
        let loaded = classify(&events);
        assert_eq!(loaded.moments[0].0, Moment::Startup);
        assert_eq!(
            loaded.moments[0].1,
            [
                "/h/app/notes.md",
                "/h/app/deeper.md",
                "/h/.claude/CLAUDE.md",
                "/h/app/CLAUDE.md"
            ]
        );
        assert_eq!(loaded.moments.len(), 2);
    }
}
