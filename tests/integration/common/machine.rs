//! The one switch for the tests that need this machine's corpora and
//! tools: the Python standard library and pip, the headers under
//! `/usr/include`, gcc, universal-ctags, tmux, Xvfb and xclip, and the
//! projects `.ci/run` downloads into `target/corpora`.
//!
//! Without `CTXCURATE_SLOW_TESTS=1` such a test skips, and says so on
//! stderr past the test harness's capture (`skipped <test>: needs <what>`),
//! so a bare `cargo test` needs nothing but Rust, git and a POSIX shell,
//! and passes honestly. With it (`.ci/run` sets it) a missing corpus or
//! tool fails the test that needs it: CI cannot pass by checking nothing.
//! Every such test asks here, through [`need`] or one of the named needs
//! below, and nowhere else.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::corpus;

/// The environment variable that turns the machine's tests on.
pub const SWITCH: &str = "CTXCURATE_SLOW_TESTS";

/// Whether the switch is on (set, not empty, not `0`).
pub fn on() -> bool {
    std::env::var_os(SWITCH).is_some_and(|v| !v.is_empty() && v != "0")
}

/// `find`'s answer for a test that needs `what`. Without the switch:
/// `None` after the skip line, and `find` is not called (so a bare run
/// spawns no python3, reads no corpus). With it: the value, or a failure
/// naming what is missing.
pub fn need<T>(what: &str, find: impl FnOnce() -> Option<T>) -> Option<T> {
    if !on() {
        skipped(what);
        return None;
    }
    Some(require(what, find()))
}

/// For what a test finds after its gate (an oracle it starts midway, a
/// header it reads): the value, or a failure naming `what`. Call it only
/// in a test that passed [`need`] (the switch is on there).
pub fn require<T>(what: &str, found: Option<T>) -> T {
    match found {
        Some(value) => value,
        None => panic!(
            "{} needs {what}, which this machine lacks ({SWITCH} is set; .ci/run installs it)",
            test_name()
        ),
    }
}

/// The Python standard library of the `python3` on `PATH`.
pub fn python_stdlib() -> Option<PathBuf> {
    need("python3 and its standard library", corpus::python_stdlib)
}

/// The folder of the pip package that `python3` imports, with its
/// vendored libraries (`_vendor`) and, once pip has run, its
/// `__pycache__` folders; `CTXCURATE_PIP_DIR` names another copy.
pub fn pip() -> Option<PathBuf> {
    need(
        "pip for python3 with its vendored libraries (python3-pip)",
        || {
            if let Some(dir) = std::env::var_os("CTXCURATE_PIP_DIR") {
                return Some(PathBuf::from(dir));
            }
            let out = Command::new("python3")
                .args(["-c", "import os, pip; print(os.path.dirname(pip.__file__))"])
                .stderr(Stdio::null())
                .output()
                .ok()?;
            let dir = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
            dir.join("_vendor").is_dir().then_some(dir)
        },
    )
}

/// The C library's headers in `/usr/include`.
pub fn usr_include() -> Option<&'static Path> {
    need("the C headers in /usr/include (libc6-dev)", || {
        let dir = Path::new("/usr/include");
        dir.join("stdio.h").is_file().then_some(dir)
    })
}

/// The newest libstdc++ header folder, `/usr/include/c++/<version>`.
pub fn cpp_include() -> Option<PathBuf> {
    need(
        "the C++ headers in /usr/include/c++/<version> (g++)",
        corpus::cpp_include_dir,
    )
}

/// `program` on `PATH`, runnable (`program <arg>` starts), from the
/// Debian package `package`.
pub fn program(program: &str, arg: &str, package: &str) -> Option<()> {
    need(&format!("{program} (Debian package {package})"), || {
        runs(program, arg)
    })
}

/// Whether `program <arg>` starts (its exit status aside: some tools
/// answer `-version` with a failure).
pub fn runs(program: &str, arg: &str) -> Option<()> {
    Command::new(program)
        .arg(arg)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .ok()
        .map(drop)
}

/// Lua 5.4's C sources: `CTXCURATE_LUA_DIR`, else `target/corpora/lua54`
/// (`.ci/run` takes them from the `lupa` sdist on PyPI).
pub fn lua_sources() -> Option<PathBuf> {
    need(
        "Lua 5.4's sources in target/corpora/lua54 (downloaded by .ci/run) or $CTXCURATE_LUA_DIR",
        || {
            let dir = std::env::var_os("CTXCURATE_LUA_DIR")
                .map(PathBuf::from)
                .or_else(|| downloaded_dir("lua54"))?;
            dir.join("lvm.c").is_file().then_some(dir)
        },
    )
}

/// A project `.ci/run` downloads, `target/corpora/<name>`.
pub fn downloaded(name: &str) -> Option<PathBuf> {
    need(
        &format!("target/corpora/{name} (downloaded by .ci/run)"),
        || downloaded_dir(name),
    )
}

/// `target/corpora/<name>` if it is there (for a test past its gate).
pub fn downloaded_dir(name: &str) -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("target/corpora")
        .join(name);
    dir.is_dir().then_some(dir)
}

/// The line a skipped test leaves. Written to stderr itself, not through
/// `eprintln!`, which the harness captures and shows only for a failure:
/// a skip must be seen in a passing run. One write, so the lines of tests
/// running in parallel do not mix.
fn skipped(what: &str) {
    let line = format!(
        "skipped {}: needs {what} (set {SWITCH}=1 to run it)\n",
        test_name()
    );
    let _ = std::io::stderr().lock().write_all(line.as_bytes());
}

/// The running test's name: the harness names each test's thread after it.
fn test_name() -> String {
    std::thread::current()
        .name()
        .unwrap_or("a test")
        .to_string()
}
