//! The secret scanner: any text, never a panic; every hit is on a line of
//! the text, its secret a piece of the text (whole characters) on or
//! after the match's start, which lies on the hit's line; and it is
//! masked (never the whole token).
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
        assert!(
            text.get(hit.span.clone()).is_some() && hit.start <= hit.span.start,
            "span {:?} (match at {}) is not a piece of the {} bytes",
            hit.span,
            hit.start,
            text.len()
        );
        let before = text
            .get(..hit.start)
            .expect("the start is a character boundary");
        assert_eq!(
            before.matches('\n').count() + 1,
            hit.line,
            "the match's start is not on its line"
        );
    }
});
