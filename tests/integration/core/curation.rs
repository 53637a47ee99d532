//! The CLI and the TUI make the same edit the same way (issue 11, one
//! curation core): one table of edits is applied through the real binary
//! and through the TUI harness (real keymap, dispatcher and `update`), and
//! the two `ctxcurate.toml` files must be byte-identical after every step.
//! An edit undone (or toggled back) leaves no trace in the file.

use crate::common;
use crate::common::machine;

use common::Project;
use ctxcurate::core::model::ViewMode;
use ctxcurate::tui::run::harness::Harness;
use ctxcurate::tui::state::symbols::flat_symbols;

/// Hand-written, with a comment and a glob in skeleton mode with a mask:
/// what the drift of issue 11 was about.
const START: &str = r#"# curated by hand
[[presets.default.files]]
path = "README.md"

[[presets.default.files]]
path = "src/**"
view_mode = "skeleton"
ast_mask = { "App" = "hide" }
"#;

fn fixture() -> Project {
    let p = Project::fixture();
    p.write("README.md", "# Demo\n\nThe demo project.\n");
    p.write("CHANGES.md", "# Changes\n\n- first\n");
    p.write("lib/one.py", "def one():\n    return 1\n");
    p.write("lib/two.py", "def two():\n    return 2\n");
    p.write("ctxcurate.toml", START);
    p
}

