//! The requests handed on to `rmcp` and not answered yet. `rmcp` stops at
//! its input's end and drops the answers of calls still running, so a
//! client that writes its requests and closes stdin (a script, a test
//! harness) got none for a slow one, though the process stayed until the
//! work was done (recheck 22). [`super::frames::filter_stdin`] notes each
//! request it hands on, [`super::frames::LineOut`] each answer it writes,
//! and at stdin's end the filter waits for what is owed before it closes
//! `rmcp`'s input.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::Value;

/// How long stdin's end waits for the answers owed: longer than any call
/// takes (parses stop at their deadline, builds at their bounds), short
/// enough that a call that never ends cannot keep the process forever.
pub const MAX_WAIT: Duration = Duration::from_secs(300);

/// How often the wait looks again.
const POLL: Duration = Duration::from_millis(20);

/// The requests owed an answer, by their `id` as JSON text. An id sent
/// again while owed is owed once: `rmcp` answers one request of an id (a
/// count of two kept the server its five minutes after a client reused an
/// id, recheck 22b).
#[derive(Clone, Default)]
pub struct InFlight {
    owed: Arc<Mutex<HashSet<String>>>,
}

impl InFlight {
    /// Notes `message`, handed on to `rmcp` (which reads it:
    /// [`super::frames::checked`] answered what it cannot): a request (a
    /// `method` and an `id`) is owed an answer; a cancellation (`notifications/cancelled`)
    /// ends what its request was owed, since a cancelled call may get none.
    pub fn sent(&self, message: &Value) {
        let Some(method) = message.get("method").and_then(Value::as_str) else {
            return;
        };
        let mut owed = self.owed.lock().unwrap_or_else(PoisonError::into_inner);
        if method == "notifications/cancelled" {
            if let Some(id) = message.pointer("/params/requestId") {
                owed.remove(&id.to_string());
            }
        } else if let Some(id) = message.get("id").filter(|id| !id.is_null()) {
            owed.insert(id.to_string());
        }
    }

    /// Notes `line`, written to the client: an answer (a `result` or an
    /// `error` for an `id`) settles what its request was owed. A line is
    /// read only while something is owed.
    pub fn answered(&self, line: &[u8]) {
        #[derive(Deserialize)]
        struct Answer {
            #[serde(default)]
            id: Option<Value>,
            #[serde(default)]
            result: Option<IgnoredAny>,
            #[serde(default)]
            error: Option<IgnoredAny>,
        }
        if self.is_empty() {
            return;
        }
        let Ok(answer) = serde_json::from_slice::<Answer>(line) else {
            return;
        };
        let Some(id) = answer
            .id
            .filter(|_| answer.result.is_some() || answer.error.is_some())
        else {
            return;
        };
        let mut owed = self.owed.lock().unwrap_or_else(PoisonError::into_inner);
        owed.remove(&id.to_string());
    }

    /// Whether nothing is owed.
    pub fn is_empty(&self) -> bool {
        self.owed
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .is_empty()
    }

    /// Waits until nothing is owed, or `max` has passed.
    pub async fn drained(&self, max: Duration) {
        let started = Instant::now();
        while !self.is_empty() && started.elapsed() < max {
            tokio::time::sleep(POLL).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_request_is_owed_until_its_answer_or_cancellation() {
        let in_flight = InFlight::default();
        let call = |id: Value| {
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                "params": {"name": "build", "arguments": {}}})
        };
        in_flight.sent(&call(json!(1)));
        in_flight.sent(&call(json!("a")));
        in_flight.sent(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        // An id sent again while owed is owed once.
        in_flight.sent(&json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}));
        // A request from the server, and a line of something else, settle
        // nothing.
        in_flight.answered(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#);
        in_flight.answered(b"not json");
        in_flight.answered(br#"{"jsonrpc":"2.0","id":1,"result":{}}"#);
        assert!(!in_flight.is_empty());
        in_flight.sent(&json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "a"}}));
        assert!(in_flight.is_empty());
    }
}
