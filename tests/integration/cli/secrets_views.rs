//! Secrets under views that cut long values (sweep round 10, F1): a
//! summary shows `key = value…` and an outline shows a constant's first
//! hundred characters, so the cut value no longer matched a rule and the
//! file passed with most of its secret in the output. What the file's own
//! text holds is judged by what the view shows of it: a secret whose
//! beginning the view shows refuses the build (and the MCP `view` and
//! `symbols` tools); a secret the view leaves out (a folded function
//! body) passes as before.

use serde_json::json;

use crate::common;

use common::mcp_stdio::McpServer;
use common::{Project, stderr, stdout};

/// `n` letters and digits, pseudo-random (the same each run).
fn random(seed: u64, n: usize) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            char::from(ALPHABET[(x >> 24) as usize % ALPHABET.len()])
        })
        .collect()
}

/// The files of the repro: a YAML URL holding a password (summary), a
/// Python constant holding a long token (outline), a password inside a
/// function body (folded away by the outline), with their secrets.
struct Planted {
    password: String,
    token: String,
}

fn plant(p: &Project) -> Planted {
    let password = random(3, 32);
    let token = random(5, 120);
    p.write(
        "cfg.yaml",
        &format!("db:\n  url: postgres://svc:{password}@db.example.com/app\n"),
    );
    p.write(
        "consts.py",
        &format!("import os\n\nAPI_TOKEN = \"{token}\"\n\n\ndef f():\n    return 1\n"),
    );
    p.write(
        "folded.py",
        &format!(
            "def connect():\n    password = \"{}\"\n    return password\n",
            random(7, 24)
        ),
    );
    Planted { password, token }
}

/// The default preset as `path` alone, in `mode`.
fn only(p: &Project, path: &str, mode: &str) {
    p.write(
        "ctxcurate.toml",
        &format!(
            "[presets.default]\n[[presets.default.files]]\npath = \"{path}\"\nview_mode = \"{mode}\"\n"
        ),
    );
}

#[test]
fn a_summary_or_outline_that_shows_part_of_a_secret_refuses_the_build() {
    let p = Project::empty();
    let planted = plant(&p);
    for (path, mode, line, secret) in [
        ("cfg.yaml", "summary", 2, &planted.password),
        ("consts.py", "outline", 3, &planted.token),
        ("consts.py", "summary", 3, &planted.token),
        ("consts.py", "skeleton", 3, &planted.token),
    ] {
        only(&p, path, mode);
        let out = p.run(&["build", "-q"]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{path} ({mode}): {err}");
        assert!(
            err.contains(&format!("likely secret: {path}:{line}: ")),
            "{path} ({mode}): {err}"
        );
        assert!(stdout(&out).is_empty(), "{path} ({mode}): nothing written");
        assert!(!err.contains(&secret[..12]), "never the secret: {err}");
    }
}

#[test]
fn an_outline_that_folds_the_secret_away_still_builds() {
    let p = Project::empty();
    plant(&p);
    only(&p, "folded.py", "outline");
    let out = p.run(&["build", "-q"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("def connect()"), "{}", stdout(&out));
    // The full view of the same file is refused, as before.
    only(&p, "folded.py", "full");
    assert_eq!(p.run(&["build", "-q"]).status.code(), Some(1));
}

#[test]
fn the_mcp_view_and_symbols_tools_refuse_what_shows_part_of_a_secret() {
    let p = Project::empty();
    let planted = plant(&p);
    p.write(
        "ctxcurate.toml",
        "[[presets.default.files]]\npath = \"**\"\n",
    );
    let mut server = McpServer::start(&p, &[]);
    for (path, mode, line) in [
        ("cfg.yaml", "summary", 2),
        ("consts.py", "outline", 3),
        ("consts.py", "summary", 3),
    ] {
        let reply = server.call("view", json!({"path": path, "mode": mode}));
        assert!(reply.is_error, "{path} ({mode}): {}", reply.text);
        assert!(
            reply.text.contains(&format!("{path}:{line}"))
                && reply.text.contains("--allow-secrets"),
            "{path} ({mode}): {}",
            reply.text
        );
        assert!(!reply.text.contains(&planted.password[..12]));
        assert!(!reply.text.contains(&planted.token[..12]));
    }
    let reply = server.call("symbols", json!({"path": "consts.py"}));
    assert!(reply.is_error, "{}", reply.text);
    assert!(reply.text.contains("consts.py:3"), "{}", reply.text);
    assert!(!reply.text.contains(&planted.token[..12]), "{}", reply.text);
    // What shows nothing of the secret is served as before.
    let reply = server.call("view", json!({"path": "folded.py", "mode": "outline"}));
    assert!(!reply.is_error, "{}", reply.text);
    let reply = server.call("symbols", json!({"path": "folded.py"}));
    assert!(!reply.is_error, "{}", reply.text);
}
