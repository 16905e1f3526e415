//! The release rules fitted from the captures, each on a small fixture at both sides of its
//! boundary, so that a rule that breaks fails here with a plain message (the conformance
//! replay proves the same against what each release sent).

use memdiag_core::report::{Code, Report};
use memdiag_core::SessionKind;
use memdiag_tests::Fixture;

fn analyze_as(version: Option<&str>, fixture: &str) -> Report {
    let mut fixture = Fixture::parse(fixture);
    fixture.input.version = version.map(str::to_owned);
    fixture.analyze()
}

/// The paths of the files a session sends, in order, under `version`'s rules.
fn sent_paths(version: Option<&str>, fixture: &str) -> Vec<String> {
    analyze_as(version, fixture)
        .session
        .files
        .iter()
        .map(|f| f.path.clone())
        .collect()
}

fn loaded_units(report: &Report, path: &str) -> u64 {
    let row = report
        .files
        .iter()
        .find(|r| r.path == path)
        .unwrap_or_else(|| panic!("no row {path}"));
    row.loaded.map_or(0, |m| m.utf16)
}

#[test]
fn instruction_files_are_trimmed_from_2_1_79_and_sent_whole_before() {
    let fixture = "//@ project=/home/alice/app\n//- /home/alice/app/CLAUDE.md\n\nbody\n\n";
    let path = "/home/alice/app/CLAUDE.md";
    // The file is `\nbody\n\n`: four units trimmed, seven whole.
    assert_eq!(loaded_units(&analyze_as(None, fixture), path), 4);
    assert_eq!(loaded_units(&analyze_as(Some("2.1.79"), fixture), path), 4);
    assert_eq!(loaded_units(&analyze_as(Some("2.1.78"), fixture), path), 7);
}

#[test]
fn comments_are_stripped_from_2_1_72_and_sent_as_written_before() {
    let fixture = "//@ project=/home/alice/app\n//- /home/alice/app/CLAUDE.md\n---\n\
                   description: x\n---\nkept\n<!-- a comment -->\n";
    let path = "/home/alice/app/CLAUDE.md";
    // Below the frontmatter: `kept\n<!-- a comment -->\n`, 24 units; stripped, `kept\n`.
    assert_eq!(loaded_units(&analyze_as(Some("2.1.72"), fixture), path), 5);
    assert_eq!(loaded_units(&analyze_as(Some("2.1.71"), fixture), path), 24);
    assert_eq!(loaded_units(&analyze_as(None, fixture), path), 4);
}

#[test]
fn an_index_the_caps_leave_whole_keeps_its_final_newline_before_2_1_79() {
    let index = "/home/alice/.claude/projects/-home-alice-app/memory/MEMORY.md";
    let fixture = format!("//@ project=/home/alice/app\n//- {index}\n- [a](a.md)\n");
    assert_eq!(
        loaded_units(&analyze_as(Some("2.1.79"), &fixture), index),
        11
    );
    assert_eq!(
        loaded_units(&analyze_as(Some("2.1.78"), &fixture), index),
        12
    );
}

#[test]
fn skill_listing_max_desc_chars_is_read_from_2_1_105() {
    let fixture = "//@ project=/home/alice/app\n\
                   //- /home/alice/.claude/settings.json\n{\"skillListingMaxDescChars\": 10}\n\
                   //- /home/alice/.claude/skills/s/SKILL.md\n---\n\
                   description: a description of thirty units\n---\nbody\n";
    let line = |version| analyze_as(version, fixture).session.skills[0].clone();
    // Ten units: nine and the ellipsis.
    assert_eq!(line(None), "s: a descrip…");
    assert_eq!(line(Some("2.1.105")), "s: a descrip…");
    assert_eq!(line(Some("2.1.104")), "s: a description of thirty units");
}

/// Forty skills of one long line each, Korean in it (two columns a character).
fn forty_long_skills(settings: &str) -> String {
    let mut fixture = String::from("//@ project=/home/alice/app\n");
    if !settings.is_empty() {
        fixture.push_str(&format!(
            "//- /home/alice/.claude/settings.json\n{settings}\n"
        ));
    }
    for i in 1..=40 {
        let description = format!("Skill {i:02} {}", "설명 description words ".repeat(60));
        fixture.push_str(&format!(
            "//- /home/alice/.claude/skills/budget-{i:02}/SKILL.md\n---\ndescription: {}\n---\nbody\n",
            description.trim_end()
        ));
    }
    fixture
}

fn kept_descriptions(report: &Report) -> usize {
    report
        .session
        .skills
        .iter()
        .filter(|l| l.contains(": "))
        .count()
}

