//! The TUI opens the project as the CLI does (`Project::open`): a
//! `ctxcurate.toml` in a shared folder above the start is not adopted, the
//! start folder is the root, and the status line says which file was
//! passed over and how to use it (`-C DIR`).

use crate::common;

use std::os::unix::fs::PermissionsExt;

use common::Project;
use common::isolated;
use ctxcurate::core::project::Project as CoreProject;
use ctxcurate::tui::run::harness::Harness;

#[test]
fn a_planted_project_file_above_is_named_in_the_status_line() {
    // `Project::open` reads the user's config and consents through the
    // environment, which all tests share: it runs in a child process
    // whose environment holds the temp config home.
    let Some(shared) = isolated::child_folder() else {
        let p = Project::empty();
        p.write(
            "shared/ctxcurate.toml",
            "[[presets.default.files]]\npath = \"**\"\n",
        );
        p.write("shared/sibling.txt", "SIBLING\n");
        p.write("shared/work/app.py", "print(1)\n");
        let shared = std::fs::canonicalize(p.path("shared")).unwrap();
        std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o1777)).unwrap();
        isolated::run_in_child(&p, &shared);
        return;
    };
    let project = CoreProject::open(&shared.join("work")).expect("open");
    assert_eq!(project.root, shared.join("work"));
    let h = Harness::open_project(project, 200, 12).expect("harness");
    let (status, _) = h.state.status.clone().expect("a status");
    assert!(
        status.contains(&format!(
            "{}/ctxcurate.toml was not adopted: reaching it crosses {}",
            shared.display(),
            shared.display()
        )),
        "{status}"
    );
    assert!(
        status.contains(&format!("run `ctxcurate -C {}`", shared.display())),
        "{status}"
    );
    assert!(!h.composed_text().contains("SIBLING"));
}
