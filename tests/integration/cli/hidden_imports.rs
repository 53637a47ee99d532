//! Discovery follows what the user shows (issue 38): an import inside a
//! symbol the preset hides (a function-local import of a hidden Python
//! function, `use crate::testkit::*` in a hidden Rust `mod tests`) is not
//! an import of the target's view, so a packed build does not bring its
//! file in; shown again, it does.

use crate::common;

use common::{Project, stderr};

/// The packed files of `build --target TARGET --budget 2000`, with roles.
fn packed(p: &Project, target: &str) -> Vec<(String, String)> {
    let out = p.run(&[
        "build",
        "--target",
        target,
        "--budget",
        "2000",
        "--stats-json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let stats: serde_json::Value = serde_json::from_slice(&out.stderr).expect("stats JSON");
    stats["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|i| {
            (
                i["path"].as_str().unwrap_or_default().to_string(),
                i["role"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

fn pair(path: &str, role: &str) -> (String, String) {
    (path.to_string(), role.to_string())
}

#[test]
fn a_python_import_inside_a_hidden_function_is_not_followed() {
    let p = Project::empty();
    p.write(
        "app.py",
        "import os\n\n\ndef run():\n    return os.getcwd()\n\n\n\
         def _debug():\n    import helpers\n    return helpers\n",
    );
    p.write("helpers.py", "def dump():\n    return 1\n");
    p.ok(&["add", "app.py"]);
    assert_eq!(
        packed(&p, "app.py"),
        [pair("app.py", "target"), pair("helpers.py", "import")]
    );
    p.ok(&["mask", "app.py", "_debug", "hide"]);
    assert_eq!(packed(&p, "app.py"), [pair("app.py", "target")]);
    p.ok(&["mask", "app.py", "_debug", "sig"]);
    assert_eq!(
        packed(&p, "app.py"),
        [pair("app.py", "target"), pair("helpers.py", "import")]
    );
}

#[test]
fn a_rust_use_inside_a_hidden_test_module_is_not_followed() {
    let p = Project::empty();
    p.write(
        "Cargo.toml",
        "[package]\nname = \"x\"\nversion = \"0.1.0\"\n",
    );
    p.write(
        "src/lib.rs",
        "#[cfg(test)]\nmod testkit;\nmod util;\n\npub fn run() -> u32 {\n    util::one()\n}\n\n\
         #[cfg(test)]\nmod tests {\n    use crate::testkit::*;\n\n    #[test]\n    fn t() {\n        \
         assert_eq!(super::run(), helper());\n    }\n}\n",
    );
    p.write("src/util.rs", "pub fn one() -> u32 {\n    1\n}\n");
    p.write("src/testkit.rs", "pub fn helper() -> u32 {\n    1\n}\n");
    p.ok(&["add", "src/lib.rs"]);
    p.ok(&["mask", "src/lib.rs", "tests", "hide"]);
    p.ok(&["mask", "src/lib.rs", "testkit", "hide"]);
    assert_eq!(
        packed(&p, "src/lib.rs"),
        [pair("src/lib.rs", "target"), pair("src/util.rs", "import")]
    );
}