#[test]
fn the_skills_listing_keeps_descriptions_while_they_fit_its_budget() {
    // 30,000 columns by default on the pin: the lines that compete for it start as names,
    // and each gets its description back in order while it still fits.
    let default = analyze_as(None, &forty_long_skills(""));
    let kept = kept_descriptions(&default);
    assert!((10..40).contains(&kept), "{kept} of 40 kept");
    assert!(default.session.skills[..kept]
        .iter()
        .all(|l| l.contains(": ")));
    assert!(default.session.skills[kept..]
        .iter()
        .all(|l| !l.contains(": ")));
    // Twice the fraction, twice the room.
    let doubled = analyze_as(
        None,
        &forty_long_skills("{\"skillListingBudgetFraction\": 0.02}"),
    );
    assert!(kept_descriptions(&doubled) > 2 * kept - 2);
    // 2.1.277 had the same 30,000 columns, so it too lists the rest by name.
    let older = analyze_as(Some("2.1.277"), &forty_long_skills(""));
    assert!((10..40).contains(&kept_descriptions(&older)));
}

#[test]
fn the_managed_settings_inline_instructions_are_sent_from_2_1_139_and_ignored_before() {
    let fixture = "//@ project=/home/alice/app mounts=/home/alice,/etc/claude-code\n\
                   //- /etc/claude-code/managed-settings.json\n{\"claudeMd\": \"Never push to main\"}\n\
                   //- /home/alice/app/CLAUDE.md\napp\n";
    let sent = |version| sent_paths(version, fixture);
    let inline = "<managed-settings>".to_owned();
    assert!(sent(None).contains(&inline), "{:?}", sent(None));
    assert!(sent(Some("2.1.139")).contains(&inline));
    assert!(
        !sent(Some("2.1.138")).contains(&inline),
        "{:?}",
        sent(Some("2.1.138"))
    );
    assert!(sent(Some("2.1.138")).contains(&"/home/alice/app/CLAUDE.md".to_owned()));
}

#[test]
fn a_skill_named_otherwise_than_its_folder_shows_both_from_2_1_290() {
    let fixture = "//@ project=/home/alice/app\n\
                   //- /home/alice/.claude/skills/folder/SKILL.md\n---\n\
                   name: other\ndescription: d\n---\nbody\n";
    let line = |version| analyze_as(version, fixture).session.skills[0].clone();
    assert_eq!(line(None), "folder (other): d");
    assert_eq!(line(Some("2.1.290")), "folder (other): d");
    assert_eq!(line(Some("2.1.289")), "folder: d");
}

#[test]
fn a_byte_order_mark_hides_frontmatter_before_2_1_239() {
    let fixture = "//@ project=/home/alice/app\n//- /home/alice/app/CLAUDE.md\n\
                   \u{feff}---\ndescription: d\n---\nbody\n";
    let path = "/home/alice/app/CLAUDE.md";
    // From 2.1.239 the mark goes and the frontmatter with it: `body`.
    assert_eq!(loaded_units(&analyze_as(None, fixture), path), 4);
    assert_eq!(loaded_units(&analyze_as(Some("2.1.239"), fixture), path), 4);
    // Before, the mark stays, the frontmatter is text, and trimming takes the mark.
    assert_eq!(
        loaded_units(&analyze_as(Some("2.1.238"), fixture), path),
        "---\ndescription: d\n---\nbody".len() as u64
    );
}

#[test]
fn untrimmed_sessions_make_crlf_lf_where_a_comment_was_stripped_from_2_1_72() {
    let path = "/home/alice/app/CLAUDE.md";
    let commented = "//@ project=/home/alice/app\n//- /home/alice/app/CLAUDE.md\n\
                     a\r\n<!-- c -->\r\nb\r\n";
    // 2.1.78 strips the comment line and sends `a\nb\n` untrimmed; 2.1.71 sends it all.
    assert_eq!(
        loaded_units(&analyze_as(Some("2.1.78"), commented), path),
        4
    );
    assert_eq!(
        loaded_units(&analyze_as(Some("2.1.71"), commented), path),
        "a\r\n<!-- c -->\r\nb\r\n".len() as u64
    );
    assert_eq!(loaded_units(&analyze_as(None, commented), path), 3);
    // Without a comment the Markdown lexer never runs: CRLF stays.
    let plain = "//@ project=/home/alice/app\n//- /home/alice/app/CLAUDE.md\na\r\nb\r\n";
    assert_eq!(loaded_units(&analyze_as(Some("2.1.78"), plain), path), 6);
}

#[test]
fn a_file_of_comments_alone_is_sent_before_2_1_72() {
    let fixture = "//@ project=/home/alice/app\n//- /home/alice/app/CLAUDE.md\n<!-- only -->\n\
                   //- /home/alice/app/CLAUDE.local.md\n  \n\t\n";
    let sent = |version| sent_paths(version, fixture);
    // From 2.1.72 the comment goes and nothing is left; before, it was sent as written.
    assert!(sent(None).is_empty());
    assert!(sent(Some("2.1.72")).is_empty());
    // A file of white space alone was never sent.
    assert_eq!(sent(Some("2.1.71")), ["/home/alice/app/CLAUDE.md"]);
}

