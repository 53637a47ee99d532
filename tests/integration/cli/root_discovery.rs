//! Root discovery through the real binary: a `ctxcurate.toml` planted in a
//! shared folder (sticky and world-writable, like `/tmp`) or owned by
//! another user is not adopted from a folder below it, so its presets do
//! not pull the start folder's siblings into a build; the build works in
//! the start folder and says which file it passed over and how to use it
//! on purpose (`-C DIR`). Tests run as root, so any owner can be set.

use crate::common;

use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use common::{Project, stderr, stdout};

fn chown(path: &Path, uid: u32) {
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path; -1 leaves the group as is.
    let rc = unsafe { libc::chown(c.as_ptr(), uid, u32::MAX) };
    assert_eq!(rc, 0, "chown {}", path.display());
}

/// Not the uid the tests run as.
fn other_user() -> u32 {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 65534 {
        65533
    } else {
        65534
    }
}

/// `outer/` holds a planted project file whose preset takes every file,
/// a sibling's private notes, and the user's own `work/` folder.
fn planted(p: &Project) -> std::path::PathBuf {
    p.write(
        "outer/ctxcurate.toml",
        "[[presets.default.files]]\npath = \"**\"\n",
    );
    p.write("outer/sibling/notes.txt", "SIBLING_PRIVATE\n");
    p.write("outer/work/app.py", "print('mine')\n");
    std::fs::canonicalize(p.path("outer")).unwrap()
}

fn build_in(p: &Project, dir: &Path, args: &[&str]) -> std::process::Output {
    let mut cmd = p.cmd(args);
    cmd.current_dir(dir);
    cmd.output().unwrap()
}

#[test]
fn a_project_file_in_a_shared_folder_is_not_adopted_from_below() {
    let p = Project::empty();
    let outer = planted(&p);
    std::fs::set_permissions(&outer, std::fs::Permissions::from_mode(0o1777)).unwrap();
    let work = outer.join("work");
    let out = build_in(&p, &work, &["build"]);
    let (text, err) = (stdout(&out), stderr(&out));
    assert!(!text.contains("SIBLING_PRIVATE"), "{text}");
    assert!(!text.contains("notes.txt"), "{text}");
    assert!(
        err.contains(&format!(
            "warning: {}/ctxcurate.toml was not adopted: reaching it crosses {}, a folder \
             every user can write to; the project root is {}. To use that project on purpose, \
             run `ctxcurate -C {}`",
            outer.display(),
            outer.display(),
            work.display(),
            outer.display()
        )),
        "{err}"
    );
    // On purpose, it is the project.
    let out = build_in(&p, &work, &["-C", outer.to_str().unwrap(), "build"]);
    assert!(stdout(&out).contains("SIBLING_PRIVATE"), "{}", stderr(&out));
}

#[test]
fn another_users_project_file_is_not_adopted_from_below() {
    let p = Project::empty();
    let outer = planted(&p);
    let other = other_user();
    chown(&outer.join("ctxcurate.toml"), other);
    let work = outer.join("work");
    let out = build_in(&p, &work, &["build"]);
    let (text, err) = (stdout(&out), stderr(&out));
    assert!(!text.contains("SIBLING_PRIVATE"), "{text}");
    assert!(
        err.contains(&format!(
            "warning: {}/ctxcurate.toml was not adopted: it belongs to another user \
             (uid {other}); the project root is {}. To use that project on purpose, run \
             `ctxcurate -C {}`",
            outer.display(),
            work.display(),
            outer.display()
        )),
        "{err}"
    );
    // Named with -C it is adopted, and the build says whose it is.
    let out = build_in(&p, &work, &["-C", outer.to_str().unwrap(), "build"]);
    assert!(stdout(&out).contains("SIBLING_PRIVATE"), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!(
            "warning: {}/ctxcurate.toml belongs to another user (uid {other}); its presets \
             decide what is sent",
            outer.display()
        )),
        "{}",
        stderr(&out)
    );
}

#[test]
fn the_users_own_project_file_above_is_adopted_as_before() {
    let p = Project::empty();
    let outer = planted(&p);
    let out = build_in(&p, &outer.join("work"), &["build"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("SIBLING_PRIVATE"));
    assert!(!stderr(&out).contains("not adopted"), "{}", stderr(&out));
}
