//! Ignore files are repository input (issue 22, §3 and §2): the walk reads
//! them itself, bounded. A `.gitignore`, `.ignore`, `.ctxcurateignore` or
//! `.git/info/exclude` linked to `/dev/zero` or made a FIFO is skipped
//! with a note instead of aborting or hanging `build`; a parent folder's
//! `.gitignore` is not read at all; a huge `.gitignore` applies its first
//! patterns only. And the project's own un-ignores (`!` lines, `[project]
//! unignore`) never reach VCS folders, `.ctxcurate/`, credential files or
//! gitignored files.
//!
//! Each build runs the real binary with a deadline and an address-space
//! cap, so a regression fails here instead of hanging the test run or
//! eating the machine's memory.

use crate::common;

use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Output};
use std::time::Duration;

use common::files::mkfifo;
use common::{Project, output_within, stderr, stdout};

/// Time a build of a tiny project may take on a loaded machine before it
/// counts as hung (a guard, not a measurement: a healthy build takes well
/// under a second).
const HANG_GUARD: Duration = Duration::from_secs(120);

/// Address space the binary may map: ample for a small build, far below
/// what reading `/dev/zero` as text or compiling 150k globs takes.
const MEMORY_CAP: libc::rlim_t = 3 << 30;

/// Run `cmd` under [`MEMORY_CAP`]; kill it and fail after [`HANG_GUARD`].
fn run_guarded(mut cmd: Command) -> Output {
    // SAFETY: setrlimit is async-signal-safe; nothing else runs between
    // fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            let cap = libc::rlimit {
                rlim_cur: MEMORY_CAP,
                rlim_max: MEMORY_CAP,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &cap) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    output_within(cmd, HANG_GUARD)
}

/// `ctxcurate build` in `dir` of project `p`, guarded.
fn build_in(p: &Project, dir: &Path) -> Output {
    let mut cmd = p.cmd(&["build"]);
    cmd.current_dir(dir);
    run_guarded(cmd)
}

fn link_to_dev_zero(path: &Path) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::os::unix::fs::symlink("/dev/zero", path).expect("symlink");
}

/// The ignore files a checkout can carry, each where the walk meets it.
const IGNORE_FILES: &[&str] = &[
    ".gitignore",
    ".ignore",
    ".ctxcurateignore",
    ".git/info/exclude",
    "sub/.gitignore",
    "sub/.ctxcurateignore",
];

/// A project whose preset is `**`, with `app.py` and `sub/lib.py`.
fn project_with_glob() -> Project {
    let p = Project::empty();
    p.write("app.py", "print('app')\n");
    p.write("sub/lib.py", "print('lib')\n");
    p.write(".git/HEAD", "ref: refs/heads/main\n");
    p.ok(&["add", "**"]);
    p
}

/// The build succeeded, has both files, and `err` names the skipped file.
fn assert_built_with_note(out: &Output, rel: &str, why: &str) {
    let (text, err) = (stdout(out), stderr(out));
    assert!(out.status.success(), "{rel}: {err}");
    assert!(
        text.contains("### app.py") && text.contains("### sub/lib.py"),
        "{rel}: {text}"
    );
    assert!(
        err.lines()
            .any(|l| l.starts_with("warning: ") && l.contains(rel) && l.contains(why)),
        "{rel}: no note saying `{why}`:\n{err}"
    );
}

#[test]
fn ignore_files_linked_to_dev_zero_are_skipped_with_a_note() {
    for rel in IGNORE_FILES {
        let p = project_with_glob();
        link_to_dev_zero(&p.path(rel));
        let out = build_in(&p, p.root());
        assert_built_with_note(&out, rel, "not a regular file");
    }
}

#[test]
fn ignore_files_that_are_fifos_are_skipped_with_a_note() {
    for rel in IGNORE_FILES {
        let p = project_with_glob();
        mkfifo(&p.path(rel));
        let out = build_in(&p, p.root());
        assert_built_with_note(&out, rel, "not a regular file");
    }
}

/// A link to a regular file outside the root is not read either (it
/// could be anything of the user's); a link inside the root is.
#[test]
fn ignore_file_links_count_only_inside_the_root() {
    let p = project_with_glob();
    let outside = tempfile::tempdir().expect("tempdir");
    std::fs::write(outside.path().join("patterns"), "app.py\n").expect("write");
    std::os::unix::fs::symlink(outside.path().join("patterns"), p.path(".gitignore"))
        .expect("symlink");
    p.write("shared/patterns", "lib.py\n");
    std::os::unix::fs::symlink("../shared/patterns", p.path("sub/.gitignore")).expect("symlink");
    let out = build_in(&p, p.root());
    let (text, err) = (stdout(&out), stderr(&out));
    assert!(out.status.success(), "{err}");
    assert!(text.contains("### app.py"), "outside link applied: {text}");
    assert!(
        !text.contains("### sub/lib.py"),
        "inside link ignored: {text}"
    );
    assert!(
        err.contains(".gitignore") && err.contains("outside the project"),
        "{err}"
    );
}

