//! One hostile line nested 10,000 deep (`use a::{{{…b}}};`, 20 KB) costs
//! no front end its stack: `map`, `build --target`, a plain build whose
//! preset asks for a repo map, the TUI opening (and quitting on `q`), and
//! the MCP server's `build` and `pack`, which must answer and live on.
//! Each is given a deadline, so a quadratic walk fails too.

use std::time::Duration;

use serde_json::json;

use crate::common;

use common::mcp_stdio::McpServer;
use common::{Project, output_within, stderr};

const DEPTH: usize = 10_000;

fn project() -> Project {
    let p = Project::empty();
    let tree = format!("use a::{}b{};\n", "{".repeat(DEPTH), "}".repeat(DEPTH));
    p.write(
        "src/lib.rs",
        &format!("{tree}use crate::util::helper;\n\npub fn run() {{}}\n"),
    );
    p.write("src/util.rs", "pub fn helper() {}\n");
    p.write(
        "ctxcurate.toml",
        "[presets.default]\ntargets = [\"src/lib.rs\"]\nrepo_map = 2000\n\n\
         [[presets.default.files]]\npath = \"src/**\"\n",
    );
    p
}

fn within(p: &Project, args: &[&str]) -> std::process::Output {
    output_within(p.cmd(args), Duration::from_secs(60))
}

#[test]
fn the_cli_survives_a_use_tree_nested_ten_thousand_deep() {
    let p = project();
    for args in [
        &["map"][..],
        &["build", "--target", "src/lib.rs"],
        &["build"],
        &["symbols", "src/lib.rs"],
    ] {
        let out = within(&p, args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    }
    // The tree's sibling import is still followed.
    let map = common::stdout(&within(&p, &["map"]));
    assert!(map.contains("src/util.rs"), "{map}");
}

#[test]
fn the_mcp_server_answers_and_lives_on() {
    let p = project();
    let mut server = McpServer::start(&p, &[]);
    let built = server.call("build", json!({"targets": ["src/lib.rs"]}));
    assert!(!built.is_error, "{}", built.text);
    let packed = server.call("pack", json!({"targets": ["src/lib.rs"], "budget": 4000}));
    assert!(!packed.is_error, "{}", packed.text);
    assert!(server.alive(), "the server died");
}

#[cfg(unix)]
#[test]
fn the_tui_opens_and_quits() {
    let p = project();
    let status = common::pty::tui_typed(
        &p,
        &[],
        Duration::from_secs(8),
        b"q",
        Duration::from_secs(60),
    );
    let status = status.expect("the TUI did not end on q");
    assert!(status.success(), "{status:?}");
}
