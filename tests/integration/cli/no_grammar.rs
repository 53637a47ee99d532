//! Files without a grammar through the real binary: `view`, `set`,
//! `mask` and `symbols` say that skeleton, outline and masked are not
//! offered for them, and why; a script known by its `#!` line has them.

use crate::common;

use common::{Project, saved, stderr, stdout};
use ctxcurate::core::model::ViewMode;

const YAML: &str = "name: app\nport: 8080\n";
const WHY: &str = "no grammar for .yaml: skeleton/outline/masked are not offered";

#[test]
fn view_names_the_missing_grammar() {
    let p = Project::empty();
    p.write("conf/app.yaml", YAML);
    for mode in ["skeleton", "outline", "masked"] {
        let out = p.run(&["view", "conf/app.yaml", "--mode", mode]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(stdout(&out), YAML, "too small to summarize: itself");
        assert_eq!(
            stderr(&out),
            format!("note: conf/app.yaml: {WHY}; showing summary\n")
        );
    }
    // A mode that needs no grammar has nothing to say.
    let out = p.run(&["view", "conf/app.yaml", "--mode", "summary"]);
    assert_eq!(stderr(&out), "");
}

#[test]
fn set_keeps_the_mode_and_explains() {
    let p = Project::empty();
    p.write("conf/app.yaml", YAML);
    p.write("src/a.rs", "fn f() {}\n");
    let out = p.ok(&["set", "conf/app.yaml", "--mode", "masked"]);
    assert_eq!(
        out,
        format!("added conf/app.yaml [masked] to preset default ({WHY}; it renders its summary)\n")
    );
    let item = &saved(&p).presets["default"].files[0];
    assert_eq!(item.view_mode, ViewMode::Masked);
    let out = p.ok(&["set", "src/a.rs", "--mode", "masked"]);
    // With a grammar, masked says what the symbols without a mask show.
    assert_eq!(
        out,
        "added src/a.rs [masked] (symbols without a mask of their own: sig) to preset default\n"
    );
    let out = p.ok(&["set", "conf/app.yaml", "--mode", "summary"]);
    assert_eq!(out, "conf/app.yaml [summary] in preset default\n");
}

#[test]
fn mask_and_symbols_refuse_with_the_reason() {
    let p = Project::empty();
    p.write("conf/app.yaml", YAML);
    let out = p.run(&["mask", "conf/app.yaml", "name", "hide"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains(&format!("conf/app.yaml: no symbols to mask: {WHY}")),
        "{}",
        stderr(&out)
    );
    let out = p.run(&["symbols", "Makefile"]);
    assert_eq!(out.status.code(), Some(1));
    p.write("Makefile", "all:\n\techo hi\n");
    let out = p.run(&["symbols", "Makefile"]);
    assert!(
        stderr(&out).contains(
            "Makefile: no symbols: no grammar for Makefile: skeleton/outline/masked are not offered"
        ),
        "{}",
        stderr(&out)
    );
}

/// An extension-less script is known by its `#!` line: every mode, and
/// its symbols can be masked.
#[test]
fn a_script_known_by_its_shebang_has_every_view() {
    let p = Project::empty();
    p.write(
        "bin/tool",
        "#!/usr/bin/env python3\ndef main():\n    return 1\n",
    );
    let out = p.run(&["view", "bin/tool", "--mode", "skeleton"]);
    assert_eq!(stderr(&out), "");
    assert_eq!(
        stdout(&out),
        "#!/usr/bin/env python3\ndef main():\n    ...\n"
    );
    let out = p.ok(&["mask", "bin/tool", "main", "hide"]);
    assert!(out.contains("main = hide"), "{out}");
    let out = p.ok(&["set", "bin/tool", "--mode", "outline"]);
    assert_eq!(out, "bin/tool [outline] in preset default\n");
}
