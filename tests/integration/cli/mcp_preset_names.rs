//! Preset names over MCP (sweep 12, N4): `save_preset` refuses a name
//! holding a bidi control or an invisible character, as it refuses ESC,
//! and a name a hand-written `ctxcurate.toml` holds comes back escaped in
//! every reply and log message, as `resources/list` shows it.

use serde_json::json;

use crate::common;

use common::Project;
use common::mcp_stdio::McpServer;

/// Names a reader sees differently from what they are: a right-to-left
/// override, a zero-width space, a byte-order mark, a tag character, a
/// Hangul filler (Default_Ignorable, not Cf).
const DECEIVING: [&str; 5] = [
    "a\u{202e}b",
    "a\u{200b}b",
    "a\u{feff}b",
    "a\u{e0041}b",
    "a\u{3164}b",
];

/// A project whose default preset holds `a.py`.
fn one_file_project() -> Project {
    let p = Project::empty();
    p.write("a.py", "x = 1\n");
    p.write(
        "ctxcurate.toml",
        "[[presets.default.files]]\npath = \"a.py\"\n",
    );
    p
}

#[test]
fn save_preset_refuses_a_name_with_a_bidi_control_or_an_invisible_character() {
    let p = one_file_project();
    let before = p.read("ctxcurate.toml");
    let mut server = McpServer::start(&p, &["--allow-edits"]);
    for name in DECEIVING {
        let reply = server.call("save_preset", json!({"name": name}));
        assert!(reply.is_error, "{name:?}: {}", reply.text);
        assert!(
            reply.text.contains("invalid preset name"),
            "{name:?}: {}",
            reply.text
        );
        let raw = name.chars().nth(1).expect("the middle character");
        assert!(!reply.text.contains(raw), "{name:?}: {}", reply.text);
    }
    assert_eq!(p.read("ctxcurate.toml"), before, "nothing saved");
    let fine = server.call("save_preset", json!({"name": "日本語 review"}));
    assert!(!fine.is_error, "{}", fine.text);
}

#[test]
fn an_edit_refuses_to_make_a_preset_whose_name_holds_a_bidi_control() {
    let p = one_file_project();
    let before = p.read("ctxcurate.toml");
    let mut server = McpServer::start(&p, &["--allow-edits"]);
    let reply = server.call(
        "include",
        json!({"paths": ["a.py"], "preset": "a\u{202e}b"}),
    );
    assert!(reply.is_error, "{}", reply.text);
    assert!(!reply.text.contains('\u{202e}'), "{}", reply.text);
    assert_eq!(p.read("ctxcurate.toml"), before, "nothing saved");
}

#[test]
fn a_hand_written_name_with_a_bidi_control_comes_back_escaped_in_replies_and_logs() {
    let p = Project::empty();
    p.write("a.py", "x = 1\n");
    p.write("b.py", "y = 1\n");
    p.write(
        "ctxcurate.toml",
        "[presets.\"a\\u202eb\"]\nunknown_key = 5\n\n[[presets.\"a\\u202eb\".files]]\npath = \"a.py\"\n",
    );
    let mut server = McpServer::start(&p, &["--allow-edits"]);
    let listed = server.call("list_presets", json!({}));
    assert!(!listed.is_error, "{}", listed.text);
    assert!(!listed.text.contains('\u{202e}'), "{}", listed.text);
    assert!(listed.text.contains("a\\\\u{202e}b"), "{}", listed.text);

    let included = server.call(
        "include",
        json!({"paths": ["b.py"], "preset": "a\u{202e}b"}),
    );
    assert!(!included.is_error, "{}", included.text);
    assert!(!included.text.contains('\u{202e}'), "{}", included.text);
    assert!(included.text.contains("a\\u{202e}b"), "{}", included.text);

    let logs = server.take_notifications();
    let said: Vec<String> = logs
        .iter()
        .filter(|n| n["method"] == "notifications/message")
        .map(|n| n["params"]["data"].to_string())
        .collect();
    assert!(
        said.iter().any(|line| line.contains("unknown_key")),
        "{said:?}"
    );
    for line in &said {
        assert!(!line.contains('\u{202e}'), "{line}");
    }
}