const INDEX: &str = "/home/alice/.claude/projects/-home-alice-app/memory/MEMORY.md";

#[test]
fn a_whole_index_loses_the_blank_lines_after_its_frontmatter_before_2_1_79() {
    let fixture =
        format!("//@ project=/home/alice/app\n//- {INDEX}\n---\ntype: index\n---\n\n\n- a\n");
    // `- a\n`, untrimmed; from 2.1.79 trimmed to `- a`.
    assert_eq!(
        loaded_units(&analyze_as(Some("2.1.78"), &fixture), INDEX),
        4
    );
    assert_eq!(
        loaded_units(&analyze_as(Some("2.1.71"), &fixture), INDEX),
        4
    );
    assert_eq!(
        loaded_units(&analyze_as(Some("2.1.79"), &fixture), INDEX),
        3
    );
}

#[test]
fn an_index_is_cut_at_200_lines_with_its_comments_before_2_1_72() {
    let mut index = String::from("<!--\n");
    for i in 0..30 {
        index.push_str(&format!("comment {i}\n"));
    }
    index.push_str("-->\n");
    for i in 0..190 {
        index.push_str(&format!("- line {i}\n"));
    }
    let fixture = format!("//@ project=/home/alice/app\n//- {INDEX}\n{index}");
    let lines = |version| {
        let report = analyze_as(version, &fixture);
        let row = report
            .files
            .iter()
            .find(|r| r.path == INDEX)
            .expect("index row");
        row.truncation.as_ref().map(|t| t.loaded_lines)
    };
    // From 2.1.72 the comment goes first and 190 lines fit; before, it counts.
    assert_eq!(lines(Some("2.1.72")), Some(190));
    assert_eq!(lines(Some("2.1.71")), Some(200));
}

#[test]
fn an_import_after_a_block_comment_is_followed_from_2_1_72() {
    let fixture = "//@ project=/home/alice/app\n//- /home/alice/app/CLAUDE.md\n\
                   <!-- x --> @after.md\n//- /home/alice/app/after.md\nafter\n";
    let sent = |version| sent_paths(version, fixture);
    let after = "/home/alice/app/after.md".to_owned();
    // From 2.1.72 the comment is stripped first and the text after it is scanned; before,
    // the line was an HTML block, which holds no imports.
    assert!(sent(None).contains(&after));
    assert!(sent(Some("2.1.72")).contains(&after));
    assert!(!sent(Some("2.1.71")).contains(&after));
}

#[test]
fn two_globstar_items_make_a_conditional_rule_before_2_1_84() {
    let fixture = "//@ project=/home/alice/app\n//- /home/alice/app/.claude/rules/r.md\n---\n\
                   paths:\n  - \"**\"\n  - \"**\"\n---\nrule\n";
    let load = |version| {
        let report = analyze_as(version, fixture);
        let row = report
            .files
            .iter()
            .find(|r| r.path == "/home/alice/app/.claude/rules/r.md")
            .expect("rule row")
            .clone();
        row.load
    };
    use memdiag_core::report::LoadType;
    // From 2.1.84 the list is two `**`: the rule loads at startup; before, the one pattern
    // `****` made it conditional.
    assert_eq!(load(None), LoadType::Always);
    assert_eq!(load(Some("2.1.84")), LoadType::Always);
    assert_eq!(load(Some("2.1.83")), LoadType::Conditional);
}

// ----- Files: the size cap, nested worktrees and links ----------------------------------

/// `fixture` analysed under `version`, with `links` recorded as a scan of the disk records
/// them (`(link, target)`).
fn analyze_linked(version: Option<&str>, fixture: &str, links: &[(&str, &str)]) -> Report {
    let mut fixture = Fixture::parse(fixture);
    for (link, target) in links {
        fixture.tree.add_link(
            memdiag_core::VPath::new(link).expect("absolute"),
            memdiag_core::VPath::new(target).expect("absolute"),
        );
    }
    fixture.input.version = version.map(str::to_owned);
    fixture.analyze()
}

fn session_paths(report: &Report) -> Vec<String> {
    report
        .session
        .files
        .iter()
        .map(|f| f.path.clone())
        .collect()
}

