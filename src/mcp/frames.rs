//! The stdio lines between the client and `rmcp`, with two checks of our
//! own: a JSON-RPC message nested deeper than [`MAX_DEPTH`] is answered
//! here with an "invalid request" error for its `id`, instead of being
//! handed on (`serde_json` stops at 128 levels, and `rmcp` then drops the
//! line without a word, so the client waited forever); a line that is not
//! JSON at all gets JSON-RPC's "parse error" for `id` null.
//!
//! Every line the server writes goes through [`LineOut`], whole, so an
//! error answered here never lands inside one of `rmcp`'s answers. At
//! stdin's end the answers still owed ([`super::in_flight`]) are waited
//! for before `rmcp`'s input is closed.

use std::io::Write;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};

use serde_json::{Value, json};
use tokio::io::{
    AsyncBufRead, AsyncBufReadExt, AsyncWrite, AsyncWriteExt, BufReader, DuplexStream,
};

use super::in_flight::{InFlight, MAX_WAIT};
use ctxcurate::text::sanitize::display_line;

/// How deep a message may nest (objects and arrays): real MCP messages
/// nest a handful of levels; `serde_json` refuses past 128.
pub const MAX_DEPTH: usize = 64;

/// The longest line handed on: `rmcp` drops a longer one without a word.
pub const MAX_LINE: usize = 16 << 20;

/// The most arrays, objects and elements one message may hold: `rmcp`
/// parses a message whole, about 1.4 KB a value, and a 16 MiB line of a
/// million `{"path":"a.py"}` took 1.9 GB (sweep 13, M1). A real request
/// holds a few hundred; a `build` of [`super::request::MAX_NAMED`] files
/// some 30,000.
pub const MAX_VALUES: usize = 200_000;

/// The server's stdout, written one whole line at a time.
#[derive(Clone, Default)]
pub struct LineOut {
    pending: Arc<Mutex<Vec<u8>>>,
    /// The requests owed an answer: each line written may settle one.
    in_flight: InFlight,
}

impl LineOut {
    /// Write `line` (without its newline) to stdout at once.
    fn write_line(&self, line: &[u8]) {
        let _guard = self.pending.lock().unwrap_or_else(PoisonError::into_inner);
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(line);
        let _ = out.write_all(b"\n");
        let _ = out.flush();
    }
}

impl AsyncWrite for LineOut {
    fn poll_write(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let mut pending = self.pending.lock().unwrap_or_else(PoisonError::into_inner);
        pending.extend_from_slice(buf);
        // Whole lines go out now, under the lock the error lines take.
        if let Some(end) = pending.iter().rposition(|&b| b == b'\n') {
            let lines: Vec<u8> = pending.drain(..=end).collect();
            let mut out = std::io::stdout().lock();
            out.write_all(&lines)?;
            out.flush()?;
            for line in lines.split(|&b| b == b'\n') {
                self.in_flight.answered(line);
            }
        }
        Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(std::io::stdout().lock().flush())
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        self.poll_flush(cx)
    }
}

/// Copy stdin to `to` (what `rmcp` reads) line by line, answering a line
/// nested past [`MAX_DEPTH`] on `out` instead; `to` is closed at the end
/// of stdin, so `rmcp` sees the client go.
pub async fn filter_stdin(mut to: DuplexStream, out: LineOut) {
    let in_flight = out.in_flight.clone();
    let mut input = BufReader::new(tokio::io::stdin());
    let mut line = Vec::new();
    loop {
        line.clear();
        let whole = match read_line_within(&mut input, &mut line, MAX_LINE).await {
            Ok(0) | Err(_) => break,
            Ok(whole) => whole,
        };
        if whole >= MAX_LINE {
            out.write_line(too_long(&line).to_string().as_bytes());
            continue;
        }
        let shape = shape(&line);
        if shape.values > MAX_VALUES {
            out.write_line(too_many(&line).to_string().as_bytes());
            continue;
        }
        if shape.depth > MAX_DEPTH {
            if let Some(answer) = too_deep(&line) {
                out.write_line(answer.to_string().as_bytes());
            }
            continue;
        }
        match checked(&line) {
            Err(answer) => {
                out.write_line(answer.to_string().as_bytes());
                continue;
            }
            Ok(Some(message)) => in_flight.sent(&message),
            Ok(None) => {}
        }
        if to.write_all(&line).await.is_err() {
            break;
        }
    }
    // `rmcp` stops at its input's end and drops the answers of calls still
    // running: they are waited for first.
    in_flight.drained(MAX_WAIT).await;
    let _ = to.shutdown().await;
}

