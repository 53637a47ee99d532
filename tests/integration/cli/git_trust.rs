//! A repository that arrives with its `.git` (a tarball, a shared folder, a
//! bug-report repro) cannot make `add --changed`, `build --changed` or
//! `build --diff` run its programs, read another repository, send a file
//! the user excluded or ignored, or hang: each attack of issue 22 §1, run
//! as the real binary in temporary repositories.
//!
//! Programs a repository plants write a marker file outside the
//! repository; every tracked file is made stat-dirty first (as a fresh
//! extraction is), so git has to read the work tree. Each ctxcurate run
//! has a watchdog: a run that hangs fails the test instead of hanging it.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::git::{Fifo, git, init, make_stat_dirty, ok, preset_paths, run, run_in};
use common::{Project, stderr, stdout};
use ctxcurate::core::model::ProjectFile;

/// A repository with `a.py`, `b.md`, `c.txt` committed, then `a.py`
/// modified.
fn repo() -> Project {
    let p = Project::empty();
    init(&p, p.root());
    p.write("a.py", "x = 1\n");
    p.write("b.md", "# B\n");
    p.write("c.txt", "c\n");
    git(&p, p.root(), &["add", "-A"]);
    git(&p, p.root(), &["commit", "-qm", "one"]);
    p.write("a.py", "x = 2\n");
    p
}

fn append(path: &Path, text: &str) {
    use std::io::Write;
    let mut f = std::fs::File::options()
        .append(true)
        .create(true)
        .open(path)
        .expect("open");
    f.write_all(text.as_bytes()).expect("append");
}

/// A shell command that leaves `marker` behind (and, as a clean filter,
/// passes its input through).
fn plant(marker: &Path) -> String {
    format!("touch '{}'; cat", marker.display())
}

/// Each way of reading the change, and what it must leave behind.
fn read_changes_every_way(p: &Project) -> Vec<String> {
    let mut texts = Vec::new();
    for args in [
        &["build", "--changed"][..],
        &["build", "--diff"],
        &["build", "--changed", "--diff", "--format", "xml"],
    ] {
        make_stat_dirty(p.root());
        texts.push(ok(p, args));
    }
    make_stat_dirty(p.root());
    ok(p, &["add", "--changed"]);
    texts
}

#[test]
fn filter_drivers_a_repository_configures_never_run() {
    let p = repo();
    // A file git reads before b.md (whose process filter, not speaking
    // the protocol, ends git's own run in the probe below).
    p.write("a0.txt", "zero\n");
    git(&p, p.root(), &["add", "a0.txt"]);
    git(&p, p.root(), &["commit", "-qm", "zero"]);
    let markers = p.config_home.path().join("markers");
    std::fs::create_dir_all(&markers).expect("mkdir");
    let m = |name: &str| markers.join(name);
    // A clean filter in .git/config, chosen by the tree's .gitattributes,
    // required (git would fail without it).
    let config = p.path(".git/config");
    append(
        &config,
        &format!(
            "[filter \"evil\"]\n\tclean = {}\n\tsmudge = {}\n\trequired = true\n",
            toml_quote(&plant(&m("clean"))),
            toml_quote(&plant(&m("smudge")))
        ),
    );
    p.write(".gitattributes", "*.py filter=evil\n");
    // A long-running `process` filter whose name (with a dot and an `=`)
    // only an include brings in, chosen by .git/info/attributes.
    let included = p.config_home.path().join("included.cfg");
    std::fs::write(
        &included,
        format!(
            "[filter \"p.r=oc\"]\n\tprocess = {}\n",
            toml_quote(&format!("touch '{}'", m("process").display()))
        ),
    )
    .expect("write");
    append(
        &config,
        &format!("[include]\n\tpath = {}\n", included.display()),
    );
    std::fs::create_dir_all(p.path(".git/info")).expect("mkdir");
    std::fs::write(p.path(".git/info/attributes"), "*.md filter=p.r=oc\n").expect("write");
    // One more only a conditional include names.
    let conditional = p.config_home.path().join("conditional.cfg");
    std::fs::write(
        &conditional,
        format!(
            "[filter \"onbranch\"]\n\tclean = {}\n",
            toml_quote(&plant(&m("conditional")))
        ),
    )
    .expect("write");
    append(
        &config,
        &format!(
            "[includeIf \"onbranch:main\"]\n\tpath = {}\n",
            conditional.display()
        ),
    );
    append(&p.path(".git/info/attributes"), "a0.txt filter=onbranch\n");
    // Even the user's own driver (global config, as `git lfs install`
    // writes one) never runs: the repository picks its files.
    let own = p.config_home.path().join("own-driver-ran");
    std::fs::write(
        p.config_home.path().join(".gitconfig"),
        format!(
            "[filter \"mine\"]\n\tclean = {}\n",
            toml_quote(&plant(&own))
        ),
    )
    .expect("write");
    append(&p.path(".git/info/attributes"), "c.txt filter=mine\n");
    // Git itself would run every one of them on a stat-dirty tree.
    make_stat_dirty(p.root());
    let probe = Command::new("git")
        .args(["diff", "--name-only"])
        .current_dir(p.root())
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", p.config_home.path())
        .output()
        .expect("git");
    drop(probe);
    for name in ["clean", "process", "conditional"] {
        assert!(m(name).exists(), "the planted {name} driver is live");
        std::fs::remove_file(m(name)).expect("rm");
    }
    let _ = std::fs::remove_file(&own);

    let texts = read_changes_every_way(&p);
    let ran: Vec<String> = std::fs::read_dir(&markers)
        .expect("read_dir")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(ran.is_empty(), "repository filters ran: {ran:?}");
    assert!(!own.exists(), "the user's own filter driver ran");
    // And git still answered.
    assert!(texts[0].contains("### a.py"), "{}", texts[0]);
    assert!(texts[1].contains("\n-x = 1\n+x = 2\n"), "{}", texts[1]);
    assert_eq!(preset_paths(&p), ["a.py"]);
}