#[test]
fn a_file_over_4_mib_is_skipped_from_2_1_196_and_sent_whole_before() {
    // 4.2 MB of short lines: over the cap in bytes and in characters alike.
    let body = "forty-two characters of plain instruction\n".repeat(100_000);
    let fixture = format!("//@ project=/home/alice/app\n//- /home/alice/app/CLAUDE.md\n{body}");
    let path = "/home/alice/app/CLAUDE.md".to_owned();
    let current = analyze_as(None, &fixture);
    assert!(!session_paths(&current).contains(&path));
    assert_eq!(current.rules.file_max_bytes, Some(4 * 1024 * 1024));
    assert!(!sent_paths(Some("2.1.196"), &fixture).contains(&path));
    // 2.1.195's loader reads a file of any size (no size check in its code).
    let older = analyze_as(Some("2.1.195"), &fixture);
    assert!(session_paths(&older).contains(&path));
    assert_eq!(loaded_units(&older, &path), body.trim_end().len() as u64);
    assert_eq!(older.rules.file_max_bytes, None);
}

#[test]
fn a_nested_worktree_takes_every_file_of_the_main_folders_above_it_before_2_1_69() {
    let fixture = "//@ project=/home/alice/app/wt\n\
                   //- /home/alice/app/.git/HEAD\nref: refs/heads/main\n\
                   //- /home/alice/app/wt/.git\ngitdir: /home/alice/app/.git/worktrees/wt\n\
                   //- /home/alice/app/CLAUDE.md\nmain\n\
                   //- /home/alice/app/.claude/rules/r.md\nrule\n\
                   //- /home/alice/app/CLAUDE.local.md\nlocal\n";
    let main_files = |version| {
        sent_paths(version, fixture)
            .into_iter()
            .filter(|p| p.starts_with("/home/alice/app/"))
            .collect::<Vec<_>>()
    };
    let local_only = ["/home/alice/app/CLAUDE.local.md"];
    assert_eq!(main_files(None), local_only);
    assert_eq!(main_files(Some("2.1.69")), local_only);
    assert_eq!(
        main_files(Some("2.1.68")),
        [
            "/home/alice/app/CLAUDE.md",
            "/home/alice/app/.claude/rules/r.md",
            "/home/alice/app/CLAUDE.local.md"
        ]
    );
}

#[test]
fn a_linked_rules_folder_outside_the_project_is_followed_before_2_1_232() {
    let approval = "//- /home/alice/.claude.json\n\
                    {\"projects\": {\"/home/alice/app\": {\"hasClaudeMdExternalIncludesApproved\": true}}}\n";
    let fixture = "//@ project=/home/alice/app\n\
                   //- /home/alice/app/CLAUDE.md\napp\n\
                   //- /home/alice/shared/rules/r.md\nrule\n\
                   //- /home/alice/app/docs/rules/inside.md\ninside\n\
                   //- /home/alice/dotfiles/rules/mine.md\nmine\n";
    let links = [
        ("/home/alice/app/.claude/rules", "/home/alice/shared/rules"),
        (
            "/home/alice/app/sub/.claude/rules",
            "/home/alice/app/docs/rules",
        ),
        ("/home/alice/.claude/rules", "/home/alice/dotfiles/rules"),
    ];
    let sent = |version, fixture: &str| session_paths(&analyze_linked(version, fixture, &links));
    let outside = "/home/alice/shared/rules/r.md".to_owned();
    let mine = "/home/alice/dotfiles/rules/mine.md".to_owned();
    // Before 2.1.232 a linked rules folder loads, its rules named by their target's paths.
    let older = sent(Some("2.1.231"), fixture);
    assert!(
        older.contains(&outside) && older.contains(&mine),
        "{older:?}"
    );
    // From 2.1.232 one leading out of the working folder loads only once external imports
    // are approved; the user's own rules folder always.
    for version in [Some("2.1.232"), None] {
        let unapproved = sent(version, fixture);
        assert!(!unapproved.contains(&outside), "{unapproved:?}");
        assert!(unapproved.contains(&mine), "{unapproved:?}");
        let approved = sent(version, &format!("{fixture}{approval}"));
        assert!(approved.contains(&outside), "{approved:?}");
    }
    // One leading to a folder inside the working folder is followed without approval.
    let inward = [(
        "/home/alice/app/.claude/rules",
        "/home/alice/app/docs/rules",
    )];
    let inside = "/home/alice/app/docs/rules/inside.md".to_owned();
    assert!(session_paths(&analyze_linked(None, fixture, &inward)).contains(&inside));
}

#[test]
fn a_linked_files_imports_resolve_from_its_targets_folder() {
    let fixture = "//@ project=/home/alice/app\n\
                   //- /home/alice/.claude.json\n\
                   {\"projects\": {\"/home/alice/app\": {\"hasClaudeMdExternalIncludesApproved\": true}}}\n\
                   //- /home/alice/app/CLAUDE.md\n@beside.md\n\
                   //- /home/alice/app/beside.md\nbeside the link\n\
                   //- /home/alice/shared/beside.md\nbeside the target\n";
    let links = [("/home/alice/app/CLAUDE.md", "/home/alice/shared/team.md")];
    // Measured on every release recorded, 2.1.59 to 2.1.332: the file is named by the link,
    // its import resolves beside the target.
    for version in [None, Some("2.1.59")] {
        let sent = session_paths(&analyze_linked(version, fixture, &links));
        assert_eq!(
            sent,
            ["/home/alice/app/CLAUDE.md", "/home/alice/shared/beside.md"],
            "{version:?}"
        );
    }
    // Without the link, the import resolves beside the file.
    let plain = session_paths(&analyze_linked(None, fixture, &[]));
    assert!(plain.contains(&"/home/alice/app/beside.md".to_owned()));
}

