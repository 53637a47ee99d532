//! `ctxcurate map` and packed builds (`build --target --budget`) run as the
//! real binary in temp projects: exact map output, budgets held on the
//! finished text, stats for people and machines, the on-disk cache, and
//! errors for bad targets.

use crate::common;

use ctxcurate::core::model::TokenizerKind;
use ctxcurate::core::tokens;

use common::{Project, stderr, stdout};

fn project() -> Project {
    let p = Project::empty();
    p.write("app.py", "from pkg.core import App\n\nApp().run()\n");
    p.write("pkg/__init__.py", "");
    p.write(
        "pkg/core.py",
        "from . import util\n\nclass App:\n    def run(self):\n        return util.helper()\n",
    );
    p.write("pkg/util.py", "def helper():\n    return 1\n");
    p.write("other.py", "import os\n");
    p
}

#[test]
fn map_is_exact_and_ranked_around_the_target() {
    let p = project();
    let out = p.run(&["map", "--target", "app.py"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "## Repo Map\n\nProject files ranked by relevance (2 with outlines, 4 of 4 listed):\n\n\
         pkg/core.py\n  class App\n    def run(self)\n\
         pkg/__init__.py\n\
         pkg/util.py\n  def helper()\n\
         other.py\n"
    );
    assert!(
        stderr(&out).contains("repo map: 4 of 4 files listed, 2 with outlines;"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn map_fits_a_small_budget() {
    let p = project();
    for budget in ["10", "25", "40"] {
        let out = p.run(&["map", "--target", "app.py", "--budget", budget]);
        assert!(out.status.success());
        let n = tokens::count(TokenizerKind::O200k, &stdout(&out));
        assert!(n <= budget.parse().unwrap(), "{budget}: {n}");
    }
}

#[test]
fn packed_build_holds_its_budget_and_reports() {
    let p = project();
    let out = p.run(&["build", "--target", "app.py", "--budget", "300"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let n = tokens::count(TokenizerKind::O200k, &text);
    assert!(n <= 300, "{n}");
    // The directory tree of what was packed (the package's __init__.py,
    // which the import runs, included), then the files.
    assert!(
        text.starts_with(
            "## Directory Tree\n\n```\npkg/\n  __init__.py\n  core.py\n  util.py\napp.py\n```\n\n## Files\n\n### app.py\n"
        ),
        "{text}"
    );
    assert!(text.contains("### pkg/core.py\n"));
    assert!(text.contains("### pkg/util.py [skeleton]\n"), "{text}");
    let err = stderr(&out);
    assert!(err.contains("3 discovered from 1 target)"), "{err}");
    assert!(err.contains(&format!(": {n} / 300 tokens (")), "{err}");

    let out = p.run(&[
        "build",
        "--target",
        "app.py",
        "--budget",
        "300",
        "--stats-json",
    ]);
    let json: serde_json::Value = serde_json::from_str(stderr(&out).trim()).expect("json");
    assert_eq!(json["stats"]["tokens"], n);
    assert_eq!(json["stats"]["budget"], 300);
    assert_eq!(json["stats"]["discovered"], 3);
    assert_eq!(json["stats"]["unresolved_imports"], 0);
    assert_eq!(json["items"][0]["path"], "app.py");
    assert_eq!(json["items"][0]["role"], "target");
    assert_eq!(json["items"][2]["path"], "pkg/__init__.py");
    assert_eq!(json["items"][3]["mode"], "skeleton");
}

#[test]
fn packed_build_uses_preset_targets_and_the_disk_cache() {
    let p = project();
    p.write(
        "ctxcurate.toml",
        "[presets.default]\ntargets = [\"pkg/core.py\"]\n\n[[presets.default.files]]\npath = \"other.py\"\n",
    );
    let first = p.ok(&["build", "--budget", "1000"]);
    assert!(
        first.starts_with(
            "## Directory Tree\n\n```\npkg/\n  core.py\n  util.py\napp.py\nother.py\n```\n\n## Files\n\n### pkg/core.py\n"
        ),
        "{first}"
    );
    assert!(first.contains("### other.py\n"), "preset entries come last");
    // app.py imports the target: a caller, packed after the imports.
    assert!(first.contains("### app.py\n"), "{first}");
    let buckets: Vec<String> = std::fs::read_dir(p.path(".ctxcurate/cache"))
        .expect("cache dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    assert!(buckets.contains(&"tokens".to_string()), "{buckets:?}");
    assert!(p.path(".ctxcurate/.gitignore").exists());
    // Warm: the same bytes.
    assert_eq!(p.ok(&["build", "--budget", "1000"]), first);
}

#[test]
fn bad_targets_are_user_errors() {
    let p = project();
    let out = p.run(&["build", "--target", "missing.py"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("target not found: missing.py"),
        "{}",
        stderr(&out)
    );
    let out = p.run(&["build", "--target", "pkg"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("pkg is a folder: targets are files"),
        "{}",
        stderr(&out)
    );
    let out = p.run(&["build", "--focus", "app.py", "--budget", "100"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("cannot be used with"),
        "{}",
        stderr(&out)
    );
    let out = p.run(&["map", "--target", "/etc/passwd"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("outside the project"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_target_that_does_not_fit_fails_unless_allow_partial() {
    let p = project();
    let out = p.run(&["build", "--target", "app.py", "--budget", "5"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stdout(&out).is_empty(), "{}", stdout(&out));
    let err = stderr(&out);
    let prefix = "target app.py does not fit the budget: it takes ";
    let at = err.find(prefix).unwrap_or_else(|| panic!("{err}"));
    let size: usize = err[at + prefix.len()..]
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{err}"));
    assert!(size > 5, "{err}");
    assert!(err.contains("the budget is 5"), "{err}");
    assert!(err.contains("--allow-partial"), "{err}");

    // --allow-partial keeps the old behaviour: a warning, exit 0.
    let out = p.run(&[
        "build",
        "--target",
        "app.py",
        "--budget",
        "5",
        "--allow-partial",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!("warning: {prefix}{size} tokens")),
        "{}",
        stderr(&out)
    );
    let out = p.run(&[
        "build",
        "--target",
        "app.py",
        "--budget",
        "5",
        "--allow-partial",
        "--stats-json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let last = stderr(&out).lines().last().unwrap_or_default().to_string();
    let json: serde_json::Value = serde_json::from_str(&last).expect("json");
    assert_eq!(json["stats"]["dropped_files"][0], "app.py", "{json}");
    assert_eq!(json["stats"]["dropped"], 4, "{json}");
    // A target that fits is no error.
    let out = p.run(&["build", "--target", "app.py", "--budget", "300"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn the_map_does_not_spend_its_budget_on_the_targets() {
    let p = Project::empty();
    let big: String = (0..40)
        .map(|i| format!("def target_function_{i}(a, b):\n    return a\n\n"))
        .collect();
    p.write("big.py", &format!("import helper\nimport other\n\n{big}"));
    p.write("helper.py", "def helper_one():\n    pass\n");
    p.write("other.py", "def other_one():\n    pass\n");
    let out = p.run(&["map", "--target", "big.py", "--budget", "60"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let map = stdout(&out);
    assert!(!map.contains("big.py"), "{map}");
    assert!(!map.contains("target_function"), "{map}");
    assert!(map.contains("helper.py\n  def helper_one()\n"), "{map}");
    assert!(map.contains("other.py\n  def other_one()\n"), "{map}");

    // A packed build: the target is in full, the map outlines the rest
    // and never names a file the context already holds.
    let out = p.run(&[
        "build",
        "--target",
        "big.py",
        "--budget",
        "2000",
        "--map-budget",
        "100",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let (files, map) = text.split_once("## Repo Map").unwrap_or((&text, ""));
    assert!(files.contains("### big.py\n"), "{text}");
    assert!(!map.contains("big.py"), "{text}");
}

/// The task comes last, after the discussion, verbatim; in XML too.
#[test]
fn the_task_renders_after_the_discussion() {
    let p = project();
    p.write(
        "ctxcurate.toml",
        "[presets.default]\ntask = \"Make `helper` return 2.\"\n\n[[presets.default.files]]\npath = \"other.py\"\n\n[[presets.default.discussion]]\nrole = \"User\"\ncontent = \"earlier\"\n",
    );
    let text = p.ok(&["build"]);
    assert!(
        text.ends_with("User: earlier\n\n## Task\n\nMake `helper` return 2.\n"),
        "{text}"
    );
    // `--task` replaces the preset's; `--task-file` reads one.
    let text = p.ok(&["build", "--task", "  Do <this> & that  "]);
    assert!(text.ends_with("## Task\n\nDo <this> & that\n"), "{text}");
    p.write("task.txt", "From a file.\n");
    let text = p.ok(&["build", "--task-file", "task.txt"]);
    assert!(text.ends_with("## Task\n\nFrom a file.\n"), "{text}");
    let out = p.run(&["build", "--task-file", "missing.txt"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("cannot read the task file"),
        "{}",
        stderr(&out)
    );

    let xml = p.ok(&["build", "--format", "xml", "--task", "Do <this> & that"]);
    let discussion = xml.find("<discussion>").expect("discussion");
    let task = xml.find("<task>\n<![CDATA[Do <this> & that\n]]></task>\n</documents>\n");
    assert!(task.is_some_and(|t| t > discussion), "{xml}");
}

/// A packed build counts the task first, never drops it, and packs what it
/// names after the targets' imports; the stats say which mentions matched.
#[test]
fn the_task_steers_a_packed_build() {
    let p = project();
    let task = "Why does `helper` return 1 when other.py runs? Check no_such_function too.";
    let out = p.run(&[
        "build",
        "--target",
        "app.py",
        "--budget",
        "400",
        "--task",
        task,
        "--stats-json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.ends_with(&format!("## Task\n\n{task}\n")), "{text}");
    let json: serde_json::Value = serde_json::from_str(stderr(&out).trim()).expect("json");
    let mentions = &json["stats"]["mentions"];
    assert_eq!(
        mentions,
        &serde_json::json!([
            {"text": "other.py", "kind": "path", "files": ["other.py"], "total": 1},
            {"text": "helper", "kind": "identifier", "files": ["pkg/util.py"], "total": 1},
            {"text": "no_such_function", "kind": "identifier", "files": [], "total": 0},
        ]),
        "{json}"
    );
    let roles: Vec<(String, String)> = json["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|i| {
            (
                i["path"].as_str().unwrap_or("").to_string(),
                i["role"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    let role = |path: &str| {
        roles
            .iter()
            .find(|(p, _)| p == path)
            .map(|(_, r)| r.as_str())
    };
    assert_eq!(role("other.py"), Some("mentioned"), "{roles:?}");
    // util.py defines `helper`: ranked for the task, it comes in full
    // before the transitive imports rather than as one of their skeletons.
    assert_eq!(role("pkg/util.py"), Some("relevant"), "{roles:?}");
    let util = json["items"]
        .as_array()
        .and_then(|items| items.iter().find(|i| i["path"] == "pkg/util.py"))
        .expect("util.py packed");
    assert_eq!(util["mode"], "full", "{json}");
    assert!(
        util["reasons"][0]
            .as_str()
            .is_some_and(|r| r == "the task names the identifier `helper`"),
        "{json}"
    );
    assert!(
        json["stats"]["task_tokens"].as_u64().unwrap_or(0) > 10,
        "{json}"
    );

    // Without room for the task, no context at all: an error naming it.
    let out = p.run(&[
        "build", "--target", "app.py", "--budget", "10", "--task", task,
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("the task ("), "{}", stderr(&out));
}

/// `model_window` − `output_reserve` − the task is the budget.
#[test]
fn a_budget_from_the_model_window() {
    let p = project();
    p.write(
        "ctxcurate.toml",
        "[project]\nmodel_window = 1000\noutput_reserve = 300\n",
    );
    let out = p.run(&["build", "--task", "Explain `helper`.", "--stats-json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(stderr(&out).trim()).expect("json");
    let task_tokens = json["stats"]["task_tokens"].as_u64().expect("task tokens");
    assert!(task_tokens > 0);
    assert_eq!(
        json["stats"]["budget"].as_u64(),
        Some(700 - task_tokens),
        "{json}"
    );
    // --budget still wins.
    let out = p.run(&["build", "--task", "x", "--budget", "123", "--stats-json"]);
    let json: serde_json::Value = serde_json::from_str(stderr(&out).trim()).expect("json");
    assert_eq!(json["stats"]["budget"], 123);
}

#[test]
fn a_packed_build_names_what_it_left_out_and_stats_agrees() {
    let p = project();
    // A helper module too big for the budget in any form.
    let helpers: String = (0..40)
        .map(|i| format!("def helper_{i}(a, b):\n    return a + b * {i}\n\n"))
        .collect();
    p.write("pkg/util.py", &helpers);
    let args = ["--target", "app.py", "--budget", "150"];
    let out = p.run(&[&["build", "--stats-json"][..], &args].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let last = stderr(&out).lines().last().unwrap_or_default().to_string();
    let json: serde_json::Value = serde_json::from_str(&last).expect("json");
    let left_out = json["stats"]["left_out"]
        .as_array()
        .expect("a list")
        .clone();
    assert!(!left_out.is_empty(), "{json}");
    // The note ends the output and names exactly the dropped files, each
    // with its cheapest size; the budget holds with it.
    let mut note =
        String::from("## Left out\n\nNot included, for lack of room (ask for them if needed):");
    for d in &left_out {
        assert_eq!(d["why"], "budget", "{d}");
        let tokens = d["tokens"].as_u64().unwrap_or_default() as usize;
        note.push_str(&format!(
            "\n- `{}` (at least {} tokens)",
            d["path"].as_str().unwrap_or_default(),
            ctxcurate::text::words::thousands(tokens)
        ));
    }
    assert!(text.ends_with(&format!("{note}\n")), "{text}");
    assert!(tokens::count(TokenizerKind::O200k, &text) <= 150);
    let dropped: Vec<&str> = left_out.iter().filter_map(|d| d["path"].as_str()).collect();
    assert_eq!(json["stats"]["dropped_files"], serde_json::json!(dropped));

    // People read it on stderr too.
    let out = p.run(&[&["build"][..], &args].concat());
    let err = stderr(&out);
    let line = format!(
        "note: left out {} file{} for lack of room: {}",
        dropped.len(),
        if dropped.len() == 1 { "" } else { "s" },
        dropped.join(", ")
    );
    assert!(err.contains(&line), "{err}");

    // `stats` counts the same pack and lists the same files.
    let out = p.run(&["stats", "--target", "app.py", "--budget", "150"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let table = stdout(&out);
    for d in &left_out {
        let tokens = d["tokens"].as_u64().unwrap_or_default() as usize;
        let row = format!(
            "left out   {} (no room: at least {} tokens)",
            d["path"].as_str().unwrap_or_default(),
            ctxcurate::text::words::thousands(tokens)
        );
        assert!(table.contains(&row), "{table}");
    }
    assert!(table.contains("app.py"), "{table}");
    let out = p.run(&["stats", "--json", "--target", "app.py", "--budget", "150"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
    assert_eq!(json["left_out"], serde_json::json!(left_out));
}

#[test]
fn a_binary_target_says_so_rather_than_that_it_does_not_fit() {
    let p = project();
    std::fs::write(p.root().join("blob.py"), b"\x00\x01\x02 binary").expect("write");
    let out = p.run(&["build", "--target", "blob.py", "--budget", "500"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains(
            "target blob.py cannot be packed: binary file skipped: \
             pass --allow-partial to build without it"
        ),
        "{err}"
    );
}

#[test]
fn map_outlines_the_targets_imports_first() {
    let p = Project::empty();
    p.write(
        "app.py",
        "from pkg.parse import parse_line\n\nparse_line('x')\n",
    );
    p.write("pkg/__init__.py", "");
    p.write("pkg/parse.py", "def parse_line(s):\n    return s\n");
    // A name three files use, in a file the target never reaches.
    p.write("lib/__init__.py", "");
    p.write("lib/common.py", "def shared():\n    pass\n");
    for name in ["a", "b", "c"] {
        p.write(
            &format!("lib/{name}.py"),
            "from lib.common import shared\n\nshared()\n",
        );
    }
    let first = (20..200)
        .step_by(2)
        .map(|b| {
            let budget = b.to_string();
            p.run(&[
                "map",
                "--target",
                "app.py",
                "--budget",
                &budget,
                "--stats-json",
            ])
        })
        .find(|out| stdout(out).contains("  def "))
        .expect("some budget outlines a file");
    let text = stdout(&first);
    assert!(
        text.contains("pkg/parse.py\n  def parse_line(s)\n"),
        "{text}"
    );
    assert!(!text.contains("def shared"), "{text}");
    assert!(
        stderr(&first).contains("\"outlined\":1"),
        "{}",
        stderr(&first)
    );
    // With room, the widely used name is outlined too.
    let all = p.run(&["map", "--target", "app.py", "--budget", "2000"]);
    assert!(
        stdout(&all).contains("lib/common.py\n  def shared()\n"),
        "{}",
        stdout(&all)
    );
}

/// `map` holds a file whose outline shows a likely secret out of the
/// map, as a build's map does, and says so: it printed the values whole
/// (sweep round 10).
#[test]
fn map_holds_a_file_whose_outline_shows_a_secret() {
    let p = project();
    p.write(
        "app.py",
        "import cfg\nfrom pkg import core\nprint(cfg.API_TOKEN)\n",
    );
    p.write(
        "cfg.py",
        "AWS_SECRET_ACCESS_KEY = \"wJalrXUtnFEMI/K7MDENG/bPxRfiCYzq8HkL2mNp\"\n\
         GH = \"ghp_DNxril3RavGD5MfvJ7NScUykT8C8UBkkpdhi\"\ndef helper():\n    return 1\n",
    );
    let out = p.run(&["map", "--target", "app.py"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        !text.contains("wJalrXUtnFEMI") && !text.contains("ghp_DNx"),
        "{text}"
    );
    assert!(text.contains("pkg/core.py"), "{text}");
    assert!(
        stderr(&out).contains("note: held 1 file out of the map: likely secret at cfg.py:1"),
        "{}",
        stderr(&out)
    );
}
