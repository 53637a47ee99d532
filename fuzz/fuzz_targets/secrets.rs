//! The secret scanner: any text, never a panic; every hit is on a line of
//! the text and masked (never the whole token).
#![no_main]

use ctxcurate::core::secrets;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let lines = text.lines().count();
    for hit in secrets::scan(&text) {
        assert!(
            hit.line >= 1 && hit.line <= lines.max(1),
            "line {} of {lines}",
            hit.line
        );
        assert!(hit.masked.contains('…'), "{:?} is not masked", hit.masked);
    }
});