#[test]
fn a_linked_worktree_reads_the_import_approval_under_its_own_path_before_2_1_63() {
    // Approved under the worktree's own path only: from 2.1.63 the program reads the main
    // worktree's entry, as it does for the memory folder.
    let fixture = "//@ project=/home/alice/app/wt\n\
                   //- /home/alice/.claude.json\n\
                   {\"projects\": {\"/home/alice/app/wt\": {\"hasClaudeMdExternalIncludesApproved\": true}}}\n\
                   //- /home/alice/app/.git/HEAD\nref: refs/heads/main\n\
                   //- /home/alice/app/wt/.git\ngitdir: /home/alice/app/.git/worktrees/wt\n\
                   //- /home/alice/app/wt/CLAUDE.md\n@../../shared/outside.md\n\
                   //- /home/alice/shared/outside.md\noutside\n";
    let outside = "/home/alice/shared/outside.md".to_owned();
    assert!(!sent_paths(None, fixture).contains(&outside));
    assert!(!sent_paths(Some("2.1.63"), fixture).contains(&outside));
    assert!(sent_paths(Some("2.1.62"), fixture).contains(&outside));
}

// The skills listing of older releases (issue 9): each era's cut and budget, measured by the
// `skills-listing-*` captures.

/// The lengths (UTF-16 units) of the listing's lines under `version`.
fn listing_lengths(version: &str, fixture: &str) -> Vec<usize> {
    analyze_as(Some(version), fixture)
        .session
        .skills
        .iter()
        .map(|l| l.encode_utf16().count())
        .collect()
}

#[test]
fn descriptions_are_cut_at_250_units_on_2_1_86_to_2_1_104_and_listed_whole_before() {
    let long = "d".repeat(400);
    let fixture = format!(
        "//@ project=/home/alice/app\n//- /home/alice/.claude/skills/s/SKILL.md\n---\n\
         description: {long}\n---\nbody\n"
    );
    // `s: ` and the description: whole, then 249 units and the ellipsis, then all 400
    // again under the 1,536-unit cut.
    assert_eq!(listing_lengths("2.1.85", &fixture), vec![403]);
    assert_eq!(listing_lengths("2.1.86", &fixture), vec![253]);
    assert_eq!(listing_lengths("2.1.104", &fixture), vec![253]);
    assert_eq!(listing_lengths("2.1.105", &fixture), vec![403]);
}

#[test]
fn a_skill_without_a_frontmatter_description_is_listed_from_2_1_69() {
    let fixture = "//@ project=/home/alice/app\n\
                   //- /home/alice/.claude/skills/plain/SKILL.md\n# Heading used\nbody\n\
                   //- /home/alice/.claude/skills/told/SKILL.md\n---\ndescription: told\n---\nbody\n\
                   //- /home/alice/.claude/skills/two/SKILL.md\n---\ndescription: a: b\n---\nbody\n";
    let listed = |version| analyze_as(Some(version), fixture).session.skills;
    // An unquoted second colon is a YAML error, so 2.1.68 saw no description there either.
    assert_eq!(listed("2.1.68"), vec!["told: told".to_owned()]);
    assert_eq!(
        listed("2.1.69"),
        vec![
            "plain: Heading used".to_owned(),
            "told: told".to_owned(),
            "two: a: b".to_owned()
        ]
    );
}

#[test]
fn over_budget_every_description_is_cut_to_one_length_before_2_1_129() {
    // Budget 16,000 units before 2.1.86, 8,000 after: forty lines share it evenly.
    let fixture = forty_long_skills("");
    for version in ["2.1.85", "2.1.87", "2.1.88", "2.1.128"] {
        let lengths = listing_lengths(version, &fixture);
        assert_eq!(lengths.len(), 40, "{version}");
        assert!(
            lengths.windows(2).all(|w| w[0] == w[1]),
            "{version}: {lengths:?}"
        );
    }
    let line = |version| listing_lengths(version, &fixture)[0];
    assert!(
        line("2.1.85") > 2 * line("2.1.86") - 20,
        "the budget halved at 2.1.86"
    );
    // Counted in columns from 2.1.88: a Korean character takes two, so fewer units fit.
    assert!(line("2.1.88") < line("2.1.87"));
    // From 2.1.129 the lines compete in order: the first keep whole descriptions, the rest
    // their names.
    let filled = analyze_as(Some("2.1.129"), &fixture);
    let kept = kept_descriptions(&filled);
    assert!((10..40).contains(&kept), "{kept}");
    assert!(filled.session.skills[kept..]
        .iter()
        .all(|l| !l.contains(": ")));
}

