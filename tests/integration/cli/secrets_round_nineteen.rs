//! Round 19 of the secret shapes through the real binary (issue 37, the
//! items round 18b left): an archive in a byte array that cannot be read
//! whole refuses the build, as its base64 does; one that reads whole (a
//! gzipped web page in firmware) builds, and so does a broken archive in a
//! project's tests (archive libraries test with them).

use crate::common;

use common::{Project, gzip, stderr};

/// `bytes` as `xxd -i` writes them, array `name`.
fn xxd(name: &str, bytes: &[u8]) -> String {
    let lines: Vec<String> = bytes
        .chunks(12)
        .map(|row| {
            let cells: Vec<String> = row.iter().map(|b| format!("0x{b:02x}")).collect();
            format!("  {}", cells.join(", "))
        })
        .collect();
    format!(
        "unsigned char {name}[] = {{\n{}\n}};\nunsigned int {name}_len = {};\n",
        lines.join(",\n"),
        bytes.len()
    )
}

fn escapes(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("\\x{b:02x}")).collect()
}

/// Item 1: a gzip bomb in firmware refuses the build, as not fully
/// checked; a gzipped page builds, and the bomb as a test's fixture too.
#[test]
fn round_nineteen_an_unreadable_archive_in_a_byte_array_refuses_the_build() {
    let bomb = gzip(&vec![0u8; 17 << 20]);
    let p = Project::fixture();
    p.write("main/assets.h", &xxd("assets_gz", &bomb));
    p.ok(&["add", "main/assets.h"]);
    let out = p.run(&["build", "-q"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(
            "likely secret: main/assets.h:2: encoded data that could not be fully checked"
        ),
        "{err}"
    );

    let page =
        "<!DOCTYPE html><html><body><form action=\"/save\"></form></body></html>\n".repeat(40);
    let p = Project::fixture();
    p.write(
        "main/index.h",
        &xxd("index_html_gz", &gzip(page.as_bytes())),
    );
    p.write(
        "tests/test_gzip.py",
        &format!("BOMB = b\"{}\"\n", escapes(&bomb)),
    );
    p.ok(&["add", "main/index.h", "tests/test_gzip.py"]);
    let out = p.run(&["build", "-q"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

/// A project whose global config names a summarizer that appends its stdin
/// to `marker.log` (outside the project) and prints `EXTERNAL SUMMARY`.
fn with_summarizer(p: &Project) -> std::path::PathBuf {
    let marker = p.config_home.path().join("marker.log");
    let script = p.config_home.path().join("summarize.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\ncat >> '{}'\necho EXTERNAL SUMMARY\n",
            marker.display()
        ),
    )
    .expect("script written");
    common::files::make_executable(&script);
    let global = p.global_config();
    std::fs::create_dir_all(global.parent().expect("a parent")).expect("config dir");
    std::fs::write(
        &global,
        format!("[project]\nsummary_command = [\"{}\"]\n", script.display()),
    )
    .expect("config written");
    marker
}

const INI: &str = "[db]\nhost = db.internal\n  password = Tq8-Lw3-Zx5-Rb\n";

/// Item 3: an INI file's indented password (a rule for `.ini` files finds
/// it) never reaches the summary command, through `build` and the MCP
/// `view`; neither does the same text under a name that says no kind.
#[test]
fn round_nineteen_the_summary_gate_runs_the_rules_for_the_files_kind() {
    let p = Project::empty();
    let marker = with_summarizer(&p);
    p.write("conf/app.ini", INI);
    p.write("deploy/db", INI);
    p.write("notes.py", &"def ok():\n    return 1\n\n".repeat(20));
    p.write(
        "ctxcurate.toml",
        "[[presets.default.files]]\npath = \"conf/app.ini\"\nview_mode = \"summary\"\n\n\
         [[presets.default.files]]\npath = \"deploy/db\"\nview_mode = \"summary\"\n\n\
         [[presets.default.files]]\npath = \"notes.py\"\nview_mode = \"summary\"\n",
    );
    let out = p.run(&["build", "--allow-secrets"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let context = String::from_utf8_lossy(&out.stdout).to_string();
    for path in ["conf/app.ini", "deploy/db"] {
        assert!(
            context.contains(&format!(
                "> note: summary_command was not run on {path}: a likely secret"
            )),
            "{path}: {context}"
        );
    }
    let mut server = common::mcp_stdio::McpServer::start(&p, &["--allow-secrets"]);
    for path in ["conf/app.ini", "deploy/db"] {
        let reply = server.call("view", serde_json::json!({"path": path, "mode": "summary"}));
        assert!(
            !reply.text.contains("EXTERNAL SUMMARY"),
            "{path}: {}",
            reply.text
        );
    }
    let sent = std::fs::read_to_string(&marker).unwrap_or_default();
    assert!(
        sent.contains("def ok()"),
        "the command runs on clean files: {sent}"
    );
    assert!(
        !sent.contains("Tq8-Lw3"),
        "the password reached the summarizer: {sent}"
    );
}

/// Item 3: the same value pasted into the discussion, bare or in a fence,
/// refuses the build; a message of prose and code builds.
#[test]
fn round_nineteen_a_config_pasted_into_the_discussion_refuses_the_build() {
    for content in [
        INI.to_string(),
        format!(
            "My config:\\n\\n```ini\\n{}```\\n",
            INI.replace('\n', "\\n")
        ),
    ] {
        let p = Project::fixture();
        let content = content.replace('\n', "\\n");
        p.write(
            "ctxcurate.toml",
            &format!(
                "[[presets.default.files]]\npath = \"src/app.py\"\n\n\
                 [[presets.default.discussion]]\nrole = \"User\"\ncontent = \"{content}\"\n"
            ),
        );
        let out = p.run(&["build", "-q"]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{content}: {err}");
        assert!(err.contains("likely secret"), "{err}");
        assert!(!err.contains("Tq8-Lw3-Zx5-Rb"), "{err}");
    }
    let p = Project::fixture();
    p.write(
        "ctxcurate.toml",
        "[[presets.default.files]]\npath = \"src/app.py\"\n\n\
         [[presets.default.discussion]]\nrole = \"User\"\n\
         content = \"Why does connect(user=user, password=password_of(user)) fail?\"\n",
    );
    let out = p.run(&["build", "-q"]);
    assert!(out.status.success(), "{}", stderr(&out));
}
