//! The share payload: links and zips open to the snapshot they were made from, links made
//! today keep opening, and hostile input is an error, never a panic or a memory blow-up.

use memdiag_core::report::{Code, Report};
use memdiag_core::sanitize::{basis, sanitize, SanitizeOptions, Sanitized};
use memdiag_core::share::{
    decode_link, decode_link_with, encode_link, inspect_link, is_share_zip, open_share_zip,
    open_share_zip_with, to_zip, ShareError, ShareLimits, SHARE_FORMAT,
};
use memdiag_core::{analyze, Contents, Entry, Input, Step, Tree, VPath, ZipLimits};
use memdiag_tests::{assert_text, render, render_diagnostics, Fixture};

const MADE: &str = "2026-11-30T09:12:00Z";

/// A small snapshot with something in every part of the format: imports, an unresolved
/// link, a rule, a skill, a memory index with a topic, settings, a sub-agent.
const SMALL: &str = r#"
    //@ project=/home/alice/shop mounts=/home/alice
    //- /home/alice/.claude/CLAUDE.md
    # Notes
    @~/.claude/style.md and [gone](gone.md)
    //- /home/alice/.claude/style.md
    Short lines.
    //- /home/alice/.claude/settings.json
    {"autoMemoryEnabled": true, "env": {"TOKEN": "x"}, "claudeMdExcludes": ["**/old/CLAUDE.md"]}
    //- /home/alice/shop/CLAUDE.md
    Use pnpm. 배포 전에 테스트.
    //- /home/alice/shop/old/CLAUDE.md
    Old.
    //- /home/alice/shop/.claude/rules/web.md
    ---
    paths: "src/**/*.ts"
    ---
    React rules.
    //- /home/alice/shop/src/app.ts
    export {};
    //- /home/alice/shop/.claude/skills/deploy/SKILL.md
    ---
    name: deploy
    description: Ships the shop 🚀
    ---
    Steps.
    //- /home/alice/shop/.git/HEAD
    ref: refs/heads/main
    //- /home/alice/.claude/projects/-home-alice-shop/memory/MEMORY.md
    - [Payments](payments.md) — Stripe only
    //- /home/alice/.claude/projects/-home-alice-shop/memory/payments.md
    ---
    type: project
    modified: 2026-11-02
    ---
    Use the adapter.
    //- /home/alice/.claude/agents/reviewer.md
    ---
    name: reviewer
    memory: user
    ---
    Review.
    //- /home/alice/.claude/agent-memory/reviewer/MEMORY.md
    - checks tests first
    "#;

fn small() -> (Report, Sanitized) {
    let mut fixture = Fixture::parse(SMALL);
    let report = fixture.analyze();
    // Names kept, so that the tests below can name the files they look at.
    let keep_names = SanitizeOptions {
        keep_file_names: true,
        ..SanitizeOptions::default()
    };
    let shared = sanitize(&fixture.tree, &fixture.input, &report, &keep_names);
    assert!(shared.warnings.is_empty(), "{:?}", shared.warnings);
    (report, shared)
}

fn report_of(tree: &Tree, input: &Input) -> Report {
    match analyze(tree, input).expect("a shared input is valid") {
        Step::Done(report) => *report,
        Step::Needs(needs) => panic!("a shared snapshot asks for {needs:?}"),
    }
}

fn json(report: &Report) -> String {
    serde_json::to_string(report).unwrap()
}

// ----- round trips -----------------------------------------------------------------------