/// One edit, as the CLI says it and as TUI keys do it.
enum Tui {
    /// Move to the row of this path (opening folders), press the keys.
    At(&'static str, &'static str),
    /// Press `m` on this file until it shows this mode.
    Mode(&'static str, ViewMode),
    /// Mask a symbol of a file with a symbols-pane key (`d s g x`).
    Mask(&'static str, &'static str, &'static str),
    /// Mark lines of a file in the raw preview and tag the slice.
    Slice(&'static str, usize, usize, &'static str),
    /// Open the preset picker on this preset, press the keys, type the text
    /// (if any) and press enter after it.
    Picker(&'static str, &'static str, Option<&'static str>),
}

struct Step {
    cli: &'static [&'static str],
    tui: Tui,
}

const STEPS: &[Step] = &[
    // Globbed file: the entry starts as a copy of the glob's (skeleton,
    // `App` hidden); the CLI used to make a fresh `full` entry.
    Step {
        cli: &["set", "src/app.py", "--force-full"],
        tui: Tui::At("src/app.py", "f"),
    },
    // New explicit entries in path order (the CLI used to append).
    Step {
        cli: &["add", "docs/guide.md"],
        tui: Tui::At("docs/guide.md", "space"),
    },
    Step {
        cli: &["add", "CHANGES.md"],
        tui: Tui::At("CHANGES.md", "space"),
    },
    // Out of a glob: an exclusion.
    Step {
        cli: &["rm", "src/util.c"],
        tui: Tui::At("src/util.c", "space"),
    },
    // A mode a Markdown file offers (it has no grammar: the TUI's cycle
    // skips skeleton, outline and masked).
    Step {
        cli: &["set", "docs/guide.md", "--mode", "custom"],
        tui: Tui::Mode("docs/guide.md", ViewMode::Custom),
    },
    Step {
        cli: &["set", "src/app.py", "--no-aggregate"],
        tui: Tui::At("src/app.py", "a"),
    },
    Step {
        cli: &["mask", "src/app.py", "App.run", "sig"],
        tui: Tui::Mask("src/app.py", "App.run", "s"),
    },
    Step {
        cli: &["slice", "README.md", "1", "2", "--tag", "intro"],
        tui: Tui::Slice("README.md", 1, 2, "intro"),
    },
    // A folder: its `dir/**` glob, at the end.
    Step {
        cli: &["add", "lib"],
        tui: Tui::At("lib", "space"),
    },
    Step {
        cli: &["rm", "lib/two.py"],
        tui: Tui::At("lib/two.py", "space"),
    },
    // Back in: the exclusion goes, no explicit entry is left.
    Step {
        cli: &["add", "lib/two.py"],
        tui: Tui::At("lib/two.py", "space"),
    },
    // The folder out (every entry under it) and in again.
    Step {
        cli: &["rm", "lib"],
        tui: Tui::At("lib", "space"),
    },
    Step {
        cli: &["add", "lib"],
        tui: Tui::At("lib", "space"),
    },
    Step {
        cli: &["set", "src/app.py", "--no-force-full"],
        tui: Tui::At("src/app.py", "f"),
    },
    Step {
        cli: &["preset", "save", "review"],
        tui: Tui::Picker("default", "n", Some("review")),
    },
    // Toggled twice in the new preset: no stray entry.
    Step {
        cli: &["set", "lib/one.py", "--force-full"],
        tui: Tui::At("lib/one.py", "f"),
    },
    Step {
        cli: &["set", "lib/one.py", "--no-force-full"],
        tui: Tui::At("lib/one.py", "f"),
    },
    Step {
        cli: &["preset", "rename", "review", "review-2"],
        tui: Tui::Picker("review", "r ctrl-u", Some("review-2")),
    },
    Step {
        cli: &["preset", "apply", "default"],
        tui: Tui::Picker("default", "enter", None),
    },
    Step {
        cli: &["preset", "delete", "review-2"],
        tui: Tui::Picker("review-2", "D esc", None),
    },
];

fn tui_step(h: &mut Harness, step: &Tui) {
    match *step {
        Tui::At(path, keys) => {
            h.goto(path);
            assert_eq!(h.state.current_row().map(|r| r.path.as_str()), Some(path));
            h.keys(keys);
        }
        Tui::Mode(path, mode) => {
            h.goto(path);
            for _ in 0..8 {
                if h.state.item_for(path).map(|i| i.view_mode) == Some(mode) {
                    return;
                }
                h.key("m");
            }
            panic!("{path} never reached {mode}");
        }
        Tui::Mask(path, symbol, key) => {
            h.goto(path);
            // `home`, not `g`: in the symbols pane `g` masks as `agg`.
            h.keys("tab home");
            let index = h
                .state
                .symbols
                .view
                .as_ref()
                .and_then(|s| s.tree.as_ref())
                .and_then(|t| flat_symbols(t).iter().position(|(_, s)| s.path == symbol))
                .unwrap_or_else(|| panic!("{symbol} in the symbols pane"));
            for _ in 0..index {
                h.key("j");
            }
            h.keys(key);
            h.keys("tab tab");
        }
        Tui::Slice(path, start, end, tag) => {
            h.goto(path);
            h.keys("tab tab r");
            for _ in 1..start {
                h.key("j");
            }
            h.key("v");
            for _ in start..end {
                h.key("j");
            }
            h.key("v");
            h.type_text(tag);
            h.keys("enter r tab");
        }
        Tui::Picker(name, keys, text) => {
            h.key("p");
            let at = h
                .state
                .project
                .preset_names()
                .iter()
                .position(|(n, _)| n == name)
                .unwrap_or_else(|| panic!("preset {name} in the picker"));
            h.key("g");
            for _ in 0..at {
                h.key("j");
            }
            h.keys(keys);
            if let Some(text) = text {
                h.type_text(text);
                h.key("enter");
            }
        }
    }
    assert!(h.state.overlay.is_none(), "the step closed its overlay");
}

#[test]
fn the_same_edits_through_the_cli_and_the_tui_write_the_same_file() {
    let cli = fixture();
    let tui = fixture();
    let mut h = Harness::open(tui.root(), None, 120, 30).expect("open the TUI");
    for (n, step) in STEPS.iter().enumerate() {
        cli.ok(step.cli);
        tui_step(&mut h, &step.tui);
        let (a, b) = (cli.read("ctxcurate.toml"), tui.read("ctxcurate.toml"));
        assert_eq!(
            a,
            b,
            "step {n} ({}): the CLI (left) and the TUI (right) disagree",
            step.cli.join(" ")
        );
    }
    // What the steps must have written (so agreeing is not agreeing on
    // nothing): the copy of the glob's entry, the insertion order (an
    // explicit entry goes before the first explicit entry that sorts after
    // it, else last; a glob goes last), the exclusion.
    let text = cli.read("ctxcurate.toml");
    assert!(text.contains("# curated by hand\n"), "{text}");
    let file: ctxcurate::core::model::ProjectFile = toml::from_str(&text).unwrap();
    let default = &file.presets["default"];
    let paths: Vec<&str> = default.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "CHANGES.md",
            "README.md",
            "src/**",
            // After every explicit entry that sorts before it.
            "docs/guide.md",
            "src/app.py",
            "lib/**"
        ]
    );
    let app = default.item("src/app.py").unwrap();
    assert_eq!(app.view_mode, ViewMode::Masked, "{text}");
    assert_eq!(app.ast_mask.len(), 2, "the glob's mask was copied: {text}");
    assert!(!app.auto_aggregate && !app.force_full);
    assert_eq!(default.exclude, ["src/util.c"]);
    assert!(!file.presets.contains_key("review-2"));
}

/// The bytes of `ctxcurate.toml` before and after `keys` in the TUI.
fn tui_round_trip(keys_at: &[(&str, &str)]) -> (String, String) {
    let p = fixture();
    let before = p.read("ctxcurate.toml");
    let mut h = Harness::open(p.root(), None, 120, 30).expect("open the TUI");
    for (path, keys) in keys_at {
        h.goto(path);
        h.keys(keys);
    }
    (before, p.read("ctxcurate.toml"))
}

#[test]
fn toggling_f_or_a_twice_on_a_globbed_file_leaves_no_trace() {
    for keys in ["f f", "a a", "m M", "f a a f"] {
        let (before, after) = tui_round_trip(&[("src/app.py", keys)]);
        assert_eq!(before, after, "`{keys}` on a globbed file");
    }
    // And in between, the entry was really there.
    let (before, after) = tui_round_trip(&[("src/app.py", "f")]);
    assert_ne!(before, after);
}

