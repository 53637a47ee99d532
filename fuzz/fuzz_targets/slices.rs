//! Anchored slices: the first bytes are a slice (start, length, edit), the
//! rest the file. A slice made on the file is found where it was made; on
//! the edited file it is kept or moved with its own text, re-anchored
//! (the edited lines between its anchors), or stale; never out of range.
#![no_main]

use ctxcurate::core::anchor::{self, Resolution};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 3 {
        return;
    }
    let (head, rest) = data.split_at(3);
    let text = String::from_utf8_lossy(rest).into_owned();
    let lines: Vec<&str> = text.lines().collect();
    if lines.is_empty() {
        return;
    }
    let start = head[0] as usize % lines.len() + 1;
    let end = (start + head[1] as usize % 8).min(lines.len());
    let Some(slice) = anchor::create_slice(&text, start, end) else {
        return;
    };
    assert_eq!(
        anchor::resolve(&text, &slice),
        Resolution::Kept { start, end }
    );
    // Lines inserted above, or one line removed.
    let cut = head[2] as usize % lines.len();
    let edited = if head[2] & 1 == 0 {
        let above: String = text.chars().take(head[2] as usize).collect();
        format!("x\n{}\n{text}", above.replace('\n', " "))
    } else {
        lines
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != cut)
            .map(|(_, l)| format!("{l}\n"))
            .collect()
    };
    let found = anchor::resolve(&edited, &slice);
    if let Some((a, b)) = found.range() {
        let total = edited.lines().count();
        assert!(a >= 1 && a <= b && b <= total, "{a}-{b} of {total}");
        // Kept or moved, it is the slice's own text; re-anchored, the
        // edited lines between its anchors (and said so).
        if !matches!(found, Resolution::Reanchored { .. }) {
            let got: Vec<&str> = edited.lines().skip(a - 1).take(b - a + 1).collect();
            let want: Vec<&str> = lines[start - 1..end].to_vec();
            assert_eq!(got, want, "other lines shown as the slice");
        }
    }
});
