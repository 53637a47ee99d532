//! Concurrent edits lose nothing (issue 10 §3): twenty `ctxcurate`
//! processes started at once on one project each make one edit, and the
//! project file keeps all twenty. Without the project lock each process
//! saved its own stale view and only a few edits survived, while every
//! process exited 0.

#![cfg(unix)]

use crate::common;

use std::process::Stdio;

use common::Project;
use ctxcurate::core::model::{ProjectFile, ViewMode};

const N: usize = 20;

/// A project with `N` small files `src/m00.py` … and a commented file.
fn project() -> Project {
    let p = Project::fixture();
    for i in 0..N {
        p.write(&format!("src/m{i:02}.py"), &format!("X = {i}\n"));
    }
    p.write(
        "ctxcurate.toml",
        "# shared by the team\n[presets.default]\ndescription = \"parallel\"\n",
    );
    p
}

/// Start one process per argument list at once, then wait for all; each
/// must succeed.
fn run_all(p: &Project, runs: Vec<Vec<String>>) {
    let children: Vec<_> = runs
        .iter()
        .map(|args| {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            p.cmd(&args)
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .expect("spawn")
        })
        .collect();
    for (child, args) in children.into_iter().zip(&runs) {
        let out = child.wait_with_output().expect("wait");
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

fn saved(p: &Project) -> ProjectFile {
    let text = p.read("ctxcurate.toml");
    assert!(text.starts_with("# shared by the team\n"), "{text}");
    toml::from_str(&text).expect("the project file parses")
}

#[test]
fn twenty_parallel_adds_keep_twenty_entries() {
    let p = project();
    run_all(
        &p,
        (0..N)
            .map(|i| vec!["add".into(), format!("src/m{i:02}.py")])
            .collect(),
    );
    let file = saved(&p);
    let files = &file.presets["default"].files;
    for i in 0..N {
        let path = format!("src/m{i:02}.py");
        assert!(files.iter().any(|f| f.path == path), "{path} was lost");
    }
    assert_eq!(files.len(), N);
    assert_eq!(file.presets["default"].description, "parallel");
}

#[test]
fn twenty_parallel_sets_keep_twenty_modes() {
    let p = project();
    let list: Vec<String> = (0..N).map(|i| format!("\"src/m{i:02}.py\"")).collect();
    p.write(
        "ctxcurate.toml",
        &format!(
            "# shared by the team\n[presets.default]\ndescription = \"parallel\"\nfiles = [{}]\n",
            list.join(", ")
        ),
    );
    let modes = [ViewMode::Skeleton, ViewMode::Outline, ViewMode::Summary];
    run_all(
        &p,
        (0..N)
            .map(|i| {
                vec![
                    "set".into(),
                    format!("src/m{i:02}.py"),
                    "--mode".into(),
                    modes[i % modes.len()].to_string(),
                ]
            })
            .collect(),
    );
    let file = saved(&p);
    let preset = &file.presets["default"];
    assert_eq!(preset.files.len(), N);
    for i in 0..N {
        let path = format!("src/m{i:02}.py");
        let item = preset.item(&path).expect("entry kept");
        assert_eq!(item.view_mode, modes[i % modes.len()], "{path}: edit lost");
    }
}
