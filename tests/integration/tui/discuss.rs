//! Screenshots, the discussion and the task curated in the TUI (issue 14):
//! Space on an image, `E` (a message written in the editor), `ctrl-k` (a
//! compaction point) and `e` (the task in the editor), each one undoable
//! step, driven through the real keymap with the editor's answers
//! scripted in the harness; `ctxcurate build` afterwards renders them; the
//! CLI's `shot`, `discuss` and `task` write the same bytes.

use crate::common;

use common::{Project, saved_preset};
use ctxcurate::core::model::{DiscussionEntry, Preset};
use ctxcurate::tui::messages::EditPurpose;
use ctxcurate::tui::run::harness::Harness;
use ctxcurate::tui::state::Level;

/// A PNG's first bytes: enough for a file that is an image by name.
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";

fn fixture() -> Project {
    let p = Project::fixture();
    std::fs::create_dir_all(p.path("docs")).unwrap();
    std::fs::write(p.path("docs/shot.png"), PNG).unwrap();
    p
}

fn open(p: &Project) -> Harness {
    Harness::open(p.root(), None, 110, 22).expect("open the TUI")
}

fn preset(h: &Harness) -> Preset {
    h.state.project.active_preset()
}

fn status(h: &Harness) -> (String, Level) {
    h.state.status.clone().expect("a status message")
}

#[test]
fn space_on_a_png_adds_a_screenshot_and_u_undoes_it() {
    let p = fixture();
    let mut h = open(&p);
    h.goto("docs/shot.png");
    h.key("space");
    assert_eq!(preset(&h).screenshots, ["docs/shot.png"]);
    assert!(preset(&h).files.is_empty(), "an image is not a file entry");
    assert_eq!(
        status(&h).0,
        "docs/shot.png: screenshot added · 1 screenshot"
    );
    assert!(
        h.composed_text()
            .contains("## Screenshots\n\n![shot.png](docs/shot.png)")
    );
    let screen = h.screen();
    insta::assert_snapshot!("screenshot_marked", screen);
    assert!(screen.contains("shot.png ▣ screenshot"), "{screen}");
    assert_eq!(saved_preset(&p, "default").screenshots, ["docs/shot.png"]);

    h.key("u");
    assert_eq!(preset(&h), Preset::default());
    assert!(!h.composed_text().contains("## Screenshots"));
    assert!(!h.screen().contains("▣"));
    // Space twice is no change at all.
    h.keys("space space");
    assert_eq!(preset(&h), Preset::default());
    assert_eq!(
        status(&h).0,
        "docs/shot.png: screenshot removed · 0 screenshots"
    );
}

#[cfg(unix)]
#[test]
fn space_on_an_image_linked_from_outside_changes_nothing() {
    let p = fixture();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.png"), PNG).unwrap();
    let link = |name: &str| {
        std::os::unix::fs::symlink(outside.path().join("secret.png"), p.path(name)).unwrap()
    };
    // The walk never lists a link leading out of the root …
    link("leak.png");
    let mut h = open(&p);
    h.goto("leak.png");
    assert_ne!(h.state.current_file(), Some("leak.png"));
    // … but the tree may be older than the disk: a file swapped for one
    // after the walk is refused when Space is pressed.
    h.goto("docs/shot.png");
    std::fs::remove_file(p.path("docs/shot.png")).unwrap();
    link("docs/shot.png");
    h.key("space");
    assert_eq!(preset(&h), Preset::default());
    let (said, level) = status(&h);
    assert_eq!(level, Level::Warn);
    assert!(said.contains("outside the project"), "{said}");
    // A file deleted after the walk is refused too.
    std::fs::remove_file(p.path("docs/shot.png")).unwrap();
    h.key("space");
    assert_eq!(status(&h).0, "docs/shot.png: file not found");
    assert_eq!(preset(&h), Preset::default());
}

