//! `stats` (where the tokens go), `completions`, `man`, `--help` value
//! lists and `tokens` on a file outside the project: the real binary in a
//! temp project.

use crate::common;

use common::{Project, stderr, stdout};

fn project() -> Project {
    let p = Project::empty();
    p.write("big.py", &"def f(x):\n    return x * 2\n\n".repeat(40));
    p.write("small.py", "X = 1\n");
    p.write(
        "ctxcurate.toml",
        "[project]\nbudget = 1000\n\n[presets.default]\n\
         [[presets.default.files]]\npath = \"small.py\"\n\
         [[presets.default.files]]\npath = \"big.py\"\nview_mode = \"outline\"\n",
    );
    p
}

#[test]
fn stats_lists_files_largest_first_with_their_share_of_the_budget() {
    let p = project();
    let out = p.ok(&["stats"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines[0].ends_with("big.py [outline]"), "{out}");
    assert!(lines[1].ends_with("small.py"), "{out}");
    assert!(
        lines[2].ends_with("(header, tree, discussion, task)"),
        "{out}"
    );
    assert!(
        lines[3].contains("total of a 1,000 token budget, 2 files, o200k"),
        "{out}"
    );
    // The total is what `build` counts.
    let built = stderr(&p.run(&["build"]));
    let total: String = lines[3]
        .split_whitespace()
        .next()
        .unwrap_or("")
        .replace(',', "");
    assert!(
        built.contains(&format!(", {total} tokens")),
        "{built} vs {out}"
    );
    // Shares are of the budget.
    let share = lines[3].split_whitespace().nth(1).unwrap_or("");
    let expect = format!("{:.1}%", total.parse::<f64>().unwrap_or(0.0) / 10.0);
    assert_eq!(share, expect, "{out}");
}

#[test]
fn stats_json_has_every_file_and_the_total() {
    let p = project();
    let out = p.ok(&["stats", "--json", "--tokenizer", "cl100k"]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["tokenizer"], "cl100k");
    assert_eq!(v["budget"], 1000);
    let files = v["files"].as_array().expect("files");
    assert_eq!(files.len(), 2);
    assert_eq!(files[0]["path"], "big.py");
    assert_eq!(files[0]["mode"], "outline");
    let sum: u64 = files.iter().filter_map(|f| f["tokens"].as_u64()).sum();
    let total = v["total"].as_u64().unwrap_or(0);
    let other = v["other"].as_u64().unwrap_or(0);
    assert!(sum > 0 && total >= sum && total - sum == other, "{out}");
}

#[test]
fn stats_on_an_unknown_preset_is_a_user_error() {
    let p = project();
    let out = p.run(&["stats", "--preset", "nope"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("no preset named `nope`"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn completions_and_man_page() {
    let p = project();
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let script = p.ok(&["completions", shell]);
        for sub in ["build", "stats", "completions", "preset"] {
            assert!(script.contains(sub), "{shell} lacks {sub}");
        }
    }
    assert_eq!(p.run(&["completions", "tcsh"]).status.code(), Some(1));
    let man = p.ok(&["man"]);
    assert!(man.contains(".TH ctxcurate 1"), "{man}");
    assert!(man.contains("build"), "{man}");
}

#[test]
fn help_lists_each_value_with_what_it_means() {
    let p = project();
    let help = p.ok(&["build", "--help"]);
    for line in [
        "- auto:",
        "- summarize:",
        "- markdown:",
        "- xml:",
        "- o200k:",
        "- cl100k:",
        "- estimate: characters / 4",
    ] {
        assert!(help.contains(line), "missing {line:?} in\n{help}");
    }
    let slices = p.ok(&["slices", "--help"]);
    assert!(slices.contains("Read this preset"), "{slices}");
    let bad = p.run(&["build", "--format", "yaml"]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(
        stderr(&bad).contains("[possible values: markdown, xml]"),
        "{}",
        stderr(&bad)
    );
}

#[test]
fn tokens_counts_a_file_outside_the_project() {
    let p = project();
    let outside = tempfile::tempdir().expect("tempdir");
    let file = outside.path().join("notes.txt");
    std::fs::write(&file, "hello world\n").expect("write");
    let out = p.run(&["tokens", file.to_str().unwrap_or_default(), "small.py"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains(&format!("  {}", file.display())), "{text}");
    assert!(text.contains("  small.py"), "{text}");
}

/// A preset with `repo_map = N` over a project of several modules.
fn mapped_project() -> Project {
    let p = project();
    for name in ["alpha", "beta", "gamma", "delta"] {
        p.write(
            &format!("lib/{name}.py"),
            &format!(
                "class {name}_store:\n    def load_{name}(self, key):\n        return key\n\n\
                 def make_{name}(value):\n    return value * 2\n"
            ),
        );
    }
    p.write(
        "ctxcurate.toml",
        "[project]\nbudget = 1000\n\n[presets.default]\n\
         targets = [\"small.py\"]\nrepo_map = 400\n\
         [[presets.default.files]]\npath = \"small.py\"\n",
    );
    p
}

#[test]
fn stats_gives_the_repo_map_its_own_row() {
    let p = mapped_project();
    let out = p.ok(&["stats"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines[0].ends_with("small.py"), "{out}");
    assert!(lines[1].ends_with("  (repo map)"), "{out}");
    assert!(
        lines[2].ends_with("(header, tree, discussion, task)"),
        "{out}"
    );
    let tokens = |line: &str| -> usize {
        line.split_whitespace()
            .next()
            .unwrap_or("")
            .replace(',', "")
            .parse()
            .unwrap_or(0)
    };
    // The map (its heading and the four modules' outlines) is most of the
    // text; what is left is the header and the tree.
    assert!(tokens(lines[1]) > 60, "{out}");
    assert!(tokens(lines[2]) < tokens(lines[1]), "{out}");
    assert_eq!(
        tokens(lines[0]) + tokens(lines[1]) + tokens(lines[2]),
        tokens(lines[3]),
        "{out}"
    );
    // JSON: the same numbers, under `repo_map`.
    let v: serde_json::Value = serde_json::from_str(&p.ok(&["stats", "--json"])).expect("JSON");
    assert_eq!(v["repo_map"].as_u64(), Some(tokens(lines[1]) as u64), "{v}");
    assert_eq!(v["other"].as_u64(), Some(tokens(lines[2]) as u64), "{v}");
    // No map: the JSON says 0 and the table has no such row.
    let plain = project();
    assert!(!plain.ok(&["stats"]).contains("(repo map)"));
    let v: serde_json::Value = serde_json::from_str(&plain.ok(&["stats", "--json"])).expect("JSON");
    assert_eq!(v["repo_map"].as_u64(), Some(0), "{v}");
}

#[test]
fn build_stats_json_without_packing_is_json() {
    let p = mapped_project();
    let out = p.run(&["build", "--stats-json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let err = stderr(&out);
    let v: serde_json::Value = serde_json::from_str(err.trim()).expect("one JSON value on stderr");
    assert_eq!(v["packed"], false, "{v}");
    assert_eq!(v["tokenizer"], "o200k", "{v}");
    assert_eq!(v["stats"]["files"], 1, "{v}");
    assert_eq!(v["stats"]["errors"], 0, "{v}");
    assert_eq!(v["stats"]["budget"], 1000, "{v}");
    assert!(v["written_to"].is_null(), "{v}");
    // The numbers `build` prints and `stats` counts.
    let plain = stderr(&p.run(&["build"]));
    let tokens = v["stats"]["tokens"].as_u64().unwrap_or(0);
    assert!(
        plain.contains(&format!("1 file, {tokens} tokens (o200k)")),
        "{plain} vs {v}"
    );
    let table: serde_json::Value = serde_json::from_str(&p.ok(&["stats", "--json"])).expect("JSON");
    assert_eq!(
        v["stats"]["map_tokens"], table["repo_map"],
        "{v} vs {table}"
    );
    assert_eq!(Some(tokens), table["total"].as_u64(), "{v} vs {table}");
    // A packed build's JSON says it packed.
    let packed = p.run(&["build", "--budget", "900", "--stats-json"]);
    let v: serde_json::Value =
        serde_json::from_str(stderr(&packed).trim()).expect("one JSON value on stderr");
    assert_eq!(v["packed"], true, "{v}");
}
