//! `ctxcurate mcp` driven over stdio with raw JSON-RPC lines, no SDK: the
//! handshake, then one tool call at a time, each answer awaited with a
//! deadline, so a server that dies or hangs fails the test instead of
//! stopping it.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use serde_json::{Value, json};

use super::Project;

/// A running server with its stdin and its stdout's lines.
pub struct McpServer {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    next_id: u64,
    /// The notifications (messages without an id) seen so far.
    notes: Vec<Value>,
}

/// What a tool call came back with: its text and whether it is an error.
#[derive(Debug)]
pub struct ToolReply {
    pub text: String,
    pub is_error: bool,
}

impl McpServer {
    /// `ctxcurate mcp args…` in the project root, initialized.
    pub fn start(p: &Project, args: &[&str]) -> Self {
        Self::start_with_env(p, args, &[])
    }

    /// [`McpServer::start`] with `env` set for the server.
    pub fn start_with_env(p: &Project, args: &[&str], env: &[(&str, &str)]) -> Self {
        let mut all = vec!["mcp"];
        all.extend_from_slice(args);
        let mut child = p
            .cmd(&all)
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn ctxcurate mcp");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        let mut server = McpServer {
            child,
            stdin,
            lines,
            next_id: 1,
            notes: Vec::new(),
        };
        let init = server.request(
            "initialize",
            json!({
                "protocolVersion": "2024-11-05",
                "capabilities": {},
                "clientInfo": {"name": "ctxcurate-tests", "version": "0"}
            }),
        );
        assert!(init.is_some(), "no answer to initialize");
        server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        server
    }

    fn send(&mut self, message: &Value) {
        let line = format!("{message}\n");
        // A dead server is seen when its answer does not come.
        let _ = self.stdin.write_all(line.as_bytes());
        let _ = self.stdin.flush();
    }

    /// The answer (`result` or `error`) to a request, `None` when none
    /// came within a minute (the server died or hung).
    pub fn request(&mut self, method: &str, params: Value) -> Option<Value> {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let deadline = std::time::Instant::now() + Duration::from_secs(60);
        while let Some(left) = deadline.checked_duration_since(std::time::Instant::now()) {
            let line = self.lines.recv_timeout(left).ok()?;
            let Ok(message) = serde_json::from_str::<Value>(&line) else {
                continue;
            };
            if message.get("id") == Some(&json!(id)) {
                return Some(message);
            }
            if message.get("id").is_none() {
                self.notes.push(message);
            }
        }
        None
    }

    /// The notifications (log messages) the server sent while answering
    /// the requests so far, taken.
    pub fn take_notifications(&mut self) -> Vec<Value> {
        std::mem::take(&mut self.notes)
    }

    /// Send `line` as it is and wait up to 20 s for an answer with `id`
    /// null (what a server says to a line it cannot read).
    pub fn raw(&mut self, line: &str) -> Option<Value> {
        let _ = self.stdin.write_all(format!("{line}\n").as_bytes());
        let _ = self.stdin.flush();
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        while let Some(left) = deadline.checked_duration_since(std::time::Instant::now()) {
            let line = self.lines.recv_timeout(left).ok()?;
            let Ok(message) = serde_json::from_str::<Value>(&line) else {
                continue;
            };
            if message.get("id") == Some(&Value::Null) {
                return Some(message);
            }
        }
        None
    }

    /// Call tool `name` with `arguments`; panics when no answer comes.
    pub fn call(&mut self, name: &str, arguments: Value) -> ToolReply {
        let answer = self
            .request("tools/call", json!({"name": name, "arguments": arguments}))
            .unwrap_or_else(|| panic!("no answer to {name}: the server died or hung"));
        if let Some(error) = answer.get("error") {
            return ToolReply {
                text: error.to_string(),
                is_error: true,
            };
        }
        let result = &answer["result"];
        let text = result["content"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|c| c["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n");
        ToolReply {
            text,
            is_error: result["isError"].as_bool().unwrap_or(false),
        }
    }

    /// `true` while the server process runs.
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

impl Drop for McpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
