//! `build -o FILE` against links a repository ships, through the real
//! binary: an output file or a folder on its way that is a symlink out of
//! the project is refused with an error naming the link and where it
//! leads (`build`, `build --watch`), and nothing outside changes; a link
//! that stays inside is written through; a path the user names outside
//! the project is theirs.

#![cfg(unix)]

use std::os::unix::fs::symlink;
use std::path::PathBuf;
use std::time::Duration;

use crate::common;

use common::{Project, output_within, stderr};

/// A project with one included file, and a folder outside it holding a
/// stand-in for `~/.bashrc`.
fn project() -> (Project, tempfile::TempDir) {
    let p = Project::empty();
    p.write("src/a.py", "def a():\n    return 1\n");
    p.write(
        "ctxcurate.toml",
        "[[presets.default.files]]\npath = \"src/**\"\n",
    );
    let outside = tempfile::tempdir().expect("tempdir");
    std::fs::write(outside.path().join("bashrc"), "export PATH=/usr/bin\n").expect("write");
    (p, outside)
}

fn bashrc(outside: &tempfile::TempDir) -> String {
    std::fs::read_to_string(outside.path().join("bashrc")).expect("read")
}

#[test]
fn an_output_file_that_links_out_of_the_project_is_refused() {
    let (p, outside) = project();
    let target = outside.path().join("bashrc");
    symlink(&target, p.path("context.md")).expect("symlink");
    let out = p.run(&["build", "-o", "context.md"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    let real = std::fs::canonicalize(&target).expect("canonical");
    assert!(
        err.contains("context.md is a symlink to ")
            && err.contains(&real.display().to_string())
            && err.contains("outside the project root; refusing to write through it"),
        "{err}"
    );
    assert!(!err.contains("written to"), "{err}");
    assert_eq!(bashrc(&outside), "export PATH=/usr/bin\n");
    assert!(
        std::fs::symlink_metadata(p.path("context.md"))
            .expect("still there")
            .file_type()
            .is_symlink(),
        "the link itself is left alone"
    );
}

#[test]
fn an_output_folder_that_links_out_of_the_project_is_refused() {
    let (p, outside) = project();
    symlink(outside.path(), p.path("out")).expect("symlink");
    for path in ["out/context.md", "out/bashrc", "./out/../out/new/ctx.md"] {
        let out = p.run(&["build", "-o", path]);
        assert_eq!(out.status.code(), Some(1), "{path}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.contains("is a symlink to ") && err.contains("outside the project root"),
            "{path}: {err}"
        );
    }
    assert_eq!(bashrc(&outside), "export PATH=/usr/bin\n");
    let mut names: Vec<String> = std::fs::read_dir(outside.path())
        .expect("read_dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["bashrc"], "nothing written outside");
    // A dangling link that would create a file outside is refused too.
    symlink(outside.path().join("new.md"), p.path("dangling.md")).expect("symlink");
    let out = p.run(&["build", "-o", "dangling.md"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(!outside.path().join("new.md").exists());
}

#[test]
fn build_watch_refuses_an_output_that_links_out() {
    let (p, outside) = project();
    symlink(outside.path().join("bashrc"), p.path("context.md")).expect("symlink");
    let out = output_within(
        p.cmd(&["build", "--watch", "-o", "context.md"]),
        Duration::from_secs(30),
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("context.md is a symlink to ") && !err.contains("watching "),
        "{err}"
    );
    assert_eq!(bashrc(&outside), "export PATH=/usr/bin\n");
}

#[test]
fn links_inside_and_paths_the_user_names_outside_are_written() {
    let (p, outside) = project();
    // A folder link that stays in the project: written through.
    p.write("docs/ctx.md", "older\n");
    symlink("docs", p.path("doclink")).expect("symlink");
    p.ok(&["build", "-o", "doclink/other.md"]);
    assert!(p.read("docs/other.md").contains("return 1"));
    // A path the user names outside the project, even through their own
    // link, is theirs.
    let mine = outside.path().join("mine.md");
    p.ok(&["build", "-o", mine.to_str().expect("utf-8")]);
    assert!(
        std::fs::read_to_string(&mine)
            .expect("read")
            .contains("return 1")
    );
    let theirs = outside.path().join("link-to-bashrc");
    symlink(outside.path().join("bashrc"), &theirs).expect("symlink");
    p.ok(&["build", "-o", theirs.to_str().expect("utf-8")]);
    assert!(bashrc(&outside).contains("return 1"), "the user's own link");
}

/// The project reached through the user's own link to it: the link the
/// repository ships is still refused.
#[test]
fn a_project_reached_through_a_link_still_refuses_its_links_out() {
    let (p, outside) = project();
    symlink(outside.path().join("bashrc"), p.path("context.md")).expect("symlink");
    let via = tempfile::tempdir().expect("tempdir");
    let alias = via.path().join("proj");
    symlink(p.root(), &alias).expect("symlink");
    let out = p.run_in(&alias, &["build", "-o", "context.md"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let named = alias.join("context.md");
    let out = p.run(&["build", "-o", named.to_str().expect("utf-8")]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(bashrc(&outside), "export PATH=/usr/bin\n");
}

/// A link swapped in between the check and the write (another process
/// exchanging `out/` with a link out of the project, as fast as it can,
/// while builds write `-o out/ctx.md`): the write is done on descriptors
/// beneath the root, so nothing ever lands outside. Before, 2 of 200
/// builds wrote there.
#[test]
fn a_link_swapped_in_while_writing_is_never_followed() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    let (p, outside) = project();
    std::fs::create_dir(p.path("out")).expect("mkdir");
    symlink(outside.path(), p.path("swap")).expect("symlink");
    let stop = Arc::new(AtomicBool::new(false));
    let racer = {
        let stop = stop.clone();
        let a = std::ffi::CString::new(p.path("out").as_os_str().as_encoded_bytes()).expect("c");
        let b = std::ffi::CString::new(p.path("swap").as_os_str().as_encoded_bytes()).expect("c");
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                // SAFETY: two NUL-terminated paths; the result is ignored
                // (a failed exchange only skips a turn).
                unsafe {
                    libc::renameat2(
                        libc::AT_FDCWD,
                        a.as_ptr(),
                        libc::AT_FDCWD,
                        b.as_ptr(),
                        libc::RENAME_EXCHANGE,
                    )
                };
            }
        })
    };
    for _ in 0..60 {
        let _ = p.run(&["build", "-o", "out/ctx.md"]);
    }
    stop.store(true, Ordering::Relaxed);
    racer.join().expect("racer");
    let mut names: Vec<String> = std::fs::read_dir(outside.path())
        .expect("read_dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["bashrc"], "written outside through a swapped link");
}

/// A link to a link that leads out (`ctx.md -> b`, `b -> outside`), also
/// when the last one dangles: refused, naming where it leads.
#[test]
fn a_chain_of_links_out_is_refused() {
    let (p, outside) = project();
    symlink("b", p.path("ctx.md")).expect("symlink");
    symlink(outside.path().join("bashrc"), p.path("b")).expect("symlink");
    symlink("e", p.path("c.md")).expect("symlink");
    symlink(outside.path().join("new.md"), p.path("e")).expect("symlink");
    for path in ["ctx.md", "c.md"] {
        let out = p.run(&["build", "-o", path]);
        assert_eq!(out.status.code(), Some(1), "{path}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("outside the project root; refusing to write through it"),
            "{path}: {}",
            stderr(&out)
        );
    }
    assert_eq!(bashrc(&outside), "export PATH=/usr/bin\n");
    assert!(!outside.path().join("new.md").exists());
}

/// `build --save` writes its numbered file through descriptors too: the
/// output folder swapped for a link out of the project while saving is
/// refused, never followed (before, only the numbered name was claimed
/// without following a link; the folder was checked and then used by
/// path).
#[test]
fn a_save_folder_swapped_for_a_link_is_never_followed() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    let (p, outside) = project();
    p.write(
        "ctxcurate.toml",
        "[project]\noutput_dir = \"out\"\n\n[[presets.default.files]]\npath = \"src/**\"\n",
    );
    std::fs::create_dir(p.path("out")).expect("mkdir");
    symlink(outside.path(), p.path("swap")).expect("symlink");
    let stop = Arc::new(AtomicBool::new(false));
    let racer = {
        let stop = stop.clone();
        let a = std::ffi::CString::new(p.path("out").as_os_str().as_encoded_bytes()).expect("c");
        let b = std::ffi::CString::new(p.path("swap").as_os_str().as_encoded_bytes()).expect("c");
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                // SAFETY: two NUL-terminated paths; the result is ignored
                // (a failed exchange only skips a turn).
                unsafe {
                    libc::renameat2(
                        libc::AT_FDCWD,
                        a.as_ptr(),
                        libc::AT_FDCWD,
                        b.as_ptr(),
                        libc::RENAME_EXCHANGE,
                    )
                };
            }
        })
    };
    let mut saved = 0;
    for _ in 0..60 {
        let out = p.run(&["build", "--save"]);
        saved += usize::from(out.status.success());
    }
    stop.store(true, Ordering::Relaxed);
    racer.join().expect("racer");
    let mut names: Vec<String> = std::fs::read_dir(outside.path())
        .expect("read_dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["bashrc"], "written outside through a swapped link");
    assert!(saved > 0, "no save got through at all");
}

/// A numbered name the repository ships as a link out is skipped, and a
/// save into a folder that is a link out (two levels down) is refused.
#[test]
fn numbered_saves_skip_shipped_links_and_refuse_folders_that_lead_out() {
    let (p, outside) = project();
    std::fs::create_dir_all(p.path(".ctxcurate/out")).expect("mkdir");
    symlink(
        outside.path().join("bashrc"),
        p.path(".ctxcurate/out/context_001.md"),
    )
    .expect("symlink");
    let out = p.run(&["build", "--save"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(".ctxcurate/out/context_002.md"),
        "{}",
        stderr(&out)
    );
    assert_eq!(bashrc(&outside), "export PATH=/usr/bin\n");
    p.write(
        "ctxcurate.toml",
        "[project]\noutput_dir = \"gen/a/b\"\n\n[[presets.default.files]]\npath = \"src/**\"\n",
    );
    std::fs::create_dir_all(p.path("gen/a")).expect("mkdir");
    symlink(outside.path(), p.path("gen/a/b")).expect("symlink");
    let out = p.run(&["build", "--save"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("is a symlink that leads outside the project root"),
        "{}",
        stderr(&out)
    );
    let names: Vec<_> = std::fs::read_dir(outside.path()).expect("read").collect();
    assert_eq!(names.len(), 1, "nothing written outside");
}

/// A FIFO the repository ships beneath the root where the output goes is
/// refused with an error, not written into: the build blocked for ever
/// (a device node, which only root can make, was written through the
/// same way). Outside the root a FIFO the user names is theirs.
#[test]
fn an_output_file_that_is_a_fifo_beneath_the_root_is_refused() {
    let (p, _outside) = project();
    let _fifo = common::git::Fifo::make(p.path("context.md"));
    let out = output_within(
        p.cmd(&["build", "-o", "context.md"]),
        Duration::from_secs(20),
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("context.md is a FIFO; refusing to write the output into it"),
        "{}",
        stderr(&out)
    );
}

/// What is in the way of the output is named for what it is (sweep 12):
/// an `output_dir` that is a FIFO or a file was reported as a link, and
/// `-o sub/` wrote a file named `sub`.
#[test]
fn an_output_folder_that_is_no_folder_is_named_for_what_it_is() {
    let (p, _outside) = project();
    let _fifo = common::git::Fifo::make(p.path("out"));
    p.write("file", "keep\n");
    for (dir, what) in [
        ("out", "out is a FIFO, not a folder"),
        ("file", "file is a file, not a folder"),
    ] {
        p.write(
            "ctxcurate.toml",
            &format!(
                "[project]\noutput_dir = \"{dir}\"\n[[presets.default.files]]\npath = \"src/**\"\n"
            ),
        );
        let out = output_within(p.cmd(&["build", "--save"]), Duration::from_secs(20));
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{dir}: {err}");
        assert!(err.contains(what), "{dir}: {err}");
        assert!(!err.contains("symbolic link"), "{dir}: {err}");
    }
    assert_eq!(p.read("file"), "keep\n");

    let out = output_within(p.cmd(&["build", "-o", "sub/"]), Duration::from_secs(20));
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("names a folder"), "{err}");
    assert!(!p.path("sub").exists(), "no file `sub` was written");

    // The project file is not replaced by the output (a slip of `-o`).
    let before = p.read("ctxcurate.toml");
    let out = output_within(
        p.cmd(&["build", "-o", "ctxcurate.toml"]),
        Duration::from_secs(20),
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("is the project file"), "{err}");
    assert_eq!(p.read("ctxcurate.toml"), before);
}

/// A link beneath the root at the output file itself, even one that
/// stays inside, is refused (sweep 13, S1): `context.md ->
/// .git/hooks/pre-commit` made the next commit run the context, `->
/// .git/config` broke the repository, `-> a.py` replaced a source (and a
/// watch fed its output back into it). A folder link that lands in
/// `.git` or `.ctxcurate` is refused too. Nothing changes.
#[test]
fn an_output_link_into_the_project_or_its_repository_is_refused() {
    let (p, _outside) = project();
    common::git::init(&p, p.path(".").as_path());
    let hook = p.path(".git/hooks/pre-commit");
    std::fs::write(&hook, "#!/bin/sh\nexit 0\n").expect("write");
    let config = p.read(".git/config");
    symlink("../.git/hooks/pre-commit", p.path("src/context.md")).expect("symlink");
    symlink(".git/config", p.path("context.md")).expect("symlink");
    symlink("src/a.py", p.path("source.md")).expect("symlink");
    symlink(".git/hooks/post-checkout", p.path("dangling.md")).expect("symlink");
    symlink(".git/hooks", p.path("hooks")).expect("symlink");
    for output in [
        "src/context.md",
        "context.md",
        "source.md",
        "dangling.md",
        "hooks/post-commit",
    ] {
        let out = output_within(p.cmd(&["build", "-o", output]), Duration::from_secs(20));
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{output}: {err}");
        assert!(err.contains("refusing to write"), "{output}: {err}");
    }
    let out = output_within(
        p.cmd(&["build", "--watch", "-o", "source.md"]),
        Duration::from_secs(20),
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(&hook).expect("read"),
        "#!/bin/sh\nexit 0\n"
    );
    assert_eq!(p.read(".git/config"), config);
    assert_eq!(p.read("src/a.py"), "def a():\n    return 1\n");
    assert!(!p.path(".git/hooks/post-checkout").exists());
    assert!(!p.path(".git/hooks/post-commit").exists());
}

/// The same with the git folder elsewhere in the root, named by a
/// `.git` file (`git clone --separate-git-dir=gd`) or a `.git` link: a
/// folder link into it was written through, and the next commit ran the
/// context as its hook (recheck 17 F17-1).
#[test]
fn an_output_link_into_a_git_folder_named_by_a_gitdir_file_is_refused() {
    for layout in ["gitdir file", "link"] {
        let (p, _outside) = project();
        common::git::init(&p, p.path(".").as_path());
        std::fs::rename(p.path(".git"), p.path("gd")).expect("move");
        match layout {
            "gitdir file" => p.write(".git", "gitdir: gd\n"),
            _ => symlink("gd", p.path(".git")).expect("symlink"),
        }
        let hook = p.path("gd/hooks/pre-commit");
        std::fs::write(&hook, "#!/bin/sh\nexit 0\n").expect("write");
        symlink("gd/hooks", p.path("hk")).expect("symlink");
        let out = output_within(
            p.cmd(&["build", "-o", "hk/pre-commit"]),
            Duration::from_secs(20),
        );
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{layout}: {err}");
        assert!(err.contains("refusing to write"), "{layout}: {err}");
        assert_eq!(
            std::fs::read_to_string(&hook).expect("read"),
            "#!/bin/sh\nexit 0\n"
        );
    }
}

/// A project file or `.ctxcurate` that is a link into `.git` is not
/// written through (sweep 13, S2): `ctxcurate.toml -> .git/config` made
/// `add` append a preset to the checkout's git config, and `.ctxcurate
/// -> .git` put caches, outputs and the lock there.
#[test]
fn the_project_file_or_state_linked_into_git_is_not_written_through() {
    let p = Project::empty();
    p.write("a.py", "x = 1\n");
    common::git::init(&p, p.path(".").as_path());
    let config = p.read(".git/config");
    symlink(".git/config", p.path("ctxcurate.toml")).expect("symlink");
    let out = p.run(&["add", "a.py"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("version control folder"), "{err}");
    assert_eq!(p.read(".git/config"), config);

    std::fs::remove_file(p.path("ctxcurate.toml")).expect("rm");
    p.write(
        "ctxcurate.toml",
        "[[presets.default.files]]\npath = \"a.py\"\n",
    );
    symlink(".git", p.path(".ctxcurate")).expect("symlink");
    let before: Vec<_> = std::fs::read_dir(p.path(".git")).expect("ls").collect();
    for args in [&["add", "a.py"][..], &["build", "--save"]] {
        let out = p.run(args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains("version control"), "{args:?}: {err}");
    }
    let after: Vec<_> = std::fs::read_dir(p.path(".git")).expect("ls").collect();
    assert_eq!(after.len(), before.len(), "nothing new in .git");
}

/// An `-o` path that climbs out of the root and comes back in
/// (`../proj/context.md`, a script's `-C "$R" -o "$R/context.md"` with a
/// relative `$R`, the user's own link to the project, a folder made on
/// the way and left by `..`) is checked where it lands, as `-o
/// context.md` is (recheck 14, F1: it wrote through `context.md ->
/// .git/hooks/pre-commit` and the next commit ran the context).
#[test]
fn an_output_path_that_leaves_the_root_and_comes_back_is_checked_where_it_lands() {
    let (p, outside) = project();
    common::git::init(&p, p.path(".").as_path());
    let hook = p.path(".git/hooks/pre-commit");
    std::fs::write(&hook, "#!/bin/sh\nexit 0\n").expect("write");
    symlink(".git/hooks/pre-commit", p.path("context.md")).expect("symlink");
    symlink(".git/hooks", p.path("hooks")).expect("symlink");
    let root = p.path(".");
    let root = root.canonicalize().expect("root");
    let name = root.file_name().expect("name").to_str().expect("utf-8");
    let plink = outside.path().join("plink");
    symlink(&root, &plink).expect("symlink");
    let back = format!("../{name}/context.md");
    let from_src = format!("../../{name}/context.md");
    let through_hooks = format!("../{name}/hooks/post-commit");
    let made_and_left = format!("new/../../{name}/context.md");
    let via_link = plink.join("context.md");
    let via_link = via_link.to_str().expect("utf-8");
    let cases: Vec<(Vec<&str>, PathBuf)> = vec![
        (vec!["build", "-o", &back], root.clone()),
        (vec!["build", "-o", &from_src], root.join("src")),
        (vec!["build", "-o", &through_hooks], root.clone()),
        (vec!["build", "-o", "new/../context.md"], root.clone()),
        (vec!["build", "-o", &made_and_left], root.clone()),
        (vec!["build", "-o", via_link], root.clone()),
        (
            vec!["-C", "plink", "build", "-o", "context.md"],
            outside.path().to_path_buf(),
        ),
        // `..` after the link is the project's parent, as the system
        // reads it: back into the project by its own name.
        (
            vec!["-C", "plink", "build", "-o", &back],
            outside.path().to_path_buf(),
        ),
        (vec!["build", "--watch", "-o", &back], root.clone()),
    ];
    for (args, dir) in &cases {
        let mut cmd = p.cmd(args);
        cmd.current_dir(dir);
        let out = output_within(cmd, Duration::from_secs(20));
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?} in {dir:?}: {err}");
        assert!(err.contains("refusing to write"), "{args:?}: {err}");
    }
    assert_eq!(
        std::fs::read_to_string(&hook).expect("read"),
        "#!/bin/sh\nexit 0\n"
    );
    assert!(!p.path(".git/hooks/post-commit").exists());
    // A path that leaves and lands outside is the user's own.
    let mine = outside.path().join("mine.md");
    let out = p.run(&["build", "-o", mine.to_str().expect("utf-8")]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(mine.is_file());
}