#[test]
fn the_budget_fraction_setting_is_read_from_2_1_105() {
    let doubled = forty_long_skills("{\"skillListingBudgetFraction\": 0.02}");
    let plain = forty_long_skills("");
    let line = |version, fixture| listing_lengths(version, fixture)[0];
    assert_eq!(line("2.1.104", &doubled), line("2.1.104", &plain));
    assert!(line("2.1.105", &doubled) > line("2.1.105", &plain));
    let rules = analyze_as(Some("2.1.105"), &doubled).rules;
    assert_eq!(rules.skills_listing_budget, 16_000);
    assert!(rules.skills_listing_counts_columns);
    let rules = analyze_as(Some("2.1.87"), &plain).rules;
    assert_eq!(rules.skills_listing_budget, 8_000);
    assert!(!rules.skills_listing_counts_columns);
    assert_eq!(analyze_as(None, &plain).rules.skills_listing_budget, 30_000);
}

#[test]
fn a_read_in_a_subfolder_announces_its_skills_as_each_release_did() {
    let fixture = "//@ project=/home/alice/app\n\
                   //- /home/alice/app/pkg/a.ts\nx\n\
                   //- /home/alice/app/pkg/b.ts\ny\n\
                   //- /home/alice/app/pkg/.claude/skills/pkg-skill/SKILL.md\n---\n\
                   description: Package skill\n---\nbody\n";
    // How many skills each of two Reads in the subfolder announces.
    let announced = |version: &str| {
        let mut fixture = memdiag_tests::Fixture::parse(fixture);
        fixture.input.version = Some(version.to_owned());
        fixture.input.reads = vec![
            "/home/alice/app/pkg/a.ts".to_owned(),
            "/home/alice/app/pkg/b.ts".to_owned(),
        ];
        let reads = fixture.analyze().reads;
        let cost = reads[1].cost.user;
        (reads[0].skills.len(), reads[1].skills.len(), cost)
    };
    let counts = |version: &str| {
        let (first, second, _) = announced(version);
        (first, second)
    };
    // On the Read that reaches the folder, once per session.
    assert_eq!(counts("2.1.257"), (1, 0));
    assert_eq!(counts("2.1.229"), (1, 0));
    // One Read late, and counted on the Read that sends it.
    let (first, second, cost) = announced("2.1.198");
    assert_eq!((first, second), (0, 1));
    assert!(cost > "y\n".len() as u64, "{cost}");
    assert_eq!(counts("2.1.231"), (0, 1));
    // Never.
    for never in ["2.1.197", "2.1.233", "2.1.252"] {
        assert_eq!(counts(never), (0, 0), "{never}");
    }
}

#[test]
fn a_read_in_a_print_session_attaches_nothing_before_2_1_69() {
    let fixture = "//@ project=/home/alice/app\n\
                   //- /home/alice/app/CLAUDE.md\nroot\n\
                   //- /home/alice/app/pkg/CLAUDE.md\npackage notes\n\
                   //- /home/alice/app/.claude/rules/ts.md\n---\npaths: \"**/*.ts\"\n---\nts rule\n\
                   //- /home/alice/app/pkg/a.ts\nx\n";
    // What a Read of pkg/a.ts attaches, by path, in a session of `kind` on `version`.
    let attached = |version: &str, kind: SessionKind| {
        let mut fixture = Fixture::parse(fixture);
        fixture.input.version = Some(version.to_owned());
        fixture.input.session = kind;
        fixture.input.reads = vec!["/home/alice/app/pkg/a.ts".to_owned()];
        let report = fixture.analyze();
        let read = &report.reads[0];
        let paths: Vec<String> = read.files.iter().map(|f| f.path.clone()).collect();
        (
            paths,
            read.note.is_some(),
            report.session.later.on_read.files,
        )
    };
    let both = vec![
        "/home/alice/app/pkg/CLAUDE.md".to_owned(),
        "/home/alice/app/.claude/rules/ts.md".to_owned(),
    ];
    // 2.1.68's claude -p: nothing attaches, the answer says why, and nothing is counted as
    // loading on a Read later.
    assert_eq!(
        attached("2.1.68", SessionKind::Print),
        (Vec::new(), true, 0)
    );
    assert_eq!(
        attached("2.1.59", SessionKind::Print),
        (Vec::new(), true, 0)
    );
    // From 2.1.69 print sessions attach as interactive ones always did.
    assert_eq!(
        attached("2.1.69", SessionKind::Print),
        (both.clone(), false, 1)
    );
    assert_eq!(
        attached("2.1.68", SessionKind::Interactive),
        (both.clone(), false, 1)
    );
    assert_eq!(
        attached("2.1.328", SessionKind::Print),
        (both.clone(), false, 1)
    );
    // The page and the command ask as an interactive session unless told otherwise.
    assert_eq!(
        Fixture::parse(fixture).input.session,
        SessionKind::Interactive
    );
}