#[test]
fn capital_e_writes_a_message_in_the_editor_and_u_undoes_it() {
    let p = fixture();
    let mut h = open(&p);
    h.editor_answers.push_back(Ok(
        "role: Assistant\n\nIt fails because the cache is stale.\n".into(),
    ));
    h.key("E");
    assert_eq!(
        h.edited,
        [(EditPurpose::Message, "role: User\n\n".to_string())]
    );
    let d = preset(&h).discussion;
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].role, "Assistant");
    assert_eq!(d[0].content, "It fails because the cache is stale.");
    assert_eq!(status(&h), ("discussion: 1 message".into(), Level::Info));
    assert!(h.composed_text().contains(
        "## Discussion History\n\n### Discussion Excerpt 1\n\nAssistant: It fails because the cache is stale."
    ));
    insta::assert_snapshot!("message_added", h.screen());

    h.key("u");
    assert!(preset(&h).discussion.is_empty());
    assert!(!h.composed_text().contains("## Discussion History"));
}

#[test]
fn an_unchanged_empty_or_failed_edit_changes_nothing_and_says_so() {
    let p = fixture();
    let mut h = open(&p);
    h.editor_answers.push_back(Ok("role: User\n\n".into()));
    h.editor_answers.push_back(Ok("role: User\n\n   \n".into()));
    h.editor_answers
        .push_back(Err("vi ended with exit status: 1".into()));
    h.editor_answers
        .push_back(Ok("role: two words\n\nhi\n".into()));
    h.key("E");
    assert_eq!(status(&h).0, "no message written: discussion unchanged");
    h.key("E");
    assert_eq!(status(&h).0, "empty message: nothing added");
    h.key("E");
    assert_eq!(
        status(&h),
        (
            "editor: vi ended with exit status: 1 · nothing changed".into(),
            Level::Error
        )
    );
    h.key("E");
    let (said, level) = status(&h);
    assert_eq!(level, Level::Warn);
    assert!(
        said.contains("must be one plain word") && said.ends_with("nothing added"),
        "{said}"
    );
    // No editor answer scripted: an error, never a real editor.
    h.key("e");
    assert_eq!(status(&h).1, Level::Error);
    assert_eq!(preset(&h), Preset::default());
    assert!(h.state.history.undo.is_empty(), "no undo step for nothing");
    assert!(!p.path("ctxcurate.toml").exists());
}

#[test]
fn ctrl_k_adds_a_compaction_point_and_u_undoes_it() {
    let p = fixture();
    let mut h = open(&p);
    h.key("ctrl-k");
    assert_eq!(
        status(&h),
        (
            "no messages since the last compaction point: nothing to compact (E adds one)".into(),
            Level::Warn
        )
    );
    h.editor_answers
        .push_back(Ok("role: User\nfirst question\n".into()));
    h.editor_answers.push_back(Ok("second question\n".into()));
    h.key("E");
    h.key("ctrl-k");
    assert_eq!(
        status(&h).0,
        "discussion: compaction point added · the 1 message before it is no longer sent"
    );
    h.key("ctrl-k");
    assert_eq!(
        status(&h).1,
        Level::Warn,
        "twice in a row: nothing to compact"
    );
    h.key("E");
    let roles: Vec<String> = preset(&h).discussion.into_iter().map(|e| e.role).collect();
    assert_eq!(roles, ["User", DiscussionEntry::COMPACTION, "User"]);
    let text = h.composed_text();
    assert!(!text.contains("first question"), "compacted away: {text}");
    assert!(text.contains("User: second question"), "{text}");
    insta::assert_snapshot!("compacted", h.screen());

    h.keys("u u");
    assert_eq!(preset(&h).discussion.len(), 1);
    assert!(h.composed_text().contains("User: first question"));
}

