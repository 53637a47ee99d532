//! A preset's `exclude` holds wherever discovery looks: a file the user
//! removed is not packed when a target imports it, not listed or outlined
//! in the repo map (a packed build's, a preset's own `repo_map`, `map`),
//! not brought in by a task that names it; and the packed build says it
//! left it out. Through the real binary on a small Python project.

use crate::common;

use common::{Project, stderr};

/// `app.py` imports `pkg.vault` (excluded by path), `pkg.gen_api`
/// (excluded by a glob), `vendor.lib` (excluded by its folder) and
/// `pkg.util` (not excluded).
fn project(extra: &str) -> Project {
    let p = Project::empty();
    p.write(
        "app.py",
        "from pkg import vault\nfrom pkg import gen_api\nfrom pkg import util\nfrom vendor import lib\n\n\
         def main():\n    return vault.open_vault() + util.helper() + gen_api.call() + lib.x\n",
    );
    p.write("pkg/__init__.py", "");
    p.write(
        "pkg/vault.py",
        "VAULT_MARKER = 'do not send'\n\ndef open_vault():\n    return VAULT_MARKER\n",
    );
    p.write(
        "pkg/gen_api.py",
        "GENERATED_MARKER = 1\n\ndef call():\n    return GENERATED_MARKER\n",
    );
    p.write("pkg/util.py", "def helper():\n    return 1\n");
    p.write("vendor/__init__.py", "");
    p.write("vendor/lib.py", "VENDOR_MARKER = 2\nx = VENDOR_MARKER\n");
    p.write(
        "tests/test_app.py",
        "import app\n\ndef test_main():\n    app.main()\n",
    );
    p.write(
        "ctxcurate.toml",
        &format!(
            "[presets.default]\nexclude = [\"pkg/vault.py\", \"**/gen_*.py\", \"vendor/\"]\n{extra}"
        ),
    );
    p
}

const EXCLUDED: [&str; 3] = ["pkg/vault.py", "pkg/gen_api.py", "vendor/lib.py"];

fn assert_left_out(text: &str) {
    for path in EXCLUDED {
        assert!(!text.contains(path), "{path} is in the context:\n{text}");
    }
    for marker in [
        "VAULT_MARKER",
        "GENERATED_MARKER",
        "VENDOR_MARKER",
        "def open_vault",
    ] {
        assert!(
            !text.contains(marker),
            "{marker} is in the context:\n{text}"
        );
    }
}

#[test]
fn a_packed_build_leaves_out_what_the_preset_excludes_and_says_so() {
    let p = project("");
    let out = p.run(&["build", "--target", "app.py", "--budget", "4000"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = common::stdout(&out);
    assert_left_out(&text);
    // What is not excluded is still discovered: the import, the caller,
    // and the repo map (which lists files the context does not hold).
    assert!(text.contains("### pkg/util.py"), "{text}");
    assert!(text.contains("tests/test_app.py"), "{text}");
    let err = stderr(&out);
    assert!(
        err.contains(
            "note: left out 4 files the preset excludes: pkg/gen_api.py, pkg/vault.py, \
             vendor/__init__.py, vendor/lib.py"
        ),
        "{err}"
    );
}

#[test]
fn a_tight_budget_map_never_lists_an_excluded_file() {
    // Room for the target and a map, not for the imports in full: the
    // rest goes to the map, which ranks the whole project.
    let p = project("");
    let out = p.run(&[
        "build",
        "--target",
        "app.py",
        "--budget",
        "400",
        "--map-budget",
        "300",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = common::stdout(&out);
    assert_left_out(&text);
}

#[test]
fn a_preset_repo_map_and_the_map_command_skip_excluded_files() {
    let p = project(
        "targets = [\"app.py\"]\nrepo_map = 2000\n\n[[presets.default.files]]\npath = \"app.py\"\n",
    );
    let text = p.ok(&["build"]);
    assert!(text.contains("## Repo Map"), "{text}");
    assert!(text.contains("pkg/util.py"), "{text}");
    assert_left_out(&text);
    let map = p.ok(&["map", "--budget", "2000"]);
    assert!(map.contains("pkg/util.py"), "{map}");
    assert_left_out(&map);
}

#[test]
fn a_task_naming_an_excluded_file_does_not_bring_it_in() {
    let p = project("");
    let out = p.run(&[
        "build",
        "--target",
        "tests/test_app.py",
        "--budget",
        "4000",
        "--task",
        "Fix `open_vault` in pkg/vault.py and the `VENDOR_MARKER` of vendor/lib.py",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = common::stdout(&out);
    // The task itself names them; the files must not follow.
    let files = text.split("## Task").next().unwrap();
    for path in EXCLUDED {
        assert!(!files.contains(&format!("### {path}")), "{path}:\n{text}");
    }
    assert!(!files.contains("do not send"), "{text}");
    assert!(!files.contains("VENDOR_MARKER = 2"), "{text}");
}

#[test]
fn an_explicit_entry_still_wins_over_an_exclusion() {
    // The preset names the file itself: the user wants it, as in a plain
    // build (explicitly named files are never excluded).
    let p = project("\n[[presets.default.files]]\npath = \"pkg/vault.py\"\n");
    let text = p.ok(&["build", "--target", "app.py", "--budget", "4000"]);
    assert!(text.contains("### pkg/vault.py"), "{text}");
}

#[test]
fn discovery_never_brings_in_a_credential_file() {
    // A task (a repository's preset may carry one) naming credential
    // files, and an import of a module whose name marks a key file: a
    // glob would never bring them in, and neither does discovery.
    let p = Project::empty();
    p.write("app.py", "import id_rsa_tool\n\nprint(id_rsa_tool.x)\n");
    p.write("id_rsa_tool.py", "x = 'KEYTOOL_MARKER'\n");
    p.write(
        "cfg/credentials.json",
        "{\"token\": \"CREDENTIALS_MARKER\"}\n",
    );
    p.write("history.toml", "HISTORY_MARKER = 1\n");
    p.write(
        "ctxcurate.toml",
        "[presets.default]\ntask = \"Look at cfg/credentials.json, history.toml and id_rsa_tool.py\"\n",
    );
    let out = p.run(&["build", "--target", "app.py", "--budget", "4000"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = common::stdout(&out);
    for marker in ["KEYTOOL_MARKER", "CREDENTIALS_MARKER", "HISTORY_MARKER"] {
        assert!(!text.contains(marker), "{marker}:\n{text}");
    }
    let err = stderr(&out);
    assert!(
        err.contains(
            "note: left out 2 credential files discovery reached: cfg/credentials.json, \
             id_rsa_tool.py (only a preset entry naming one brings it in)"
        ),
        "{err}"
    );
}
