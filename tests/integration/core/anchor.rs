//! Anchored slices under real edits: slices of real Python standard library
//! files, then the edits people make — lines inserted or deleted above,
//! lines changed inside, the block moved, the block deleted — and for each
//! the resolution and the lines a build shows. A slice must follow its
//! text, or be reported stale; it must never show other lines.

use crate::common;
use crate::common::{corpus, machine};

use std::path::Path;

use ctxcurate::core::anchor::{self, Resolution};
use ctxcurate::core::model::{FileItem, Slice, ViewMode};
use ctxcurate::core::views;

fn stdlib_text(stdlib: &Path, name: &str) -> String {
    std::fs::read_to_string(stdlib.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// 1-based line range of the top-level `def name` (up to the next
/// top-level line).
fn def_range(text: &str, name: &str) -> (usize, usize) {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.starts_with(&format!("def {name}(")))
        .unwrap_or_else(|| panic!("no def {name}"));
    let mut end = start + 1;
    while end < lines.len() && (lines[end].is_empty() || lines[end].starts_with([' ', '\t'])) {
        end += 1;
    }
    while lines[end - 1].trim().is_empty() {
        end -= 1;
    }
    (start + 1, end)
}

fn lines(text: &str, start: usize, end: usize) -> Vec<String> {
    text.lines()
        .skip(start - 1)
        .take(end + 1 - start)
        .map(str::to_string)
        .collect()
}

fn splice(text: &str, at: usize, remove: usize, insert: &[&str]) -> String {
    let mut v: Vec<String> = text.lines().map(str::to_string).collect();
    v.splice(at..at + remove, insert.iter().map(|s| s.to_string()));
    v.join("\n") + "\n"
}

/// The `custom` view of `text` with `slice`, as a build renders it.
fn rendered(text: &str, slice: &Slice) -> views::View {
    let item = FileItem {
        view_mode: ViewMode::Custom,
        custom_slices: vec![Slice {
            tag: Some("t".into()),
            ..slice.clone()
        }],
        ..FileItem::new("m.py")
    };
    views::render("m.py", text, ViewMode::Custom, &item)
}

/// The body lines of a rendered single-slice view.
fn body(view: &views::View) -> Vec<String> {
    view.text.lines().skip(1).map(str::to_string).collect()
}

const CASES: &[(&str, &str)] = &[
    ("bisect.py", "bisect_right"),
    ("colorsys.py", "rgb_to_hls"),
    ("textwrap.py", "dedent"),
    ("shlex.py", "quote"),
];

#[test]
fn unchanged_file_keeps_its_slices() {
    let Some(stdlib) = machine::python_stdlib() else {
        return;
    };
    for (file, def) in CASES {
        let text = stdlib_text(&stdlib, file);
        let (s, e) = def_range(&text, def);
        let slice = anchor::create_slice(&text, s, e).unwrap();
        assert_eq!(
            anchor::resolve(&text, &slice),
            Resolution::Kept { start: s, end: e }
        );
        assert_eq!(body(&rendered(&text, &slice)), lines(&text, s, e), "{file}");
    }
}

#[test]
fn lines_inserted_or_deleted_above_move_the_slice() {
    let Some(stdlib) = machine::python_stdlib() else {
        return;
    };
    for (file, def) in CASES {
        let text = stdlib_text(&stdlib, file);
        let (s, e) = def_range(&text, def);
        let slice = anchor::create_slice(&text, s, e).unwrap();
        let want = lines(&text, s, e);
        // Three lines inserted at the top.
        let inserted = splice(&text, 0, 0, &["# one", "# two", "import sys"]);
        assert_eq!(
            anchor::resolve(&inserted, &slice),
            Resolution::Moved {
                start: s + 3,
                end: e + 3,
                by: 3
            },
            "{file}"
        );
        let v = rendered(&inserted, &slice);
        assert_eq!(body(&v), want, "{file}");
        assert!(v.text.starts_with(&format!(
            "--- slice [t], lines {}-{} (moved +3 lines)",
            s + 3,
            e + 3
        )));
        // The first two lines deleted.
        let deleted = splice(&text, 0, 2, &[]);
        assert_eq!(
            anchor::resolve(&deleted, &slice),
            Resolution::Moved {
                start: s - 2,
                end: e - 2,
                by: -2
            },
            "{file}"
        );
        assert_eq!(body(&rendered(&deleted, &slice)), want, "{file}");
    }
}

#[test]
fn edits_inside_take_the_span_between_the_anchors() {
    let Some(stdlib) = machine::python_stdlib() else {
        return;
    };
    for (file, def) in CASES {
        let text = stdlib_text(&stdlib, file);
        let (s, e) = def_range(&text, def);
        let slice = anchor::create_slice(&text, s, e).unwrap();
        // Line s+1 replaced by two new lines, and lines added at the top.
        let edited = splice(&text, s, 1, &["    # reviewed", "    pass  # was changed"]);
        let edited = splice(&edited, 0, 0, &["# header"]);
        let got = anchor::resolve(&edited, &slice);
        assert_eq!(
            got,
            Resolution::Reanchored {
                start: s + 1,
                end: e + 2
            },
            "{file}"
        );
        let v = rendered(&edited, &slice);
        assert_eq!(body(&v), lines(&edited, s + 1, e + 2), "{file}");
        assert!(body(&v).iter().any(|l| l.contains("# reviewed")));
        assert!(v.text.contains("(re-anchored"), "{}", v.text);
        assert_eq!(v.notes.len(), 1, "a re-anchored slice is noted");
    }
}

#[test]
fn a_moved_block_is_found_by_its_text() {
    let Some(stdlib) = machine::python_stdlib() else {
        return;
    };
    for (file, def) in CASES {
        let text = stdlib_text(&stdlib, file);
        let (s, e) = def_range(&text, def);
        let slice = anchor::create_slice(&text, s, e).unwrap();
        let block = lines(&text, s, e);
        // Cut the block and paste it at the end of the file.
        let mut moved = splice(&text, s - 1, e + 1 - s, &[]);
        let total = moved.lines().count();
        moved.push('\n');
        moved.push_str(&block.join("\n"));
        moved.push('\n');
        let start = total + 2;
        let got = anchor::resolve(&moved, &slice);
        assert_eq!(
            got,
            Resolution::Moved {
                start,
                end: start + e - s,
                by: start as i64 - s as i64
            },
            "{file}"
        );
        assert_eq!(body(&rendered(&moved, &slice)), block, "{file}");
    }
}

#[test]
fn a_duplicated_block_is_told_apart_by_its_anchors() {
    let Some(stdlib) = machine::python_stdlib() else {
        return;
    };
    let text = stdlib_text(&stdlib, "bisect.py");
    let (s, e) = def_range(&text, "bisect_left");
    let slice = anchor::create_slice(&text, s, e).unwrap();
    let block = lines(&text, s, e);
    let refs: Vec<&str> = block.iter().map(String::as_str).collect();
    // A copy of the block pasted at the top, so the text is not unique.
    let mut with_copy = refs.clone();
    with_copy.push("");
    let dup = splice(&text, 0, 0, &with_copy);
    let k = with_copy.len();
    assert_eq!(
        anchor::resolve(&dup, &slice),
        Resolution::Moved {
            start: s + k,
            end: e + k,
            by: k as i64
        }
    );
    assert_eq!(body(&rendered(&dup, &slice)), block);
}

#[test]
fn a_deleted_or_rewritten_block_is_stale_and_never_shown() {
    let Some(stdlib) = machine::python_stdlib() else {
        return;
    };
    for (file, def) in CASES {
        let text = stdlib_text(&stdlib, file);
        let (s, e) = def_range(&text, def);
        let slice = anchor::create_slice(&text, s, e).unwrap();
        // The block deleted.
        let deleted = splice(&text, s - 1, e + 1 - s, &[]);
        let got = anchor::resolve(&deleted, &slice);
        assert!(matches!(got, Resolution::Stale { .. }), "{file}: {got:?}");
        let v = rendered(&deleted, &slice);
        assert_eq!(
            &*v.text,
            views::NO_SLICE,
            "{file}: no lines for a stale slice"
        );
        assert!(v.notes[0].starts_with(&format!("stale slice [t] (was lines {s}-{e})")));
        // The block and its surroundings rewritten.
        let from = s.saturating_sub(4);
        let rewritten = splice(
            &text,
            from,
            e + 3 - from,
            &["def replacement():", "    return 0"],
        );
        let got = anchor::resolve(&rewritten, &slice);
        assert!(matches!(got, Resolution::Stale { .. }), "{file}: {got:?}");
    }
}

/// Over many real files: a slice in the middle of each, then an edit
/// inside it. Whatever the file, the slice either resolves to exactly the
/// edited block, or to an untouched copy of its exact text elsewhere (real
/// files repeat blocks), or is stale — never to other lines.
#[test]
fn edits_never_show_wrong_lines_across_the_stdlib() {
    let Some(stdlib) = machine::python_stdlib() else {
        return;
    };
    let dir = stdlib;
    let files = corpus::files_under(&dir, &|p| {
        p.extension().is_some_and(|e| e == "py")
            && !p
                .components()
                .any(|c| c.as_os_str() == "site-packages" || c.as_os_str() == "test")
    });
    let (mut reanchored, mut stale, mut copies, mut tried) = (0, 0, 0, 0);
    for path in files.iter().step_by(7).take(150) {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        let n = text.lines().count();
        if n < 40 {
            continue;
        }
        tried += 1;
        let (s, e) = (n / 2, n / 2 + 5);
        let slice = anchor::create_slice(&text, s, e).unwrap();
        let edited = splice(&text, s + 1, 1, &["    edited = True", "    more = 1"]);
        match anchor::resolve(&edited, &slice) {
            Resolution::Reanchored { start, end } => {
                reanchored += 1;
                assert_eq!((start, end), (s, e + 1), "{}", path.display());
            }
            Resolution::Stale { .. } => stale += 1,
            Resolution::Moved { start, end, .. } => {
                copies += 1;
                assert_eq!(lines(&edited, start, end), lines(&text, s, e));
            }
            other => panic!("{}: {other:?}", path.display()),
        }
    }
    assert!(tried > 100, "{tried}");
    assert!(
        reanchored * 10 >= tried * 8,
        "re-anchored {reanchored} of {tried}, stale {stale}, copies {copies}"
    );
}

/// The CLI end to end: `slice`, an edit, `slices` and `build`.
#[test]
fn cli_slices_lists_resolutions_and_build_notes_stale_ones() {
    let Some(stdlib) = machine::python_stdlib() else {
        return;
    };
    let p = common::Project::empty();
    let text = stdlib_text(&stdlib, "colorsys.py");
    p.write("colorsys.py", &text);
    let (s1, e1) = def_range(&text, "rgb_to_yiq");
    let (s2, e2) = def_range(&text, "rgb_to_hls");
    let (s3, e3) = def_range(&text, "rgb_to_hsv");
    for (s, e, tag) in [(s1, e1, "yiq"), (s2, e2, "hls"), (s3, e3, "hsv")] {
        p.ok(&[
            "slice",
            "colorsys.py",
            &s.to_string(),
            &e.to_string(),
            "--tag",
            tag,
        ]);
    }
    assert_eq!(
        p.ok(&["slices", "colorsys.py"]),
        format!(
            "1. lines {s1}-{e1} [yiq]: kept\n2. lines {s2}-{e2} [hls]: kept\n3. lines {s3}-{e3} [hsv]: kept\n"
        )
    );
    // Two lines inserted at the top, a line edited in rgb_to_hls, and
    // rgb_to_hsv deleted.
    let edited = splice(&text, s3 - 1, e3 + 1 - s3, &[]);
    let edited = splice(&edited, s2, 1, &["    # edited"]);
    let edited = splice(&edited, 0, 0, &["# a", "# b"]);
    p.write("colorsys.py", &edited);
    let out = p.ok(&["slices", "colorsys.py"]);
    let want_lines = [
        format!(
            "1. lines {s1}-{e1} [yiq]: moved by +2 → lines {}-{}",
            s1 + 2,
            e1 + 2
        ),
        format!(
            "2. lines {s2}-{e2} [hls]: re-anchored → lines {}-{}",
            s2 + 2,
            e2 + 2
        ),
        format!("3. lines {s3}-{e3} [hsv]: stale ("),
    ];
    for (got, want) in out.lines().zip(&want_lines) {
        assert!(got.starts_with(want.as_str()), "{got}\n{want}");
    }
    let built = p.ok(&["build"]);
    assert!(built.contains(&format!(
        "--- slice [hls], lines {}-{} (re-anchored",
        s2 + 2,
        e2 + 2
    )));
    assert!(built.contains("    # edited\n"));
    assert!(
        built.contains(&format!("> note: stale slice [hsv] (was lines {s3}-{e3})")),
        "{built}"
    );
    assert!(
        !built.contains("def rgb_to_hsv"),
        "a stale slice shows no lines"
    );
}
