//! Symbol names as people write them (issue 38): a Rust method is
//! `EventLoop::add_watch` (was `impl EventLoop::add_watch`), a trait's is
//! `<Type as Trait>::method`; `mask` and the MCP `mask` tool take the
//! spelling a person types and store the path; a ctxcurate.toml written
//! with the old names still masks the same symbols; `symbols` names an
//! `impl` block once. The real binary in a temp project.

use crate::common;

use common::mcp_stdio::McpServer;
use common::{Project, stderr, stdout};
use serde_json::json;

const LOOP_RS: &str = "\
//! Watches files.

pub struct EventLoop {
    fd: i32,
}

impl EventLoop {
    /// Start watching `path`.
    pub fn add_watch(&mut self, path: &str) -> i32 {
        let n = path.len() as i32;
        self.fd + n
    }

    /// Handle one inotify event.
    fn handle_inotify(&mut self) {
        self.fd += 1;
        println!(\"event {}\", self.fd);
    }
}

impl std::fmt::Display for EventLoop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, \"loop {}\", self.fd)
    }
}
";

fn project(mask: &str) -> Project {
    let p = Project::empty();
    p.write("src/event.rs", LOOP_RS);
    p.write(
        "ctxcurate.toml",
        &format!(
            "[presets.default]\n\n[[presets.default.files]]\npath = \"src/event.rs\"\n\
             view_mode = \"masked\"\nmask_default = \"def\"\n{mask}"
        ),
    );
    p
}

#[test]
fn symbols_lists_the_names_people_write_and_an_impl_once() {
    let p = project("");
    let out = p.ok(&["symbols", "src/event.rs"]);
    assert!(!out.contains("impl impl"), "{out}");
    let heads: Vec<&str> = out
        .lines()
        .map(|l| l.split("  L").next().unwrap_or(""))
        .collect();
    assert_eq!(
        heads,
        [
            "struct EventLoop",
            "impl EventLoop",
            "  method EventLoop::add_watch",
            "  method EventLoop::handle_inotify",
            "impl std::fmt::Display for EventLoop",
            "  method <EventLoop as std::fmt::Display>::fmt",
        ],
        "{out}"
    );
}

#[test]
fn mask_takes_the_spellings_people_type_and_stores_the_path() {
    for (typed, said) in [
        (
            "EventLoop::add_watch",
            "src/event.rs: EventLoop::add_watch = hide in preset default",
        ),
        (
            "impl EventLoop::add_watch",
            "src/event.rs: EventLoop::add_watch = hide (for `impl EventLoop::add_watch`) in preset default",
        ),
        (
            "EventLoop.add_watch",
            "src/event.rs: EventLoop::add_watch = hide (for `EventLoop.add_watch`) in preset default",
        ),
    ] {
        let p = project("");
        let out = p.run(&["mask", "src/event.rs", typed, "hide"]);
        assert_eq!(out.status.code(), Some(0), "{typed}: {}", stderr(&out));
        assert_eq!(stdout(&out).trim(), said, "{typed}");
        let toml = p.read("ctxcurate.toml");
        assert!(
            toml.contains("\"EventLoop::add_watch\" = \"hide\""),
            "{typed}: {toml}"
        );
        let built = p.ok(&["build"]);
        assert!(!built.contains("pub fn add_watch"), "{typed}: {built}");
        assert!(built.contains("fn handle_inotify"), "{typed}: {built}");
    }
    // A trait's method by the name people call it with.
    let p = project("");
    let out = p.run(&["mask", "src/event.rs", "EventLoop::fmt", "sig"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        p.read("ctxcurate.toml")
            .contains("\"<EventLoop as std::fmt::Display>::fmt\" = \"sig\""),
        "{}",
        p.read("ctxcurate.toml")
    );
    // A name that is no symbol is still refused, with what was meant.
    let out = p.run(&["mask", "src/event.rs", "EventLoop::add_wach", "hide"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("did you mean `EventLoop::add_watch`"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_project_file_with_the_old_names_masks_the_same_symbols() {
    let old = project(
        "ast_mask = { \"impl EventLoop::add_watch\" = \"hide\", \
         \"impl std::fmt::Display for EventLoop::fmt\" = \"sig\" }\n",
    );
    let new = project(
        "ast_mask = { \"EventLoop::add_watch\" = \"hide\", \
         \"<EventLoop as std::fmt::Display>::fmt\" = \"sig\" }\n",
    );
    let (old_out, new_out) = (old.run(&["build"]), new.run(&["build"]));
    let built = String::from_utf8_lossy(&old_out.stdout).to_string();
    assert_eq!(
        built,
        String::from_utf8_lossy(&new_out.stdout),
        "old vs new"
    );
    assert!(!built.contains("pub fn add_watch"), "{built}");
    assert!(!built.contains("write!(f"), "{built}");
    assert!(built.contains("fn fmt(&self"), "{built}");
    // No note that a masked symbol was not found.
    assert!(
        !stderr(&old_out).contains("not found"),
        "{}",
        stderr(&old_out)
    );
    // Masking the same symbol again replaces the old entry.
    old.ok(&["mask", "src/event.rs", "EventLoop::add_watch", "def"]);
    let toml = old.read("ctxcurate.toml");
    assert!(!toml.contains("impl EventLoop::add_watch"), "{toml}");
    assert!(
        toml.contains("\"EventLoop::add_watch\" = \"def\""),
        "{toml}"
    );
    assert!(old.ok(&["build"]).contains("pub fn add_watch"));
}

#[test]
fn the_mcp_mask_tool_takes_the_same_spellings() {
    let p = project("");
    let mut server = McpServer::start(&p, &["--allow-edits"]);
    let reply = server.call(
        "mask",
        json!({"path": "src/event.rs", "symbol": "impl EventLoop::handle_inotify", "state": "hide"}),
    );
    assert!(!reply.is_error, "{}", reply.text);
    assert!(
        reply
            .text
            .contains("EventLoop::handle_inotify = hide (for `impl EventLoop::handle_inotify`)"),
        "{}",
        reply.text
    );
    assert!(
        p.read("ctxcurate.toml")
            .contains("\"EventLoop::handle_inotify\" = \"hide\""),
        "{}",
        p.read("ctxcurate.toml")
    );
}
