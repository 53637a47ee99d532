//! The MCP server against a hostile repository and a hostile client
//! (issue 37, the low items): a preset description holding terminal
//! controls, 3,000 presets to list, a request nested 300 levels deep, and
//! `include` of a credential file or a link out of the root on a server
//! started with `--allow-edits`. Driven over stdio with raw JSON-RPC
//! (`common::mcp_stdio`), each answer awaited with a deadline.

use serde_json::{Value, json};

use crate::common;

use common::Project;
use common::mcp_stdio::McpServer;

/// A description with OSC 52 (a clipboard write), a clear-screen and a
/// right-to-left override reaches the client with each made visible.
#[test]
fn resources_list_sends_a_description_made_safe() {
    let p = Project::empty();
    p.write("a.py", "x = 1\n");
    p.write(
        "ctxcurate.toml",
        "[presets.default]\ndescription = \"ok \\u001b]52;c;ZXZpbA==\\u0007 \\u001b[2J \\u202egnp.exe\"\n\n\
         [[presets.default.files]]\npath = \"a.py\"\n",
    );
    let mut server = McpServer::start(&p, &[]);
    let answer = server
        .request("resources/list", json!({}))
        .expect("an answer");
    let description = answer["result"]["resources"][0]["description"]
        .as_str()
        .expect("a description")
        .to_string();
    for raw in ['\u{1b}', '\u{7}', '\u{202e}'] {
        assert!(!description.contains(raw), "{description:?}");
    }
    assert!(description.starts_with("ok "), "{description:?}");
    assert!(description.contains("\\u{202e}gnp.exe"), "{description:?}");
    let listed = server.call("list_presets", json!({}));
    assert!(!listed.text.contains('\u{1b}'), "{}", listed.text);
    assert!(!listed.text.contains("\\u001b"), "{}", listed.text);
}

/// 3,000 presets over 300 files: the first call answers within seconds,
/// counting at most 64 totals and saying how to get the others.
#[test]
fn list_presets_counts_a_bounded_number_of_totals_with_a_note() {
    let p = Project::empty();
    for i in 0..300 {
        p.write(
            &format!("src/m{i}.py"),
            &format!("def f{i}(x):\n    return x + {i}\n"),
        );
    }
    let mut toml = String::new();
    for i in 0..3000 {
        toml.push_str(&format!("[[presets.p{i}.files]]\npath = \"src/**\"\n\n"));
    }
    p.write("ctxcurate.toml", &toml);
    let mut server = McpServer::start(&p, &["--max-result", "100000000"]);
    // Bounded by what it composes (at most 65 totals), not by a clock.
    let listed = server.call("list_presets", json!({}));
    assert!(!listed.is_error, "{}", listed.text);
    let value: Value = serde_json::from_str(&listed.text).expect("JSON");
    let presets = value["presets"].as_array().expect("presets");
    assert_eq!(presets.len(), 2000, "listed up to the cap");
    let counted = presets.iter().filter(|p| p["tokens"].is_number()).count();
    assert!((1..=65).contains(&counted), "{counted} totals composed");
    let notes = value["notes"].to_string();
    assert!(notes.contains("are not counted in this call"), "{notes}");
    assert!(
        notes.contains("3000 presets; only the first 2000 are listed"),
        "{notes}"
    );
}

