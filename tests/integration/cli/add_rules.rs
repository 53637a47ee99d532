//! `add` follows the rules `set` does: a file that enters `masked` starts
//! at mask default `sig` however it gets there; a glob that matches no
//! file is said at `add` time (a warning: it is kept, for files that
//! appear later).

use crate::common;

use common::{Project, saved, stderr};
use ctxcurate::core::model::{MaskState, ViewMode};

#[test]
fn add_and_set_masked_start_at_the_same_mask_default() {
    let p = Project::fixture();
    p.ok(&["add", "src/app.py", "--mode", "masked"]);
    p.ok(&["add", "src/util.c"]);
    p.ok(&["set", "src/util.c", "--mode", "masked"]);
    // A folder added masked, and a file already listed switched by `add`.
    p.ok(&["add", "docs", "--mode", "masked"]);
    let preset = &saved(&p).presets["default"];
    let entry = |path: &str| {
        preset
            .files
            .iter()
            .find(|f| f.path == path)
            .unwrap_or_else(|| panic!("{path} listed: {:?}", preset.files))
    };
    for path in ["src/app.py", "src/util.c", "docs/**"] {
        assert_eq!(entry(path).view_mode, ViewMode::Masked, "{path}");
        assert_eq!(entry(path).mask_default, MaskState::Sig, "{path}");
    }
    // Leaving masked untouched takes the default back, by either command.
    p.ok(&["add", "src/app.py", "--mode", "full"]);
    p.ok(&["set", "src/util.c", "--mode", "full"]);
    let preset = &saved(&p).presets["default"];
    for f in preset.files.iter().filter(|f| f.path.starts_with("src/")) {
        assert_eq!(f.mask_default, MaskState::Def, "{}", f.path);
    }
    // A mask default the user chose is kept on the way in.
    p.ok(&["set", "src/util.c", "--mask-default", "hide"]);
    p.ok(&["add", "src/util.c", "--mode", "masked"]);
    let preset = &saved(&p).presets["default"];
    let util = preset
        .files
        .iter()
        .find(|f| f.path == "src/util.c")
        .unwrap();
    assert_eq!(util.mask_default, MaskState::Hide);
}

#[test]
fn a_glob_that_matches_nothing_is_said_at_add() {
    let p = Project::fixture();
    let out = p.run(&["add", "zz*.py"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "warning: glob `zz*.py` matches no file (added anyway, for files that appear later; \
         `ctxcurate rm 'zz*.py'` takes it out)\n"
    );
    assert!(
        saved(&p).presets["default"]
            .files
            .iter()
            .any(|f| f.path == "zz*.py")
    );
    // Typed in a folder, the stored (root-relative) glob is named.
    let out = p
        .cmd(&["add", "*.rs"])
        .current_dir(p.path("src"))
        .output()
        .unwrap();
    assert!(
        stderr(&out).contains("glob `src/*.rs` matches no file"),
        "{}",
        stderr(&out)
    );
    // A glob that matches says nothing.
    let out = p.run(&["add", "src/*.py"]);
    assert!(out.status.success());
    assert!(
        !stderr(&out).contains("matches no file"),
        "{}",
        stderr(&out)
    );
}
