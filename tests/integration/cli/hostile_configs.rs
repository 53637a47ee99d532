//! Configs a repository controls that multiply work, through the real
//! binary and with deadlines: a file given 1,200 slices that each cover
//! it whole (shown at most twice, with a note), a `tsconfig.json` whose
//! `paths` maps `*` to 100,000 targets, a `composer.json` PSR-4 prefix
//! `""` over 120,000 folders, thousands of `composer.json` files (read
//! in part, with a note in every front end).

use std::time::Duration;

use crate::common;

use common::mcp_stdio::McpServer;
use common::{Project, output_within, stderr};
use serde_json::json;

/// What the user hears when a resolver config is read in part.
const TSCONFIG_NOTE: &str =
    "tsconfig.json: `paths` maps `*` to 100000 targets; only the first 16 of a pattern are tried";
const COMPOSER_NOTE: &str = "composer.json: psr-4: prefix `` names 120000 folders; \
     only the first 16 of a prefix are read";

/// Every front end of the CLI that builds the import graph says what its
/// bound cut: `map` (and its `--stats-json`), a packed build, the MCP
/// server's packed build, and a composed build whose preset has a repo
/// map.
fn assert_capped_with_a_note(p: &Project, target: &str, note: &str) {
    let out = within(p, &["map"]);
    assert!(
        stderr(&out).contains(&format!("note: {note}\n")),
        "{}",
        stderr(&out)
    );
    let out = within(p, &["map", "--stats-json"]);
    let json: serde_json::Value = serde_json::from_str(stderr(&out).trim()).expect("json");
    assert_eq!(json["limits"], serde_json::json!([note]), "{json}");
    let out = within(p, &["build", "--target", target, "--budget", "4000"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!("note: {note}\n")),
        "{}",
        stderr(&out)
    );
    let mut server = McpServer::start(p, &[]);
    let reply = server.call("build", json!({"targets": [target], "budget": 4000}));
    assert!(!reply.is_error, "{}", reply.text);
    assert!(
        reply.text.contains(&json!(note).to_string()),
        "{}",
        reply.text
    );
    drop(server);
    let toml = std::fs::read_to_string(p.path("ctxcurate.toml")).expect("toml");
    p.write(
        "ctxcurate.toml",
        &toml.replace(
            "[[presets.default.files]]",
            &format!("[presets.default]\ntargets = [\"{target}\"]\nrepo_map = 500\n\n[[presets.default.files]]"),
        ),
    );
    let out = within(p, &["build"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!("warning: {note}\n")),
        "{}",
        stderr(&out)
    );
}

fn within(p: &Project, args: &[&str]) -> std::process::Output {
    output_within(p.cmd(args), Duration::from_secs(60))
}

