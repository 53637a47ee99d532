//! Git-aware curation run as the real binary in temporary git
//! repositories: `add --changed [REF]`, `build --changed [REF]` and
//! `build --diff [REF]` — which files count as changed, hostile names,
//! revisions that look like options, a project outside any repository, a
//! diff over the size cap or the budget, and both output formats.
//!
//! Each repository is isolated from the machine's git configuration
//! (`GIT_CONFIG_NOSYSTEM`, `HOME` in a temporary folder).

use crate::common;

use std::process::Command;

use common::git::{git, init, ok, preset_paths, run};
use common::{Project, headings, stderr, stdout};
use ctxcurate::core::model::{ProjectFile, TokenizerKind};
use ctxcurate::core::tokens;

/// A repository with one commit (`a.py`, `b.py`, `keep.md`, a
/// `.gitignore` for `build/`), then: `a.py` modified, `b.py` deleted,
/// `c.py` new and staged, `d.py` untracked, `build/e.py` ignored.
fn repo() -> Project {
    let p = Project::empty();
    init(&p, p.root());
    p.write("a.py", "x = 1\n");
    p.write("b.py", "y = 1\n");
    p.write("keep.md", "# Keep\n");
    p.write(".gitignore", "build/\n");
    git(&p, p.root(), &["add", "-A"]);
    git(&p, p.root(), &["commit", "-qm", "one"]);
    p.write("a.py", "x = 2\n");
    std::fs::remove_file(p.path("b.py")).expect("rm");
    p.write("c.py", "z = 3\n");
    git(&p, p.root(), &["add", "c.py"]);
    p.write("d.py", "w = 4\n");
    p.write("build/e.py", "gen = 5\n");
    p
}