/// Reads one line of `input` (through its `\n`, or to the end of input)
/// onto `line`, keeping at most `max` bytes of it: how long the whole line
/// was (0 at the end of input). A line past the bound is refused, and was
/// held whole before it was (recheck 22: 1.2 GB of memory for a 1.2 GB
/// line, past the documented bound).
async fn read_line_within(
    input: &mut (impl AsyncBufRead + Unpin),
    line: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<usize> {
    let mut whole = 0;
    loop {
        let buf = input.fill_buf().await?;
        if buf.is_empty() {
            return Ok(whole);
        }
        let (taken, ended) = match buf.iter().position(|&b| b == b'\n') {
            Some(at) => (at + 1, true),
            None => (buf.len(), false),
        };
        let room = max.saturating_sub(line.len()).min(taken);
        line.extend_from_slice(&buf[..room]);
        input.consume(taken);
        whole += taken;
        if ended {
            return Ok(whole);
        }
    }
}

/// How deep `line` nests and how many values it holds, in one pass
/// (brackets and commas inside strings not counted).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Shape {
    /// The deepest nesting of objects and arrays.
    pub depth: usize,
    /// Its arrays, objects and further elements: brackets and commas (an
    /// upper bound on its values less one).
    pub values: usize,
}

/// The [`Shape`] of `line`.
pub fn shape(line: &[u8]) -> Shape {
    let (mut depth, mut shape) = (0usize, Shape::default());
    let mut in_string = false;
    let mut escaped = false;
    for &b in line {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' | b'[' => {
                depth += 1;
                shape.depth = shape.depth.max(depth);
                shape.values += 1;
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            b',' => shape.values += 1,
            _ => {}
        }
    }
    shape
}

/// The answer to a line holding more than [`MAX_VALUES`] values:
/// "invalid request" for its `id`, else for `id` null.
pub fn too_many(line: &[u8]) -> Value {
    json!({
        "jsonrpc": "2.0",
        "id": top_level_id(line).unwrap_or(Value::Null),
        "error": {
            "code": -32600,
            "message": format!(
                "invalid request: the message holds more than {MAX_VALUES} values \
                 (name files by a glob such as `src/**/*.py`)"
            ),
        },
    })
}