#[test]
fn slices_that_each_cover_the_file_are_capped_with_a_note() {
    let p = Project::empty();
    let text: String = (0..4000)
        .map(|i| format!("def f{i}(x):\n    return x + {i}  # padding padding padding\n"))
        .collect();
    p.write("big.py", &text);
    let lines = text.lines().count();
    let mut toml =
        String::from("[[presets.default.files]]\npath = \"big.py\"\nview_mode = \"custom\"\n");
    for _ in 0..1200 {
        toml.push_str(&format!(
            "[[presets.default.files.custom_slices]]\nstart_line = 1\nend_line = {lines}\n"
        ));
    }
    p.write("ctxcurate.toml", &toml);
    let out = within(&p, &["build", "-o", "out.md"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out)
            .contains("slices left out: together they would show the file more than 2 times"),
        "{}",
        stderr(&out)
    );
    let written = std::fs::metadata(p.path("out.md")).expect("written").len();
    // At most twice the file's text and the 64 KiB slack, as the README
    // says (recheck 25: a third copy got through).
    assert!(
        written < 2 * text.len() as u64 + 80_000,
        "{written} bytes of {}",
        text.len()
    );
    let out = within(&p, &["stats"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

/// Stale slices whose anchors recur on every line each cost a pass over
/// the file to look for (1,200 over 500,000 lines: `stats` 97 s, MCP
/// `list_presets` 91 s, recheck 15 F3). The file's slices are looked for
/// within a bound of work; the rest are named in one note, and `slices`
/// says which.
#[test]
fn stale_slices_are_looked_for_within_a_bound_with_a_note() {
    let p = Project::empty();
    p.write("a.py", &"a\n".repeat(20_000));
    let mut toml =
        String::from("[[presets.default.files]]\npath = \"a.py\"\nview_mode = \"custom\"\n");
    for i in 0..1200 {
        toml.push_str(&format!(
            "[[presets.default.files.custom_slices]]\nstart_line = {}\nend_line = 16000\n\
             content_hash = \"{i:064x}\"\nfingerprint = \"{i:016x}\"\n\
             anchor_before = [\"a\", \"a\", \"a\"]\nanchor_after = [\"a\", \"a\", \"b\"]\n",
            1 + i
        ));
    }
    p.write("ctxcurate.toml", &toml);
    let note = "slices not looked for: finding this file's other slices again took all the work one file may take";
    let out = within(&p, &["build", "-o", "out.md"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains(note), "{}", stderr(&out));
    let out = within(&p, &["stats"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = within(&p, &["slices", "a.py"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let listed = String::from_utf8_lossy(&out.stdout);
    assert!(listed.contains("1. lines 1-16000: stale ("), "{listed}");
    assert!(
        listed.contains("1200. lines 1200-16000: stale (not looked for: "),
        "{listed}"
    );
}

/// A project file giving `files` files of `lines` lines of code (45
/// bytes each) `slices` stale slices that each cover the file but a line
/// (their anchors gone).
fn stale_slices_over_code(p: &Project, files: usize, lines: usize, slices: usize) {
    let body: String = (0..lines)
        .map(|i| format!("    value_{i:05} = compute(alpha, beta, {i:05})\n"))
        .collect();
    let mut toml = String::new();
    for f in 0..files {
        p.write(&format!("a{f}.py"), &body);
        toml.push_str(&format!(
            "[[presets.default.files]]\npath = \"a{f}.py\"\nview_mode = \"custom\"\n"
        ));
        for i in 0..slices {
            toml.push_str(&format!(
                "[[presets.default.files.custom_slices]]\nstart_line = 1\nend_line = {}\n\
                 content_hash = \"{i:064x}\"\n\
                 anchor_before = [\"gone\"]\nanchor_after = [\"gone\"]\n",
                lines - 1
            ));
        }
    }
    p.write("ctxcurate.toml", &toml);
}

/// Checking a slice in place hashes its bytes: over lines of code, the
/// bound of one file counts them (by the line, 64 stale slices over each
/// of 130 one-megabyte files of code took `stats` 104 s).
#[test]
fn stale_slices_over_lines_of_code_are_bounded_by_their_bytes() {
    let p = Project::empty();
    stale_slices_over_code(&p, 1, 5_000, 200);
    let out = within(&p, &["build", "-o", "out.md"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "of 200 slices not looked for: finding this file's other slices again took all the work one file may take"
        ),
        "{}",
        stderr(&out)
    );
}

/// Files past the process's allowance get only their floor (recheck 15b
/// F3b: 130 files of a megabyte with 64 stale slices each, `stats` 30 s):
/// the later files' slices are not looked for, with a note naming why.
#[test]
fn stale_slices_over_many_files_share_one_allowance() {
    let p = Project::empty();
    stale_slices_over_code(&p, 12, 20_000, 40);
    let out = within(&p, &["build", "-o", "out.md"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "slices not looked for: finding slices again in other files took all the work allowed for a while"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_tsconfig_star_with_100000_targets_is_bounded() {
    let p = Project::empty();
    // Under the 1 MB a config is read up to.
    let targets: Vec<String> = (0..100_000).map(|i| format!("\"{i}*\"")).collect();
    p.write(
        "tsconfig.json",
        &format!(
            "{{\"compilerOptions\":{{\"baseUrl\":\".\",\"paths\":{{\"*\":[{}]}}}}}}",
            targets.join(",")
        ),
    );
    for i in 0..300 {
        let imports: String = (0..10)
            .map(|j| format!("import {{ x{j} }} from \"pkg{i}_{j}\";\n"))
            .collect();
        p.write(
            &format!("src/m{i}.ts"),
            &format!("{imports}export const m{i} = 1;\n"),
        );
    }
    map_is_bounded(&p, "src/m0.ts", TSCONFIG_NOTE);
}

/// Thousands of nested `composer.json` files (recheck 22, F3: `map` took
/// 35 s at 8,000 with no note) are read as `package.json` files are: the
/// first 2,000, and every front end that builds the graph says so.
#[test]
fn composer_files_past_the_manifest_cap_are_named_in_a_note() {
    let p = Project::empty();
    for i in 0..2001 {
        p.write(
            &format!("pk/{i}/composer.json"),
            &format!("{{\"autoload\":{{\"psr-4\":{{\"W{i}\\\\\":\"src/\"}}}}}}"),
        );
    }
    p.write("src/a.php", "<?php\nuse W3\\X;\nuse W2000\\X;\n");
    p.write("pk/3/src/X.php", "<?php\nclass X {}\n");
    p.write(
        "ctxcurate.toml",
        "[[presets.default.files]]\npath = \"src/**\"\n",
    );
    assert_capped_with_a_note(
        &p,
        "src/a.php",
        "the project holds 2001 composer.json files; only the first 2000 are read",
    );
}

/// A resolver config past the 1 MiB it is read to is left out with a
/// note, not silently (recheck 14, F6: 100,000 `paths` keys, 3 MB).
#[test]
fn a_resolver_config_too_large_to_read_is_named_in_a_note() {
    let p = Project::empty();
    let keys: Vec<String> = (0..100_000)
        .map(|i| format!("\"p{i}/*\":[\"src/*\"]"))
        .collect();
    p.write(
        "tsconfig.json",
        &format!(
            "{{\"compilerOptions\":{{\"baseUrl\":\".\",\"paths\":{{{}}}}}}}",
            keys.join(",")
        ),
    );
    p.write("src/m0.ts", "import { a } from \"p99999/m1\";\n");
    p.write("src/m1.ts", "export const a = 1;\n");
    for args in [
        &["build", "--target", "src/m0.ts", "-q"][..],
        &["map", "--target", "src/m0.ts"],
    ] {
        let out = p.run(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.contains("tsconfig.json: ")
                && err.contains("more than the 1 MiB a config is read to; not read"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn a_composer_fallback_prefix_over_120000_folders_is_bounded() {
    let p = Project::empty();
    let folders: Vec<String> = (0..120_000).map(|i| format!("\"{i}\"")).collect();
    p.write(
        "composer.json",
        &format!(
            "{{\"autoload\":{{\"psr-4\":{{\"\":[{}]}}}}}}",
            folders.join(",")
        ),
    );
    for i in 0..300 {
        let uses: String = (0..10)
            .map(|j| format!("use Vendor{i}\\Thing{j};\n"))
            .collect();
        p.write(
            &format!("src/C{i}.php"),
            &format!("<?php\n{uses}class C{i} {{}}\n"),
        );
    }
    map_is_bounded(&p, "src/C0.php", COMPOSER_NOTE);
}

/// `map` over the project's `src/**` with its resolver config (read whole:
/// under the 1 MB a config is read up to) ends, and every route says what
/// the cap cut (`probe` is a file whose imports it cut, `note` the words).
fn map_is_bounded(p: &Project, probe: &str, note: &str) {
    p.write(
        "ctxcurate.toml",
        "[[presets.default.files]]\npath = \"src/**\"\n",
    );
    let config = ["tsconfig.json", "composer.json"]
        .map(|f| p.path(f))
        .into_iter()
        .find(|f| f.exists())
        .expect("a config");
    assert!(
        std::fs::metadata(&config).expect("config").len() < 1 << 20,
        "read whole"
    );
    let out = within(p, &["map"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_capped_with_a_note(p, probe, note);
}

/// A preset glob of 600 nested braces (issue 37) panicked in globset:
/// `build`, `stats`, the TUI and the MCP server now say it is too deep
/// and go on without it.
#[test]
fn a_glob_of_600_nested_braces_is_a_clear_problem() {
    let p = Project::empty();
    p.write("a.py", "x = 1\n");
    let glob = format!("{}a.py{}", "{".repeat(600), "}".repeat(600));
    p.write(
        "ctxcurate.toml",
        &format!(
            "[[presets.default.files]]\npath = \"a.py\"\n\n[[presets.default.files]]\npath = \"{glob}\"\n"
        ),
    );
    let said = "braces nested 600 deep; a glob may nest them at most 16 deep";
    for args in [&["build"][..], &["stats"]] {
        let out = within(&p, args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(said), "{args:?}: {}", stderr(&out));
    }
    let mut server = McpServer::start(&p, &[]);
    let reply = server.call("build", json!({}));
    assert!(!reply.is_error, "{}", reply.text);
    assert!(reply.text.contains(said), "{}", reply.text);
    assert!(server.alive());
    let mut h = ctxcurate::tui::run::harness::Harness::open(p.root(), None, 120, 20)
        .expect("the TUI opens");
    assert!(h.screen().contains("a.py"), "{}", h.screen());
}

/// A preset `exclude` glob that does not parse excluded nothing in
/// silence (recheck 16): the files it meant to keep out were written
/// with no word. Now every front end that builds says it excludes nothing.
#[test]
fn a_bad_exclude_glob_is_named() {
    let p = Project::empty();
    for i in 0..3 {
        p.write(&format!("src/f{i}.py"), "x = 1\n");
    }
    p.write(
        "ctxcurate.toml",
        "[presets.default]\nexclude = [\"src/f{0,1.py\"]\n\n[[presets.default.files]]\npath = \"src/*.py\"\n",
    );
    let said = "bad exclude glob `src/f{0,1.py`: unclosed alternate group; missing '}' (maybe escape '{' with '[{]'?); it excludes nothing";
    for args in [&["build", "-o", "out.md"][..], &["stats"]] {
        let out = within(&p, args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(said), "{args:?}: {}", stderr(&out));
    }
    let mut server = McpServer::start(&p, &[]);
    let reply = server.call("build", json!({}));
    assert!(reply.text.contains(said), "{}", reply.text);
}

/// 80,870 glob entries in one preset (a 4 MB project file) took a build
/// half a minute, each compiled (recheck 16). Past 1,024 the rest are left
/// out with one note; past 1,024 `exclude` globs the glob entries bring in
/// nothing (exclusions are never dropped), named in a note, while entries
/// naming a file stay.
#[test]
fn glob_entries_past_the_cap_are_left_out_with_a_note() {
    let p = Project::empty();
    p.write("src/a.py", "a = 1\n");
    p.write("src/b.py", "b = 1\n");
    let mut toml = String::from("[[presets.default.files]]\npath = \"src/a.py\"\n");
    for i in 0..1_030 {
        toml.push_str(&format!(
            "[[presets.default.files]]\npath = \"src/*{i}.py\"\n"
        ));
    }
    toml.push_str("[[presets.default.files]]\npath = \"src/b*\"\n");
    p.write("ctxcurate.toml", &toml);
    let out = within(&p, &["build", "-o", "out.md"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "7 glob entries left out, from `src/*1024.py`: a preset is expanded with at most 1024 globs, 64 KiB of them"
        ),
        "{}",
        stderr(&out)
    );
    let text = std::fs::read_to_string(p.path("out.md")).expect("out");
    assert!(text.contains("a = 1") && !text.contains("b = 1"), "{text}");

    let excludes: Vec<String> = (0..1_030).map(|i| format!("\"x/*{i}\"")).collect();
    p.write(
        "ctxcurate.toml",
        &format!(
            "[presets.default]\nexclude = [{}]\n\n[[presets.default.files]]\npath = \"src/a.py\"\n\n[[presets.default.files]]\npath = \"src/*.py\"\n",
            excludes.join(",")
        ),
    );
    let out = within(&p, &["build", "-o", "out.md"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "exclude holds 1030 globs, more than the 1024 (64 KiB) checked: the preset's glob entries bring in no file"
        ),
        "{}",
        stderr(&out)
    );
    let text = std::fs::read_to_string(p.path("out.md")).expect("out");
    assert!(text.contains("a = 1") && !text.contains("b = 1"), "{text}");
}

/// A project file masking 16,000 symbols of a file that has 8,000: each
/// entry was looked for by walking the whole tree (half a minute in a
/// debug build). The masked view names the entries it did not find (the
/// first 32, then how many more), and none it did; within a deadline far
/// from the old time.
#[test]
fn thousands_of_mask_entries_are_looked_up_once() {
    let p = Project::empty();
    let n = 8000;
    let mut source = String::new();
    for i in 0..n {
        source.push_str(&format!("def f{i}():\n    return {i}\n"));
    }
    p.write("m.py", &source);
    let entries: Vec<String> = (0..n)
        .flat_map(|i| [format!("\"f{i}\" = \"sig\""), format!("\"g{i}\" = \"sig\"")])
        .collect();
    p.write(
        "ctxcurate.toml",
        &format!(
            "[[presets.default.files]]\npath = \"m.py\"\nview_mode = \"masked\"\nast_mask = {{ {} }}\n",
            entries.join(", ")
        ),
    );
    let out = output_within(p.cmd(&["build"]), Duration::from_secs(20));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let err = stderr(&out);
    // The first 32 by name, the rest counted in one note (120,000 such
    // entries put 6 MB of notes in the context, recheck 16).
    let missing = err.matches("masked symbol `g").count();
    assert_eq!(missing, 32, "{}", &err[..err.len().min(400)]);
    assert!(
        !err.contains("masked symbol `f"),
        "{}",
        &err[..err.len().min(400)]
    );
    assert!(
        err.contains("note: m.py: masked symbol `g0` not found\n"),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "note: m.py: {} more masked symbols not found (`ctxcurate symbols` lists the file's)\n",
            n - 32
        )),
        "{err}"
    );
}

/// More Python roots than are searched hold one top-level package: an
/// import of it is searched in the nearest ones only, and every front end
/// that builds the graph says so (recheck 15b F8b left the cap silent).
#[test]
fn a_package_name_held_by_more_roots_than_are_searched_is_named_in_a_note() {
    let p = Project::empty();
    for i in 0..70 {
        p.write(&format!("r{i}/common/__init__.py"), "");
    }
    p.write(
        "src/app.py",
        "import common.missing\nfrom common.gone import x\n",
    );
    p.write(
        "ctxcurate.toml",
        "[[presets.default.files]]\npath = \"src/**\"\n",
    );
    assert_capped_with_a_note(
        &p,
        "src/app.py",
        "imports of `common` were searched in 64 of the 70 Python roots that hold it: those above the importing file and the shared ones first",
    );
}

/// A project file listing 80,000 paths that do not exist printed 80,000
/// warnings (recheck 16): the first 32 are named, the rest counted.
#[test]
fn files_that_cannot_be_shown_are_named_up_to_a_bound() {
    let p = Project::empty();
    p.write("a.py", "a = 1\n");
    let mut toml = String::from("[[presets.default.files]]\npath = \"a.py\"\n");
    for i in 0..40 {
        toml.push_str(&format!(
            "[[presets.default.files]]\npath = \"gone{i:02}.py\"\n"
        ));
    }
    p.write("ctxcurate.toml", &toml);
    let out = within(&p, &["build", "-o", "out.md"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let err = stderr(&out);
    assert_eq!(err.matches(": file not found").count(), 32, "{err}");
    assert!(
        err.contains("warning: gone31.py: file not found\n"),
        "{err}"
    );
    // Past 32 missing paths the rest are one note, not an error each.
    assert!(
        err.contains(
            "warning: 8 more files of the preset not found, left out of the context (32 are shown as errors): gone32.py, gone33.py, gone34.py, …\n"
        ),
        "{err}"
    );
}

/// Long globs count by their bytes too (recheck 16b F-IGN2: a thousand
/// 3.8 KB globs took 15 s and 2 GB): `[project] ignore`, a preset's glob
/// entries and its `exclude` each take 64 KiB of them.
#[test]
fn long_globs_are_bounded_by_their_bytes() {
    let p = Project::empty();
    p.write("src/a.py", "a = 1\n");
    let long = |i: usize| format!("**/{}{i}.py", "*a".repeat(1_990));
    let globs: Vec<String> = (0..20).map(|i| format!("\"{}\"", long(i))).collect();
    p.write(
        "ctxcurate.toml",
        &format!(
            "[project]\nignore = [{}]\n\n[presets.default]\nexclude = [{}]\n\n[[presets.default.files]]\npath = \"src/a.py\"\n{}",
            globs.join(","),
            globs.join(","),
            (0..20)
                .map(|i| format!("[[presets.default.files]]\npath = \"{}\"\n", long(i)))
                .collect::<String>()
        ),
    );
    let out = within(&p, &["build", "-o", "out.md"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let err = stderr(&out);
    for said in [
        "warning: [project] ignore holds 20 patterns; only the first 16 are applied (at most 1000, and 64 KiB)",
        "4 glob entries left out, from `**/*a*a",
        "exclude holds 20 globs, more than the 1024 (64 KiB) checked",
    ] {
        assert!(err.contains(said), "{said}: {err}");
    }
    let text = std::fs::read_to_string(p.path("out.md")).expect("out");
    assert!(text.contains("a = 1"), "{text}");
}