#[test]
fn an_edit_undone_twice_leaves_no_trace() {
    for (path, keys) in [
        ("src/app.py", "f"),
        ("docs/guide.md", "space"),
        ("src/util.c", "space"),
        ("lib", "space"),
        ("README.md", "m"),
    ] {
        let p = fixture();
        let before = p.read("ctxcurate.toml");
        let mut h = Harness::open(p.root(), None, 120, 30).expect("open the TUI");
        h.goto(path);
        h.keys(keys);
        let edited = p.read("ctxcurate.toml");
        assert_ne!(before, edited, "`{keys}` on {path} changed the file");
        h.key("u");
        assert_eq!(
            before,
            p.read("ctxcurate.toml"),
            "`{keys}` on {path}, undone"
        );
        h.key("ctrl-r");
        assert_eq!(
            edited,
            p.read("ctxcurate.toml"),
            "`{keys}` on {path}, redone"
        );
        h.key("u");
        assert_eq!(
            before,
            p.read("ctxcurate.toml"),
            "`{keys}` on {path}, undone twice"
        );
    }
}

#[test]
fn set_and_unset_through_the_cli_leaves_no_trace() {
    for (on, off) in [
        (
            &["set", "src/app.py", "--force-full"][..],
            &["set", "src/app.py", "--no-force-full"][..],
        ),
        (
            &["set", "src/app.py", "--no-aggregate"],
            &["set", "src/app.py", "--aggregate"],
        ),
        (
            &["set", "src/app.py", "--mode", "full"],
            &["set", "src/app.py", "--mode", "skeleton"],
        ),
        (&["rm", "src/util.c"], &["add", "src/util.c"]),
    ] {
        let p = fixture();
        let before = p.read("ctxcurate.toml");
        p.ok(on);
        assert_ne!(before, p.read("ctxcurate.toml"), "{on:?} changed the file");
        p.ok(off);
        assert_eq!(before, p.read("ctxcurate.toml"), "{on:?} then {off:?}");
    }
}

/// The same on real code: the standard library's `json` package (from the
/// machine's python3) in a project, curated through both front ends.
#[test]
fn the_same_edits_on_the_python_stdlib_json_package() {
    let Some(stdlib) = machine::python_stdlib() else {
        return;
    };
    let make = || {
        let p = Project::empty();
        for name in [
            "__init__.py",
            "decoder.py",
            "encoder.py",
            "scanner.py",
            "tool.py",
        ] {
            let text =
                std::fs::read_to_string(stdlib.join("json").join(name)).expect("json module");
            p.write(&format!("json/{name}"), &text);
        }
        p.write(
            "ctxcurate.toml",
            "[[presets.default.files]]\npath = \"json/**\"\nview_mode = \"outline\"\n",
        );
        p
    };
    let steps: &[Step] = &[
        Step {
            cli: &["set", "json/decoder.py", "--force-full"],
            tui: Tui::At("json/decoder.py", "f"),
        },
        Step {
            cli: &["mask", "json/encoder.py", "JSONEncoder.iterencode", "hide"],
            tui: Tui::Mask("json/encoder.py", "JSONEncoder.iterencode", "x"),
        },
        Step {
            cli: &["mask", "json/encoder.py", "JSONEncoder", "sig"],
            tui: Tui::Mask("json/encoder.py", "JSONEncoder", "s"),
        },
        Step {
            cli: &["rm", "json/tool.py"],
            tui: Tui::At("json/tool.py", "space"),
        },
        Step {
            cli: &["set", "json/scanner.py", "--mode", "skeleton"],
            tui: Tui::Mode("json/scanner.py", ViewMode::Skeleton),
        },
        Step {
            cli: &["slice", "json/__init__.py", "1", "20", "--tag", "doc"],
            tui: Tui::Slice("json/__init__.py", 1, 20, "doc"),
        },
        Step {
            cli: &["set", "json/decoder.py", "--no-force-full"],
            tui: Tui::At("json/decoder.py", "f"),
        },
        Step {
            cli: &["set", "json/scanner.py", "--mode", "outline"],
            tui: Tui::Mode("json/scanner.py", ViewMode::Outline),
        },
    ];
    let (cli, tui) = (make(), make());
    let mut h = Harness::open(tui.root(), None, 120, 40).expect("open the TUI");
    for (n, step) in steps.iter().enumerate() {
        cli.ok(step.cli);
        tui_step(&mut h, &step.tui);
        assert_eq!(
            cli.read("ctxcurate.toml"),
            tui.read("ctxcurate.toml"),
            "step {n} ({})",
            step.cli.join(" ")
        );
    }
    // Toggled back: decoder.py and scanner.py have no entry of their own.
    let file: ctxcurate::core::model::ProjectFile =
        toml::from_str(&cli.read("ctxcurate.toml")).unwrap();
    let paths: Vec<&str> = file.presets["default"]
        .files
        .iter()
        .map(|f| f.path.as_str())
        .collect();
    assert_eq!(paths, ["json/**", "json/__init__.py", "json/encoder.py"]);
    let encoder = file.presets["default"].item("json/encoder.py").unwrap();
    assert_eq!(encoder.ast_mask.len(), 2);
    // The context both build is the same too.
    assert_eq!(cli.ok(&["build"]), tui.ok(&["build"]));
}
