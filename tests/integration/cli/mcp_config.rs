//! What `ctxcurate mcp` tells a client before any call: `--print-config`'s
//! snippets (Zed's among them, as the README lists Zed) and the tool list's
//! descriptions (the `symbols` tool names every language with a grammar,
//! not "a Python, C or C++ file"). The real binary (issue 38).

use crate::common;

use common::Project;
use common::mcp_stdio::McpServer;
use serde_json::{Value, json};

#[test]
fn print_config_has_a_zed_snippet_for_this_binary_and_project() {
    let p = Project::empty();
    let out = p.ok(&["mcp", "--print-config"]);
    let zed = out
        .split("# Zed (settings.json):\n")
        .nth(1)
        .and_then(|rest| rest.split("\n\n").next())
        .unwrap_or_else(|| panic!("no Zed snippet in {out}"));
    let zed: Value = serde_json::from_str(zed).expect("the Zed snippet is JSON");
    let server = &zed["context_servers"]["ctxcurate"];
    let command = server["command"].as_str().unwrap_or_default();
    assert!(command.ends_with("ctxcurate"), "{zed}");
    let args = server["args"].as_array().cloned().unwrap_or_default();
    assert_eq!(args.len(), 3, "{zed}");
    assert_eq!((&args[0], &args[2]), (&json!("-C"), &json!("mcp")), "{zed}");
}

#[test]
fn the_symbols_tool_says_which_languages_it_reads() {
    let p = Project::empty();
    let mut server = McpServer::start(&p, &[]);
    let list = server
        .request("tools/list", json!({}))
        .expect("an answer to tools/list");
    let tools = list["result"]["tools"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let symbols = tools
        .iter()
        .find(|t| t["name"] == "symbols")
        .unwrap_or_else(|| panic!("no symbols tool in {list}"));
    let said = symbols["description"].as_str().unwrap_or_default();
    for language in ["Python", "Rust", "TypeScript", "Go"] {
        assert!(said.contains(language), "{language}: {said}");
    }
    assert!(!said.contains("Python, C or C++ file"), "{said}");
}

/// A project file past the 4 MiB cap: a tool's error says why, as the CLI
/// does, not only "cannot read …" (recheck 17 remark).
#[test]
fn a_project_file_that_cannot_be_read_is_named_with_why() {
    let p = Project::empty();
    p.write("a.py", "x = 1\n");
    p.write("ctxcurate.toml", &format!("# {}\n", "x".repeat(5 << 20)));
    let mut server = McpServer::start(&p, &[]);
    let reply = server.call("build", json!({}));
    assert!(reply.is_error, "{}", reply.text);
    assert!(
        reply
            .text
            .contains("larger than 4 MiB, the most a project file may hold"),
        "{}",
        reply.text
    );
}