#[test]
fn e_edits_the_task_and_u_undoes_it() {
    let p = fixture();
    let mut h = open(&p);
    h.editor_answers
        .push_back(Ok("Fix the parser so that it keeps comments.\n".into()));
    h.key("e");
    assert_eq!(h.edited, [(EditPurpose::Task, String::new())]);
    assert_eq!(preset(&h).task, "Fix the parser so that it keeps comments.");
    let (said, level) = status(&h);
    assert_eq!(level, Level::Info);
    assert!(
        said.starts_with("task set · ") && said.ends_with(" tokens"),
        "{said}"
    );
    assert!(
        h.composed_text()
            .ends_with("## Task\n\nFix the parser so that it keeps comments.\n")
    );
    insta::assert_snapshot!("task_set", h.screen());

    // The editor opens on the task as it is; saving it unchanged is no step.
    h.editor_answers
        .push_back(Ok("Fix the parser so that it keeps comments.\n".into()));
    h.key("e");
    assert_eq!(
        h.edited[1],
        (
            EditPurpose::Task,
            "Fix the parser so that it keeps comments.\n".to_string()
        )
    );
    assert_eq!(status(&h).0, "task unchanged");
    assert_eq!(h.state.history.undo.len(), 1);

    h.key("u");
    assert_eq!(preset(&h).task, "");
    assert!(!h.composed_text().contains("## Task"));
    assert_eq!(saved_preset(&p, "default").task, "");
}

#[test]
fn a_likely_secret_is_kept_with_a_warning() {
    let p = fixture();
    let mut h = open(&p);
    h.editor_answers.push_back(Ok(
        "role: User\n\naws_access_key_id = AKIAZ7QKXR4MV2N5TWLB\n".into(),
    ));
    h.key("E");
    assert_eq!(preset(&h).discussion.len(), 1);
    let (said, level) = status(&h);
    assert_eq!(level, Level::Warn);
    assert!(
        said.starts_with("discussion: 1 message · warning: the message holds 1 likely secret"),
        "{said}"
    );
    assert!(
        !said.contains("AKIAZ7QKXR4MV2N5TWLB"),
        "shown masked: {said}"
    );
}

#[test]
fn build_renders_what_the_keys_curated() {
    let p = fixture();
    let mut h = open(&p);
    h.goto("docs/shot.png");
    h.key("space");
    h.editor_answers
        .push_back(Ok("role: User\n\nWhy is the guide empty?\n".into()));
    h.editor_answers
        .push_back(Ok("role: Assistant\n\nIt was never written.\n".into()));
    h.editor_answers.push_back(Ok("Write the guide.\n".into()));
    h.keys("E E e");
    let out = p.ok(&["build"]);
    assert!(
        out.contains("## Screenshots\n\n![shot.png](docs/shot.png)"),
        "{out}"
    );
    assert!(
        out.contains(
            "## Discussion History\n\n### Discussion Excerpt 1\n\nUser: Why is the guide empty?\n\n---\n\n### Discussion Excerpt 2\n\nAssistant: It was never written."
        ),
        "{out}"
    );
    assert!(out.ends_with("## Task\n\nWrite the guide.\n"), "{out}");
}

/// The CLI and the keys make the same edits: byte-identical files.
#[test]
fn the_cli_and_the_keys_write_the_same_bytes() {
    let cli = fixture();
    let tui = fixture();
    let mut h = open(&tui);
    let same = |step: &str| {
        assert_eq!(
            cli.read("ctxcurate.toml"),
            tui.read("ctxcurate.toml"),
            "after {step}"
        );
    };
    cli.ok(&["shot", "add", "docs/shot.png"]);
    h.goto("docs/shot.png");
    h.key("space");
    same("a screenshot");
    cli.ok(&[
        "discuss",
        "add",
        "--role",
        "assistant",
        "Because.\n\nSee x.",
    ]);
    h.editor_answers
        .push_back(Ok("role: Assistant\n\nBecause.\n\nSee x.\n".into()));
    h.key("E");
    same("a message");
    cli.ok(&["discuss", "compact"]);
    h.key("ctrl-k");
    same("a compaction point");
    cli.ok(&["task", "set", "Do it.\n"]);
    h.editor_answers.push_back(Ok("Do it.\n".into()));
    h.key("e");
    same("the task");
    cli.ok(&["shot", "rm", "docs/shot.png"]);
    h.goto("docs/shot.png");
    h.key("space");
    same("removing the screenshot");
}
