//! A test that needs its own environment runs in a child process.
//!
//! Every test of this binary shares one process, and so one environment:
//! a test never changes it (`std::env::set_var` races with each thread
//! that reads a variable, and the value would leak into every other
//! test). The real binary gets its environment on its `Command`
//! (`Project::cmd`); a test of an in-process API that reads the
//! environment (`core::project::Project::open` finds the user's config
//! and consents there) runs that part in a child process of this test
//! binary instead, given the environment there.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::Project;

/// Set in the child: the folder the parent handed it.
const FOLDER: &str = "CTXCURATE_TEST_ISOLATED_IN";

/// In the child process: the folder [`run_in_child`] handed over. `None`
/// in the parent, which sets the test up and calls [`run_in_child`].
pub fn child_folder() -> Option<PathBuf> {
    std::env::var_os(FOLDER).map(PathBuf::from)
}

/// Run the calling test again, alone, in a child process of this test
/// binary whose environment is `project`'s isolated config home (as
/// `Project::cmd` gives the real binary), with `folder` for
/// [`child_folder`]; fail unless that one test ran there and passed.
pub fn run_in_child(project: &Project, folder: &Path) {
    // The harness names each test's thread after the test.
    let test = std::thread::current()
        .name()
        .expect("called on a test's thread")
        .to_string();
    let home = project.config_home.path();
    let out = Command::new(std::env::current_exe().expect("this test binary"))
        .args([test.as_str(), "--exact", "--test-threads=1", "--nocapture"])
        .env(FOLDER, folder)
        .env("XDG_CONFIG_HOME", home)
        .env("HOME", home)
        .env("XDG_STATE_HOME", home.join("state"))
        .env_remove("CTXCURATE_CONFIG")
        .stdin(Stdio::null())
        .output()
        .expect("run this test binary");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("test result: ok. 1 passed"),
        "{test} in a child process:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
