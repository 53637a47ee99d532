//! Consent to a command that runs a compiled program of the project
//! covers the project's shared libraries it loads as it starts (its
//! `DT_NEEDED` names in its rpath folders inside the project).

use super::consent::{assert_consent_lapsed, hostile};
use crate::common::Project;
use std::process::Command;

/// Whether `cc ARGS` succeeded in the project's root.
fn cc(p: &Project, args: &[&str]) -> bool {
    Command::new("cc")
        .args(args)
        .current_dir(p.root())
        .status()
        .is_ok_and(|s| s.success())
}

/// Recheck 27: `tools/sum` linked with `-Wl,-rpath,$ORIGIN/lib` ran an
/// edited `tools/lib/libhelp.so` unreviewed. Covered now; one added in a
/// folder the loader looks in first withdraws the consent too.
#[test]
fn consent_covers_the_libraries_a_program_loads_by_its_rpath() {
    let p = Project::empty();
    hostile(&p, "tools/sum");
    p.write(
        "tools/help.c",
        "#include <stdio.h>\nvoid help(void) { puts(\"SUMMARY\"); }\n",
    );
    p.write(
        "tools/sum.c",
        "void help(void);\nint main(void) { help(); return 0; }\n",
    );
    std::fs::create_dir_all(p.path("tools/lib")).unwrap();
    let built = cc(
        &p,
        &[
            "-shared",
            "-fPIC",
            "-o",
            "tools/lib/libhelp.so",
            "tools/help.c",
        ],
    ) && cc(
        &p,
        &[
            "-o",
            "tools/sum",
            "tools/sum.c",
            "-Ltools/lib",
            "-lhelp",
            "-Wl,-rpath,$ORIGIN/first:$ORIGIN/lib",
        ],
    );
    if !built {
        eprintln!("skipped: no C compiler");
        return;
    }
    let shown = p.ok(&["trust", "--yes"]);
    assert!(
        shown.contains("runs tools/lib/libhelp.so (content"),
        "{shown}"
    );
    let pwned = p.path("pwned.txt").display().to_string();
    p.write(
        "tools/help.c",
        &format!("#include <stdio.h>\nvoid help(void) {{ fopen(\"{pwned}\", \"w\"); }}\n"),
    );
    assert!(cc(
        &p,
        &[
            "-shared",
            "-fPIC",
            "-o",
            "tools/lib/libhelp.so",
            "tools/help.c"
        ]
    ));
    assert_consent_lapsed(&p, "the library edited");

    // Trusted again as it is now, then one added where the loader looks
    // first.
    std::fs::remove_file(p.path("pwned.txt")).ok();
    p.ok(&["trust", "--yes"]);
    std::fs::create_dir_all(p.path("tools/first")).unwrap();
    std::fs::copy(
        p.path("tools/lib/libhelp.so"),
        p.path("tools/first/libhelp.so"),
    )
    .unwrap();
    assert_consent_lapsed(&p, "a library added in an earlier rpath folder");
}