/// Five user skills whose folders a source listed in `order` (none recorded when empty),
/// each with a long description, under a budget that keeps about two of them whole.
fn ordered_skills(version: &str, order: &[&str]) -> Report {
    let mut text = String::from("//@ project=/home/alice/app\n");
    for name in ["alpha", "bravo", "charlie", "delta", "echo"] {
        text.push_str(&format!(
            "//- /home/alice/.claude/skills/{name}/SKILL.md\n---\ndescription: {name} {}\n---\nbody\n",
            "word ".repeat(40).trim_end()
        ));
    }
    let mut fixture = Fixture::parse(&text);
    fixture.input.version = Some(version.to_owned());
    // Room for every name and about two descriptions beside the release's own skills.
    fixture.input.skill_listing_budget_env = Some("3000".to_owned());
    if !order.is_empty() {
        fixture.tree.set_listing_order(
            memdiag_core::VPath::new("/home/alice/.claude/skills").expect("absolute"),
            order.iter().map(|n| (*n).to_owned()).collect(),
        );
    }
    fixture.analyze()
}

fn listed_names(report: &Report) -> Vec<String> {
    report
        .session
        .skills
        .iter()
        .map(|l| l.split(':').next().unwrap_or("").to_owned())
        .collect()
}

#[test]
fn the_users_skills_are_listed_in_the_file_systems_order_on_2_1_113_to_2_1_153() {
    let order = ["delta", "alpha", "echo", "bravo", "charlie"];
    let by_name = ["alpha", "bravo", "charlie", "delta", "echo"];
    // Listed in the order the source recorded, between 2.1.113 and 2.1.153.
    for version in ["2.1.113", "2.1.129", "2.1.153"] {
        assert_eq!(
            listed_names(&ordered_skills(version, &order)),
            order,
            "{version}"
        );
    }
    // By name before and after, whatever the file system said.
    for version in ["2.1.112", "2.1.154", "2.1.328"] {
        assert_eq!(
            listed_names(&ordered_skills(version, &order)),
            by_name,
            "{version}"
        );
    }
    // Filling the budget in listing order (2.1.129 on), the order decides which skills keep
    // their descriptions: the first in the file system's order, not the first by name.
    let kept = |report: &Report| -> Vec<String> {
        report
            .session
            .skills
            .iter()
            .filter(|l| l.contains(": "))
            .map(|l| l.split(':').next().unwrap_or("").to_owned())
            .collect()
    };
    let as_listed = kept(&ordered_skills("2.1.139", &order));
    assert!(
        !as_listed.is_empty() && as_listed.len() < 5,
        "{as_listed:?}"
    );
    assert_eq!(as_listed, order[..as_listed.len()]);
}

#[test]
fn a_project_folders_skills_follow_its_listing_order_on_2_1_113_to_2_1_153_too() {
    let fixture = "//@ project=/home/alice/app\n\
                   //- /home/alice/app/.claude/skills/one/SKILL.md\n---\ndescription: x\n---\nb\n\
                   //- /home/alice/app/.claude/skills/two/SKILL.md\n---\ndescription: y\n---\nb\n";
    let names = |version: &str| {
        let mut fixture = Fixture::parse(fixture);
        fixture.input.version = Some(version.to_owned());
        fixture.tree.set_listing_order(
            memdiag_core::VPath::new("/home/alice/app/.claude/skills").expect("absolute"),
            vec!["two".to_owned(), "one".to_owned()],
        );
        listed_names(&fixture.analyze())
    };
    assert_eq!(names("2.1.113"), ["two", "one"]);
    assert_eq!(names("2.1.112"), ["one", "two"]);
    assert_eq!(names("2.1.154"), ["one", "two"]);
}

