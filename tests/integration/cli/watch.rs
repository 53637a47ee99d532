//! `ctxcurate build --watch -o FILE`, the real binary in a temp project:
//! it builds, then rewrites the output when an included file changes or a
//! file appears, one report line per rebuild naming what changed, not for
//! a file the output does not hold; SIGTERM and Ctrl-C end it cleanly
//! (status 0, nothing left behind); without `-o` it refuses.

use std::io::{BufRead, BufReader};
use std::process::{Child, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use crate::common;

use common::Project;

/// The watcher's stderr, line by line, from a thread.
fn lines_of(child: &mut Child) -> Receiver<String> {
    let stderr = child.stderr.take().expect("stderr piped");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    rx
}

/// Lines until one contains `needle` (all of them, for the message).
fn wait_for(rx: &Receiver<String>, needle: &str) -> Vec<String> {
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut seen = Vec::new();
    while let Some(left) = deadline.checked_duration_since(Instant::now()) {
        match rx.recv_timeout(left) {
            Ok(line) => {
                let hit = line.contains(needle);
                seen.push(line);
                if hit {
                    return seen;
                }
            }
            Err(_) => break,
        }
    }
    panic!("no line with {needle:?} in {seen:#?}");
}

/// Lines arriving within `within` (none expected, say).
fn quiet_for(rx: &Receiver<String>, within: Duration) -> Vec<String> {
    let deadline = Instant::now() + within;
    let mut seen = Vec::new();
    while let Some(left) = deadline.checked_duration_since(Instant::now()) {
        if let Ok(line) = rx.recv_timeout(left) {
            seen.push(line);
        }
    }
    seen
}

fn project() -> Project {
    let p = Project::empty();
    p.write("src/a.py", "def a():\n    return 1\n");
    p.write("README.md", "# Not in the preset\n");
    p.write(
        "ctxcurate.toml",
        "[[presets.default.files]]\npath = \"src/**\"\n",
    );
    p
}

fn spawn_watch(p: &Project) -> (Child, Receiver<String>) {
    let mut child = p
        .cmd(&["build", "--watch", "-o", "out.md"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn ctxcurate build --watch");
    let rx = lines_of(&mut child);
    wait_for(&rx, "watching ");
    (child, rx)
}

fn signal(child: &Child, sig: i32) {
    let pid = i32::try_from(child.id()).expect("pid");
    // SAFETY: a plain kill(2) to our own child.
    assert_eq!(unsafe { libc::kill(pid, sig) }, 0);
}

fn finish(mut child: Child, rx: &Receiver<String>) -> std::process::ExitStatus {
    wait_for(rx, "stopped watching");
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            return status;
        }
        assert!(Instant::now() < deadline, "the watch did not end");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn names_in_root(p: &Project) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(p.root())
        .expect("read_dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn build_watch_rewrites_the_output_when_an_included_file_changes_and_ends_on_sigterm() {
    let p = project();
    let (child, rx) = spawn_watch(&p);
    let out = p.read("out.md");
    assert!(out.contains("return 1"), "{out}");

    p.write("src/a.py", "def a():\n    return 2\n");
    let seen = wait_for(&rx, "src/a.py changed · ");
    let line = seen.last().expect("a line");
    assert!(
        line.contains("1 files") || line.contains("1 file"),
        "{line}"
    );
    assert!(
        line.ends_with("written to out.md") || line.contains("out.md"),
        "{line}"
    );
    assert!(p.read("out.md").contains("return 2"));

    // A file the output does not hold: no rebuild.
    p.write("README.md", "# Still not in the preset\n");
    let extra = quiet_for(&rx, Duration::from_millis(1500));
    assert!(extra.is_empty(), "{extra:#?}");

    // A new file the preset's glob takes.
    p.write("src/b.py", "def b():\n    return 3\n");
    wait_for(&rx, "src/b.py changed · 2 files");
    assert!(p.read("out.md").contains("def b():"));

    signal(&child, libc::SIGTERM);
    let status = finish(child, &rx);
    assert_eq!(status.code(), Some(0), "{status:?}");
    // The output and nothing half written beside it.
    let names = names_in_root(&p);
    assert_eq!(
        names,
        [".ctxcurate", "README.md", "ctxcurate.toml", "out.md", "src"]
    );
}

#[test]
fn ctrl_c_ends_the_watch_cleanly_and_a_failed_rebuild_keeps_watching() {
    let p = project();
    let (child, rx) = spawn_watch(&p);
    // The project file breaks: said, and the watch goes on…
    p.write("ctxcurate.toml", "[[presets.default.files]\n");
    wait_for(&rx, "(still watching)");
    // …and builds again once it is fixed.
    p.write(
        "ctxcurate.toml",
        "[[presets.default.files]]\npath = \"src/a.py\"\n",
    );
    wait_for(&rx, "ctxcurate.toml changed · 1 file");
    signal(&child, libc::SIGINT);
    let status = finish(child, &rx);
    assert_eq!(status.code(), Some(0), "{status:?}");
}

#[test]
fn build_watch_without_an_output_file_refuses() {
    let p = project();
    let out = p.run(&["build", "--watch"]);
    assert_eq!(out.status.code(), Some(1));
    let err = common::stderr(&out);
    assert!(
        err.contains("--watch rewrites a file: give it with -o FILE"),
        "{err}"
    );
    let out = p.run(&["build", "--watch", "--save"]);
    assert_eq!(out.status.code(), Some(1), "{}", common::stderr(&out));
}

#[test]
fn an_output_inside_the_project_is_left_out_of_its_own_rebuilds() {
    let p = project();
    p.write(
        "ctxcurate.toml",
        "[[presets.default.files]]\npath = \"**\"\n",
    );
    let (child, rx) = spawn_watch(&p);
    p.write("src/b.py", "def b():\n    return 3\n");
    // src/a.py, src/b.py and README.md: not out.md, written a moment ago.
    wait_for(&rx, "src/b.py changed · 3 files");
    let out = p.read("out.md");
    assert!(!out.contains("out.md"), "{out}");
    signal(&child, libc::SIGTERM);
    assert_eq!(finish(child, &rx).code(), Some(0));
}

/// The watch follows the ignore rules as they change: a new `.gitignore`
/// pattern takes a file out of the output, and a `[project] ignore` lifted
/// in ctxcurate.toml brings a folder in — watched from then on, so a
/// change there rebuilds too (the watch chose its folders at the start,
/// without it).
#[test]
fn build_watch_follows_a_new_ignore_pattern_and_lifted_project_ignores() {
    let p = Project::empty();
    p.write("src/a.py", "def a():\n    return 'ay'\n");
    p.write("src/b.py", "def b():\n    return 'bee'\n");
    p.write("gen/deep/g.py", "def g():\n    return 'old'\n");
    p.write(
        "ctxcurate.toml",
        "[project]\nignore = [\"gen/\"]\n\n[[presets.default.files]]\npath = \"**/*.py\"\n",
    );
    let (child, rx) = spawn_watch(&p);
    let out = p.read("out.md");
    assert!(out.contains("'bee'") && !out.contains("'old'"), "{out}");

    p.write(".gitignore", "src/b.py\n");
    wait_for(&rx, ".gitignore changed · 1 file");
    let out = p.read("out.md");
    assert!(out.contains("'ay'") && !out.contains("'bee'"), "{out}");

    p.write(
        "ctxcurate.toml",
        "[[presets.default.files]]\npath = \"**/*.py\"\n",
    );
    wait_for(&rx, "ctxcurate.toml changed · 2 files");
    assert!(p.read("out.md").contains("'old'"));
    // The watch chooses its folders again on its own thread: a moment.
    std::thread::sleep(Duration::from_millis(800));
    p.write("gen/deep/g.py", "def g():\n    return 'new'\n");
    wait_for(&rx, "gen/deep/g.py changed · 2 files");
    assert!(p.read("out.md").contains("'new'"));
    signal(&child, libc::SIGTERM);
    assert_eq!(finish(child, &rx).code(), Some(0));
}

/// `ctxcurate preset apply` from another shell while `build --watch` runs
/// (no `-p`): the output is rebuilt with the preset now chosen.
#[test]
fn build_watch_rebuilds_when_a_preset_is_applied_from_another_shell() {
    let p = Project::empty();
    p.write("a.py", "def a():\n    return 'ay'\n");
    p.write("b.py", "def b():\n    return 'bee'\n");
    p.write(
        "ctxcurate.toml",
        "[presets.a]\nfiles = [\"a.py\"]\n\n[presets.b]\nfiles = [\"b.py\"]\n",
    );
    let out = p.run(&["preset", "apply", "a"]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let (child, rx) = spawn_watch(&p);
    assert!(p.read("out.md").contains("'ay'"));
    let out = p.run(&["preset", "apply", "b"]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    wait_for(&rx, "your own preset or settings changed · 1 file");
    let out = p.read("out.md");
    assert!(out.contains("'bee'") && !out.contains("'ay'"), "{out}");
    signal(&child, libc::SIGTERM);
    assert_eq!(finish(child, &rx).code(), Some(0));
}

/// The project folder renamed and replaced by a link while watching: the
/// watch stops saying so (sweep 13, W2), where a rebuild read and wrote
/// the link's target, a folder outside the project.
#[cfg(unix)]
#[test]
fn a_watch_whose_project_folder_is_replaced_stops() {
    let p = project();
    let (mut child, rx) = spawn_watch(&p);
    let root = p.root().to_path_buf();
    let moved = root.with_extension("moved");
    let elsewhere = tempfile::tempdir().expect("tempdir");
    std::fs::rename(&root, &moved).expect("rename");
    std::os::unix::fs::symlink(elsewhere.path(), &root).expect("symlink");
    std::fs::write(moved.join("src/a.py"), "def a():\n    return 2\n").expect("write");
    let seen = wait_for(&rx, "stopped watching");
    let status = child.wait().expect("wait");
    // Put the project back where its TempDir removes it.
    std::fs::remove_file(&root).expect("rm link");
    std::fs::rename(&moved, &root).expect("rename back");
    assert_eq!(status.code(), Some(1), "{seen:#?}");
    assert!(seen.iter().any(|l| l.contains("was moved")), "{seen:#?}");
    let left: Vec<_> = std::fs::read_dir(elsewhere.path()).expect("ls").collect();
    assert!(left.is_empty(), "written elsewhere: {left:?}");
}
