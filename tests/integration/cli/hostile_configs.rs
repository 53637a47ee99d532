//! Configs a repository controls that multiply work, through the real
//! binary and with deadlines: a file given 1,200 slices that each cover
//! it whole (shown at most twice, with a note), a `tsconfig.json` whose
//! `paths` maps `*` to 100,000 targets, a `composer.json` PSR-4 prefix
//! `""` over 120,000 folders.

use std::time::Duration;

use crate::common;

use common::{Project, output_within, stderr};

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
    assert!(written < 4 * text.len() as u64, "{written} bytes");
    let out = within(&p, &["stats"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
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
    let started = std::time::Instant::now();
    let out = within(&p, &["map"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
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
    let started = std::time::Instant::now();
    let out = within(&p, &["map"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
}
