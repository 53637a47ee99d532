//! `ctxcurate mcp` driven by a real MCP client: the official Python SDK's
//! stdio client (PyPI `mcp`) runs `mcp_drive.py` (beside this file), which initializes,
//! lists and calls every tool, compares `build` with `ctxcurate build`
//! byte for byte on pip's sources, and checks the trust boundary.
//!
//! The SDK is found as `$CTXCURATE_MCP_PYTHON`, else the venv `.ci/run`
//! makes (`target/mcp-venv`), else `python3`; it is one of the machine's
//! tools (`common::machine`): the test runs behind `CTXCURATE_SLOW_TESTS`.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::machine;

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
    let Some(python) = machine::need(
        "a Python with the MCP SDK (pip install mcp; .ci/run makes target/mcp-venv)",
        python_with_sdk,
    ) else {
        return;
    };
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/integration/cli/mcp_drive.py");
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