/// The project is `repo/sub`: `repo/.gitignore` is above the root and is
/// never opened, be it `/dev/zero`, a FIFO or patterns.
#[test]
fn a_parent_folders_gitignore_is_not_read() {
    for kind in ["zero", "fifo", "patterns"] {
        let p = Project::empty();
        p.write("sub/ctxcurate.toml", "[project]\n");
        p.write("sub/app.py", "print('app')\n");
        let parent_ignore = p.path(".gitignore");
        match kind {
            "zero" => link_to_dev_zero(&parent_ignore),
            "fifo" => mkfifo(&parent_ignore),
            _ => p.write(".gitignore", "*.py\n"),
        }
        let sub = p.path("sub");
        let mut add = p.cmd(&["add", "**"]);
        add.current_dir(&sub);
        let out = run_guarded(add);
        assert!(out.status.success(), "{kind}: {}", stderr(&out));
        let out = build_in(&p, &sub);
        assert!(out.status.success(), "{kind}: {}", stderr(&out));
        assert!(
            stdout(&out).contains("### app.py"),
            "{kind}: {}",
            stdout(&out)
        );
    }
}

/// An 8 MB `.gitignore` of 150k patterns: the build stays small and fast
/// (today it maps gigabytes), the first patterns still apply, and a note
/// says the rest do not.
#[test]
fn a_huge_gitignore_applies_its_first_patterns_with_a_note() {
    let p = project_with_glob();
    p.write("drop.log", "x\n");
    let mut text = String::from("*.log\n");
    let mut i = 0;
    while text.len() < 8 << 20 {
        text.push_str(&format!("dir{i}/**/file-{i}-*.[ch]pp\n"));
        i += 1;
    }
    assert!(i > 150_000, "{i} patterns");
    p.write(".gitignore", &text);
    let out = build_in(&p, p.root());
    let (text, err) = (stdout(&out), stderr(&out));
    assert!(out.status.success(), "{err}");
    assert!(text.contains("### app.py"), "{text}");
    assert!(
        !text.contains("drop.log"),
        "the first pattern applies: {text}"
    );
    assert!(
        err.lines()
            .any(|l| l.contains(".gitignore") && l.contains("only the first")),
        "{err}"
    );
}

/// `!.git/` and `!.*` in `.ctxcurateignore` and `[project] unignore`
/// reach neither `.git/`, nor `.ctxcurate/`, nor credential files, nor a
/// gitignored file; a harmless dotfolder still comes back.
#[test]
fn project_unignores_never_reach_vcs_credentials_or_gitignored_files() {
    let p = Project::empty();
    p.write("app.py", "print('app')\n");
    p.write(".git/config", "[core]\n\tbare = false\n# GITCONFIG\n");
    p.write(".hg/hgrc", "# HGRC\n");
    p.write(".ctxcurate/notes.md", "# CACHE NOTE\n");
    p.write(".env", "PASSWORD=ENVFILE\n");
    p.write("conf/.netrc", "machine x password NETRC\n");
    p.write(".github/workflows/ci.yml", "name: ci\n");
    p.write("generated.txt", "GITIGNORED\n");
    p.write(".gitignore", "generated.txt\n");
    p.write(
        ".ctxcurateignore",
        "!.git/\n!.hg/\n!.ctxcurate/\n!.*\n!generated.txt\n",
    );
    p.write(
        "ctxcurate.toml",
        "[project]\ntree = \"all\"\nunignore = [\".git/\", \".hg/\", \".*\", \".ctxcurate/\", \"generated.txt\"]\n",
    );
    p.ok(&["add", "**"]);
    let out = build_in(&p, p.root());
    let (text, err) = (stdout(&out), stderr(&out));
    assert!(out.status.success(), "{err}");
    assert!(text.contains("### app.py"), "{text}");
    for marker in [
        "GITCONFIG",
        ".git/config",
        "HGRC",
        "CACHE NOTE",
        "ENVFILE",
        "NETRC",
        ".netrc",
        "GITIGNORED",
    ] {
        assert!(
            !text.contains(marker),
            "{marker} reached the context:\n{text}"
        );
    }
    // The ignore files themselves name it; the tree and the files do not.
    let tree = text.split("## Files").next().unwrap_or_default();
    assert!(!tree.contains("generated.txt"), "{tree}");
    assert!(!text.contains("### generated.txt"), "{text}");
    assert!(
        text.contains("### .github/workflows/ci.yml"),
        "a harmless dotfolder un-ignored: {text}"
    );
}