/// The "parse error" answer (JSON-RPC's -32700, for `id` null) to a line
/// that is not JSON at all, as the error. `rmcp`
/// dropped such a line without a word, and the client waited forever.
/// Read whole (strings too: invalid UTF-8 or a lone surrogate `\ud800`
/// is no JSON text, and `rmcp` dropped such a line as well), and an `id`
/// that is no string, integer or null (an array, `1e400`) gets "invalid
/// request" for `id` null.
/// Else the message `line` holds (`None` for a blank line), handed on.
pub fn checked(line: &[u8]) -> Result<Option<Value>, Value> {
    if line.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    let value = match serde_json::from_slice::<Value>(line) {
        Ok(value) => value,
        Err(_) => {
            return Err(json!({
                "jsonrpc": "2.0",
                "id": null,
                "error": {"code": -32700, "message": "parse error: the line is not JSON"},
            }));
        }
    };
    let invalid = |id: Value, why: &str| {
        json!({
            "jsonrpc": "2.0",
            "id": id,
            "error": {"code": -32600, "message": format!("invalid request: {why}")},
        })
    };
    // `rmcp` answered these without any `id` member (sweep 13, J1).
    let Some(object) = value.as_object() else {
        return Err(invalid(
            Value::Null,
            "a message is one JSON object (batches are not taken)",
        ));
    };
    let id = object.get("id");
    let fine = |id: &Value| id.is_string() || id.is_null() || id.is_i64() || id.is_u64();
    if id.is_some_and(|id| !fine(id)) {
        return Err(invalid(
            Value::Null,
            "an id is a string, an integer or null",
        ));
    }
    let id = id.cloned().unwrap_or(Value::Null);
    if let Some(key) = repeated_key(line) {
        let id = if key == "id" { Value::Null } else { id };
        return Err(invalid(id, &format!("the key {key:?} is given twice")));
    }
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err(invalid(id, "\"jsonrpc\" must be \"2.0\""));
    }
    // A request `rmcp` cannot read (a `ping` whose `params` is a string) it
    // answered without its id, or dropped (`notifications/…` with an id),
    // and the client waited for it forever: it is answered here, for its id.
    let request = !id.is_null() && object.contains_key("method");
    if request {
        match serde_json::from_slice::<rmcp::model::ClientJsonRpcMessage>(line) {
            Err(e) => {
                let why = format!("its params do not fit its method ({e})");
                return Err(invalid(id, &display_line(&why, 300)));
            }
            // `rmcp` answered an unknown method with its name as sent, ESC
            // and U+202E included, for the client to show (recheck 25).
            Ok(rmcp::model::ClientJsonRpcMessage::Request(rmcp::model::JsonRpcRequest {
                request: rmcp::model::ClientRequest::CustomRequest(custom),
                ..
            })) => {
                return Err(json!({
                    "jsonrpc": "2.0",
                    "id": id,
                    "error": {
                        "code": -32601,
                        "message": format!(
                            "method not found: {}",
                            display_line(&custom.method, 120)
                        ),
                    },
                }));
            }
            Ok(_) => {}
        }
    }
    Ok(Some(value))
}

/// The first top-level key of the JSON object `line` that is given twice
/// (`serde_json` keeps the last, `rmcp` refused it without an `id`).
fn repeated_key(line: &[u8]) -> Option<String> {
    use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};
    struct Keys;
    impl<'de> Visitor<'de> for Keys {
        type Value = Option<String>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut seen = std::collections::HashSet::new();
            let mut repeated = None;
            while let Some(key) = map.next_key::<String>()? {
                map.next_value::<IgnoredAny>()?;
                if repeated.is_none() && !seen.insert(key.clone()) {
                    repeated = Some(key);
                }
            }
            Ok(repeated)
        }
    }
    serde_json::Deserializer::from_slice(line)
        .deserialize_map(Keys)
        .ok()
        .flatten()
}

/// The answer to a line past [`MAX_LINE`]: "invalid request" for its
/// `id` (read off the top level without parsing the rest), else for
/// `id` null.
pub fn too_long(line: &[u8]) -> Value {
    json!({
        "jsonrpc": "2.0",
        "id": top_level_id(line).unwrap_or(Value::Null),
        "error": {
            "code": -32600,
            "message": format!("invalid request: the message is longer than {} MiB", MAX_LINE >> 20),
        },
    })
}

/// The error answer to a message nested too deep: "invalid request" for
/// its `id` (read off the top level without parsing the rest); for a line
/// that is no object (a batch, a bare array) the same for `id` null;
/// `None` for a notification (an object without `id`: nothing to answer).
pub fn too_deep(line: &[u8]) -> Option<Value> {
    let object = line
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|&b| b == b'{');
    let id = match top_level_id(line) {
        Some(id) => id,
        None if !object => Value::Null,
        None => return None,
    };
    Some(json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {
            "code": -32600,
            "message": format!(
                "invalid request: the message nests more than {MAX_DEPTH} levels deep"
            ),
        },
    }))
}

