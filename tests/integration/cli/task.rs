//! A task alone finds the code (issue 35): `ctxcurate build --task` in a
//! project with no preset ranks every file for the task and packs the best
//! ones, each with its reasons; rare words beat common ones, a test file
//! ranks below its source, a large file keeps the symbols the task is
//! about, and a discovered file that holds a likely secret is left out and
//! named instead of refusing the build.

use crate::common;

use ctxcurate::core::model::TokenizerKind;
use ctxcurate::core::tokens;
use serde_json::Value;

use common::{Project, stderr, stdout};

/// A small router project: the file a task is about, its test, files that
/// share only common words with it, and a module it imports.
fn router() -> Project {
    let p = Project::empty();
    p.write(
        "router/tree.py",
        "from router.params import Params\n\n\
         class Node:\n    \"\"\"A node of the route tree.\"\"\"\n\n\
         def insert_route(root, path):\n    \"\"\"Add a path; a wildcard segment matches the rest.\"\"\"\n\
         \x20   for segment in path.split('/'):\n        if segment.startswith('*'):\n\
         \x20           return wildcard(root, segment)\n    return root\n\n\
         def wildcard(node, segment):\n    return Params(segment)\n",
    );
    p.write(
        "router/params.py",
        "class Params:\n    def __init__(self, name):\n        self.name = name\n",
    );
    p.write(
        "router/tree_test.py",
        "from router.tree import insert_route\n\n\
         def test_wildcard_after_named_param():\n    assert insert_route(None, '/a/:b/*c') is None\n",
    );
    // Common words only: `data`, `match`, `value`, many times over.
    for i in 0..6 {
        p.write(
            &format!("util/data_{i}.py"),
            "def match(data):\n    value = data\n    return match_value(value, data)\n\n\
             def match_value(value, data):\n    return value == data\n",
        );
    }
    p.write("README.md", "# router\n\nA router. Data in, data out.\n");
    p
}

/// The `--stats-json` of `build --task TASK --budget 3000` in `p`, which
/// must succeed.
fn task_stats(p: &Project, task: &str) -> Value {
    task_build(p, task, "3000").0
}

