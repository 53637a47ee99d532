//! What a repository's project file asks for cannot reach the user's own
//! secrets without consent (issue 22 §2): a project preset's explicit
//! entries to credential files, version control folders and gitignored
//! files are left out with a note until `ctxcurate trust --yes` or the
//! user's own `ctxcurate add` (recorded in the state directory, never in
//! the repository); the TUI marks them. `trust` shows what it would
//! allow and asks on a terminal (refusing without one, pointing at
//! `--yes`), `--show` records nothing, and consent covers the content of
//! a script the summary command names inside the root.

use crate::common;

use common::{Project, stderr, stdout};
use ctxcurate::core::project::Project as CoreProject;
use ctxcurate::core::trust::TrustStore;
use ctxcurate::tui::run::harness::Harness;

/// What the contributor fills in after cloning.
const DOTENV: &str = "GREETING=hello-from-dotenv\n";

/// A project whose preset names `.env` beside an ordinary file.
fn hostile_preset(p: &Project, entries: &[&str]) {
    p.write("src/app.py", "print('app')\n");
    p.write(".env", DOTENV);
    let mut toml = String::new();
    for e in entries {
        toml.push_str(&format!("[[presets.default.files]]\npath = {e:?}\n\n"));
    }
    p.write("ctxcurate.toml", &toml);
}