/// The value of the top-level `"id"` key of a JSON object when it is a
/// number or a string, null when it is something else; `None` when the
/// object has no `id`.
fn top_level_id(line: &[u8]) -> Option<Value> {
    let text = std::str::from_utf8(line).ok()?;
    let bytes = text.as_bytes();
    let (mut depth, mut i) = (0usize, 0usize);
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                let end = string_end(bytes, i)?;
                if depth == 1 && &text[i..=end] == "\"id\"" {
                    let rest = text[end + 1..].trim_start().strip_prefix(':')?.trim_start();
                    let raw = if rest.starts_with('"') {
                        &rest[..=string_end(rest.as_bytes(), 0)?]
                    } else {
                        &rest[..rest.find([',', '}']).unwrap_or(rest.len())]
                    };
                    // An id that is no number or string (a nested array): the
                    // message still asked for an answer, for `id` null.
                    let value: Value = serde_json::from_str(raw.trim()).unwrap_or(Value::Null);
                    let scalar = value.is_number() || value.is_string();
                    return Some(if scalar { value } else { Value::Null });
                }
                i = end;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    None
}

/// The index of the quote that closes the string opening at `start`.
fn string_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return Some(i),
            _ => i += 1,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A request of a million small values is answered here, before
    /// anything parses it whole (sweep 13, M1).
    #[test]
    fn a_request_of_too_many_values_is_answered_for_its_id() {
        assert_eq!(shape(br#"{"a": [1, 2, "x,[{"], "b": {}}"#).values, 6);
        let many = vec![r#"{"path":"a.py"}"#; MAX_VALUES];
        let line = format!(
            r#"{{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{{"name":"build","arguments":{{"files":[{}]}}}}}}"#,
            many.join(",")
        );
        assert!(shape(line.as_bytes()).values > MAX_VALUES);
        let answer = too_many(line.as_bytes());
        assert_eq!(answer["id"], json!(9));
        assert_eq!(answer["error"]["code"], json!(-32600));
    }

    #[test]
    fn a_line_is_kept_within_its_bound_and_told_whole() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("a runtime");
        runtime.block_on(async {
            let text = format!("{}\nnext\nlast", "a".repeat(100_000));
            let mut input = BufReader::with_capacity(1024, text.as_bytes());
            let mut line = Vec::new();
            let whole = read_line_within(&mut input, &mut line, 64)
                .await
                .expect("read");
            assert_eq!((whole, line.len()), (100_001, 64));
            line.clear();
            let whole = read_line_within(&mut input, &mut line, 64)
                .await
                .expect("read");
            assert_eq!((whole, line.as_slice()), (5, b"next\n".as_slice()));
            line.clear();
            assert_eq!(
                read_line_within(&mut input, &mut line, 64)
                    .await
                    .expect("read"),
                4
            );
            line.clear();
            assert_eq!(
                read_line_within(&mut input, &mut line, 64)
                    .await
                    .expect("read"),
                0
            );
        });
    }

    #[test]
    fn depth_counts_brackets_outside_strings() {
        assert_eq!(shape(br#"{"a": [1, {"b": "[[[{{"}]}"#).depth, 3);
        assert_eq!(shape(br#""\"[""#).depth, 0);
        let deep = format!("{}{}", "[".repeat(500), "]".repeat(500));
        assert_eq!(shape(deep.as_bytes()).depth, 500);
    }

    #[test]
    fn a_message_too_deep_is_answered_for_its_id() {
        let nested = format!("{}1{}", "[".repeat(300), "]".repeat(300));
        let line = format!(
            r#"{{"jsonrpc":"2.0","method":"tools/call","params":{{"x":{nested}}},"id":"a\"}}"}}"#
        );
        let answer = too_deep(line.as_bytes()).expect("answered");
        assert_eq!(answer["id"], json!("a\"}"));
        assert_eq!(answer["error"]["code"], json!(-32600));
        let first = format!(r#"{{"id": 7, "params": {nested}}}"#);
        assert_eq!(
            too_deep(first.as_bytes()).expect("answered")["id"],
            json!(7)
        );
        let notification = format!(r#"{{"method":"x","params":{nested}}}"#);
        assert!(too_deep(notification.as_bytes()).is_none());
        let batch = format!("[{nested}]");
        assert_eq!(
            too_deep(batch.as_bytes()).expect("answered")["id"],
            Value::Null
        );
    }

    /// An unknown method is answered here, its name with its controls
    /// made visible (`rmcp` sent it as it came: recheck 25).
    #[test]
    fn an_unknown_method_is_named_visibly() {
        let line =
            "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"x\\u001b]52;c;aGk=\\u0007\u{202e}\"}";
        let answer = checked(line.as_bytes()).expect_err("answered");
        assert_eq!(answer["id"], json!(4));
        assert_eq!(answer["error"]["code"], json!(-32601));
        let message = answer["error"]["message"].as_str().expect("message");
        assert!(message.starts_with("method not found: x"), "{message}");
        assert!(
            !message.contains(['\u{1b}', '\u{7}', '\u{202e}']),
            "{message}"
        );
    }

    /// Lines `rmcp` dropped without a word: invalid UTF-8 in a string, a
    /// lone surrogate, an id that is an array or out of range, a line past
    /// 16 MiB (sweep round 10).
    #[test]
    fn every_line_rmcp_would_drop_gets_an_answer() {
        for line in [
            &b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\",\"params\":{\"p\":\"a\xff.py\"}}"[..],
            br#"{"jsonrpc":"2.0","id":2,"method":"x","params":{"p":"\ud800.py"}}"#,
            br#"{"jsonrpc":"2.0","id":1e400,"method":"x"}"#,
            br#"{"jsonrpc":"2.0","id":[[1]],"method":"x"}"#,
            br#"{"jsonrpc":"2.0","id":1.5,"method":"x"}"#,
        ] {
            let answer = checked(line).expect_err("answered");
            assert_eq!(answer["id"], Value::Null, "{answer}");
        }
        assert!(checked(br#"{"jsonrpc":"2.0","id":"a","method":"ping"}"#).is_ok());
        assert!(checked(br#"{"jsonrpc":"2.0","method":"note"}"#).is_ok());
        // An id nested past the depth still gets its answer, for id null.
        let deep = format!(
            r#"{{"jsonrpc":"2.0","id":{}1{},"method":"x"}}"#,
            "[".repeat(100),
            "]".repeat(100)
        );
        assert_eq!(
            too_deep(deep.as_bytes()).expect("answered")["id"],
            Value::Null
        );
        let long = format!(
            r#"{{"jsonrpc":"2.0","id":7,"params":"{}"}}"#,
            "a".repeat(100)
        );
        assert_eq!(too_long(long.as_bytes())["id"], 7);
    }

    #[test]
    fn a_line_that_is_not_json_gets_a_parse_error() {
        for line in ["[1", "{\"jsonrpc\": \"2.0\", \"id\": 1,", "hello", "{]"] {
            let answer = checked(line.as_bytes()).expect_err(line);
            assert_eq!(answer["error"]["code"], json!(-32700), "{line}");
            assert_eq!(answer["id"], Value::Null, "{line}");
        }
        for line in [
            "",
            "  \n",
            "{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":1}\n",
        ] {
            assert!(checked(line.as_bytes()).is_ok(), "{line:?}");
        }
    }

    /// What `rmcp` answered with no `id` member at all (sweep 13, J1):
    /// the answer names the request's id, or null.
    #[test]
    fn an_invalid_request_is_answered_with_its_id() {
        for (line, id) in [
            (r#"{"jsonrpc":"1.0","id":6,"method":"ping"}"#, json!(6)),
            (r#"{"id":"x","method":"ping"}"#, json!("x")),
            (
                r#"{"jsonrpc":"2.0","id":5,"method":"ping","method":"tools/list"}"#,
                json!(5),
            ),
            (
                r#"{"jsonrpc":"2.0","id":5,"id":6,"method":"ping"}"#,
                Value::Null,
            ),
            ("[]", Value::Null),
            (r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#, Value::Null),
            ("7", Value::Null),
        ] {
            let answer = checked(line.as_bytes()).expect_err(line);
            assert_eq!(answer["error"]["code"], json!(-32600), "{line}");
            assert_eq!(answer.get("id"), Some(&id), "{line}: {answer}");
        }
    }
}
