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

/// `b` lists what the build holds, as `stats` does: no row for a file it
/// left out, and each file in the mode it rendered in (a file with no
/// grammar asked for an outline renders its summary).
#[test]
fn the_token_map_agrees_with_stats() {
    let p = Project::empty();
    p.write("app.py", "def main():\n    return 1\n");
    std::fs::write(p.path("logo.bin"), b"\x89PNG\0\0\x01").unwrap();
    p.write("notes.toml", "[a]\nb = 1\n");
    p.write(
        "ctxcurate.toml",
        "[[presets.default.files]]\npath = \"app.py\"\n\n\
         [[presets.default.files]]\npath = \"logo.bin\"\n\n\
         [[presets.default.files]]\npath = \"notes.toml\"\nview_mode = \"outline\"\n",
    );
    let mut h = open(&p, 100, 16);
    h.keys("b");
    let map = ctxcurate::tui::tokens::token_map(&h.state);
    let rows: Vec<(String, String)> = map
        .files
        .iter()
        .map(|f| (f.path.clone(), f.mode.to_string()))
        .collect();
    let mut rows = rows;
    rows.sort();
    assert_eq!(
        rows,
        [
            ("app.py".to_string(), "full".to_string()),
            ("notes.toml".to_string(), "summary".to_string())
        ]
    );
    let stats = p.ok(&["stats"]);
    assert!(stats.contains("  notes.toml [summary]\n"), "{stats}");
    assert!(!stats.contains("logo.bin"), "{stats}");
}
