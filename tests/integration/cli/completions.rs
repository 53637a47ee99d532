//! `completions SHELL` offers the project's preset names wherever a preset
//! is named (written into the script when it is generated); names a shell
//! could read as code are left out.

use crate::common;

use std::process::Command;

use common::{Project, stderr};

fn project() -> Project {
    let p = Project::fixture();
    p.write(
        "ctxcurate.toml",
        "[presets.default]\n[presets.bugfix-parser]\n[presets.review_api]\n\
         [presets.\"$(touch pwned)\"]\n[presets.\"sp ace\"]\n",
    );
    p
}

/// What bash completes after `words` (the last is the word being typed).
fn bash_completes(p: &Project, words: &[&str]) -> Option<Vec<String>> {
    Command::new("bash").arg("--version").output().ok()?;
    let script = p.path("ctxcurate.bash");
    std::fs::write(&script, p.ok(&["completions", "bash"])).unwrap();
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let n = words.len();
    let line = format!(
        "source '{}'; COMP_WORDS=({}); COMP_CWORD={}; _ctxcurate ctxcurate '{}' '{}'; \
         printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        script.display(),
        quoted.join(" "),
        n - 1,
        words[n - 1],
        words[n - 2]
    );
    let out = Command::new("bash")
        .arg("-c")
        .arg(line)
        .current_dir(p.root())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    // Options are offered beside the values; the values are the point.
    let mut got: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|w| !w.starts_with('-'))
        .map(String::from)
        .collect();
    got.sort();
    Some(got)
}

#[test]
fn preset_names_complete_where_a_preset_is_named() {
    let p = project();
    let names = ["bugfix-parser", "default", "review_api"];
    let Some(got) = bash_completes(&p, &["ctxcurate", "preset", "apply", ""]) else {
        return;
    };
    assert_eq!(got, names);
    for words in [
        &["ctxcurate", "build", "-p", ""][..],
        &["ctxcurate", "build", "--preset", ""],
        &["ctxcurate", "add", "--preset", ""],
        &["ctxcurate", "preset", "show", ""],
        &["ctxcurate", "preset", "rename", ""],
    ] {
        assert_eq!(
            bash_completes(&p, words),
            Some(names.map(String::from).to_vec()),
            "{words:?}"
        );
    }
    assert_eq!(
        bash_completes(&p, &["ctxcurate", "preset", "apply", "b"]),
        Some(vec!["bugfix-parser".to_string()])
    );
    // Parsing still takes any name: the completion list is not a rule.
    let out = p.run(&["build", "-p", "other"]);
    assert!(stderr(&out).contains("other"), "{}", stderr(&out));
    assert!(
        !stderr(&out).contains("possible values"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn names_a_shell_could_run_are_not_written_into_the_script() {
    let p = project();
    // clap_complete writes values into bash, zsh and fish scripts (its
    // elvish and powershell scripts complete no values at all).
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let script = p.ok(&["completions", shell]);
        let lists = matches!(shell, "bash" | "zsh" | "fish");
        assert_eq!(script.contains("bugfix-parser"), lists, "{shell}");
        assert!(
            !script.contains("pwned") && !script.contains("sp ace"),
            "{shell}"
        );
    }
    assert!(!p.path("pwned").exists());
}