#[test]
fn a_link_opens_to_the_shared_snapshot() {
    let (_, shared) = small();
    let link = encode_link(&shared, MADE);
    assert!(link.starts_with(&format!("{SHARE_FORMAT}.")), "{link}");
    assert!(link[2..]
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
    assert_eq!(
        encode_link(&shared, MADE),
        link,
        "the same snapshot, the same link"
    );
    let expected = json(&report_of(&shared.tree, &shared.input));
    for pasted in [
        link.clone(),
        format!("s={link}"),
        format!("#s={link}"),
        format!("https://memdiag.example/#s={link}"),
        format!("  {link}\n"),
    ] {
        let snapshot = decode_link(&pasted).expect("the link decodes");
        assert_eq!(snapshot.made, MADE);
        assert_eq!(snapshot.format, SHARE_FORMAT);
        assert_eq!(snapshot.input, shared.input);
        assert_eq!(json(&report_of(&snapshot.tree, &snapshot.input)), expected);
    }
}

#[test]
fn the_copy_says_whether_it_kept_the_text() {
    let (report, shared) = small();
    assert!(!decode_link(&encode_link(&shared, MADE)).unwrap().text_kept);
    let mut fixture = Fixture::parse(SMALL);
    fixture.analyze();
    let keep = SanitizeOptions {
        keep_text: true,
        ..SanitizeOptions::default()
    };
    let with_text = sanitize(&fixture.tree, &fixture.input, &report, &keep);
    assert!(
        decode_link(&encode_link(&with_text, MADE))
            .unwrap()
            .text_kept
    );
    assert!(open_share_zip(&to_zip(&with_text, MADE)).unwrap().text_kept);
}

#[test]
fn a_zip_opens_to_the_shared_snapshot() {
    let (_, shared) = small();
    let zip = to_zip(&shared, MADE);
    assert!(is_share_zip(&zip));
    assert_eq!(
        to_zip(&shared, MADE),
        zip,
        "the same snapshot, the same zip"
    );
    let snapshot = open_share_zip(&zip).expect("the zip opens");
    assert_eq!(snapshot.made, MADE);
    assert_eq!(snapshot.input, shared.input);
    assert_eq!(
        json(&report_of(&snapshot.tree, &snapshot.input)),
        json(&report_of(&shared.tree, &shared.input))
    );
    // A person who unzips it finds the files at their paths, without the root.
    let names = String::from_utf8_lossy(&zip).into_owned();
    assert!(names.contains("memdiag-share.json"));
    let project = &shared.paths["/home/alice/shop/CLAUDE.md"];
    assert!(names.contains(&project[1..]), "{project}");
}

#[test]
fn odd_files_survive_both_carriers() {
    // Windows paths, a file that is not UTF-8, a file shared by size only, one that could not
    // be read, and a finding made while the original was read.
    let mut tree = Tree::from_entries(
        &["C:/Users/bob/.claude", "C:/Users/bob"],
        [
            (
                "C:/Users/bob/.claude/CLAUDE.md",
                Some(b"caf\xe9 @notes.md @big.md\n".to_vec()),
                0,
            ),
            (
                "C:/Users/bob/.claude/notes.md",
                Some(b"\xef\xbb\xbfBOM first\r\n".to_vec()),
                0,
            ),
            ("C:/Users/bob/.claude/big.md", None, 70 * 1024 * 1024),
            ("C:/Users/bob/.claude/rules/r.md", None, 10),
        ]
        .into_iter()
        .map(|(path, bytes, size): (&str, Option<Vec<u8>>, u64)| Entry {
            path: path.to_owned(),
            size: bytes.as_ref().map_or(size, |b| b.len() as u64),
            bytes,
            modified: Some("2026-11-01T10:00:00".to_owned()),
        }),
    );
    tree.push_diagnostic(memdiag_core::Diagnostic::new(
        memdiag_core::report::Code::ZipEntryRejected,
        memdiag_core::Severity::Warning,
        Some("../secret.md"),
        "zip entry left out: the name holds a `..` segment",
    ));
    let input = Input {
        home: "C:/Users/bob".to_owned(),
        os: memdiag_core::report::Os::Windows,
        ..Input::default()
    };
    // The rule cannot be read; every other file was handed over with the tree.
    tree.set_contents(
        &VPath::new("C:/Users/bob/.claude/rules/r.md").unwrap(),
        Err("gone".to_owned()),
    );
    let report = report_of(&tree, &input);
    let shared = sanitize(&tree, &input, &report, &SanitizeOptions::default());
    assert!(
        shared.verify(&report).is_empty(),
        "{:?}",
        shared.verify(&report)
    );
    let expected = json(&report_of(&shared.tree, &shared.input));
    let from_link = decode_link(&encode_link(&shared, MADE)).unwrap();
    let from_zip = open_share_zip(&to_zip(&shared, MADE)).unwrap();
    for snapshot in [from_link, from_zip] {
        assert_eq!(json(&report_of(&snapshot.tree, &snapshot.input)), expected);
        let big = &shared.paths["C:/Users/bob/.claude/big.md"];
        let big = snapshot.tree.file(&VPath::new(big).unwrap());
        assert!(matches!(
            big.map(|f| (&f.contents, f.size)),
            Some((Contents::Unreadable(_), 73_400_320))
        ));
        assert_eq!(snapshot.tree.diagnostics().len(), 1);
        assert_eq!(snapshot.tree.diagnostics()[0].code, Code::ZipEntryRejected);
    }
    let payload = inspect_link(&encode_link(&shared, MADE)).unwrap();
    assert!(payload.contains("\"base64\":"), "{payload}");
    // Neither the read error's words nor the finding's message travel.
    assert!(
        !payload.contains("gone") && !payload.contains("left out"),
        "{payload}"
    );
}

#[test]
fn zip_entry_names_never_collide() {
    // A file where the manifest sits, and two roots that flatten to the same entry name.
    let mut fixture = Fixture::parse(
        r#"
        //@ mounts=/
        //- /home/alice/.claude/CLAUDE.md
        @/memdiag-share.json @/C/Users/x.md @C:/Users/x.md
        //- /memdiag-share.json
        {"format": 99}
        //- /C/Users/x.md
        unix
        //- C:/Users/x.md
        windows
        "#,
    );
    let report = fixture.analyze();
    let shared = sanitize(
        &fixture.tree,
        &fixture.input,
        &report,
        &SanitizeOptions::default(),
    );
    assert_eq!(shared.tree.len(), 4);
    let snapshot = open_share_zip(&to_zip(&shared, MADE)).expect("the zip opens");
    for (path, file) in shared.tree.files() {
        let opened = snapshot.tree.file(path).expect("every file is back");
        assert_eq!(opened.contents, file.contents, "{path}");
    }
    assert_eq!(
        json(&report_of(&snapshot.tree, &snapshot.input)),
        json(&report_of(&shared.tree, &shared.input))
    );
}

// ----- links made today keep opening -----------------------------------------------------

/// A link made from `SMALL` by format 1 (2026-11-30). Never regenerate it: if it stops
/// decoding to these figures, links people already sent have stopped opening.
const GOLDEN_LINK: &str = concat!(
    "1.rVTNjtMwEH4Vy1yWqomTdlktOYGgB0QrJH4O0FTIG7utl8SOYme3pSoSB94AcUW8Ao8EL8AjME6av1K2i0QUxb",
    "G_8cw333i8wXOVJdTgwO_jhDKOAzzwBmeO7ztD76V3P_AHgee9wX28VIlFiR0JXVJKYTHN1CWPTHed6KVKAYyUnI",
    "vFWyYyHMg8jvtYabCMhcxXAF_xTAslK8woRtfVJFG5NGA87cSb9TE4218mbhTTnMFswaVxEp6obE0yfiX4Nc8g0C",
    "HbHXFNHAs6BehY3qTcv7etQNyFMJbDXMTcktjglJrlXu5VgEfjh68ej9yEgSct3oN0p-eQJF9Zse6glX1C-eBDvU",
    "GbdczB3kJoauHZyUJJu3Q3lHjbvzHcwdzJZDR59vx1m8RgUJNwShIr1PqG8pahdB2kk-Jp491xQilpwgNUWYay5B",
    "egXNtZYVJycI-HPVaxA8metpOdrnbP7CSl68TmYKVFP758awvxH4i03NdUzryuMmadgjI7VyCMYmIuOAtQ1X3eoB",
    "EI1fW5lVKaGyPkQruXGtqrYnA-rBlsQolQiGlu1KSgPJL0IuYsxAEyWc77JV66m7DRKorhR1t4aiEL9npExaw55i",
    "G2yCyU26P0dge9ZuY3zFpH8YZEy27cucty6EZyzS_-VnkronWiA6Cts4gA9Z5rtGXcHMF_C6rfiTjWhPE0Vmvy4u",
    "mT8bhTbf9QH5TWoQQpo0ykBi6_oGm-4g_9-vr5e5vWMUJ_XjPDe201C68u-vnpI7zdAd5j3jsVriN0AhxzYQWnaQ",
    "p6N_X2t8UtKpk9pXCRzra_AQ",
);

#[test]
fn a_link_made_today_still_opens() {
    let snapshot = decode_link(GOLDEN_LINK).expect("a format-1 link decodes");
    assert_eq!(snapshot.format, 1);
    assert_eq!(snapshot.made, MADE);
    let report = report_of(&snapshot.tree, &snapshot.input);
    assert_text(
        &format!("{}\n{}", render(&report), render_diagnostics(&report)),
        GOLDEN_REPORT,
    );
    let f = &report.footprint;
    assert_eq!(
        (
            f.files,
            f.chars,
            f.bytes,
            f.utf16,
            f.always_loaded,
            f.tokens_estimate
        ),
        GOLDEN_FOOTPRINT
    );
}

/// What the golden link analyses to today. If a later release changes an analysis rule, these
/// may be updated; the link itself may not. (Updated when the core followed Claude Code
/// 2.1.328: a conditional rule and a sub-agent's memory are not part of every session, so
/// they are no longer counted, and every text is measured trimmed, as it is sent. Updated
/// again for sub-agents, issue 31: a definition without a `description` is no agent in
/// 2.1.328, so the reviewer's memory folder is nobody's. Updated when the pin moved to
/// 2.1.337: `MEMORY.md` is sent as quoted notes, 273 units of Claude Code's sentence and
/// `> ` before its one line, so the footprint grew by 275; and back by those 275 when the
/// footprint stopped counting Claude Code's own wording around the person's text as theirs.)
const GOLDEN_REPORT: &str = r#"
    User always ~/.claude/CLAUDE.md counted scope=user
      User import ~/.claude/style.md counted
      User link ~/.claude/gone.md [unresolved] (missing)
    Project always ~/shop/CLAUDE.md counted scope=project
    Project tree ~/shop/old/CLAUDE.md [excluded] scope=project
    Rules conditional ~/shop/.claude/rules/web.md scope=project paths=src/**/*.ts
    Auto Memory startup ~/.claude/projects/-home-ahaaa-shop/memory/MEMORY.md counted lines=1/1 utf16=39/39 cut=none first_dropped=none
      Auto Memory on-demand ~/.claude/projects/-home-ahaaa-shop/memory/payments.md
    Skills on-demand ~/shop/.claude/skills/deploy/SKILL.md counted scope=project skill=deploy
    Agent Memory startup ~/.claude/agent-memory/reviewer/MEMORY.md scope=user agent=reviewer lines=1/1 utf16=20/20 cut=none first_dropped=none

    unresolved-reference ~/.claude/CLAUDE.md:2
    agent-memory-orphan ~/.claude/agent-memory/reviewer
    claude-md-excluded ~/shop/old/CLAUDE.md
    "#;
const GOLDEN_FOOTPRINT: (u64, u64, u64, u64, u64, u64) = (4, 142, 161, 143, 3, 36);

#[test]
#[ignore = "prints a new golden link; run by hand only when a new format number is added"]
fn print_a_golden_link() {
    let (_, shared) = small();
    let link = encode_link(&shared, MADE);
    let snapshot = decode_link(&link).unwrap();
    let report = report_of(&snapshot.tree, &snapshot.input);
    let f = &report.footprint;
    println!("{link}");
    println!("{}\n{}", render(&report), render_diagnostics(&report));
    println!(
        "{:?}",
        (
            f.files,
            f.chars,
            f.bytes,
            f.utf16,
            f.always_loaded,
            f.tokens_estimate
        )
    );
}

// ----- hostile input ---------------------------------------------------------------------

/// What a case expects of the error.
type Expect = fn(&ShareError) -> bool;

#[test]
fn garbage_is_an_error_not_a_panic() {
    let cases: &[(&str, Expect)] = &[
        ("", |e| matches!(e, ShareError::NotAShare(_))),
        ("hello", |e| matches!(e, ShareError::NotAShare(_))),
        ("1.", |e| matches!(e, ShareError::Corrupt(_))),
        ("1.!!!!", |e| matches!(e, ShareError::Corrupt(_))),
        ("1.A", |e| matches!(e, ShareError::Corrupt(_))),
        ("1.AAAA", |e| matches!(e, ShareError::Corrupt(_))),
        ("0.AAAA", |e| matches!(e, ShareError::NotAShare(_))),
        ("2.AAAA", |e| *e == ShareError::NewerFormat(2)),
        ("99999999999999.AAAA", |e| {
            matches!(e, ShareError::NotAShare(_))
        }),
        ("x.AAAA", |e| matches!(e, ShareError::NotAShare(_))),
        ("#s=", |e| matches!(e, ShareError::NotAShare(_))),
    ];
    for (link, expected) in cases {
        match decode_link(link) {
            Ok(_) => panic!("{link:?} decoded"),
            Err(error) => assert!(expected(&error), "{link:?}: {error}"),
        }
    }
    // Every cut and every changed character of a real link.
    let (_, shared) = small();
    let link = encode_link(&shared, MADE);
    for cut in 0..link.len() {
        assert!(
            decode_link(&link[..cut]).is_err(),
            "a link cut at {cut} decoded"
        );
    }
    let alphabet = b"AZaz09-_.=";
    for at in 0..link.len() {
        for &c in alphabet {
            let mut bytes = link.clone().into_bytes();
            bytes[at] = c;
            let _ = decode_link(&String::from_utf8(bytes).unwrap());
        }
    }
}

/// Raw deflate, written by hand so the test needs no compressor: stored blocks for a chosen
/// payload, or one fixed-Huffman block of back-references for a bomb.
struct Deflate {
    bytes: Vec<u8>,
    bit: u32,
}

impl Deflate {
    fn new() -> Deflate {
        Deflate {
            bytes: Vec::new(),
            bit: 0,
        }
    }

    /// Writes `count` bits of `value`, least significant first (headers, extra bits).
    fn bits(&mut self, value: u32, count: u32) {
        for i in 0..count {
            if self.bit == 0 {
                self.bytes.push(0);
            }
            let last = self.bytes.len() - 1;
            self.bytes[last] |= (((value >> i) & 1) as u8) << self.bit;
            self.bit = (self.bit + 1) % 8;
        }
    }

    /// Writes a Huffman code, most significant bit first.
    fn code(&mut self, code: u32, count: u32) {
        for i in (0..count).rev() {
            self.bits((code >> i) & 1, 1);
        }
    }

    /// A payload as stored (uncompressed) blocks.
    fn stored(data: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        let chunks: Vec<&[u8]> = data.chunks(65_535).collect();
        for (index, chunk) in chunks.iter().enumerate() {
            out.push(u8::from(index + 1 == chunks.len()));
            let len = chunk.len() as u16;
            out.extend_from_slice(&len.to_le_bytes());
            out.extend_from_slice(&(!len).to_le_bytes());
            out.extend_from_slice(chunk);
        }
        if chunks.is_empty() {
            out.extend_from_slice(&[1, 0, 0, 0xff, 0xff]);
        }
        out
    }

    /// One space, then copies of it: about 258 bytes out for every 13 bits in.
    fn bomb(inflated: usize) -> Vec<u8> {
        let mut d = Deflate::new();
        d.bits(1, 1); // The last block.
        d.bits(1, 2); // Fixed Huffman codes.
        d.code(0x30 + u32::from(b' '), 8); // The literal.
        for _ in 0..inflated / 258 {
            d.code(0b1100_0101, 8); // Length 258.
            d.code(0, 5); // Distance 1.
        }
        d.code(0, 7); // End of block.
        d.bytes
    }
}

/// A link carrying `json` as it is.
fn link_of(json: &str) -> String {
    format!(
        "1.{}",
        memdiag_tests::base64(&Deflate::stored(json.as_bytes()), true)
    )
}

#[test]
fn a_decompression_bomb_is_refused() {
    // 17 MiB from about 100 KB: over the 16 MiB a link may inflate to.
    let bomb = format!(
        "1.{}",
        memdiag_tests::base64(&Deflate::bomb(17 * 1024 * 1024), true)
    );
    assert!(bomb.len() < 200_000, "{}", bomb.len());
    match decode_link(&bomb) {
        Err(ShareError::TooLarge(why)) => assert!(why.contains("inflates"), "{why}"),
        other => panic!("the bomb was not refused: {other:?}"),
    }
    // The same within a small cap, and an over-long link before it is even read.
    let small_limits = ShareLimits {
        max_link_payload_bytes: 1000,
        ..ShareLimits::default()
    };
    let small_bomb = format!("1.{}", memdiag_tests::base64(&Deflate::bomb(10_000), true));
    assert!(matches!(
        decode_link_with(&small_bomb, &small_limits),
        Err(ShareError::TooLarge(_))
    ));
    let long = ShareLimits {
        max_link_chars: 10,
        ..ShareLimits::default()
    };
    assert!(matches!(
        decode_link_with(&small_bomb, &long),
        Err(ShareError::TooLarge(_))
    ));
}

#[test]
fn a_payload_is_checked_before_it_becomes_a_tree() {
    let base = r#""format":1,"made":"2026-11-30","home":"/home/a""#;
    let ok = |extra: &str| link_of(&format!("{{{base}{extra}}}"));
    // Fields a later writer may add are ignored; absent optional ones are null.
    let snapshot = decode_link(&ok(
        r#","future":[1,2],"files":[{"path":"/home/a/x.md","size":2,"text":"hi","later":true}]"#,
    ))
    .unwrap();
    assert_eq!(snapshot.input.project, None);
    let file = snapshot
        .tree
        .file(&VPath::new("/home/a/x.md").unwrap())
        .unwrap();
    assert_eq!(file.contents, Contents::Loaded(b"hi".to_vec()));
    let bad: &[(&str, &str)] = &[
        ("a relative path", r#","files":[{"path":"x.md","size":1}]"#),
        (
            "a path that climbs",
            r#","files":[{"path":"/../x.md","size":1}]"#,
        ),
        ("a relative home", r#","project":"work""#),
        (
            "two kinds of contents",
            r#","files":[{"path":"/a","size":1,"text":"a","base64":"YQ"}]"#,
        ),
        (
            "bad base64",
            r#","files":[{"path":"/a","size":1,"base64":"*"}]"#,
        ),
        (
            "a zip entry in a link",
            r#","files":[{"path":"/a","size":1,"entry":"a"}]"#,
        ),
        ("a bad mount", r#","mounts":["nowhere"]"#),
        ("a wrong type", r#","files":{}"#),
    ];
    for (what, extra) in bad {
        assert!(
            matches!(decode_link(&ok(extra)), Err(ShareError::Corrupt(_))),
            "{what} was accepted"
        );
    }
    for (what, json) in [
        ("no home", r#"{"format":1,"made":"x"}"#.to_owned()),
        (
            "a made that is not a date",
            format!(r#"{{"format":1,"made":"{}","home":"/h"}}"#, "x".repeat(100)),
        ),
        (
            "a control character",
            r#"{"format":1,"made":"a\u001b[2J","home":"/h"}"#.to_owned(),
        ),
        (
            "a format that disagrees",
            r#"{"format":2,"made":"x","home":"/h"}"#.to_owned(),
        ),
        ("not JSON", "{\"format\":1,".to_owned()),
    ] {
        assert!(
            matches!(decode_link(&link_of(&json)), Err(ShareError::Corrupt(_))),
            "{what}"
        );
    }
    let many = format!(
        "{{{base},\"files\":[{}]}}",
        [r#"{"path":"/h/x","size":1}"#; 10].join(",")
    );
    let few = ShareLimits {
        max_files: 9,
        ..ShareLimits::default()
    };
    assert!(matches!(
        decode_link_with(&link_of(&many), &few),
        Err(ShareError::TooLarge(_))
    ));
}

#[test]
fn numbers_and_repeats_are_refused_with_their_reason() {
    let base = r#""format":1,"made":"2026-11-30","home":"/home/a""#;
    let refusal = |extra: &str| match decode_link(&link_of(&format!("{{{base}{extra}}}"))) {
        Err(ShareError::Corrupt(why)) => why,
        other => panic!("{extra} was not refused as damaged: {other:?}"),
    };
    // Issue 30: a quoted length of u64::MAX wrapped the skills listing's count.
    let why = refusal(&format!(
        r#","files":[{{"path":"/home/a/x.md","size":1}}],"quoted":{{"/home/a/x.md":{}}}"#,
        u64::MAX
    ));
    assert!(
        why.contains("quoted length") && why.contains("at most 131,072"),
        "{why}"
    );
    let why = refusal(&format!(r#","quoted":{{"s":[1,1,{},1]}}"#, u64::MAX));
    assert!(why.contains("quoted length"), "{why}");
    let why = refusal(&format!(
        r#","files":[{{"path":"/home/a/big.jsonl","size":{}}}]"#,
        u64::MAX
    ));
    assert!(
        why.contains("/home/a/big.jsonl") && why.contains("more than a file can hold"),
        "{why}"
    );
    let why = refusal(&format!(
        r#","findings":[{{"code":"zip-entry-rejected","severity":"warning","line":{}}}]"#,
        u64::MAX
    ));
    assert!(why.contains("line"), "{why}");
    // The later copy of a path used to replace the earlier one silently.
    let why = refusal(
        r#","files":[{"path":"/home/a/x.md","text":"one"},{"path":"/home/a/x.md","text":"two"}]"#,
    );
    assert_eq!(why, "/home/a/x.md is listed twice");
    // Two spellings of one path are one path.
    let why =
        refusal(r#","files":[{"path":"/home/a/x.md","size":1},{"path":"/home/a//x.md","size":1}]"#);
    assert!(why.contains("listed twice"), "{why}");
    // A body that is not base64url says which file and what is wrong.
    let why = refusal(r#","files":[{"path":"/home/a/x.bin","base64":"YW*x"}]"#);
    assert_eq!(
        why,
        "the bytes of /home/a/x.bin do not read: character 3 ('*') is not base64url"
    );
    let why = refusal(r#","files":[{"path":"/home/a/x.bin","base64":"YWJjZ"}]"#);
    assert!(
        why.starts_with("the bytes of /home/a/x.bin do not read: its length"),
        "{why}"
    );
    // The largest sizes a file can have, and long real names, still open.
    let snapshot = decode_link(&link_of(&format!(
        "{{{base},\"files\":[{{\"path\":\"/home/a/big.jsonl\",\"size\":{}}}],\"quoted\":{{\"/home/a/big.jsonl\":[4096,4096,4096,4096]}}}}",
        ShareLimits::default().max_file_bytes
    )))
    .unwrap();
    assert_eq!(snapshot.tree.len(), 1);
}

/// Replaces every occurrence of `from` in the zip's bytes (local and central headers).
fn patch(bytes: &[u8], from: &str, to: &str) -> Vec<u8> {
    assert_eq!(from.len(), to.len());
    let mut out = bytes.to_vec();
    let mut at = 0;
    let mut found = 0;
    while let Some(i) = out[at..]
        .windows(from.len())
        .position(|w| w == from.as_bytes())
    {
        out[at + i..at + i + from.len()].copy_from_slice(to.as_bytes());
        at += i + from.len();
        found += 1;
    }
    assert!(found > 0, "{from} is not in the zip");
    out
}

#[test]
fn a_hostile_zip_is_an_error_not_a_panic() {
    let (_, shared) = small();
    let zip = to_zip(&shared, MADE);
    assert!(!is_share_zip(b"not a zip"));
    assert!(matches!(
        open_share_zip(b"not a zip"),
        Err(ShareError::NotAShare(_))
    ));
    // An ordinary snapshot zip: no manifest.
    let ordinary = patch(&zip, "memdiag-share.json", "memdiag-share.jsox");
    assert!(!is_share_zip(&ordinary));
    assert!(matches!(
        open_share_zip(&ordinary),
        Err(ShareError::NotAShare(_))
    ));
    // The manifest names an entry the archive does not hold.
    let renamed = patch(&zip, "shop/CLAUDE.md", "shop/CLAUDE.mx");
    assert!(
        matches!(open_share_zip(&renamed), Err(ShareError::Corrupt(_))),
        "{:?}",
        open_share_zip(&renamed)
    );
    // A manifest over the limit.
    let tight = ShareLimits {
        max_payload_bytes: 100,
        ..ShareLimits::default()
    };
    assert!(matches!(
        open_share_zip_with(&zip, &tight),
        Err(ShareError::TooLarge(_))
    ));
    let entry_cap = ShareLimits {
        zip: ZipLimits {
            max_total_bytes: 64,
            ..ZipLimits::default()
        },
        ..ShareLimits::default()
    };
    assert!(open_share_zip_with(&zip, &entry_cap).is_err());
    for cut in (0..zip.len()).step_by(7) {
        assert!(
            open_share_zip(&zip[..cut]).is_err(),
            "a zip cut at {cut} opened"
        );
    }
    for at in 0..zip.len() {
        let mut bytes = zip.clone();
        bytes[at] ^= 0x55;
        let _ = open_share_zip(&bytes);
    }
}

// ----- what a receiver can ask -----------------------------------------------------------

/// A Read below a folder with skills of its own announces them, quoting the skill's listed
/// name once and the folder twice: a shared snapshot, whose pseudonyms have other lengths,
/// counts them at the lengths the original's Read sent.
#[test]
fn a_read_of_a_shared_snapshot_costs_what_the_original_read_costs() {
    let mut fixture = Fixture::parse(
        r#"
        //@ project=/home/alice/shop mounts=/home/alice
        //- /home/alice/shop/CLAUDE.md
        Use pnpm.
        //- /home/alice/shop/packages/storefront-ui/CLAUDE.md
        UI rules.
        //- /home/alice/shop/packages/storefront-ui/.claude/skills/component-review/SKILL.md
        ---
        name: component-review
        description: Reviews a component before it ships
        ---
        Steps.
        //- /home/alice/shop/packages/storefront-ui/src/button.tsx
        export {};
        "#,
    );
    fixture.input.reads = vec!["/home/alice/shop/packages/storefront-ui/src/button.tsx".into()];
    let report = fixture.analyze();
    let original = &report.reads[0];
    assert_eq!(original.skills.len(), 1, "{original:?}");
    assert_eq!(original.files.len(), 1, "{original:?}");

    let shared = sanitize(
        &fixture.tree,
        &fixture.input,
        &report,
        &SanitizeOptions::default(),
    );
    let folder = shared.paths["/home/alice/shop/packages/storefront-ui/CLAUDE.md"]
        .strip_suffix("/CLAUDE.md")
        .expect("a file keeps its name")
        .to_owned();
    assert!(
        !folder.ends_with("/storefront-ui") && folder.len() != 34,
        "the folder is renamed to another length: {folder}"
    );
    let mut input = shared.input.clone();
    input.reads = vec![format!("{folder}/src/button.tsx")];
    let read = &report_of(&shared.tree, &input).reads[0];
    assert_eq!(read.skills.len(), 1, "{read:?}");
    assert_ne!(read.skills, original.skills, "the announcement is renamed");
    assert_eq!(read.cost, original.cost, "{read:?}\n{original:?}");
}

/// Rules named so that their pseudonyms cannot sort as they did: `memo.md` and `zeta.md`
/// around the kept `memory.md` (a pseudonym never starts as its name does, so none of them
/// can stay between `md` and `memory`). The rules load in the order the folder lists them.
const ORDER: &str = r#"
    //@ project=/home/alice/shop mounts=/home/alice
    //- /home/alice/shop/.claude/rules/alpha.md
    Alpha.
    //- /home/alice/shop/.claude/rules/memo.md
    Memo.
    //- /home/alice/shop/.claude/rules/memory.md
    Memory.
    //- /home/alice/shop/.claude/rules/zeta.md
    Zeta.
    "#;

#[test]
fn the_original_order_travels_with_the_snapshot() {
    let mut fixture = Fixture::parse(ORDER);
    let report = fixture.analyze();
    let shared = sanitize(
        &fixture.tree,
        &fixture.input,
        &report,
        &SanitizeOptions::default(),
    );
    assert!(shared.warnings.is_empty(), "{:?}", shared.warnings);
    assert_eq!(shared.verify(&report), Vec::<String>::new());
    let rows = |report: &Report| -> Vec<String> {
        report.files.iter().map(|row| row.path.clone()).collect()
    };
    let expected: Vec<String> = rows(&report)
        .iter()
        .map(|path| shared.pseudonym(path))
        .collect();
    let link = encode_link(&shared, MADE);
    let opened = decode_link(&link).unwrap();
    assert_eq!(rows(&report_of(&opened.tree, &opened.input)), expected);
    // The order is what keeps them: without it the shared names' byte order lists the rules
    // otherwise.
    let mut payload: serde_json::Value =
        serde_json::from_str(&inspect_link(&link).unwrap()).unwrap();
    let order = payload
        .as_object_mut()
        .unwrap()
        .remove("order")
        .expect("the payload carries the order");
    assert_eq!(order.as_object().map(|o| o.len()), Some(1), "{order}");
    let unordered = decode_link(&link_of(&payload.to_string())).unwrap();
    assert_ne!(
        rows(&report_of(&unordered.tree, &unordered.input)),
        expected
    );
}

/// A shared snapshot opened and shared again keeps its original's order, whole or from the
/// page's basis.
#[test]
fn a_share_shared_again_keeps_the_order() {
    let mut fixture = Fixture::parse(ORDER);
    let report = fixture.analyze();
    let shared = sanitize(
        &fixture.tree,
        &fixture.input,
        &report,
        &SanitizeOptions::default(),
    );
    let opened = decode_link(&encode_link(&shared, MADE)).unwrap();
    let opened_report = report_of(&opened.tree, &opened.input);
    for (what, tree) in [
        ("whole", opened.tree.clone()),
        ("basis", basis(&opened.tree, &opened_report)),
    ] {
        let again = sanitize(
            &tree,
            &opened.input,
            &opened_report,
            &SanitizeOptions::default(),
        );
        assert_eq!(again.verify(&opened_report), Vec::<String>::new(), "{what}");
        assert!(again.warnings.is_empty(), "{what}: {:?}", again.warnings);
    }
}

#[test]
fn an_order_that_is_not_one_is_refused() {
    let files = r#""files":[{"path":"/h/a.md","size":1},{"path":"/h/b.md","size":1},{"path":"/h/c/d.md","size":1}]"#;
    let link = |order: &str| {
        link_of(&format!(
            r#"{{"format":1,"made":"x","home":"/h",{files},"order":{{{order}}}}}"#
        ))
    };
    // An order of the three entries of `/h` (`a.md`, `b.md`, the folder `c`) is followed.
    let snapshot = decode_link(&link(r#""/h":[2,1,0]"#)).unwrap();
    let listed: Vec<&str> = snapshot
        .tree
        .files()
        .map(|(path, _)| path.as_str())
        .collect();
    assert_eq!(listed, ["/h/c/d.md", "/h/b.md", "/h/a.md"]);
    let many = format!(r#""/h":[{}]"#, vec!["0"; 100_000].join(","));
    for (what, order) in [
        ("a repeated entry", r#""/h":[0,0,1]"#),
        ("an entry left out", r#""/h":[0,1]"#),
        ("an entry too many", r#""/h":[0,1,2,3]"#),
        ("a position past the end", r#""/h":[0,1,7]"#),
        ("a folder the snapshot lacks", r#""/elsewhere":[0]"#),
        ("a relative folder", r#""h":[]"#),
        ("not positions", r#""/h":["a.md","b.md","c"]"#),
        ("a hundred thousand positions", many.as_str()),
    ] {
        match decode_link(&link(order)) {
            Err(ShareError::Corrupt(why)) => {
                assert!(
                    why.contains("order") || why.contains("path") || why.contains("does not read"),
                    "{what}: {why}"
                )
            }
            other => panic!("{what} was accepted: {other:?}"),
        }
    }
}

/// Five user skills whose folder the source listed unsorted, as a native `read_dir` or a
/// zip records it, with descriptions too long for the budget to keep them all.
fn skills_listed_unsorted(version: &str) -> Fixture {
    let mut text = String::from("//@ project=/home/alice/app mounts=/home/alice\n");
    for name in ["alpha", "bravo", "charlie", "delta", "echo"] {
        text.push_str(&format!(
            "//- /home/alice/.claude/skills/{name}/SKILL.md\n---\ndescription: {name} {}\n---\nbody\n",
            "word ".repeat(40).trim_end()
        ));
    }
    let mut fixture = Fixture::parse(&text);
    fixture.input.version = Some(version.to_owned());
    fixture.input.skill_listing_budget_env = Some("3000".to_owned());
    fixture.tree.set_listing_order(
        VPath::new("/home/alice/.claude/skills").unwrap(),
        ["delta", "alpha", "echo", "bravo", "charlie"]
            .map(str::to_owned)
            .to_vec(),
    );
    fixture
}

/// Releases 2.1.113 to 2.1.153 list skills in the order the source recorded; a shared
/// snapshot carries that order, so its listing, and which descriptions fit the budget, stay
/// the original's. Without it the receiver lists them by name and says the order is unknown.
#[test]
fn a_recorded_skills_order_travels_with_the_snapshot() {
    let mut fixture = skills_listed_unsorted("2.1.139");
    let report = fixture.analyze();
    assert!(!report
        .diagnostics
        .iter()
        .any(|d| d.code == Code::SkillOrderUnknown));
    for options in [
        SanitizeOptions::default(),
        SanitizeOptions {
            keep_file_names: true,
            ..SanitizeOptions::default()
        },
    ] {
        let shared = sanitize(&fixture.tree, &fixture.input, &report, &options);
        assert_eq!(shared.differences, Vec::<String>::new(), "{options:?}");
        let expected: Vec<String> = report
            .session
            .skills
            .iter()
            .map(|line| line.split(':').next().unwrap_or("").to_owned())
            .collect();
        let link = encode_link(&shared, MADE);
        let opened = decode_link(&link).unwrap();
        let opened_report = report_of(&opened.tree, &opened.input);
        assert!(
            !opened_report
                .diagnostics
                .iter()
                .any(|d| d.code == Code::SkillOrderUnknown),
            "{options:?}"
        );
        let names = |report: &Report| -> Vec<usize> {
            // Where each listed skill stands among the rows: the same rows, renamed.
            report
                .session
                .skills
                .iter()
                .filter_map(|line| {
                    let name = line.split(':').next().unwrap_or("");
                    report
                        .files
                        .iter()
                        .position(|row| row.skill_name.as_deref() == Some(name))
                })
                .collect()
        };
        assert_eq!(names(&opened_report), names(&report), "{options:?}");
        assert_eq!(opened_report.session.skills.len(), expected.len());
        // Shared again from the page's basis, the order stays.
        let again = sanitize(
            &basis(&opened.tree, &opened_report),
            &opened.input,
            &opened_report,
            &options,
        );
        assert_eq!(again.differences, Vec::<String>::new(), "{options:?}");
        // The payload's `listing_order` is what keeps it.
        let mut payload: serde_json::Value =
            serde_json::from_str(&inspect_link(&link).unwrap()).unwrap();
        payload
            .as_object_mut()
            .unwrap()
            .remove("listing_order")
            .expect("the payload carries the listing order");
        let unordered = decode_link(&link_of(&payload.to_string())).unwrap();
        let unordered_report = report_of(&unordered.tree, &unordered.input);
        assert!(unordered_report
            .diagnostics
            .iter()
            .any(|d| d.code == Code::SkillOrderUnknown));
    }
}

#[test]
fn a_listing_order_that_is_not_one_is_refused() {
    let files =
        r#""files":[{"path":"/h/s/a/SKILL.md","size":1},{"path":"/h/s/b/SKILL.md","size":1}]"#;
    let link = |order: &str| {
        link_of(&format!(
            r#"{{"format":1,"made":"x","home":"/h",{files},"listing_order":{{{order}}}}}"#
        ))
    };
    let snapshot = decode_link(&link(r#""/h/s":[1,0]"#)).unwrap();
    assert_eq!(
        snapshot.tree.listing_order(&VPath::new("/h/s").unwrap()),
        Some(["b".to_owned(), "a".to_owned()].as_slice())
    );
    // The source may have listed entries the snapshot does not keep.
    assert!(decode_link(&link(r#""/h/s":[1]"#)).is_ok());
    let many = format!(r#""/h/s":[{}]"#, vec!["0"; 100_000].join(","));
    for (what, order) in [
        ("a repeated entry", r#""/h/s":[0,0]"#),
        ("a position past the end", r#""/h/s":[0,7]"#),
        ("a folder the snapshot lacks", r#""/elsewhere":[0]"#),
        ("a relative folder", r#""h":[]"#),
        ("not positions", r#""/h/s":["a","b"]"#),
        ("a hundred thousand positions", many.as_str()),
    ] {
        match decode_link(&link(order)) {
            Err(ShareError::Corrupt(why)) => assert!(
                why.contains("order") || why.contains("path") || why.contains("does not read"),
                "{what}: {why}"
            ),
            other => panic!("{what} was accepted: {other:?}"),
        }
    }
}

/// A payload's texts sent twice must pair two files it lists; a payload without the field (as
/// one made before it) still decides by it: nothing was sent twice, whatever its
/// placeholders read alike.
#[test]
fn texts_sent_twice_that_name_no_file_are_refused() {
    let files = r#""files":[{"path":"/h/CLAUDE.md","size":1},{"path":"/h/p/CLAUDE.md","size":1}]"#;
    let link = |pairs: &str| {
        link_of(&format!(
            r#"{{"format":1,"made":"x","home":"/h",{files}{pairs}}}"#
        ))
    };
    let (later, earlier) = (
        VPath::new("/h/p/CLAUDE.md").unwrap(),
        VPath::new("/h/CLAUDE.md").unwrap(),
    );
    let snapshot =
        decode_link(&link(r#","sent_twice":{"/h/p/CLAUDE.md":"/h/CLAUDE.md"}"#)).unwrap();
    assert_eq!(
        snapshot.tree.sent_twice(),
        Some(&std::collections::BTreeMap::from([(later, earlier)]))
    );
    let before = decode_link(&link("")).unwrap();
    assert_eq!(
        before.tree.sent_twice(),
        Some(&std::collections::BTreeMap::new())
    );
    for (what, pairs) in [
        (
            "a file the snapshot lacks",
            r#","sent_twice":{"/h/q/CLAUDE.md":"/h/CLAUDE.md"}"#,
        ),
        (
            "an earlier file it lacks",
            r#","sent_twice":{"/h/p/CLAUDE.md":"/h/x.md"}"#,
        ),
        (
            "a relative path",
            r#","sent_twice":{"p/CLAUDE.md":"/h/CLAUDE.md"}"#,
        ),
        ("not a path", r#","sent_twice":{"/h/p/CLAUDE.md":7}"#),
    ] {
        match decode_link(&link(pairs)) {
            Err(ShareError::Corrupt(why)) => assert!(
                why.contains("sent twice") || why.contains("path") || why.contains("does not read"),
                "{what}: {why}"
            ),
            other => panic!("{what} was accepted: {other:?}"),
        }
    }
}

/// A file's stand-ins name the targets its text writes at their original's length; the
/// receiver follows them, and refuses ones its text does not hold or that name no path.
#[test]
fn stand_ins_that_are_not_the_texts_are_refused() {
    let link = |stand_ins: &str| {
        link_of(&format!(
            r#"{{"format":1,"made":"x","home":"/h","mounts":["/h"],"files":[
                {{"path":"/h/.claude/CLAUDE.md","text":"@xxxxa\n","stand_ins":{{{stand_ins}}}}},
                {{"path":"/h/.claude/b.md","text":"B."}}]}}"#
        ))
    };
    // `@xxxxa` stands for `b.md`: the import loads it.
    let snapshot = decode_link(&link(r#""xxxxa":"b.md""#)).unwrap();
    let Step::Done(report) = analyze(&snapshot.tree, &snapshot.input).unwrap() else {
        panic!("asks for more")
    };
    let row = report.files.iter().find(|r| r.path == "/h/.claude/b.md");
    assert!(row.is_some_and(|r| r.depth == 1), "{:#?}", report.files);
    let long = format!(r#""xxxxa":"{}""#, "a/".repeat(3000));
    for (what, stand_ins) in [
        ("a stand-in the text lacks", r#""xxxxb":"b.md""#),
        (
            "a stand-in for a control character",
            r#""xxxxa":"b\u0000.md""#,
        ),
        ("a target longer than any path", long.as_str()),
    ] {
        match decode_link(&link(stand_ins)) {
            Err(ShareError::Corrupt(why)) => assert!(why.contains("stand-in"), "{what}: {why}"),
            other => panic!("{what} was accepted: {other:?}"),
        }
    }
    // What a frontmatter's stand-in stands for is what the analysis matches: it counts
    // against the caps as if it were written there.
    let bomb = link_of(&format!(
        r#"{{"format":1,"made":"x","home":"/h","project":"/h/p","files":[
            {{"path":"/h/p/.claude/rules/r.md","text":"---\npaths: xxxxa\n---\nR.\n",
              "stand_ins":{{"xxxxa":"{}"}}}}]}}"#,
        "{a,b}".repeat(40)
    ));
    match decode_link(&bomb) {
        Err(ShareError::Refused(why)) => assert!(why.contains("braces"), "{why}"),
        other => panic!("a brace bomb behind a stand-in was accepted: {other:?}"),
    }
    let unread = link_of(
        r#"{"format":1,"made":"x","home":"/h","files":[
            {"path":"/h/a.md","size":3,"stand_ins":{"x":"b.md"}}]}"#,
    );
    assert!(
        matches!(decode_link(&unread), Err(ShareError::Corrupt(why)) if why.contains("stand-ins")),
        "stand-ins on a file shared by size"
    );
}
