//! MCP arguments as a client sends them: the line's nesting, size and
//! validity checks and their error answers (`mcp/frames.rs`), then every tool's argument struct
//! (`mcp/args.rs`, the server's own files) from the JSON, and the path
//! and mode names they carry as the requests read them. Never a panic.
#![no_main]

#[allow(dead_code)]
#[path = "../../src/mcp/args.rs"]
mod args;
#[allow(dead_code)]
#[path = "../../src/mcp/frames.rs"]
mod frames;
#[allow(dead_code)]
#[path = "../../src/mcp/in_flight.rs"]
mod in_flight;

use std::path::Path;
use std::str::FromStr;

use ctxcurate::core::model::ViewMode;
use ctxcurate::core::paths;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fn each<T: serde::de::DeserializeOwned>(v: &Value) -> Option<T> {
    serde_json::from_value::<T>(v.clone()).ok()
}

fuzz_target!(|data: &[u8]| {
    let shape = frames::shape(data);
    let depth = shape.depth;
    if depth > frames::MAX_DEPTH {
        if let Some(answer) = frames::too_deep(data) {
            assert_eq!(answer["error"]["code"], -32600);
        }
        return;
    }
    // Every answer the filter gives is an error object with an `id`
    // member (sweep 13, J1: rmcp's had none).
    if shape.values > frames::MAX_VALUES {
        let answer = frames::too_many(data);
        assert_eq!(answer["error"]["code"], -32600);
        assert!(answer.get("id").is_some());
    }
    if let Err(answer) = frames::checked(data) {
        assert!(answer.get("id").is_some(), "{answer}");
        assert!(answer["error"]["code"].is_i64(), "{answer}");
    }
    let Ok(value) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let args = value.get("arguments").unwrap_or(&value);
    let root = Path::new("/fuzz/root");
    if let Some(b) = each::<args::BuildArgs>(args) {
        for f in b.files.unwrap_or_default() {
            let _ = paths::normalize_rel(root, &root.join(&f.path));
            if let Some(m) = f.mode {
                let _ = ViewMode::from_str(&m);
            }
        }
        for t in b.targets {
            let _ = paths::normalize_rel(root, &root.join(&t));
        }
    }
    let _ = each::<args::PackArgs>(args);
    if let Some(v) = each::<args::ViewArgs>(args) {
        let _ = paths::normalize_rel(root, &root.join(&v.path));
        let _ = v.mode.as_deref().map(ViewMode::from_str);
    }
    let _ = each::<args::SymbolsArgs>(args);
    let _ = each::<args::TokenMapArgs>(args);
    let _ = each::<args::ChangedArgs>(args);
    let _ = each::<args::MoreArgs>(args);
    if let Some(i) = each::<args::IncludeArgs>(args) {
        for p in i.paths {
            let _ = paths::normalize_rel(root, &root.join(&p));
        }
    }
    let _ = each::<args::ExcludeArgs>(args);
    let _ = each::<args::SetModeArgs>(args);
    let _ = each::<args::MaskArgs>(args);
    let _ = each::<args::SavePresetArgs>(args);
});