#[test]
fn add_changed_takes_modified_staged_and_untracked_files_not_ignored_or_deleted() {
    let p = repo();
    let out = run(&p, &["add", "--changed"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(preset_paths(&p), ["a.py", "c.py", "d.py"]);
    assert!(
        stdout(&out).contains("added 3 entries to preset default"),
        "{}",
        stdout(&out)
    );
    assert!(
        stderr(&out).contains("1 deleted file left out"),
        "{}",
        stderr(&out)
    );
    // Again: nothing new, and ctxcurate.toml itself (now untracked) is a
    // built-in ignore, never an entry.
    let out = run(&p, &["add", "--changed"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(preset_paths(&p), ["a.py", "c.py", "d.py"]);
}

#[test]
fn add_changed_against_a_ref_and_with_a_mode() {
    let p = repo();
    git(&p, p.root(), &["add", "-A"]);
    git(&p, p.root(), &["commit", "-qm", "two"]);
    p.write("keep.md", "# Kept\n");
    // Against HEAD only keep.md changed; against the first commit the
    // committed changes count too.
    ok(&p, &["add", "--changed", "HEAD~1", "--mode", "skeleton"]);
    assert_eq!(preset_paths(&p), ["a.py", "c.py", "d.py", "keep.md"]);
    let f: ProjectFile = toml::from_str(&p.read("ctxcurate.toml")).expect("parses");
    assert!(
        f.presets["default"]
            .files
            .iter()
            .all(|i| i.view_mode.as_str() == "skeleton")
    );
    // `add --changed` and paths are exclusive.
    let out = run(&p, &["add", "--changed", "HEAD", "a.py"]);
    assert!(!out.status.success());
}

#[test]
fn build_changed_composes_on_top_of_the_preset_without_saving() {
    let p = repo();
    ok(&p, &["add", "keep.md"]);
    let before = p.read("ctxcurate.toml");
    let out = run(&p, &["build", "--changed"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        headings(&stdout(&out)),
        ["### keep.md", "### a.py", "### c.py", "### d.py"]
    );
    assert!(
        stderr(&out).contains("3 changed files against HEAD, 3 added on top of the preset"),
        "{}",
        stderr(&out)
    );
    assert_eq!(p.read("ctxcurate.toml"), before, "build never edits");
    // A changed file the preset already shows keeps its own entry.
    ok(&p, &["set", "a.py", "--mode", "none"]);
    let text = ok(&p, &["build", "--changed"]);
    assert_eq!(
        headings(&text),
        ["### a.py [none]", "### keep.md", "### c.py", "### d.py"]
    );
}

#[test]
fn hostile_file_names_arrive_exact() {
    let p = repo();
    p.write("sp ace.py", "s = 1\n");
    p.write("new\nline.py", "n = 1\n");
    p.write("-rf.py", "r = 1\n");
    p.write("\"quoted\".py", "q = 1\n");
    let not_utf8 = {
        use std::os::unix::ffi::OsStrExt;
        p.root().join(std::ffi::OsStr::from_bytes(b"bad\xff.py"))
    };
    std::fs::write(&not_utf8, "b = 1\n").expect("write");
    let out = run(&p, &["build", "--changed"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let heads = headings(&text);
    for name in [
        "### \"quoted\".py",
        "### -rf.py",
        "### new␊line.py",
        "### sp ace.py",
    ] {
        assert!(heads.contains(&name), "{name}: {heads:?}");
    }
    assert!(
        text.contains("### new␊line.py\n\n```python\nn = 1\n```"),
        "{text}"
    );
    assert!(!text.contains("bad"), "{text}");
    ok(&p, &["add", "--changed"]);
    let paths = preset_paths(&p);
    for name in ["\"quoted\".py", "-rf.py", "new\nline.py", "sp ace.py"] {
        assert!(paths.iter().any(|x| x == name), "{name}: {paths:?}");
    }
}

#[test]
fn a_revision_that_looks_like_an_option_is_refused_and_changes_nothing() {
    let p = repo();
    ok(&p, &["add", "keep.md"]);
    let before = p.read("ctxcurate.toml");
    for args in [
        &["build", "--diff=--output=pwned"][..],
        &["build", "--changed=--output=pwned"],
        &["add", "--changed=--output=pwned"],
        &["build", "--diff=-p"],
    ] {
        let out = run(&p, args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("would read as an option"),
            "{args:?}: {}",
            stderr(&out)
        );
        assert!(stdout(&out).is_empty());
    }
    assert!(!p.path("pwned").exists());
    assert_eq!(p.read("ctxcurate.toml"), before);
    let out = run(&p, &["build", "--diff", "no-such-branch"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("unknown revision \"no-such-branch\""));
}

#[test]
fn outside_a_git_repository_each_says_so_and_changes_nothing() {
    let p = Project::fixture();
    // No repository above a temporary folder (unless /tmp is in one, in
    // which case this test says nothing about it).
    let probe = Command::new("git")
        .args(["rev-parse", "--is-inside-work-tree"])
        .current_dir(p.root())
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .expect("git");
    assert!(
        !probe.status.success(),
        "the temp dir is inside a repository"
    );
    for args in [
        &["add", "--changed"][..],
        &["build", "--changed"],
        &["build", "--diff"],
        &["build", "--diff", "--save"],
    ] {
        let out = run(&p, args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("is not in a git repository: --changed and --diff need one"),
            "{args:?}: {}",
            stderr(&out)
        );
        assert!(stdout(&out).is_empty());
    }
    assert!(!p.path("ctxcurate.toml").exists());
    assert!(!p.path(".ctxcurate/out").exists());
}

#[test]
fn diff_appends_a_changes_section_counted_in_the_total() {
    let p = repo();
    ok(&p, &["add", "a.py"]);
    let out = run(&p, &["build", "--diff"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let (_, changes) = text
        .split_once("\n## Changes\n")
        .expect("a changes section");
    assert!(
        changes.starts_with(
            "\nThe working tree against `HEAD`:\n\n```diff\ndiff --git a/a.py b/a.py\n"
        ),
        "{changes}"
    );
    assert!(changes.contains("\n-x = 1\n+x = 2\n"), "{changes}");
    assert!(
        changes.contains("diff --git a/b.py b/b.py\ndeleted file mode"),
        "{changes}"
    );
    assert!(
        changes.contains("diff --git a/c.py b/c.py\nnew file mode"),
        "{changes}"
    );
    assert!(
        changes.ends_with("```\n\nUntracked files (not in the diff):\n- `d.py`\n"),
        "{changes}"
    );
    let n = tokens::count(TokenizerKind::O200k, &text);
    assert!(
        stderr(&out).contains(&format!("1 file, {n} tokens")),
        "{}",
        stderr(&out)
    );
    // Against the first commit of a longer history, by branch name.
    git(&p, p.root(), &["add", "-A"]);
    git(&p, p.root(), &["commit", "-qm", "two"]);
    git(&p, p.root(), &["branch", "two"]);
    let clean = ok(&p, &["build", "--diff", "two"]);
    assert!(
        clean.contains(
            "## Changes\n\nThe working tree against `two`: no changes to tracked files.\n"
        ),
        "{clean}"
    );
}

#[test]
fn diff_in_xml_is_one_more_child_of_the_one_root() {
    let p = repo();
    p.write("a.py", "if a < b && c:\n    x = ']]>'\n");
    ok(&p, &["add", "a.py"]);
    let xml = ok(&p, &["build", "--diff", "--format", "xml"]);
    let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{e}\n{xml}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "documents");
    let last = root.last_element_child().expect("children");
    assert_eq!(last.tag_name().name(), "changes");
    assert_eq!(last.attribute("against"), Some("HEAD"));
    let diff = last
        .children()
        .find(|n| n.has_tag_name("diff"))
        .expect("a diff element");
    let text: String = diff
        .descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .collect();
    assert!(
        text.contains("\n+if a < b && c:\n+    x = ']]>'\n"),
        "{text:?}"
    );
    let untracked: Vec<&str> = last
        .children()
        .filter(|n| n.has_tag_name("untracked"))
        .filter_map(|n| n.text())
        .collect();
    assert_eq!(untracked, ["d.py"]);
}

#[test]
fn a_huge_diff_is_capped_and_held_to_the_budget() {
    let p = repo();
    let big: String = (0..4000).map(|i| format!("line_{i} = {i}\n")).collect();
    p.write("big.py", &big);
    git(&p, p.root(), &["add", "big.py"]);
    git(&p, p.root(), &["commit", "-qm", "big"]);
    p.write("big.py", &big.replace(" = ", " == "));
    ok(&p, &["add", "a.py"]);

    // Over the budget of a packed build: an error naming both sizes…
    let out = run(&p, &["build", "--diff", "--budget", "600"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("over the budget of 600"), "{err}");
    assert!(stdout(&out).is_empty());
    // …or, allowed, the largest file's part goes and the rest fits.
    let out = run(
        &p,
        &["build", "--diff", "--budget", "600", "--allow-partial"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(tokens::count(TokenizerKind::O200k, &text) <= 600);
    assert!(text.contains("diff --git a/a.py b/a.py"), "{text}");
    assert!(!text.contains("diff --git a/big.py"), "{text}");
    assert!(
        text.contains("> note: big.py: its diff is left out to fit the budget"),
        "{text}"
    );

    // Unpacked, the diff is capped at max_file_size by whole files.
    let toml = p.read("ctxcurate.toml");
    p.write(
        "ctxcurate.toml",
        &format!("[project]\nmax_file_size = 4000\n\n{toml}"),
    );
    let out = run(&p, &["build", "--diff"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("diff --git a/a.py b/a.py"), "{text}");
    assert!(!text.contains("diff --git a/big.py"), "{text}");
    assert!(
        stderr(&out).contains("big.py: its diff ("),
        "{}",
        stderr(&out)
    );
    assert!(
        text.contains("the diff is capped at max_file_size"),
        "{text}"
    );
}

#[test]
fn a_project_in_a_subfolder_sees_only_its_own_changes() {
    let p = Project::empty();
    init(&p, p.root());
    p.write("outside.py", "o = 1\n");
    p.write("sub/inside.py", "i = 1\n");
    p.write("sub/ctxcurate.toml", "");
    git(&p, p.root(), &["add", "-A"]);
    git(&p, p.root(), &["commit", "-qm", "one"]);
    p.write("outside.py", "o = 2\n");
    p.write("sub/inside.py", "i = 2\n");
    p.write("sub/pkg/new.py", "n = 1\n");
    let out = p
        .cmd(&["build", "--changed", "--diff"])
        .current_dir(p.path("sub/pkg"))
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .expect("run");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(headings(&text), ["### inside.py", "### pkg/new.py"]);
    assert!(
        text.contains("diff --git a/inside.py b/inside.py"),
        "{text}"
    );
    assert!(!text.contains("outside"), "{text}");
}

#[test]
fn a_repository_without_commits_counts_every_file_as_changed() {
    let p = Project::empty();
    init(&p, p.root());
    p.write("staged.py", "s = 1\n");
    git(&p, p.root(), &["add", "staged.py"]);
    p.write("loose.py", "l = 1\n");
    ok(&p, &["add", "--changed"]);
    // Entries are kept in path order (core::curation).
    assert_eq!(preset_paths(&p), ["loose.py", "staged.py"]);
    let text = ok(&p, &["build", "--diff"]);
    assert!(
        text.contains("The working tree against `HEAD (no commits yet)`:"),
        "{text}"
    );
    assert!(text.contains("+s = 1\n"), "{text}");
}

#[test]
fn no_changes_adds_nothing_and_creates_no_project_file() {
    let p = Project::empty();
    init(&p, p.root());
    p.write("a.py", "a = 1\n");
    git(&p, p.root(), &["add", "-A"]);
    git(&p, p.root(), &["commit", "-qm", "one"]);
    let out = ok(&p, &["add", "--changed"]);
    assert!(
        out.contains("no changed files against HEAD: nothing added"),
        "{out}"
    );
    assert!(!p.path("ctxcurate.toml").exists());
}

#[test]
fn files_the_project_ignores_stay_out_of_the_diff_and_the_lists() {
    let p = repo();
    p.write("notes/private.txt", "old\n");
    ok(&p, &["add", "a.py"]);
    git(&p, p.root(), &["add", "-A"]);
    git(&p, p.root(), &["commit", "-qm", "two"]);
    // Tracked, then ignored by the project: its change is not shown.
    p.write(".ctxcurateignore", "notes/\n");
    p.write("notes/private.txt", "new secret\n");
    ok(&p, &["set", "a.py", "--mode", "none"]);
    let out = run(&p, &["build", "--diff", "--changed"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(!text.contains("secret"), "{text}");
    assert!(!text.contains("private"), "{text}");
    // ctxcurate.toml is tracked and changed, and a built-in ignore.
    assert!(!text.contains("diff --git a/ctxcurate.toml"), "{text}");
    assert!(
        text.contains("> note: 2 files the project ignores left out of the diff"),
        "{text}"
    );
    assert!(
        stderr(&out).contains(
            // Hidden files are not walked; the project file is not named.
            "2 changed files the project ignores left out: notes/private.txt, .ctxcurateignore\n"
        ),
        "{}",
        stderr(&out)
    );
}

/// A repository's own config and attributes name programs for git to run
/// (fsmonitor, an external diff, a diff driver's command, a textconv
/// filter, a pager, hooks, ssh, credential and askpass helpers, gpg, an
/// editor): reading the change runs none of them, and leaves the index as
/// it was. (Filter drivers, submodules and lazy fetches: cli_git_trust.)
#[test]
fn repository_settings_cannot_run_programs() {
    let p = repo();
    let marker = p.config_home.path().join("ran");
    let touch = format!("touch '{}'", marker.display());
    // Every hook git knows, each leaving the marker.
    let hooks = p.config_home.path().join("hooks");
    std::fs::create_dir_all(&hooks).expect("mkdir");
    for hook in [
        "post-index-change",
        "pre-commit",
        "post-checkout",
        "reference-transaction",
    ] {
        let path = hooks.join(hook);
        std::fs::write(&path, format!("#!/bin/sh\n{touch}\n")).expect("write hook");
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    for (key, value) in [
        ("core.fsmonitor", touch.as_str()),
        ("diff.external", touch.as_str()),
        ("diff.evil.textconv", touch.as_str()),
        ("core.pager", touch.as_str()),
        ("pager.diff", "true"),
        ("diff.evil.command", touch.as_str()),
        ("core.hooksPath", hooks.to_str().expect("utf-8 path")),
        ("core.sshCommand", touch.as_str()),
        ("credential.helper", touch.as_str()),
        ("core.askPass", touch.as_str()),
        ("gpg.program", touch.as_str()),
        ("core.editor", touch.as_str()),
        ("diff.noprefix", "true"),
        ("color.ui", "always"),
    ] {
        git(&p, p.root(), &["config", key, value]);
    }
    p.write(".gitattributes", "*.py diff=evil\n");
    ok(&p, &["add", "a.py"]);
    let index = std::fs::read(p.path(".git/index")).expect("index");
    let text = ok(&p, &["build", "--changed", "--diff"]);
    ok(&p, &["add", "--changed"]);
    assert!(!marker.exists(), "a repository setting ran a program");
    assert!(text.contains("diff --git a/a.py b/a.py\n"), "{text}");
    assert!(text.contains("\n-x = 1\n+x = 2\n"), "{text}");
    assert!(!text.contains('\u{1b}'), "no colour codes: {text:?}");
    assert_eq!(std::fs::read(p.path(".git/index")).expect("index"), index);
}

/// The git processes whose command line names `dir`.
#[cfg(target_os = "linux")]
fn gits_in(dir: &std::path::Path) -> Vec<String> {
    let dir = dir.to_string_lossy().into_owned();
    std::fs::read_dir("/proc")
        .expect("/proc")
        .flatten()
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
        .filter(|c| c.starts_with("git ") && c.contains(&dir))
        .collect()
}

/// A git stuck on a FIFO the repository ships (`.gitattributes`) dies
/// with the front end that started it (sweep 13, GIT1): a CLI that got
/// SIGTERM left it blocked for ever, its parent gone.
#[cfg(target_os = "linux")]
#[test]
fn a_stuck_git_dies_with_the_command_that_started_it() {
    let p = repo();
    let _fifo = common::git::Fifo::make(p.path(".gitattributes"));
    let mut child = p
        .cmd(&["build", "-q", "--diff", "HEAD"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("spawn");
    // Wait (bounded) for its git to be stuck.
    let mut seen = false;
    for _ in 0..100 {
        if !gits_in(p.root()).is_empty() {
            seen = true;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert!(seen, "git never started");
    // SAFETY: a plain kill(2) of our own child.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGTERM) };
    let _ = child.wait();
    let mut left = gits_in(p.root());
    for _ in 0..50 {
        if left.is_empty() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
        left = gits_in(p.root());
    }
    assert!(left.is_empty(), "still running: {left:?}");
}
