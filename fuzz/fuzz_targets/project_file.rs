//! The project file: any text is parsed or refused (never a panic); an
//! accepted file, edited (a preset entry added, one removed) and saved by
//! `render_edit` as every save does, keeps every comment line and every
//! unknown key, and reads back as the edited file.
#![no_main]

use std::path::Path;

use ctxcurate::core::model::FileItem;
use ctxcurate::core::project::{parse_text, render_edit};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(old) = parse_text(Path::new("ctxcurate.toml"), text) else {
        return;
    };
    let mut new = old.clone();
    let preset = new.presets.entry("fuzz".to_string()).or_default();
    preset.files.push(FileItem::new("fuzz/added.py"));
    if let Some(first) = new.presets.values_mut().find(|p| p.files.len() > 1) {
        first.files.remove(0);
    }
    let Ok(saved) = render_edit(text, &old, &new) else {
        return;
    };
    let back = parse_text(Path::new("ctxcurate.toml"), &saved)
        .unwrap_or_else(|e| panic!("the saved text does not parse: {e}\n{saved}"));
    assert!(
        back.same_shared(&new),
        "the saved text reads back otherwise:\n{saved}"
    );
    assert_eq!(back.extra, new.extra, "unknown keys changed:\n{saved}");
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('#') {
            assert!(saved.contains(line), "comment {line:?} lost:\n{saved}");
        }
    }
});