#[test]
fn a_project_preset_naming_dotenv_is_held_until_trust() {
    let p = Project::empty();
    hostile_preset(&p, &["src/app.py", ".env"]);

    let out = p.run(&["build"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let (text, err) = (stdout(&out), stderr(&out));
    assert!(text.contains("print('app')"), "{text}");
    assert!(!text.contains("hello-from-dotenv"), "sent: {text}");
    assert!(!text.contains(".env"), "{text}");
    assert!(
        err.contains(".env (a credential file)")
            && err.contains("ctxcurate trust")
            && err.contains("ctxcurate add .env"),
        "{err}"
    );

    // `--show` reviews and records nothing.
    let shown = p.ok(&["trust", "--show"]);
    assert!(
        shown.contains(".env   (a credential file; preset default)"),
        "{shown}"
    );
    assert!(shown.contains("nothing recorded"), "{shown}");
    assert!(!p.ok(&["build"]).contains("hello-from-dotenv"));

    // Without a terminal to ask on, `trust` refuses and says `--yes`.
    let out = p.run(&["trust"]);
    assert!(!out.status.success(), "consented without asking");
    assert!(
        stdout(&out).contains(".env"),
        "shown first: {}",
        stdout(&out)
    );
    assert!(stderr(&out).contains("--yes"), "{}", stderr(&out));
    assert!(!p.ok(&["build"]).contains("hello-from-dotenv"));

    // Consent: the entry is read from now on.
    let out = p.ok(&["trust", "--yes"]);
    assert!(out.contains("recorded for"), "{out}");
    let out = p.run(&["build"]);
    assert!(
        stdout(&out).contains("hello-from-dotenv"),
        "{}",
        stdout(&out)
    );
    assert!(!stderr(&out).contains("consent"), "{}", stderr(&out));
    // Nothing of it is in the repository.
    assert!(!p.read("ctxcurate.toml").contains("trust"));

    // Revoked: held again.
    p.ok(&["trust", "--revoke"]);
    assert!(!p.ok(&["build"]).contains("hello-from-dotenv"));
}

#[test]
fn the_users_own_add_allows_the_entry_in_this_checkout() {
    let p = Project::empty();
    hostile_preset(&p, &["src/app.py", ".env"]);
    assert!(!p.ok(&["build"]).contains("hello-from-dotenv"));
    let before: Vec<_> = walk_repo(&p);
    p.ok(&["add", ".env"]);
    let out = p.run(&["build"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("hello-from-dotenv"),
        "{}",
        stdout(&out)
    );
    // Recorded outside the repository: no new file in the project.
    assert_eq!(walk_repo(&p), before);

    // Another checkout of the same repository is another consent.
    let other = Project::empty();
    hostile_preset(&other, &["src/app.py", ".env"]);
    assert!(!other.ok(&["build"]).contains("hello-from-dotenv"));
}

/// The project's files outside `.ctxcurate/`, sorted.
fn walk_repo(p: &Project) -> Vec<String> {
    let mut out: Vec<String> = walkdir(p.root())
        .into_iter()
        .filter(|f| !f.starts_with(".ctxcurate"))
        .collect();
    out.sort();
    out
}

fn walkdir(root: &std::path::Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            if e.file_type().unwrap().is_dir() {
                stack.push(e.path());
            } else {
                out.push(
                    e.path()
                        .strip_prefix(root)
                        .unwrap()
                        .to_string_lossy()
                        .into_owned(),
                );
            }
        }
    }
    out
}

#[test]
fn vcs_and_gitignored_entries_are_held_and_the_users_own_preset_is_not() {
    let p = Project::empty();
    hostile_preset(
        &p,
        &[
            "src/app.py",
            ".git/config",
            "local/notes.txt",
            ".npmrc",
            "infra/prod.tfvars",
            ".github/ci.yml",
        ],
    );
    p.write(".git/config", "[core]\n\tdummy = git-config-body\n");
    p.write(".gitignore", "local/\n");
    p.write("local/notes.txt", "ignored-body\n");
    p.write(".npmrc", "registry=npmrc-body\n");
    p.write("infra/prod.tfvars", "region = \"tfvars-body\"\n");
    p.write(".github/ci.yml", "name: ci-body\n");
    let out = p.run(&["build"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let (text, err) = (stdout(&out), stderr(&out));
    for body in [
        "git-config-body",
        "ignored-body",
        "npmrc-body",
        "tfvars-body",
    ] {
        assert!(!text.contains(body), "{body} sent: {text}");
    }
    assert!(
        text.contains("ci-body"),
        "a hidden, tracked file is not held"
    );
    assert!(err.contains("left out 4 entries"), "{err}");

    // The review names each with why.
    let shown = p.ok(&["trust", "--show"]);
    for line in [
        ".git/config   (version control data",
        "local/notes.txt   (an ignored file",
        ".npmrc   (a credential file",
        "infra/prod.tfvars   (a credential file",
    ] {
        assert!(shown.contains(line), "{line}: {shown}");
    }
    assert!(!shown.contains("ci.yml"), "{shown}");

    // The same entries in the user's own global preset are the user's.
    let mine = Project::empty();
    mine.write(".env", DOTENV);
    std::fs::create_dir_all(mine.global_config().parent().unwrap()).unwrap();
    std::fs::write(
        mine.global_config(),
        "[[presets.mine.files]]\npath = \".env\"\n",
    )
    .unwrap();
    let out = mine.run(&["build", "--preset", "mine"]);
    assert!(
        stdout(&out).contains("hello-from-dotenv"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_packed_build_holds_the_same_entries() {
    let p = Project::empty();
    hostile_preset(&p, &["src/app.py", ".env"]);
    let out = p.run(&["build", "--budget", "5000"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        !stdout(&out).contains("hello-from-dotenv"),
        "{}",
        stdout(&out)
    );
    assert!(stderr(&out).contains("ctxcurate trust"), "{}", stderr(&out));
    p.ok(&["trust", "--yes"]);
    let out = p.run(&["build", "--budget", "5000"]);
    assert!(
        stdout(&out).contains("hello-from-dotenv"),
        "{}",
        stderr(&out)
    );

    // A preset's target is an entry too: a packed build reads it in full.
    let t = Project::empty();
    t.write("src/app.py", "print('app')\n");
    t.write(".env", DOTENV);
    t.write(
        "ctxcurate.toml",
        "[presets.default]\ntargets = [\".env\"]\nfiles = [\"src/app.py\"]\n",
    );
    let out = t.run(&["build", "--budget", "5000"]);
    assert!(
        !stdout(&out).contains("hello-from-dotenv"),
        "{}",
        stdout(&out)
    );
    assert!(
        stderr(&out).contains(".env (a credential file)"),
        "{}",
        stderr(&out)
    );
    // Named on the command line, it is the user's own.
    let out = t.run(&["build", "--budget", "5000", "--target", ".env"]);
    assert!(
        stdout(&out).contains("hello-from-dotenv"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn consent_covers_the_content_of_a_script_the_command_names() {
    let p = Project::empty();
    p.write("notes.txt", &"Some notes.\nThey go on.\n".repeat(20));
    p.write("tools/sum.sh", "#!/bin/sh\necho ran > ran-1.txt\ncat\n");
    p.write(
        "ctxcurate.toml",
        "[project]\nsummary_command = \"sh ./tools/sum.sh\"\n\n\
         [[presets.default.files]]\npath = \"notes.txt\"\nview_mode = \"summary\"\n",
    );
    let shown = p.ok(&["trust", "--show"]);
    assert!(
        shown.contains("runs tools/sum.sh (content sha256"),
        "{shown}"
    );
    p.ok(&["build"]);
    assert!(!p.path("ran-1.txt").exists(), "--show consented");
    p.ok(&["trust", "--yes"]);
    p.ok(&["build"]);
    assert!(p.path("ran-1.txt").exists(), "trusted, the script runs");

    // The checkout is replaced at the same path: same setting, new script.
    p.write("tools/sum.sh", "#!/bin/sh\necho ran > ran-2.txt\ncat\n");
    p.ok(&["cache", "clear"]);
    let out = p.run(&["build"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!p.path("ran-2.txt").exists(), "a changed script ran");
    assert!(
        stderr(&out).contains("changed since you trusted this project"),
        "{}",
        stderr(&out)
    );
    p.ok(&["trust", "--yes"]);
    p.ok(&["build"]);
    assert!(p.path("ran-2.txt").exists());
}

#[test]
fn the_tui_marks_a_held_entry() {
    let p = Project::empty();
    hostile_preset(&p, &["src/app.py", ".env"]);
    let mut h = Harness::open(p.root(), None, 100, 12).expect("open the TUI");
    assert!(!h.composed_text().contains("hello-from-dotenv"));
    assert!(h.composed_text().contains("print('app')"));
    let screen = h.screen();
    insta::assert_snapshot!("held_entry_marked", screen);
    assert!(
        screen
            .lines()
            .any(|l| l.contains("⊘ .env") && l.contains("needs trust")),
        "{screen}"
    );
}

#[test]
fn including_the_file_in_the_tui_is_the_users_own_consent() {
    let p = Project::empty();
    hostile_preset(&p, &["src/app.py", ".env"]);
    let store = TrustStore::at(p.config_home.path().join("state/ctxcurate/trust"));
    let project = CoreProject::open_with(p.root(), None, Some(&store)).unwrap();
    let mut h = Harness::open_project(project, 100, 12).expect("open the TUI");
    assert!(!h.composed_text().contains("hello-from-dotenv"));
    // Space takes the held entry out; Space again is the user's include.
    h.goto(".env");
    h.keys("space");
    assert!(!h.composed_text().contains("hello-from-dotenv"));
    h.keys("space");
    assert!(
        h.composed_text().contains("hello-from-dotenv"),
        "{}",
        h.composed_text()
    );
    assert!(!h.screen().contains("needs trust"));
    // Recorded for this checkout: the CLI reads it too.
    assert!(p.ok(&["build"]).contains("hello-from-dotenv"));
}

#[test]
fn a_global_preset_copied_into_the_project_keeps_the_users_entries() {
    let p = Project::empty();
    p.write(".env", DOTENV);
    p.write("src/app.py", "print('app')\n");
    std::fs::create_dir_all(p.global_config().parent().unwrap()).unwrap();
    std::fs::write(
        p.global_config(),
        "[project]\nactive_preset = \"mine\"\n\n[[presets.mine.files]]\npath = \".env\"\n",
    )
    .unwrap();
    assert!(p.ok(&["build"]).contains("hello-from-dotenv"));
    // An edit copies the preset into the project file (copy on write).
    p.ok(&["add", "src/app.py"]);
    assert!(p.read("ctxcurate.toml").contains(".env"));
    let out = p.ok(&["build"]);
    assert!(
        out.contains("hello-from-dotenv") && out.contains("print('app')"),
        "{out}"
    );
}

/// Every consent line recorded in the store of `p` (the user's state
/// directory), in file order.
fn recorded(p: &Project) -> Vec<String> {
    let dir = p.config_home.path().join("state/ctxcurate/trust");
    let Ok(read) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut lines = Vec::new();
    for entry in read.flatten() {
        let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
        lines.extend(
            text.lines()
                .filter(|l| l.starts_with("allow "))
                .map(String::from),
        );
    }
    lines
}

/// `ctxcurate add docs/notes.txt` (an ordinary file) records no consent;
/// when a later pull turns the file into a link to `.env`, the entry is
/// judged again and held, and a consent given for a link is for where it
/// leads: the same link pointed elsewhere is held again.
#[cfg(unix)]
#[test]
fn consent_is_for_what_the_entry_leads_to_not_its_name() {
    use std::os::unix::fs::symlink;
    let p = Project::empty();
    hostile_preset(&p, &["src/app.py"]);
    p.write("docs/notes.txt", "plain notes\n");
    p.ok(&["add", "docs/notes.txt"]);
    assert!(p.ok(&["build"]).contains("plain notes"));
    // An ordinary file needs no consent: none is recorded.
    assert_eq!(recorded(&p), Vec::<String>::new());

    // What a pull can do: the file becomes a link to the user's `.env`.
    std::fs::remove_file(p.path("docs/notes.txt")).unwrap();
    symlink("../.env", p.path("docs/notes.txt")).unwrap();
    let out = p.run(&["build"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        !stdout(&out).contains("hello-from-dotenv"),
        "sent: {}",
        stdout(&out)
    );
    assert!(
        stderr(&out).contains("docs/notes.txt (a credential file)"),
        "{}",
        stderr(&out)
    );

    // The user adds the link themselves: consent for `.env` through it.
    p.ok(&["add", "docs/notes.txt"]);
    assert!(p.ok(&["build"]).contains("hello-from-dotenv"));
    // Pointed elsewhere (another credential file), it is judged again.
    p.write(
        "deploy/.npmrc",
        "//registry.npmjs.org/:_authToken=npm-token-here\n",
    );
    std::fs::remove_file(p.path("docs/notes.txt")).unwrap();
    symlink("../deploy/.npmrc", p.path("docs/notes.txt")).unwrap();
    let out = p.run(&["build"]);
    assert!(
        !stdout(&out).contains("npm-token-here"),
        "sent: {}",
        stdout(&out)
    );
    assert!(
        stderr(&out).contains("docs/notes.txt (a credential file)"),
        "{}",
        stderr(&out)
    );
}

/// `docs/cfg.txt` as a second name of `.env`, `gc.txt` of a
/// `.git/config` holding `hello-from-git-config`.
#[cfg(unix)]
fn link_dotenv_and_git_config(p: &Project) {
    std::fs::create_dir_all(p.path("docs")).unwrap();
    std::fs::hard_link(p.path(".env"), p.path("docs/cfg.txt")).unwrap();
    p.write(
        ".git/config",
        "[remote \"origin\"]\n\turl = hello-from-git-config\n",
    );
    std::fs::hard_link(p.path(".git/config"), p.path("gc.txt")).unwrap();
}

/// A hard link has no target to follow: `docs/cfg.txt` as another name
/// of `.env`, or `gc.txt` of `.git/config`, is held as that file is (it
/// was read as a plain file, sweep 10 F14).
#[cfg(unix)]
#[test]
fn a_hard_link_to_a_credential_file_is_held_as_the_file() {
    let p = Project::empty();
    hostile_preset(&p, &["src/app.py", "docs/cfg.txt", "gc.txt"]);
    link_dotenv_and_git_config(&p);
    let out = p.run(&["build"]);
    assert!(out.status.success(), "{}", stderr(&out));
    for secret in ["hello-from-dotenv", "hello-from-git-config"] {
        assert!(!stdout(&out).contains(secret), "sent: {}", stdout(&out));
    }
    let err = stderr(&out);
    assert!(err.contains("docs/cfg.txt (a credential file)"), "{err}");
    assert!(err.contains("gc.txt (version control data)"), "{err}");
}

/// A glob has no entry to judge: a hard link it pulls in (`docs/cfg.txt`
/// as another name of `.env`, `gc.txt` of `.git/config`) is not read,
/// and the build names the file it is (sweep 10 F14: read as plain
/// files).
#[cfg(unix)]
#[test]
fn a_hard_link_to_a_credential_file_is_not_read_through_a_glob() {
    let p = Project::empty();
    hostile_preset(&p, &["**"]);
    link_dotenv_and_git_config(&p);
    p.write("docs/plain.txt", "hello-plain\n");
    std::fs::hard_link(p.path("docs/plain.txt"), p.path("also.txt")).unwrap();
    let out = p.run(&["build"]);
    let sent = stdout(&out);
    for secret in ["hello-from-dotenv", "hello-from-git-config"] {
        assert!(!sent.contains(secret), "sent: {sent}");
    }
    // Two names of an ordinary file are both read.
    assert_eq!(sent.matches("hello-plain").count(), 2, "{sent}");
    let err = stderr(&out);
    assert!(err.contains("docs/cfg.txt: a hard link to .env"), "{err}");
    assert!(err.contains("gc.txt: a hard link to .git/config"), "{err}");
}

/// The status line's text, if any.
fn status(h: &Harness) -> String {
    h.state
        .status
        .as_ref()
        .map(|(t, _)| t.clone())
        .unwrap_or_default()
}

/// `Y` copies the current file's view, and `r` (in the preview) shows its
/// raw text: for a project preset's held entry neither reads it; the
/// status says why and how to allow it. After the user's own include,
/// both do.
#[test]
fn a_held_entry_is_not_copied_or_previewed_until_the_user_includes_it() {
    use ctxcurate::tui::state::Pane;
    let p = Project::empty();
    hostile_preset(&p, &["src/app.py", ".env"]);
    let store = TrustStore::at(p.config_home.path().join("state/ctxcurate/trust"));
    let project = CoreProject::open_with(p.root(), None, Some(&store)).unwrap();
    let mut h = Harness::open_project(project, 140, 12).expect("open the TUI");
    h.goto(".env");
    h.key("Y");
    assert!(h.copied.is_empty(), "copied: {:?}", h.copied);
    let said = status(&h);
    assert!(
        said.contains(".env needs trust") && said.contains("ctxcurate trust"),
        "{said}"
    );
    assert!(h.screen().contains("ctxcurate trust"), "{}", h.screen());

    // The raw preview does not read it either.
    h.keys("tab tab");
    assert_eq!(h.state.focus, Pane::Preview);
    h.key("r");
    let said = status(&h);
    assert!(said.contains(".env needs trust"), "{said}");
    assert!(
        h.state.preview.raw_text.is_none(),
        "read: {:?}",
        h.state.preview.raw_text
    );
    assert!(!h.screen().contains("hello-from-dotenv"), "{}", h.screen());
    assert!(!h.state.preview.raw, "left in an empty raw view");
    // Nor does moving onto it with the raw view open.
    h.goto("src/app.py");
    h.key("r");
    assert!(h.state.preview.raw_text.is_some());
    h.goto(".env");
    assert!(status(&h).contains(".env needs trust"), "{}", status(&h));
    assert!(
        h.state.preview.raw_text.is_none(),
        "{:?}",
        h.state.preview.raw_text
    );
    assert!(!h.screen().contains("hello-from-dotenv"), "{}", h.screen());

    // Space takes the held entry out; Space again is the user's include.
    h.keys("shift-tab shift-tab");
    assert_eq!(h.state.focus, Pane::Tree);
    h.keys("space space");
    assert!(h.composed_text().contains("hello-from-dotenv"));
    h.key("Y");
    assert_eq!(h.copied.len(), 1, "{}", h.screen());
    assert!(h.copied[0].contains("hello-from-dotenv"), "{:?}", h.copied);
    h.keys("tab tab r");
    assert!(h.state.preview.raw);
    let raw = h.state.preview.raw_text.clone().expect("the raw text");
    assert_eq!(raw.0, ".env");
    assert!(raw.1.iter().any(|l| l.contains("hello-from-dotenv")));
}
