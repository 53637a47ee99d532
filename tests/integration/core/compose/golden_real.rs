//! Golden outputs on real code no one here wrote: files of the Python
//! standard library and of the system's C and C++ headers, copied into a
//! temp project and composed in every view mode. The snapshots pin the
//! exact bytes `ctxcurate build` produces for them.

use crate::common::{Project, machine};

/// A project holding copies of real files under stable names (`None`:
/// the test is skipped, see `common::machine`).
fn real_project() -> Option<Project> {
    let stdlib = machine::python_stdlib()?;
    let include = machine::usr_include()?;
    let cpp = machine::cpp_include()?;
    let p = Project::empty();
    for (from, to) in [
        (stdlib.join("colorsys.py"), "colorsys.py"),
        (include.join("libgen.h"), "libgen.h"),
        (cpp.join("bits/stl_relops.h"), "stl_relops.h"),
    ] {
        let text =
            std::fs::read_to_string(&from).unwrap_or_else(|e| panic!("{}: {e}", from.display()));
        p.write(to, &text);
    }
    Some(p)
}

fn build_with(p: &Project, toml: &str) -> String {
    p.write("ctxcurate.toml", toml);
    p.ok(&["build"])
}

#[test]
fn python_stdlib_file_in_every_mode() {
    let Some(p) = real_project() else {
        return;
    };
    for mode in ["skeleton", "outline", "summary"] {
        let text = build_with(
            &p,
            &format!("[[presets.default.files]]\npath = \"colorsys.py\"\nview_mode = \"{mode}\"\n"),
        );
        insta::assert_snapshot!(format!("colorsys_{mode}"), text);
    }
    let masked = build_with(
        &p,
        r#"
[[presets.default.files]]
path = "colorsys.py"
view_mode = "masked"
mask_default = "sig"
ast_mask = { "rgb_to_hsv" = "def", "hls_to_rgb" = "agg", "_v" = "hide" }
"#,
    );
    insta::assert_snapshot!("colorsys_masked", masked);
}

#[test]
fn c_and_cpp_headers_in_symbol_modes() {
    let Some(p) = real_project() else {
        return;
    };
    let text = build_with(
        &p,
        r#"
[[presets.default.files]]
path = "libgen.h"
view_mode = "outline"

[[presets.default.files]]
path = "stl_relops.h"
view_mode = "skeleton"
"#,
    );
    insta::assert_snapshot!("headers_outline_and_skeleton", text);
    let masked = build_with(
        &p,
        r#"
[[presets.default.files]]
path = "stl_relops.h"
view_mode = "masked"
mask_default = "hide"
ast_mask = { "std::rel_ops::operator<=" = "def" }
"#,
    );
    assert!(masked.contains("operator<="), "{masked}");
    assert!(!masked.contains("operator>="), "{masked}");
    insta::assert_snapshot!("relops_one_operator", masked);
}
