//! `ctxcurate mcp` driven by a real MCP client: the official Python SDK's
//! stdio client (PyPI `mcp`) runs `tests/mcp/drive.py`, which initializes,
//! lists and calls every tool, compares `build` with `ctxcurate build`
//! byte for byte on pip's sources, and checks the trust boundary.
//!
//! The SDK is found as `$CTXCURATE_MCP_PYTHON`, else the venv `.ci/run`
//! makes (`target/mcp-venv`), else `python3`. Without it the test is
//! skipped with a note, unless `CTXCURATE_SLOW_TESTS` is set (CI), where a
//! missing SDK fails it.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A Python that imports `mcp`, if there is one.
fn python_with_sdk() -> Option<PathBuf> {
    let venv = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/mcp-venv/bin/python");
    let candidates = std::env::var_os("CTXCURATE_MCP_PYTHON")
        .map(PathBuf::from)
        .into_iter()
        .chain([venv, PathBuf::from("python3")]);
    candidates.into_iter().find(|python| {
        Command::new(python)
            .args(["-c", "import mcp, pip"])
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

#[test]
fn a_real_mcp_client_drives_the_server() {
    let Some(python) = python_with_sdk() else {
        if std::env::var_os("CTXCURATE_SLOW_TESTS").is_some() {
            panic!(
                "CTXCURATE_SLOW_TESTS is set but no Python with the MCP SDK was found \
                 ($CTXCURATE_MCP_PYTHON, target/mcp-venv, python3): pip install mcp"
            );
        }
        eprintln!(
            "note: skipping the MCP client test: no Python with the `mcp` package \
             (pip install mcp, or set CTXCURATE_MCP_PYTHON)"
        );
        return;
    };
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp/drive.py");
    let out = Command::new(&python)
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_ctxcurate"))
        .output()
        .expect("run the MCP client");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stdout.contains("all checks passed"),
        "the MCP client's checks failed ({}):\n{stdout}\n{stderr}",
        python.display()
    );
}
