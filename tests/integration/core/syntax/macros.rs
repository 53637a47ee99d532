//! `[syntax] c_macros`: macros a project names in `ctxcurate.toml` (or the
//! user in the global config) are blanked before C/C++ parsing, so an
//! attribute macro the built-in list and shapes cannot know no longer
//! breaks a declaration; and the syntax-error note names its line. The
//! list is passed to each parse (no process-wide state), `symbols` and
//! `view` read it from the project, and the caches are keyed on it.

use crate::common;

use std::fs;

use common::{Project, stderr, stdout};
use ctxcurate::core::project::Project as Curation;
use ctxcurate::core::sources::Sources;
use ctxcurate::core::syntax::{self, CMacros, Lang};

/// A prototype whose trailing lowercase attribute macro no shape catches.
const SOURCE: &str = "int h(int a) mylib_nothrow;\nint g(void);\n";

#[test]
fn project_c_macros_fix_a_declaration_and_the_note_names_the_line() {
    let p = Project::empty();
    p.write("lib.c", SOURCE);
    let before = syntax::parse(Lang::C, SOURCE);
    assert_eq!(before.error_line, Some(1), "the macro breaks line 1");
    let out = p.run(&["symbols", "lib.c"]);
    assert!(
        stderr(&out).contains("syntax errors (first at line 1)"),
        "{}",
        stderr(&out)
    );

    p.write(
        "ctxcurate.toml",
        "[syntax]\nc_macros = [\"mylib_nothrow\"]\n",
    );
    let project = Curation::open_at(p.root(), None).expect("project opens");
    assert_eq!(project.file.syntax.c_macros, ["mylib_nothrow"]);
    let after = syntax::parse_with(Lang::C, SOURCE, &project.c_macros());
    assert_eq!(after.error_line, None);
    let h = after.find("h").expect("h is a symbol");
    assert_eq!(h.signature, "int h(int a)");
    // No process-wide state: a parse without the list still sees the error.
    assert_eq!(syntax::parse(Lang::C, SOURCE).error_line, Some(1));

    // The CLI reads the project's list.
    let out = p.run(&["symbols", "lib.c"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stderr(&out).contains("syntax errors"), "{}", stderr(&out));
    assert!(stdout(&out).contains("function h"), "{}", stdout(&out));
    let out = p.run(&["view", "lib.c", "--mode", "outline"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("int h(int a)"), "{}", stdout(&out));
}

#[test]
fn the_cache_parses_with_its_macros_and_forgets_trees_when_they_change() {
    let dir = tempfile::tempdir().expect("temp dir");
    fs::write(dir.path().join("lib.c"), SOURCE).expect("write");
    let cache = Sources::new();
    let tree = cache.symbols(dir.path(), "lib.c").expect("a C file");
    assert_eq!(tree.error_line, Some(1));
    cache.set_c_macros(CMacros::new(&["mylib_nothrow".to_string()]));
    let tree = cache.symbols(dir.path(), "lib.c").expect("a C file");
    assert_eq!(tree.error_line, None);
    cache.set_c_macros(CMacros::default());
    let tree = cache.symbols(dir.path(), "lib.c").expect("a C file");
    assert_eq!(tree.error_line, Some(1));
}