/// `build --task TASK --budget BUDGET --stats-json` in `p`, which must
/// succeed: its stats and its output.
fn task_build(p: &Project, task: &str, budget: &str) -> (Value, String) {
    let out = p.run(&["build", "--task", task, "--budget", budget, "--stats-json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    (stats_json(&out), stdout(&out))
}

fn stats_json(out: &std::process::Output) -> Value {
    let err = stderr(out);
    serde_json::from_str(err.trim()).unwrap_or_else(|e| panic!("{e}: {err}"))
}

/// The packed items as (path, mode), in order (dropped ones too, mode
/// `null`).
fn items(stats: &Value) -> Vec<(String, Option<String>)> {
    stats["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|i| {
            (
                i["path"].as_str().unwrap_or_default().to_string(),
                i["mode"].as_str().map(str::to_string),
            )
        })
        .collect()
}

#[test]
fn a_task_in_plain_words_packs_the_file_it_is_about() {
    let p = router();
    let out = p.run(&[
        "build",
        "--task",
        "fix: wrong result when a wildcard follows a named param in the route tree",
        "--budget",
        "2000",
        "--stats-json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let stats = stats_json(&out);
    let items = items(&stats);
    assert_eq!(
        items[0],
        ("router/tree.py".to_string(), Some("full".into()))
    );
    // The source before its test; the test still comes (it speaks of the
    // same things), but lower.
    let pos = |path: &str| items.iter().position(|(p, _)| p == path);
    assert!(
        pos("router/tree_test.py") > pos("router/tree.py"),
        "{items:?}"
    );
    // The import of the best file comes along through the graph.
    assert!(pos("router/params.py").is_some(), "{items:?}");
    // Files that share only common words are not candidates: one comes
    // in only with the room a complete map leaves, after every file the
    // task is about.
    let role = |path: &str| {
        stats["items"]
            .as_array()
            .and_then(|a| a.iter().find(|i| i["path"] == path))
            .map(|i| i["role"].as_str().unwrap_or_default().to_string())
    };
    assert!(
        matches!(role("util/data_0.py").as_deref(), None | Some("fill")),
        "{items:?}"
    );
    let last_found = ["router/tree.py", "router/tree_test.py", "router/params.py"]
        .iter()
        .filter_map(|p| pos(p))
        .max();
    assert!(
        pos("util/data_0.py").is_none_or(|at| Some(at) > last_found),
        "{items:?}"
    );
    // Each pick says why.
    let first = &stats["items"][0]["reasons"];
    let reasons: Vec<&str> = first
        .as_array()
        .expect("reasons")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        reasons
            .iter()
            .any(|r| r.contains("`tree`") && r.contains("path")),
        "{reasons:?}"
    );
    assert!(
        reasons.iter().any(|r| r.contains("`wildcard`")),
        "{reasons:?}"
    );
    assert!(
        reasons.iter().any(|r| r.starts_with("score ")),
        "{reasons:?}"
    );
    let text = stdout(&out);
    assert!(text.contains("### router/tree.py\n"), "{text}");
    assert!(tokens::count(TokenizerKind::O200k, &text) <= 2000);
}

#[test]
fn a_rare_word_beats_a_common_one() {
    let p = router();
    // `data` is in seven files, `wildcard` in two.
    let out = p.run(&[
        "build",
        "--task",
        "data wildcard",
        "--budget",
        "3000",
        "--stats-json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let items = items(&stats_json(&out));
    assert_eq!(items[0].0, "router/tree.py", "{items:?}");
}

#[test]
fn a_test_file_ranks_below_its_source_unless_the_task_speaks_of_tests() {
    let p = router();
    let run = |task: &str| {
        let out = p.run(&["build", "--task", task, "--budget", "3000", "--stats-json"]);
        assert!(out.status.success(), "{}", stderr(&out));
        items(&stats_json(&out))
    };
    let items = run("insert_route wildcard named param");
    assert_eq!(items[0].0, "router/tree.py", "{items:?}");
    let items = run("the wildcard named param test fails: test_wildcard_after_named_param");
    assert_eq!(items[0].0, "router/tree_test.py", "{items:?}");
}

/// A task that names a human language (`Japanese`) finds its locale file
/// (`locales/ja.ts`) among the others, which share every word with it.
#[test]
fn a_language_the_task_names_finds_its_locale_file() {
    let p = Project::empty();
    for (code, word) in [
        ("de", "Adjektiv"),
        ("es", "adjetivo"),
        ("fr", "adjectif"),
        ("ja", "keiyoushi"),
    ] {
        p.write(
            &format!("src/locales/{code}.ts"),
            &format!(
                "import {{ util }} from \"../util\";\n\n\
                 export function error(issue: Issue): string {{\n\
                 \x20 switch (issue.code) {{\n\
                 \x20   case \"too_small\": return `{word}: ${{issue.origin}} too small`;\n\
                 \x20   default: return `{word}: invalid input`;\n  }}\n}}\n"
            ),
        );
    }
    p.write(
        "src/util.ts",
        "export const util = { codes: (issue: Issue) => issue.code };\n",
    );
    p.write(
        "src/errors.ts",
        "export function fixErrors(input: string) { return input; }\n",
    );
    let stats = task_stats(&p, "Fix adjectives in Japanese (#4648)");
    let ranked = items(&stats);
    assert_eq!(ranked[0].0, "src/locales/ja.ts", "{ranked:?}");
    let reasons = reasons_of(&stats, "src/locales/ja.ts");
    assert!(
        reasons
            .iter()
            .any(|r| r.contains("the language `Japanese`")),
        "{reasons:?}"
    );
}

/// The reasons of the item at `path`.
fn reasons_of(stats: &Value, path: &str) -> Vec<String> {
    stats["items"]
        .as_array()
        .expect("items")
        .iter()
        .find(|i| i["path"] == path)
        .and_then(|i| i["reasons"].as_array())
        .map(|r| {
            r.iter()
                .filter_map(Value::as_str)
                .map(String::from)
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn a_test_file_the_task_names_or_its_body_mentions_keeps_tests_below_source() {
    let p = router();
    p.write(
        "router/params_test.py",
        "from router.params import Params\n\n\
         def test_wildcard_param_name():\n    assert Params('*rest').name == '*rest'\n",
    );
    let run = |task: &str| {
        let out = p.run(&["build", "--task", task, "--budget", "3000", "--stats-json"]);
        assert!(out.status.success(), "{}", stderr(&out));
        stats_json(&out)
    };
    let below = "a test file, ranked below source".to_string();
    // A test file named by its path comes (the user named it); the other
    // tests stay below the source.
    let stats = run(
        "fix: wrong result when a wildcard follows a named param in the route tree\n\n\
         * Update router/tree_test.py",
    );
    let ranked = items(&stats);
    assert_eq!(ranked[0].0, "router/tree_test.py", "{ranked:?}");
    assert_eq!(ranked[1].0, "router/tree.py", "{ranked:?}");
    assert!(
        reasons_of(&stats, "router/params_test.py").contains(&below),
        "{:?}",
        reasons_of(&stats, "router/params_test.py")
    );
    // Tests only the body speaks of rank partway up, still below source.
    let stats = run(
        "fix: wrong result when a wildcard follows a named param in the route tree\n\n\
         There was no test case for it.",
    );
    let ranked = items(&stats);
    assert_eq!(ranked[0].0, "router/tree.py", "{ranked:?}");
    assert!(
        reasons_of(&stats, "router/tree_test.py").contains(&below),
        "{:?}",
        reasons_of(&stats, "router/tree_test.py")
    );
}

#[test]
fn a_shell_script_without_a_grammar_ranks_as_source() {
    let p = Project::empty();
    p.write(
        "shell/completion.zsh",
        "# zsh completion\n_fzf_complete() {\n  # no comment in a command substitution\n\
         \x20 local out=$(command ls) # substitution\n}\n",
    );
    p.write(
        "src/proxy.go",
        "package proxy\n\n// Run runs a command with substitution; see the comment.\n\
         func Run(name string) string {\n\treturn name\n}\n",
    );
    let stats = task_stats(&p, "Remove comment in command substitution");
    let ranked = items(&stats);
    assert_eq!(ranked[0].0, "shell/completion.zsh", "{ranked:?}");
    let reasons = reasons_of(&stats, "shell/completion.zsh");
    assert!(
        !reasons.iter().any(|r| r.contains("ranked below source")),
        "{reasons:?}"
    );
}

#[test]
fn a_large_file_keeps_what_the_task_is_about_in_full() {
    let p = Project::empty();
    let mut big = String::new();
    for i in 0..60 {
        big.push_str(&format!(
            "def helper_{i}(x):\n    \"\"\"Helper {i}.\"\"\"\n{}    return x\n\n",
            "    x = x + 1\n".repeat(12)
        ));
    }
    big.push_str(
        "def refetch_interval(query):\n    \"\"\"How long until the query is fetched again.\"\"\"\n\
         \x20   return query.stale_time * 2\n",
    );
    p.write("client.py", &big);
    let (stats, text) = task_build(&p, "refetch_interval doubles the stale time", "2500");
    let items = items(&stats);
    assert_eq!(items[0], ("client.py".to_string(), Some("masked".into())));
    assert!(text.contains("    return query.stale_time * 2\n"), "{text}");
    assert!(text.contains("def helper_3(x):"), "{text}");
    assert!(
        !text.contains("def helper_3(x):\n    \"\"\"Helper 3.\"\"\"\n    x = x + 1"),
        "{text}"
    );
}

#[test]
fn a_discovered_file_with_a_secret_is_left_out_and_named() {
    let p = router();
    p.write(
        "router/wildcard_settings.py",
        "WILDCARD_TOKEN = 'ghp_1234567890abcdefghijklmnopqrstuvwxyzAB'\n",
    );
    let out = p.run(&[
        "build",
        "--task",
        "wildcard follows a named param",
        "--budget",
        "3000",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("held 1 discovered file: likely secret at router/wildcard_settings.py:1"),
        "{err}"
    );
    // Choosing the file alone would refuse the build: the hint says so.
    assert!(
        err.contains("make it a target or a preset entry and allow secrets"),
        "{err}"
    );
    let text = stdout(&out);
    assert!(!text.contains("ghp_"), "{text}");
    assert!(text.contains("### router/tree.py"), "{text}");

    // A file the user chose keeps the refusal.
    let out = p.run(&[
        "build",
        "--task",
        "wildcard follows a named param",
        "--budget",
        "3000",
        "--target",
        "router/wildcard_settings.py",
    ]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("refusing"), "{}", stderr(&out));
}

/// A task build passes over texts an earlier build found clean; a text
/// with a secret is never remembered, and a clean file that gains one is
/// scanned again.
#[test]
fn a_second_task_build_still_holds_what_holds_a_secret() {
    let p = router();
    p.write(
        "router/wildcard_settings.py",
        "WILDCARD_TOKEN = 'ghp_1234567890abcdefghijklmnopqrstuvwxyzAB'\n",
    );
    let task = ["build", "--task", "wildcard follows a named param"];
    let args = [&task[..], &["--budget", "3000"]].concat();
    for _ in 0..2 {
        let out = p.run(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.contains("held 1 discovered file: likely secret at router/wildcard_settings.py:1"),
            "{err}"
        );
        assert!(stdout(&out).contains("### router/tree.py"));
    }
    let tree = std::fs::read_to_string(p.path("router/tree.py")).unwrap();
    p.write(
        "router/tree.py",
        &format!("{tree}\nWILDCARD_KEY = 'ghp_abcdefghijklmnopqrstuvwxyz1234567890AB'\n"),
    );
    let out = p.run(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("likely secret at router/tree.py:"), "{err}");
    assert!(!stdout(&out).contains("ghp_"), "{}", stdout(&out));
}

#[test]
fn stats_names_each_pick_and_why() {
    let p = router();
    let out = p.run(&[
        "stats",
        "--task",
        "wildcard follows a named param",
        "--budget",
        "3000",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("why        router/tree.py: "), "{text}");
}

/// With a target, a file the task names by path goes in before the
/// target's imports are given room: the user named both (it was dropped
/// while a large import went in as an outline).
#[test]
fn a_file_the_task_names_comes_before_the_targets_imports() {
    let p = Project::empty();
    let types: String = (0..80)
        .map(|i| format!("class Type{i}:\n    \"\"\"Type {i}.\"\"\"\n    field_{i}: int = {i}\n\n"))
        .collect();
    p.write("query/types.py", &types);
    p.write(
        "query/client.py",
        "from query.types import Type1\n\ndef fetch():\n    return Type1()\n",
    );
    p.write(
        "query/hydration.py",
        "def hydrate(state):\n    \"\"\"Put a dehydrated state back.\"\"\"\n    return dict(state)\n",
    );
    let out = p.run(&[
        "build",
        "--target",
        "query/client.py",
        "--task",
        "Why does hydrate() in hydration.py drop the state?",
        "--budget",
        "700",
        "--stats-json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let items = items(&stats_json(&out));
    assert_eq!(
        items[..2],
        [
            ("query/client.py".to_string(), Some("full".to_string())),
            ("query/hydration.py".to_string(), Some("full".to_string())),
        ],
        "{items:?}"
    );
}

/// A file whose outline alone is over its share of the budget still comes
/// in with the symbols the task is about, the rest hidden.
#[test]
fn a_huge_file_comes_down_to_the_symbols_the_task_is_about() {
    let p = Project::empty();
    let mut big = String::new();
    for i in 0..300 {
        big.push_str(&format!(
            "def helper_{i}(x, y, z):\n    return x + y + z + {i}\n\n"
        ));
    }
    big.push_str("def refetch_interval(query):\n    return query.stale_time * 2\n");
    p.write("client.py", &big);
    let (stats, text) = task_build(&p, "refetch_interval doubles the stale time", "1000");
    let items = items(&stats);
    assert_eq!(items[0], ("client.py".to_string(), Some("masked".into())));
    assert!(text.contains("    return query.stale_time * 2\n"), "{text}");
    assert!(!text.contains("def helper_3("), "{text}");
}

/// A first-ranked file where even the symbols the task is about, alone,
/// are over the budget still comes in: as the few of them that share the
/// most of the task's words.
#[test]
fn a_huge_file_whose_task_symbols_are_many_comes_in_at_its_heart() {
    let p = Project::empty();
    let body: String = (0..3)
        .map(|j| format!("    total = total + query.step_{j}\n"))
        .collect();
    let mut big = String::new();
    for i in 0..200 {
        big.push_str(&format!(
            "def refetch_{i}(query):\n    total = 0\n{body}    return total\n\n"
        ));
    }
    big.push_str(
        "def refetch_interval_stale(query):\n    return query.stale_time * 2\n\n\
         def refetch_interval(query):\n    return query.interval\n",
    );
    p.write("client.py", &big);
    p.write("other.py", "def unrelated():\n    return 1\n");
    let (stats, text) = task_build(&p, "refetch interval ignores the stale time", "1200");
    let items = items(&stats);
    assert_eq!(items[0], ("client.py".to_string(), Some("masked".into())));
    assert!(text.contains("    return query.stale_time * 2\n"), "{text}");
    assert!(text.contains("    return query.interval\n"), "{text}");
    assert!(!text.contains("def refetch_7("), "{text}");
    assert!(tokens::count(TokenizerKind::O200k, &text) <= 1200);
}

#[test]
fn the_next_files_the_task_is_about_keep_room_for_their_cheapest_form() {
    // Eight files about the task, each best whole, ranked by how often
    // they speak of it: a greedy fill keeps the first ones whole until the
    // room left is under the next one's outline and loses the last; the
    // room kept ahead holds every one, the best still whole.
    let p = Project::empty();
    for i in 0..8 {
        let mut text = String::new();
        for word in 0..(8 - i) {
            text.push_str(&format!("EVICT_TTL_{word} = 'evict expired ttl entries'\n"));
        }
        for f in 0..6 {
            text.push_str(&format!(
                "def step_{i}_{f}(entries, now):\n    kept = []\n    for e in entries:\n\
                 \x20       if e.stamp + e.ttl > now:\n            kept.append(e)\n    return kept\n\n"
            ));
        }
        p.write(&format!("cache/evict_{i}.py"), &text);
    }
    for budget in (1500..=3500).step_by(250) {
        let out = p.run(&[
            "build",
            "--task",
            "evict expired ttl entries",
            "--budget",
            &budget.to_string(),
            "--stats-json",
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        let items = items(&stats_json(&out));
        let held: Vec<&String> = items
            .iter()
            .filter(|i| i.1.is_some())
            .map(|i| &i.0)
            .collect();
        assert_eq!(held.len(), 8, "at {budget}: {items:?}");
        assert_eq!(
            items[0].1.as_deref(),
            Some("full"),
            "at {budget}: {items:?}"
        );
    }
}

/// The best file for the task whose cheapest form (its outline: no symbol
/// name speaks of the task) is over its share of the budget still comes in
/// as that outline when it is within half the budget, the next files whole
/// beside it, the whole within the budget; past half the budget it stays
/// out.
#[test]
fn a_first_ranked_file_whose_outline_is_over_its_share_still_comes_in() {
    let p = Project::empty();
    let mut big = String::new();
    for i in 0..120 {
        big.push_str(&format!(
            "def step_{i}(conn, limit):\n    # the listener keeps queued frames across a reconnect\n\
             \x20   return conn.listener.frames[:limit] + [{i}]\n\n"
        ));
    }
    p.write("server/session.py", &big);
    p.write(
        "server/backoff.py",
        "def delay(n):\n    \"\"\"Wait before a reconnect of the listener.\"\"\"\n    return min(2 ** n, 30)\n",
    );
    p.write(
        "server/codec.py",
        "def encode(frames):\n    \"\"\"Queued frames, encoded.\"\"\"\n    return b''.join(frames)\n",
    );
    let build = |budget: &str| {
        let out = p.run(&[
            "build",
            "--task",
            "the listener drops queued frames on reconnect",
            "--budget",
            budget,
            "--stats-json",
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        stats_json(&out)
    };
    // At 5,000 tokens its share is 2,000 and its outline 2,297: in, as
    // the outline, and the two small files whole.
    let stats = build("5000");
    assert_eq!(
        items(&stats),
        vec![
            ("server/session.py".to_string(), Some("outline".to_string())),
            ("server/codec.py".to_string(), Some("full".to_string())),
            ("server/backoff.py".to_string(), Some("full".to_string())),
        ]
    );
    assert_eq!(stats["items"][0]["tokens"], 2297);
    let tokens = stats["stats"]["tokens"].as_u64().expect("tokens");
    assert!(tokens <= 5000, "{tokens}");
    // At 4,000 tokens half the budget is under its outline: left out,
    // with what it needs; the small files still in.
    let stats = build("4000");
    assert_eq!(
        items(&stats),
        vec![
            ("server/session.py".to_string(), None),
            ("server/codec.py".to_string(), Some("full".to_string())),
            ("server/backoff.py".to_string(), Some("full".to_string())),
        ]
    );
    assert_eq!(stats["items"][0]["needs"], 2297);
}

#[test]
fn a_cold_task_build_leaves_the_word_index_to_the_next_run() {
    let p = router();
    let task = |text: &str| {
        let out = p.run(&["build", "--task", text, "--budget", "2000"]);
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out)
    };
    let index = p.path(".ctxcurate/cache/word-index");
    let first = task("a wildcard after a named param in the route tree");
    assert!(!index.exists(), "a cold build paid for the index");
    let second = task("a wildcard after a named param in the route tree");
    assert!(index.exists(), "the second run built no index");
    assert_eq!(first, second);
}

/// A file ranked for the task whose reduced form shows nothing (a barrel
/// `index.ts` of re-exports has no symbol: its outline is empty) is not
/// packed as an empty block: it comes in whole or not at all, and the
/// room goes to the files after it.
#[test]
fn a_reduced_form_that_shows_nothing_is_not_packed() {
    let p = Project::empty();
    let mut barrel = String::new();
    for i in 0..60 {
        barrel.push_str(&format!("export * from './hydration/part_{i}'\n"));
    }
    p.write("src/index.ts", &barrel);
    p.write(
        "src/hydration.ts",
        "export function hydrate(state: unknown) {\n  return dehydrate(state)\n}\n\n\
         export function dehydrate(state: unknown) {\n  return state\n}\n",
    );
    let out = p.run(&[
        "build",
        "--task",
        "hydration drops the state",
        "--budget",
        "1200",
        "--stats-json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let stats = stats_json(&out);
    assert_eq!(
        items(&stats),
        vec![
            ("src/hydration.ts".to_string(), Some("full".to_string())),
            ("src/index.ts".to_string(), None),
        ]
    );
    assert!(
        !stdout(&out).contains("### src/index.ts"),
        "{}",
        stdout(&out)
    );
}

/// `--task-file -` reads the task from standard input, as `task set -`
/// does (an agent pipes a commit message in); the pack is the one
/// `--task` gives. Input that is not UTF-8 is refused, naming stdin.
#[test]
fn a_task_file_of_dash_reads_standard_input() {
    use std::io::Write;
    use std::process::Stdio;
    let p = router();
    let task = "fix: wrong result when a wildcard follows a named param";
    let piped = |input: &[u8]| {
        let mut child = p
            .cmd(&["build", "--task-file", "-", "--budget", "2000"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(input)
            .expect("write stdin");
        child.wait_with_output().expect("wait")
    };
    let out = piped(format!("{task}\n").as_bytes());
    assert!(out.status.success(), "{}", stderr(&out));
    let given = p.run(&["build", "--task", task, "--budget", "2000"]);
    assert!(given.status.success(), "{}", stderr(&given));
    assert!(
        stdout(&out).contains("### router/tree.py\n"),
        "{}",
        stdout(&out)
    );
    assert_eq!(stdout(&out), stdout(&given));
    let out = piped(b"caf\xe9\n");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("cannot read the task from stdin"),
        "{}",
        stderr(&out)
    );
}

/// A task file that is empty (or blank) is said to be, not taken
/// silently for no task.
#[test]
fn an_empty_task_file_is_named() {
    let p = router();
    p.write("task.txt", " \n\n");
    let out = p.run(&["build", "--task-file", "task.txt", "--budget", "2000"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("note: the task file task.txt is empty: this build has no task"),
        "{}",
        stderr(&out)
    );
}

/// A large file the task names by `Type::method`: when it does not fit
/// whole, the method comes in full and its impl around it, not every
/// method of the impl in full (the impl matched the type's name, and a
/// mask showing it whole was as large as the file).
#[test]
fn a_method_the_task_names_comes_in_full_without_its_whole_impl() {
    let p = Project::empty();
    let mut text =
        String::from("pub struct Registry {\n    items: Vec<u32>,\n}\n\nimpl Registry {\n");
    text.push_str(
        "    pub fn lookup_entry(&self, id: u32) -> Option<u32> {\n        \
         self.items.iter().copied().find(|i| *i == id).map(|i| i + 7)\n    }\n",
    );
    for i in 0..80 {
        text.push_str(&format!(
            "    pub fn other_{i}(&self) -> usize {{\n        \
             self.items.iter().filter(|x| **x > {i}).count() + {i}\n    }}\n"
        ));
    }
    text.push_str("}\n");
    p.write("src/store.rs", &text);
    p.write("src/lib.rs", "pub mod store;\n");
    let (stats, text) = task_build(&p, "Registry::lookup_entry panics", "1500");
    let items = items(&stats);
    assert_eq!(
        items[0],
        ("src/store.rs".to_string(), Some("masked".to_string())),
        "{items:?}"
    );
    assert!(
        text.contains("self.items.iter().copied().find(|i| *i == id).map(|i| i + 7)"),
        "{text}"
    );
    assert!(!text.contains("filter(|x| **x > 3).count() + 3"), "{text}");
}

/// A small project whose words no task below uses: a store, its cache,
/// their tests and a readme.
fn small_store() -> Project {
    let p = Project::empty();
    p.write(
        "store/kv.py",
        "from store.cache import Cache\n\n\
         class Store:\n    def __init__(self):\n        self.cache = Cache()\n\n\
         \x20   def put(self, key, value):\n        self.cache.put(key, value)\n",
    );
    p.write(
        "store/cache.py",
        "class Cache:\n    def __init__(self):\n        self.items = {}\n\n\
         \x20   def put(self, key, value):\n        self.items[key] = value\n",
    );
    p.write(
        "tests/test_kv.py",
        "from store.kv import Store\n\ndef test_put():\n    Store().put(1, 2)\n",
    );
    p.write("README.md", "# store\n\nKeys and values.\n");
    p
}

#[test]
fn a_task_that_matches_nothing_fills_the_budget_source_first() {
    let p = small_store();
    let out = p.run(&[
        "build",
        "--task",
        "Improve the wording of a thing",
        "--budget",
        "4000",
        "--stats-json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let stats = stats_json(&out);
    let items = items(&stats);
    // Every file comes in whole: the budget holds the whole project.
    let pos = |path: &str| items.iter().position(|(p, _)| p == path);
    for path in ["store/kv.py", "store/cache.py", "tests/test_kv.py"] {
        assert!(
            items.contains(&(path.to_string(), Some("full".into()))),
            "{path}: {items:?}"
        );
    }
    // Source before tests, and each says why it is there.
    assert!(pos("tests/test_kv.py") > pos("store/kv.py"), "{items:?}");
    assert!(pos("tests/test_kv.py") > pos("store/cache.py"), "{items:?}");
    for item in stats["items"].as_array().expect("items") {
        assert_eq!(item["role"], "fill", "{item}");
        assert_eq!(item["reasons"][0], "room left in the budget", "{item}");
    }
    // The readme too, last: no rank brought it.
    assert_eq!(
        items.last(),
        Some(&("README.md".to_string(), Some("full".into())))
    );
    assert_eq!(stats["stats"]["filled"], 4, "{stats}");
    let text = stdout(&out);
    assert!(text.contains("### store/kv.py\n"), "{text}");
    assert!(tokens::count(TokenizerKind::O200k, &text) <= 4000);
    // The summary line says so.
    let out = p.run(&[
        "build",
        "--task",
        "Improve the wording of a thing",
        "--budget",
        "4000",
    ]);
    assert!(
        stderr(&out).contains("0 discovered from 0 targets; 4 in the room the map left)"),
        "{}",
        stderr(&out)
    );

    // A budget that holds only part of it: what fits, within the budget.
    let out = p.run(&[
        "build",
        "--task",
        "Improve the wording of a thing",
        "--budget",
        "260",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(tokens::count(TokenizerKind::O200k, &text) <= 260, "{text}");
}

#[test]
fn a_file_the_room_brings_in_with_a_secret_is_held_and_named() {
    let p = small_store();
    p.write(
        "store/settings.py",
        "TOKEN = 'ghp_1234567890abcdefghijklmnopqrstuvwxyzAB'\n",
    );
    let out = p.run(&[
        "build",
        "--task",
        "Improve the wording of a thing",
        "--budget",
        "4000",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("held 1 discovered file: likely secret at store/settings.py:1"),
        "{err}"
    );
    let text = stdout(&out);
    assert!(!text.contains("ghp_"), "{text}");
    assert!(text.contains("### store/cache.py"), "{text}");
}

/// A project with many files that hold no text (images, compiled
/// translations) answers a task as well on every later run as on the
/// first: they once made the word index look behind on every run, and
/// the second build of Django packed nothing ("packed 0 of 0").
#[test]
fn many_files_without_text_leave_later_task_builds_whole() {
    let p = router();
    for i in 0..120 {
        let path = p.path(&format!("static/img/icon_{i}.png"));
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("mkdir");
        std::fs::write(&path, [0x89, b'P', b'N', b'G', 0, 0, 0, 13, 0, i as u8]).expect("write");
    }
    let task = "wildcard follows a named param";
    let (first, _) = task_build(&p, task, "3000");
    assert_eq!(
        items(&first).first().map(|i| i.0.as_str()),
        Some("router/tree.py")
    );
    // The second run builds the index, the third reads it.
    for run in [2, 3] {
        let (again, _) = task_build(&p, task, "3000");
        assert_eq!(items(&again), items(&first), "run {run}");
    }
}

/// Of a target's imports, the one the task names by an identifier comes
/// before one the task is not about, however central that one is: at a
/// tight budget the named one stays and the other goes.
#[test]
fn the_import_the_task_names_comes_before_imports_it_does_not() {
    let p = Project::empty();
    p.write(
        "app/main.py",
        "from app.helpers import fmt\nfrom app.clock import tick_scheduler\n\n\
         def run():\n    return fmt(tick_scheduler())\n",
    );
    // `helpers` is imported everywhere (it ranks high), long, and shares
    // the task's plain words (`skip`, `beat`).
    let body: String = (0..40)
        .map(|i| format!("def fmt_{i}(value, skip=False):\n    return str(value) + 'beat {i}'\n\n"))
        .collect();
    p.write(
        "app/helpers.py",
        &format!("def fmt(value):\n    return str(value)\n\n{body}"),
    );
    for i in 0..8 {
        p.write(
            &format!("app/user_{i}.py"),
            "from app.helpers import fmt\n\ndef show(x):\n    return fmt(x)\n",
        );
    }
    p.write(
        "app/clock.py",
        "def tick_scheduler():\n    \"\"\"Advance the scheduler by one beat.\"\"\"\n    return 1\n",
    );
    let out = p.run(&[
        "build",
        "--target",
        "app/main.py",
        "--task",
        "Why does `tick_scheduler` skip a beat?",
        "--budget",
        "400",
        "--stats-json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let items = items(&stats_json(&out));
    let mode_of = |path: &str| {
        items
            .iter()
            .find(|(p, _)| p == path)
            .and_then(|(_, m)| m.clone())
    };
    assert!(mode_of("app/clock.py").is_some(), "{items:?}");
    let clock = items.iter().position(|(p, _)| p == "app/clock.py");
    let helpers = items.iter().position(|(p, _)| p == "app/helpers.py");
    assert!(clock < helpers, "{items:?}");
}