/// A request nested past what the JSON reader takes gets an error answer
/// for its id (it got none: the client waited forever), and the server
/// goes on answering.
#[test]
fn a_request_nested_300_deep_gets_an_error_answer() {
    let p = Project::empty();
    p.write("a.py", "x = 1\n");
    let mut server = McpServer::start(&p, &[]);
    let mut nested = json!(1);
    for _ in 0..300 {
        nested = json!([nested]);
    }
    let answer = server
        .request(
            "tools/call",
            json!({"name": "build", "arguments": {"x": nested}}),
        )
        .expect("an answer to the deep request");
    assert_eq!(answer["error"]["code"], json!(-32600), "{answer}");
    assert!(
        answer["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("nests more than 64 levels")),
        "{answer}"
    );
    let built = server.call("build", json!({"files": [{"path": "a.py"}]}));
    assert!(
        !built.is_error && built.text.contains("x = 1"),
        "{}",
        built.text
    );
}

/// With `--allow-edits`, `include` of `.env`, of a file reached through a
/// link out of the root, or of a link to a folder outside, is refused
/// and the project file is left as it was.
#[cfg(unix)]
#[test]
fn include_refuses_a_credential_file_and_a_link_out_of_the_root() {
    let p = Project::empty();
    let outside = tempfile::tempdir().expect("tempdir");
    std::fs::write(outside.path().join("bashrc"), "export TOKEN=x\n").expect("write");
    p.write("a.py", "x = 1\n");
    p.write(".env", "A=1\n");
    std::os::unix::fs::symlink(outside.path().join("bashrc"), p.path("notes.txt")).expect("link");
    std::os::unix::fs::symlink(outside.path(), p.path("home")).expect("link");
    p.write("ctxcurate.toml", "# the team's file\n");
    let mut server = McpServer::start(&p, &["--allow-edits"]);
    for (path, said) in [
        (".env", "refused: .env is a credential file"),
        (
            "notes.txt",
            "refused: notes.txt is a file outside the project",
        ),
        (
            "home/bashrc",
            "refused: home/bashrc is a file outside the project",
        ),
        ("home", "refused: home is a file outside the project"),
    ] {
        let reply = server.call("include", json!({"paths": [path]}));
        assert!(reply.is_error, "{path}: {}", reply.text);
        assert!(reply.text.contains(said), "{path}: {}", reply.text);
    }
    assert_eq!(p.read("ctxcurate.toml"), "# the team's file\n");
    let reply = server.call("include", json!({"paths": ["a.py"]}));
    assert!(!reply.is_error, "{}", reply.text);
    assert!(p.read("ctxcurate.toml").contains("a.py"));
}

/// With `--allow-edits`, `include` of a glob naming credential files and
/// nothing else, or reaching out of the root through a link or into
/// `.git`, is refused and the team's file left as it was (recheck 22:
/// they were written; a build never let them take a file, but an agent
/// should not write what a person would not). Globs of project files
/// stay welcome.
#[cfg(unix)]
#[test]
fn include_refuses_a_glob_of_credentials_or_through_a_link_out() {
    let p = Project::empty();
    let outside = tempfile::tempdir().expect("tempdir");
    std::fs::write(outside.path().join("s.py"), "x = 1\n").expect("write");
    p.write("a.py", "x = 1\n");
    p.write("conf/app.yml", "a: 1\n");
    p.write(".env", "A=1\n");
    std::os::unix::fs::symlink(outside.path(), p.path("lnk")).expect("link");
    std::fs::create_dir_all(p.path(".git")).expect("mkdir");
    p.write("ctxcurate.toml", "# the team's file\n");
    let mut server = McpServer::start(&p, &["--allow-edits"]);
    for glob in [
        ".env*",
        "**/.env*",
        ".e[n]v",
        "*.production",
        "conf/*.pem",
        "{.env,a.py}",
        "conf/[s].pem",
        "conf/?.key",
        ".ENV*",
        // A credential store's folder (recheck 25).
        ".ssh/*",
        "**/.aws/*",
        // Its name by a pattern (recheck 26).
        ".ss?/*",
        "sub/.aw?/*",
    ] {
        let reply = server.call("include", json!({"paths": [glob]}));
        assert!(reply.is_error, "{glob}: {}", reply.text);
        assert!(
            reply.text.contains("names credential files"),
            "{glob}: {}",
            reply.text
        );
    }
    std::os::unix::fs::symlink(p.path(".git"), p.path("gl")).expect("link");
    for glob in [
        "lnk/*",
        "lnk/**/*.py",
        ".git/*",
        ".gi[t]/config",
        "{.git,x}/**",
        "gl/**",
        // The link reached by a pattern (recheck 25).
        "l?k/s.py",
        "l*/*",
        "{x,ln[k]}/*.py",
    ] {
        let reply = server.call("include", json!({"paths": [glob]}));
        assert!(reply.is_error, "{glob}: {}", reply.text);
        assert!(reply.text.contains("refused"), "{glob}: {}", reply.text);
    }
    assert_eq!(p.read("ctxcurate.toml"), "# the team's file\n");
    for glob in ["*.py", "conf/*", "**/*.yml", "**", "*"] {
        let reply = server.call("include", json!({"paths": [glob]}));
        assert!(!reply.is_error, "{glob}: {}", reply.text);
    }
    assert!(p.read("ctxcurate.toml").contains("conf/*"));
}

/// An `include` of a path that does not exist, or a glob that does not
/// compile, is answered with the path on one line: a line break in it
/// would read as a second line of the answer (`…\nx.py: included`), and
/// escapes come back as the other tools show them.
#[test]
fn include_of_a_missing_path_shows_it_on_one_line() {
    let p = Project::empty();
    p.write("a.py", "x = 1\n");
    let mut server = McpServer::start(&p, &["--allow-edits"]);
    for path in ["nope\u{1b}[2J\nx.py: included", "nope\u{202e}\r\n[a-.py"] {
        let reply = server.call("include", json!({"paths": [path]}));
        assert!(reply.is_error, "{path:?}: {}", reply.text);
        assert!(
            !reply.text.contains(['\n', '\r', '\u{1b}', '\u{202e}']),
            "{path:?}: {:?}",
            reply.text
        );
        assert!(reply.text.starts_with("nope") || reply.text.starts_with("bad glob nope"));
    }
    let file = std::fs::read_to_string(p.path("ctxcurate.toml")).unwrap_or_default();
    assert!(!file.contains("nope"), "{file}");
    // A repository's file named with a line break: the answers that name
    // it (an edit's, another tool's error) keep to one line.
    #[cfg(unix)]
    {
        p.write("two\nlines.py", "x = 1\n");
        for (tool, args) in [
            ("include", json!({"paths": ["two\nlines.py"]})),
            (
                "set_mode",
                json!({"path": "two\nlines.py", "mode": "skeleton"}),
            ),
            ("exclude", json!({"paths": ["two\nlines.py"]})),
            ("view", json!({"path": "gone\nnow.py"})),
            ("symbols", json!({"path": "gone\nnow.py"})),
            (
                "mask",
                json!({"path": "two\nlines.py", "symbol": "no\nsuch", "state": "sig"}),
            ),
        ] {
            let reply = server.call(tool, args);
            assert!(!reply.text.contains('\n'), "{tool}: {:?}", reply.text);
        }
    }
}

/// `set_mode` and `mask` write an entry for a file the preset does not
/// list: for a credential file or a file behind a link out they are
/// refused like `include` (before, `set_mode .env full` wrote `.env`
/// into the team's file), and the project file is left as it was. A file
/// the user listed themselves still changes mode.
#[cfg(unix)]
#[test]
fn set_mode_and_mask_refuse_what_include_refuses() {
    let p = Project::empty();
    let outside = tempfile::tempdir().expect("tempdir");
    std::fs::write(outside.path().join("tool.py"), "def f():\n    return 1\n").expect("write");
    p.write("a.py", "def g():\n    return 2\n");
    p.write(".env", "A=1\n");
    std::os::unix::fs::symlink(outside.path().join("tool.py"), p.path("tool.py")).expect("link");
    p.write("ctxcurate.toml", "# the team's file\n");
    let mut server = McpServer::start(&p, &["--allow-edits"]);
    for (tool, args, said) in [
        (
            "set_mode",
            json!({"path": ".env", "mode": "full"}),
            "refused: .env is a credential file",
        ),
        (
            "set_mode",
            json!({"path": "tool.py", "mode": "skeleton"}),
            "refused: tool.py is a file outside the project",
        ),
        // No symbols are read through the link: refused before that.
        (
            "mask",
            json!({"path": "tool.py", "symbol": "f", "state": "sig"}),
            "tool.py: no symbols for this file",
        ),
    ] {
        let reply = server.call(tool, args);
        assert!(reply.is_error, "{tool}: {}", reply.text);
        assert!(reply.text.contains(said), "{tool}: {}", reply.text);
    }
    assert_eq!(p.read("ctxcurate.toml"), "# the team's file\n");
    let reply = server.call("set_mode", json!({"path": "a.py", "mode": "skeleton"}));
    assert!(!reply.is_error, "{}", reply.text);
    assert!(p.read("ctxcurate.toml").contains("a.py"));
}

/// A line that is not JSON, and a bare array nested 300 deep (no `id` to
/// answer for), each get JSON-RPC's error for `id` null instead of
/// silence, and the server goes on answering.
#[test]
fn a_line_the_server_cannot_read_gets_an_error_for_id_null() {
    let p = Project::empty();
    p.write("a.py", "x = 1\n");
    let mut server = McpServer::start(&p, &[]);
    for (line, code) in [
        ("[1".to_string(), -32700),
        (
            "{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": ".to_string(),
            -32700,
        ),
        (format!("{}{}", "[".repeat(300), "]".repeat(300)), -32600),
    ] {
        let answer = server
            .raw(&line)
            .unwrap_or_else(|| panic!("no answer to {line:.20}"));
        assert_eq!(answer["error"]["code"], json!(code), "{answer}");
    }
    let built = server.call("build", json!({"files": [{"path": "a.py"}]}));
    assert!(!built.is_error, "{}", built.text);
    assert!(server.alive());
}

/// An error quoting what the agent sent keeps within `--max-result`, as
/// every result does: a 200 KB path came back whole in "file not found"
/// (sweep 10 F4: 9 MB); "no preset named" cut its name already.
#[test]
fn an_error_keeps_within_the_result_bound() {
    let p = Project::empty();
    p.write("a.py", "x = 1\n");
    let mut server = McpServer::start(&p, &["--max-result", "1000"]);
    let long = "a".repeat(200_000);
    for (tool, arguments) in [
        ("view", json!({"path": long})),
        ("build", json!({"preset": long})),
    ] {
        let reply = server.call(tool, arguments);
        assert!(reply.is_error, "{tool}: {}", reply.text);
        assert!(
            reply.text.len() <= 1000,
            "{tool}: {} bytes",
            reply.text.len()
        );
        assert!(reply.text.contains("aaaa"), "{tool}: {}", reply.text);
    }
    assert!(server.alive());
}

/// Names from the repository in `symbols`, `changed` and `view`'s
/// metadata are shown as every other reply shows them (sweep 13, E1):
/// they came raw, ESC, OSC 52, U+202E and U+200B included. The view's
/// text, the file itself, stays verbatim.
#[test]
fn symbols_changed_and_view_show_repository_names_made_safe() {
    let p = Project::empty();
    p.write("keep.py", "x = 1\n");
    common::git::init_and_commit(&p, p.path(".").as_path(), "start");
    p.write(
        "doc.md",
        "# Title \u{1b}]52;c;SGk=\u{7}\n\ntext\n\n## Sub \u{202e}evil\u{200b}\n\nmore\n",
    );
    p.write("h2_\u{202e}yp.py", "x = 2\n");
    p.write("h1_\u{1b}[2J.py", "x = 3\n");
    p.write(
        "ctxcurate.toml",
        "[[presets.default.files]]\npath = \"*.py\"\n[[presets.default.files]]\npath = \"doc.md\"\n",
    );
    let mut server = McpServer::start(&p, &[]);
    let raw = |answer: &Value| {
        let text = answer.to_string();
        text.contains("\\u001b") || text.contains(['\u{202e}', '\u{200b}', '\u{7}'])
    };
    for (tool, args) in [
        ("symbols", json!({"path": "doc.md"})),
        ("changed", json!({})),
        // Recheck 25: a pack's report names the files it kept.
        ("pack", json!({"task": "x", "budget": 5000})),
        (
            "view",
            json!({"path": "h2_\u{202e}yp.py", "mode": "outline"}),
        ),
    ] {
        let answer = server
            .request("tools/call", json!({"name": tool, "arguments": args}))
            .expect("an answer");
        assert!(answer.get("result").is_some(), "{tool}: {answer}");
        // A view's text is the file; its metadata comes second.
        let said = match tool {
            "view" | "pack" => &answer["result"]["content"][1],
            _ => &answer,
        };
        assert!(said.is_object(), "{tool}: {answer}");
        assert!(!raw(said), "{tool}: {answer}");
    }
}

/// An agent's edit of a preset only the user's global config holds is
/// refused (sweep 13, G1): `set_mode`, `include` and `save_preset` copied
/// it whole, private description, task and paths into the user's home,
/// into the team's file. A project preset is edited as before.
#[test]
fn an_agent_may_not_copy_a_global_preset_into_the_project() {
    let p = Project::empty();
    p.write("a.py", "x = 1\n");
    p.write("b.py", "y = 1\n");
    let team = "[presets.default]\n[[presets.default.files]]\npath = \"a.py\"\n";
    p.write("ctxcurate.toml", team);
    let config = p.config_home.path().join("ctxcurate");
    std::fs::create_dir_all(&config).expect("mkdir");
    std::fs::write(
        config.join("config.toml"),
        "[presets.mine]\ndescription = \"client ACME, ticket 4411\"\ntask = \"private\"\n\
         [[presets.mine.files]]\npath = \"a.py\"\n",
    )
    .expect("write");
    let mut server = McpServer::start(&p, &["--allow-edits"]);
    for (tool, args) in [
        (
            "set_mode",
            json!({"path": "a.py", "mode": "skeleton", "preset": "mine"}),
        ),
        ("include", json!({"paths": ["b.py"], "preset": "mine"})),
    ] {
        let reply = server.call(tool, args);
        assert!(reply.is_error, "{tool}: {}", reply.text);
        assert!(
            reply.text.contains("global config"),
            "{tool}: {}",
            reply.text
        );
    }
    drop(server);
    p.ok(&["preset", "apply", "mine"]);
    let mut server = McpServer::start(&p, &["--allow-edits"]);
    let reply = server.call("save_preset", json!({"name": "copy"}));
    assert!(reply.is_error, "{}", reply.text);
    assert_eq!(p.read("ctxcurate.toml"), team);
    let reply = server.call("include", json!({"paths": ["b.py"], "preset": "default"}));
    assert!(!reply.is_error, "{}", reply.text);
    assert!(p.read("ctxcurate.toml").contains("b.py"));
}
