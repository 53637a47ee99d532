//! `resources/list` in pages (sweep 12, N5): each page within
//! `--max-result`, the next one named by `nextCursor`, every preset listed
//! once; a cursor the server did not hand out is a clear error; a small
//! project still gets one page with no cursor.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use crate::common;

use common::Project;
use common::mcp_stdio::McpServer;

fn many_presets(p: &Project, n: usize) {
    p.write("a.py", "x = 1\n");
    let mut toml = String::new();
    for i in 0..n {
        toml.push_str(&format!(
            "[presets.p{i}]\ndescription = \"preset number {i}\"\n\n\
             [[presets.p{i}.files]]\npath = \"a.py\"\n\n"
        ));
    }
    p.write("ctxcurate.toml", &toml);
}

#[test]
fn resources_list_comes_in_pages_within_max_result_that_list_every_preset_once() {
    let p = Project::empty();
    many_presets(&p, 500);
    let mut server = McpServer::start(&p, &["--max-result", "5000"]);
    let mut seen = BTreeSet::new();
    let mut cursor: Option<String> = None;
    let mut pages = 0;
    loop {
        let params = match &cursor {
            Some(c) => json!({"cursor": c}),
            None => json!({}),
        };
        let answer = server.request("resources/list", params).expect("an answer");
        let result = &answer["result"];
        assert!(result.is_object(), "{answer}");
        assert!(
            result.to_string().len() <= 5000,
            "page {pages}: {} bytes",
            result.to_string().len()
        );
        let resources = result["resources"].as_array().expect("resources");
        assert!(!resources.is_empty(), "page {pages} is empty");
        for r in resources {
            let name = r["name"].as_str().expect("a name").to_string();
            assert!(seen.insert(name.clone()), "{name} listed twice");
        }
        pages += 1;
        assert!(pages < 500, "the cursor goes round");
        match result.get("nextCursor").and_then(Value::as_str) {
            Some(next) => cursor = Some(next.to_string()),
            None => break,
        }
    }
    assert!(pages > 1, "one page of {} bytes", 500 * 100);
    assert_eq!(seen.len(), 500);
}

#[test]
fn resources_list_with_a_cursor_it_did_not_hand_out_is_an_error() {
    let p = Project::empty();
    many_presets(&p, 50);
    let mut server = McpServer::start(&p, &["--max-result", "2000"]);
    for bad in ["nonsense", "presets:999999", "\u{1b}[2J"] {
        let answer = server
            .request("resources/list", json!({"cursor": bad}))
            .expect("an answer");
        let error = answer["error"].to_string();
        assert!(answer.get("result").is_none(), "{bad:?}: {answer}");
        assert!(error.contains("cursor"), "{bad:?}: {error}");
        assert!(!error.contains('\u{1b}'), "{bad:?}: {error}");
    }
    assert!(server.alive());
}

#[test]
fn resources_list_of_a_small_project_is_one_page_without_a_cursor() {
    let p = Project::empty();
    many_presets(&p, 3);
    let mut server = McpServer::start(&p, &[]);
    let answer = server
        .request("resources/list", json!({}))
        .expect("an answer");
    let result = &answer["result"];
    let listed = result["resources"].as_array().map_or(0, Vec::len);
    assert!(listed >= 3, "{answer}");
    assert!(result.get("nextCursor").is_none(), "{answer}");
}
