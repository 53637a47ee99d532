//! Included files a build leaves out (binary, over `max_file_size`): the
//! tree does not show their folder as all in, and the status line says
//! which files, as `build` does on stderr.

use crate::common;

use common::Project;
use common::harness::open;

#[test]
fn a_folder_of_skipped_files_is_not_shown_as_included() {
    let p = Project::empty();
    p.write("app.py", "def main():\n    return 1\n");
    std::fs::create_dir_all(p.path("assets")).unwrap();
    std::fs::write(p.path("assets/a.bin"), b"\x89PNG\0\0\x01").unwrap();
    std::fs::write(p.path("assets/b.bin"), b"\0\x01\x02").unwrap();
    p.write("mixed/c.py", "x = 1\n");
    std::fs::write(p.path("mixed/d.bin"), b"\0\0").unwrap();
    p.write(
        "ctxcurate.toml",
        "[presets.default]\nfiles = [\"app.py\", \"assets/**\", \"mixed/**\"]\n",
    );
    let mut h = open(&p, 100, 16);
    let screen = h.screen();
    insta::assert_snapshot!("skipped_folders", screen);
    let row = |name: &str| {
        screen
            .lines()
            .find(|l| l.contains(name))
            .unwrap_or_else(|| panic!("{name} in\n{screen}"))
            .to_string()
    };
    assert!(
        row("assets/").contains("⊘ assets/ 2/2 2 skipped"),
        "{screen}"
    );
    assert!(row("mixed/").contains("◐ mixed/ 2/2 1 skipped"), "{screen}");
    // The preview of the folder says they are left out, not "included".
    assert!(screen.contains("2 left out (⊘)"), "{screen}");
    assert!(
        screen.contains("its included files are left out of"),
        "{screen}"
    );
    let status = h.state.status.clone().map(|(text, _)| text);
    assert_eq!(
        status.as_deref(),
        Some(
            "3 included files left out of the context (the tree's ⊘ says why): \
             assets/a.bin, assets/b.bin, mixed/d.bin"
        )
    );
    // Said once: a recompose with the same files left out says nothing new.
    h.keys("t");
    assert!(
        !h.screen().contains("left out of the context"),
        "{}",
        h.screen()
    );
}