/// The user's own global config may un-ignore a built-in: that keeps
/// working.
#[test]
fn the_users_global_unignore_keeps_working() {
    let p = Project::empty();
    p.write("app.py", "print('app')\n");
    p.write("build/gen.py", "print('gen')\n");
    let global = p.global_config();
    std::fs::create_dir_all(global.parent().expect("parent")).expect("mkdir");
    std::fs::write(&global, "[project]\nunignore = [\"build/\"]\n").expect("write");
    p.ok(&["add", "**"]);
    let text = p.ok(&["build"]);
    assert!(text.contains("### build/gen.py"), "{text}");
}

/// The user's global git excludes (`core.excludesFile` of the user's own
/// git config) still apply; a repository's `.git/config` naming another
/// excludes file (here a FIFO) is repository input and is not read.
#[test]
fn the_users_global_excludes_apply_and_the_repositorys_do_not() {
    let p = project_with_glob();
    p.write("notes.local", "LOCAL NOTES\n");
    let excludes = p.config_home.path().join("git-excludes");
    std::fs::write(&excludes, "*.local\n").expect("write");
    let gitconfig = p.config_home.path().join("gitconfig");
    std::fs::write(
        &gitconfig,
        format!("[core]\n\texcludesFile = {}\n", excludes.display()),
    )
    .expect("write");
    mkfifo(&p.path("repo-excludes"));
    p.write(".git/config", "[core]\n\texcludesFile = repo-excludes\n");
    let mut cmd = p.cmd(&["build"]);
    cmd.env("GIT_CONFIG_GLOBAL", &gitconfig);
    let out = run_guarded(cmd);
    let (text, err) = (stdout(&out), stderr(&out));
    assert!(out.status.success(), "{err}");
    assert!(text.contains("### app.py"), "{text}");
    assert!(!text.contains("LOCAL NOTES"), "global excludes: {text}");

    // A repository's `!` lines (in its .gitignore or a shipped
    // info/exclude) cannot lift the user's own global excludes.
    p.write(".gitignore", "!*.local\n!mine/\n");
    p.write(".git/info/exclude", "!notes.local\n");
    p.write("mine/diary.md", "DIARY\n");
    std::fs::write(&excludes, "*.local\nmine/\n").expect("write");
    let mut cmd = p.cmd(&["build"]);
    cmd.env("GIT_CONFIG_GLOBAL", &gitconfig);
    let out = run_guarded(cmd);
    let (text, err) = (stdout(&out), stderr(&out));
    assert!(out.status.success(), "{err}");
    assert!(
        !text.contains("LOCAL NOTES"),
        "re-included by the repository: {text}"
    );
    assert!(
        !text.contains("DIARY"),
        "re-included by the repository: {text}"
    );
}

/// Each path is matched against every ignore file above it: 1,500 nested
/// folders each with a 100-glob `.gitignore` ran past 150 s (recheck 16).
/// A folder under more than 32 folders with ignore files (here of 50 globs
/// each, under the 2,000 patterns in force) is not walked,
/// with a note naming it; what lies above it is built as before.
#[test]
fn folders_nested_under_many_ignore_files_are_not_walked_with_a_note() {
    let p = Project::empty();
    common::files::nested_ignore_files(&p);
    p.ok(&["add", "src/**"]);
    let out = build_in(&p, p.root());
    let (text, err) = (stdout(&out), stderr(&out));
    assert!(out.status.success(), "{err}");
    assert!(
        text.contains("/f0.py") && text.contains("/f31.py"),
        "{text}"
    );
    assert!(!text.contains("/f32.py"), "{text}");
    let deep = format!("src{}", "/d".repeat(33));
    assert!(
        err.contains(&format!(
            "warning: folder {deep}: lies under more than 32 folders with ignore files"
        )),
        "{err}"
    );
}

/// `[project] ignore` past 1,000 patterns applies the first 1,000, and says
/// so (100,000 globs took a build two minutes and 1.15 GB, recheck 16).
#[test]
fn project_ignore_patterns_past_the_cap_are_named() {
    let p = project_with_glob();
    let globs: Vec<String> = (0..1_200)
        .map(|i| format!("\"**/yy{i}*/*w{i}.py\""))
        .collect();
    let toml = std::fs::read_to_string(p.path("ctxcurate.toml")).expect("toml");
    p.write(
        "ctxcurate.toml",
        &format!("[project]\nignore = [{}]\n\n{toml}", globs.join(",")),
    );
    let out = build_in(&p, p.root());
    let (text, err) = (stdout(&out), stderr(&out));
    assert!(out.status.success(), "{err}");
    assert!(text.contains("### app.py"), "{text}");
    assert!(
        err.contains(
            "warning: [project] ignore holds 1200 patterns; only the first 1000 are applied (at most 1000, and 64 KiB)"
        ),
        "{err}"
    );
}