#[test]
fn an_unrecorded_skills_order_is_listed_by_name_and_said_where_the_release_needs_it() {
    let unknown = |report: &Report| {
        report
            .diagnostics
            .iter()
            .find(|d| d.code == Code::SkillOrderUnknown)
            .map(|d| (d.path.clone(), d.message.contains("which skills keep")))
    };
    let report = ordered_skills("2.1.139", &[]);
    assert_eq!(
        listed_names(&report),
        ["alpha", "bravo", "charlie", "delta", "echo"]
    );
    // Over the budget, filled in order: the order decides which descriptions fit.
    assert_eq!(
        unknown(&report),
        Some((Some("/home/alice/.claude/skills".to_owned()), true))
    );
    // 2.1.113 cuts every description to one length: only the order of the lines depends.
    assert_eq!(
        unknown(&ordered_skills("2.1.113", &[])),
        Some((Some("/home/alice/.claude/skills".to_owned()), false))
    );
    // Releases that sort, and a recorded order, need no such word.
    assert_eq!(unknown(&ordered_skills("2.1.154", &[])), None);
    assert_eq!(unknown(&ordered_skills("2.1.112", &[])), None);
    assert_eq!(
        unknown(&ordered_skills(
            "2.1.139",
            &["echo", "alpha", "bravo", "charlie", "delta"]
        )),
        None
    );
}

#[test]
fn links_inside_a_rules_folder_load_under_their_targets_and_outward_ones_only_before_2_1_232() {
    let fixture = "//@ project=/home/alice/app\n\
                   //- /home/alice/app/docs/in.md\ninside target\n\
                   //- /home/alice/app/.claude/rules/in-link.md\ninside target\n\
                   //- /home/alice/shared/out.md\noutside target\n\
                   //- /home/alice/app/.claude/rules/out-link.md\noutside target\n\
                   //- /home/alice/shared/more/deep.md\ndeep rule\n";
    let links = [
        (
            "/home/alice/app/.claude/rules/in-link.md",
            "/home/alice/app/docs/in.md",
        ),
        (
            "/home/alice/app/.claude/rules/out-link.md",
            "/home/alice/shared/out.md",
        ),
        (
            "/home/alice/app/.claude/rules/more",
            "/home/alice/shared/more",
        ),
    ];
    let rules = |version: Option<&str>| session_paths(&analyze_linked(version, fixture, &links));
    // Every release measured names a linked rule by its target.
    assert_eq!(rules(None), ["/home/alice/app/docs/in.md"]);
    assert_eq!(rules(Some("2.1.232")), ["/home/alice/app/docs/in.md"]);
    // Before 2.1.232 the outward ones are followed too: a file and a folder of rules, in
    // the order of the links' names.
    assert_eq!(
        rules(Some("2.1.231")),
        [
            "/home/alice/app/docs/in.md",
            "/home/alice/shared/more/deep.md",
            "/home/alice/shared/out.md",
        ]
    );
}

#[test]
fn a_recorded_order_places_every_name_it_lists_and_the_rest_after_by_name() {
    // `a` sorts after `a-b` in the tree (a folder sorts as if followed by `/`), not in a
    // plain string order: the recorded order must not depend on either.
    let fixture = "//@ project=/home/alice/app\n\
                   //- /home/alice/.claude/skills/a/SKILL.md\n---\ndescription: x\n---\nb\n\
                   //- /home/alice/.claude/skills/a-b/SKILL.md\n---\ndescription: x\n---\nb\n\
                   //- /home/alice/.claude/skills/z/SKILL.md\n---\ndescription: x\n---\nb\n\
                   //- /home/alice/.claude/skills/m/SKILL.md\n---\ndescription: x\n---\nb\n";
    let mut fixture = Fixture::parse(fixture);
    fixture.input.version = Some("2.1.120".to_owned());
    fixture.tree.set_listing_order(
        memdiag_core::VPath::new("/home/alice/.claude/skills").expect("absolute"),
        // A name twice, one that is gone, and `m` left out.
        ["a", "gone", "z", "a-b", "a"].map(str::to_owned).to_vec(),
    );
    assert_eq!(listed_names(&fixture.analyze()), ["a", "z", "a-b", "m"]);
}

#[test]
fn the_main_index_is_quoted_from_2_1_337_and_an_agents_own_never() {
    let index = "/home/alice/.claude/projects/-home-alice-app/memory/MEMORY.md";
    let agent = "/home/alice/.claude/agent-memory/helper/MEMORY.md";
    let fixture = format!(
        "//@ project=/home/alice/app\n//- {index}\n- [a](a.md)\n\
         //- /home/alice/.claude/agents/helper.md\n---\nname: helper\ndescription: helps\n\
         memory: user\n---\nbody\n//- {agent}\n- one note\n"
    );
    let pin = analyze_as(Some("2.1.337"), &fixture);
    // 2.1.337: Claude Code's sentence on quoted notes (273 units with its blank
    // line), then `> ` before the index's one line; 2.1.332 sent the line as written.
    assert_eq!(loaded_units(&pin, index), 273 + 2 + 11);
    assert_eq!(
        loaded_units(&analyze_as(Some("2.1.332"), &fixture), index),
        11
    );
    // An agent's own index is sent as written on both (the `subagent-memory-*` captures).
    assert_eq!(loaded_units(&pin, agent), 10);
    assert_eq!(
        loaded_units(&analyze_as(Some("2.1.332"), &fixture), agent),
        10
    );
}
