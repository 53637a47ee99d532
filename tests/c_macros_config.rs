//! `[syntax] c_macros`: macros a project names in `ctxcurate.toml` (or the
//! user in the global config) are blanked before C/C++ parsing, so an
//! attribute macro the built-in list and shapes cannot know no longer
//! breaks a declaration; and the syntax-error note names its line.

mod common;

use common::{Project, stderr};
use ctxcurate::core::project::Project as Curation;
use ctxcurate::core::syntax::{self, Lang};

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
    let after = syntax::parse(Lang::C, SOURCE);
    assert_eq!(after.error_line, None);
    let h = after.find("h").expect("h is a symbol");
    assert_eq!(h.signature, "int h(int a)");
    syntax::set_user_macros(&[]);
}