/// A value as git config reads it (double-quoted, `\` and `"` escaped).
fn toml_quote(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

#[test]
fn a_submodule_s_own_filters_never_run() {
    let p = repo();
    let marker = p.config_home.path().join("sub-ran");
    let sub = p.path("sub");
    std::fs::create_dir_all(&sub).expect("mkdir");
    init(&p, &sub);
    std::fs::write(sub.join("s.py"), "s = 1\n").expect("write");
    git(&p, &sub, &["add", "-A"]);
    git(&p, &sub, &["commit", "-qm", "s"]);
    // The superproject records it as a submodule (a gitlink).
    git(&p, p.root(), &["add", "sub"]);
    git(&p, p.root(), &["commit", "-qm", "sub"]);
    append(
        &sub.join(".git/config"),
        &format!(
            "[filter \"x\"]\n\tclean = {}\n",
            toml_quote(&plant(&marker))
        ),
    );
    std::fs::write(sub.join(".git/info/attributes"), "* filter=x\n").expect("write");
    read_changes_every_way(&p);
    assert!(!marker.exists(), "a submodule's filter ran");
}

#[test]
fn a_partial_clone_never_fetches_through_the_repository_s_transport() {
    let p = repo();
    let blob = Command::new("git")
        .args(["rev-parse", "HEAD:a.py"])
        .current_dir(p.root())
        .output()
        .expect("git");
    let blob = String::from_utf8_lossy(&blob.stdout).trim().to_string();
    // A promisor remote and the committed blob of a.py missing: a diff
    // would fetch it, through the remote's transport: a planted
    // upload-pack (a local path), or a planted ssh command.
    git(
        &p,
        p.root(),
        &["config", "core.repositoryformatversion", "1"],
    );
    git(
        &p,
        p.root(),
        &["config", "extensions.partialClone", "origin"],
    );
    git(&p, p.root(), &["config", "remote.origin.promisor", "true"]);
    std::fs::remove_file(p.path(&format!(".git/objects/{}/{}", &blob[..2], &blob[2..])))
        .expect("rm the blob");
    let far = p.config_home.path().join("far");
    std::fs::create_dir_all(&far).expect("mkdir");
    let marker = p.config_home.path().join("fetched");
    let touch = format!("touch '{}'; false", marker.display());
    for (url, key) in [
        (far.display().to_string(), "remote.origin.uploadpack"),
        ("ssh://example.invalid/repo".to_string(), "core.sshCommand"),
    ] {
        git(&p, p.root(), &["config", "remote.origin.url", &url]);
        git(&p, p.root(), &["config", key, &touch]);
        for args in [
            &["build", "--diff"][..],
            &["build", "--changed"],
            &["add", "--changed"],
        ] {
            make_stat_dirty(p.root());
            let _ = run(&p, args);
        }
        assert!(!marker.exists(), "a lazy fetch ran the repository's {key}");
    }
}

/// Another repository on the machine, with a committed file.
fn victim() -> Project {
    let v = Project::empty();
    init(&v, v.root());
    v.write("victim_secret.py", "password = 'VICTIM'\n");
    git(&v, v.root(), &["add", "-A"]);
    git(&v, v.root(), &["commit", "-qm", "victim"]);
    v
}

/// A project whose `.git` leads to the victim (as `redirect` plants it):
/// every git feature refuses with a reason, and nothing of the victim
/// reaches the output or the preset.
fn assert_refused(p: &Project, victim: &Project) {
    p.write("mine.py", "m = 1\n");
    for args in [
        &["build", "--diff"][..],
        &["build", "--changed"],
        &["add", "--changed"],
    ] {
        let out = run(p, args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
        let (text, err) = (stdout(&out), stderr(&out));
        assert!(!text.contains("victim"), "{args:?}: {text}");
        assert!(!text.contains("VICTIM"), "{args:?}: {text}");
        assert!(
            err.contains("is in a git repository that is not its own"),
            "{args:?}: {err}"
        );
    }
    assert!(preset_paths(p).is_empty());
    // The victim is as it was.
    let status = Command::new("git")
        .args(["status", "--porcelain", "--untracked-files=no"])
        .current_dir(victim.root())
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .expect("git");
    assert!(
        status.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&status.stdout)
    );
}

#[test]
fn a_gitdir_file_to_another_repository_is_refused() {
    let v = victim();
    let p = Project::empty();
    p.write(".git", &format!("gitdir: {}\n", v.path(".git").display()));
    assert_refused(&p, &v);
}

#[test]
fn a_gitdir_file_to_another_checkout_s_worktree_is_refused() {
    let v = victim();
    git(&v, v.root(), &["worktree", "add", "-q", "wt"]);
    let p = Project::empty();
    p.write(
        ".git",
        &format!("gitdir: {}\n", v.path(".git/worktrees/wt").display()),
    );
    assert_refused(&p, &v);
}

#[test]
fn a_git_symlink_to_another_repository_is_refused() {
    let v = victim();
    let p = Project::empty();
    std::os::unix::fs::symlink(v.path(".git"), p.path(".git")).expect("symlink");
    assert_refused(&p, &v);
}

#[test]
fn a_core_worktree_elsewhere_is_refused() {
    let v = victim();
    // The work tree set to the folder above the project (the user's home,
    // say): the shipped index and HEAD then describe files outside it.
    let p = Project::empty();
    init(&p, p.root());
    git(&p, p.root(), &["config", "core.worktree", "../.."]);
    assert_refused(&p, &v);
    // The work tree set to another checkout.
    let p = Project::empty();
    init(&p, p.root());
    git(
        &p,
        p.root(),
        &["config", "core.worktree", &v.root().display().to_string()],
    );
    assert_refused(&p, &v);
}

#[test]
fn a_commondir_to_another_repository_is_refused() {
    let v = victim();
    let p = Project::empty();
    init(&p, p.root());
    std::fs::write(
        p.path(".git/commondir"),
        format!("{}\n", v.path(".git").display()),
    )
    .expect("write");
    assert_refused(&p, &v);
}

#[test]
fn git_variables_in_the_caller_s_environment_are_not_the_project_s() {
    let v = victim();
    let p = repo();
    let victim_git = v.path(".git").display().to_string();
    let out = run_in(
        &p,
        p.root(),
        &["build", "--diff"],
        &[("GIT_DIR", &victim_git)],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(!text.contains("VICTIM"), "{text}");
    assert!(text.contains("\n-x = 1\n+x = 2\n"), "{text}");
}

#[test]
fn a_linked_worktree_and_a_subfolder_project_keep_working() {
    let p = repo();
    git(&p, p.root(), &["worktree", "add", "-q", "../wt-linked"]);
    let wt: PathBuf = p.root().parent().expect("parent").join("wt-linked");
    struct Cleanup(PathBuf);
    impl Drop for Cleanup {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
    let _cleanup = Cleanup(wt.clone());
    std::fs::write(wt.join("a.py"), "x = 3\n").expect("write");
    std::fs::create_dir_all(wt.join("sub")).expect("mkdir");
    std::fs::write(wt.join("sub/ctxcurate.toml"), "").expect("write");
    std::fs::write(wt.join("sub/s.py"), "s = 1\n").expect("write");
    let out = run_in(&p, &wt, &["build", "--diff", "--changed"], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("\n-x = 1\n+x = 3\n"), "{text}");
    // The project a subfolder of the linked worktree: its own files only.
    let out = run_in(&p, &wt.join("sub"), &["build", "--changed"], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("### s.py"), "{text}");
    assert!(!text.contains("a.py"), "{text}");
}

#[test]
fn a_file_swapped_for_a_symlink_shifts_no_name_onto_an_ignored_file() {
    let p = Project::empty();
    init(&p, p.root());
    p.write("a_link.py", "a = 1\n");
    p.write("b_private.txt", "old\n");
    p.write("c.py", "c = 1\n");
    git(&p, p.root(), &["add", "-A"]);
    git(&p, p.root(), &["commit", "-qm", "one"]);
    // The project ignores b_private.txt; its change must stay out.
    p.write(".ctxcurateignore", "b_private.txt\n");
    p.write("b_private.txt", "PRIVATE-CHANGE\n");
    p.write("c.py", "c = 2\n");
    std::fs::remove_file(p.path("a_link.py")).expect("rm");
    std::os::unix::fs::symlink("c.py", p.path("a_link.py")).expect("symlink");
    let out = run(&p, &["build", "--diff"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(!text.contains("PRIVATE-CHANGE"), "{text}");
    assert!(!text.contains("b_private"), "{text}");
    assert!(text.contains("diff --git a/c.py b/c.py\n"), "{text}");
    assert!(text.contains("\n-c = 1\n+c = 2\n"), "{text}");
}

#[test]
fn a_fifo_for_the_index_ends_in_a_clear_error_not_a_hang() {
    let p = repo();
    ok(&p, &["add", "b.md"]);
    let before = p.read("ctxcurate.toml");
    std::fs::remove_file(p.path(".git/index")).expect("rm index");
    let _fifo = Fifo::make(p.path(".git/index"));
    for args in [
        &["add", "--changed"][..],
        &["build", "--changed"],
        &["build", "--diff"],
    ] {
        let out = run_in(&p, p.root(), args, &[("CTXCURATE_GIT_TIMEOUT", "2")]);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.contains("did not finish within 2 s and was stopped"),
            "{args:?}: {err}"
        );
        assert!(stdout(&out).is_empty(), "{args:?}");
    }
    assert_eq!(p.read("ctxcurate.toml"), before, "nothing written");
}

#[test]
fn changed_files_the_preset_excludes_are_never_added_or_sent() {
    let p = repo();
    p.write("secret.py", "s = 1\n");
    p.write("gen/out.py", "g = 1\n");
    p.write(
        "ctxcurate.toml",
        "[presets.default]\nfiles = [\"b.md\"]\nexclude = [\"secret.py\", \"gen/*.py\"]\n",
    );
    let out = run(&p, &["build", "--changed"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("### a.py"), "{text}");
    assert!(!text.contains("secret.py"), "{text}");
    assert!(!text.contains("gen/out.py"), "{text}");
    assert!(
        stderr(&out)
            .contains("2 changed files the preset excludes left out: gen/out.py, secret.py"),
        "{}",
        stderr(&out)
    );
    // Nor does its diff, tracked or untracked.
    git(&p, p.root(), &["add", "secret.py"]);
    let out = run(&p, &["build", "--diff"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("diff --git a/a.py b/a.py"), "{text}");
    assert!(!text.contains("secret.py"), "{text}");
    assert!(!text.contains("gen/out.py"), "{text}");
    assert!(
        text.contains("> note: 2 files the preset excludes left out of the diff"),
        "{text}"
    );
    let out = run(&p, &["add", "--changed"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(preset_paths(&p), ["a.py", "b.md"]);
    let f: ProjectFile = toml::from_str(&p.read("ctxcurate.toml")).expect("parses");
    assert_eq!(f.presets["default"].exclude, ["secret.py", "gen/*.py"]);
}

/// `.git/info/attributes` linked to `/dev/zero`: git would read one line
/// forever, taking memory until the deadline; its heap is capped, so it
/// fails in seconds with an error, and ctxcurate says so.
#[test]
fn an_endless_attributes_file_ends_in_an_error() {
    let p = repo();
    std::fs::create_dir_all(p.path(".git/info")).expect("mkdir");
    std::os::unix::fs::symlink("/dev/zero", p.path(".git/info/attributes")).expect("symlink");
    make_stat_dirty(p.root());
    let out = run_in(
        &p,
        p.root(),
        &["build", "--diff"],
        &[("CTXCURATE_GIT_TIMEOUT", "60")],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("Out of memory"), "{err}");
    assert!(stdout(&out).is_empty());
}

/// `diff.orderFile` in the repository's config names a file git reads
/// whole before it diffs: `/dev/zero` took 2 GB and failed every diff, a
/// FIFO held it to the deadline (recheck 17 F17-3). Ours is always none.
#[test]
fn an_order_file_the_repository_names_is_never_read() {
    let p = repo();
    let _fifo = Fifo::make(p.path("order.fifo"));
    for order in ["/dev/zero", "order.fifo"] {
        git(&p, p.root(), &["config", "diff.orderFile", order]);
        for args in [&["build", "--diff"][..], &["build", "--changed"]] {
            let out = run_in(&p, p.root(), args, &[("CTXCURATE_GIT_TIMEOUT", "20")]);
            assert_eq!(
                out.status.code(),
                Some(0),
                "{order} {args:?}: {}",
                stderr(&out)
            );
            assert!(stdout(&out).contains("a.py"), "{order} {args:?}");
        }
    }
}

/// A filter driver the user installed (global config, simulated with
/// `GIT_CONFIG_GLOBAL`) runs a command relative to the work tree
/// (`sh tools/x.sh`, as `python3 -m mod` imports the repository's own
/// `mod.py`), and the repository selects it, through its `.gitattributes`
/// or the user's global attributes: it never runs.
#[test]
fn the_user_s_own_filter_drivers_never_run_for_the_repository() {
    let p = repo();
    let marker = p.config_home.path().join("global-driver-ran");
    p.write(
        "tools/x.sh",
        &format!("touch '{}'\ncat\n", marker.display()),
    );
    p.write(".gitattributes", "*.py filter=x\n");
    git(&p, p.root(), &["add", "-A"]);
    git(&p, p.root(), &["commit", "-qm", "tools"]);
    p.write("a.py", "x = 3\n");
    let attributes = p.config_home.path().join("global-attributes");
    std::fs::write(&attributes, "*.txt filter=y\n").expect("write");
    let global = p.config_home.path().join("global.gitconfig");
    std::fs::write(
        &global,
        format!(
            "[filter \"x\"]\n\tclean = sh tools/x.sh\n\tsmudge = cat\n\trequired = true\n\
             [filter \"y\"]\n\tclean = sh tools/x.sh\n\
             [core]\n\tattributesFile = {}\n",
            attributes.display()
        ),
    )
    .expect("write");
    let global = global.display().to_string();
    let env = [("GIT_CONFIG_GLOBAL", global.as_str())];
    // git itself runs the driver on a stat-dirty tree.
    make_stat_dirty(p.root());
    let probe = Command::new("git")
        .args(["diff", "--name-only"])
        .current_dir(p.root())
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", &global)
        .output()
        .expect("git");
    assert!(probe.status.success());
    assert!(marker.exists(), "the global driver is live");
    std::fs::remove_file(&marker).expect("rm");

    for args in [
        &["build", "--diff", "HEAD"][..],
        &["build", "--changed"],
        &["add", "--changed"],
    ] {
        make_stat_dirty(p.root());
        let out = run_in(&p, p.root(), args, &env);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        assert!(!marker.exists(), "{args:?} ran the user's filter driver");
        if args[1] == "--diff" {
            assert!(
                stdout(&out).contains("\n-x = 2\n+x = 3\n"),
                "{}",
                stdout(&out)
            );
        }
    }
    assert!(preset_paths(&p).contains(&"a.py".to_string()));
}

/// A bare repository laid out at the project root (`HEAD`, `config`,
/// `objects/`, `refs/`, no `.git`) with `core.worktree = .` (and
/// `core.bare = false`, without which git refuses it) would make
/// the git directory itself the work tree: its `config`, `HEAD` and hooks
/// would be added as changed files. Refused, with the reason.
#[test]
fn a_bare_repository_at_the_root_is_refused() {
    let p = Project::empty();
    git(&p, p.root(), &["init", "-q", "--bare", "-b", "main"]);
    git(&p, p.root(), &["config", "core.bare", "false"]);
    git(&p, p.root(), &["config", "core.worktree", "."]);
    p.write("mine.py", "m = 1\n");
    for args in [
        &["build", "--diff"][..],
        &["build", "--changed"],
        &["add", "--changed"],
    ] {
        let out = run(&p, args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.contains("its git directory is the project itself"),
            "{args:?}: {err}"
        );
        assert!(!stdout(&out).contains("[core]"), "{args:?}");
    }
    assert!(preset_paths(&p).is_empty(), "{:?}", preset_paths(&p));
}

/// A tracked credential file (`*.tfvars`, `walk::is_sensitive`) that git
/// reports as changed is never in `--diff`, `--changed` or what
/// `add --changed` adds, and `add --changed` records no consent for
/// anything: the user named no file.
#[test]
fn changed_credential_files_never_reach_the_diff_the_preset_or_consent() {
    let p = repo();
    p.write("prod.tfvars", "db_password = \"old\"\n");
    git(&p, p.root(), &["add", "-A"]);
    git(&p, p.root(), &["commit", "-qm", "vars"]);
    p.write("a.py", "x = 3\n");
    p.write("prod.tfvars", "db_password = \"realpw\"\n");
    p.write("new.tfvars", "token = \"untrackedpw\"\n");
    for args in [
        &["build", "--diff", "HEAD"][..],
        &["build", "--changed"],
        &["build", "--changed", "--diff"],
    ] {
        let out = run(&p, args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        let text = stdout(&out);
        assert!(!text.contains("realpw"), "{args:?}: {text}");
        assert!(!text.contains("untrackedpw"), "{args:?}: {text}");
        // Named in a note only, never as a file, a part or an untracked
        // file of the context.
        let body: String = text
            .lines()
            .filter(|l| !l.starts_with("> note:"))
            .collect::<Vec<_>>()
            .join("\n");
        assert!(!body.contains("tfvars"), "{args:?}: {text}");
        assert!(text.contains("a.py"), "{args:?}: {text}");
        let said = format!("{text}{}", stderr(&out));
        assert!(
            said.contains("2 changed credential files left out"),
            "{args:?}: {said}"
        );
    }
    let out = run(&p, &["add", "--changed"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("2 changed credential files left out"),
        "{}",
        stderr(&out)
    );
    assert_eq!(preset_paths(&p), ["a.py"]);
    // Nothing was recorded as the user's own choice (the trust store,
    // under XDG_STATE_HOME, holds no allowed entry)…
    let store = p.config_home.path().join("state/ctxcurate/trust");
    for record in std::fs::read_dir(&store).into_iter().flatten().flatten() {
        let text = std::fs::read_to_string(record.path()).unwrap_or_default();
        assert!(!text.contains("allow "), "consent recorded: {text}");
    }
    // …so an entry the
    // repository adds to its preset later is still held.
    let file = p.read("ctxcurate.toml");
    p.write(
        "ctxcurate.toml",
        &file.replace("\"a.py\"", "\"a.py\", \"prod.tfvars\""),
    );
    let out = run(&p, &["build"]);
    let text = stdout(&out);
    assert!(!text.contains("realpw"), "{text}");
}
