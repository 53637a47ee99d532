//! Hardening, through the real binary in temp projects: secrets refuse a
//! build, entries outside the root are refused (a project file cannot
//! allow them, the global config can), the size cap and its override, and
//! bad files that become one-line notes while the build goes on.

use crate::common;

use common::{Project, stderr, stdout};

const GH_TOKEN: &str = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";

#[test]
fn a_build_with_a_secret_fails_unless_allowed() {
    let p = Project::fixture();
    p.write(
        "conf/settings.py",
        &format!("DEBUG = True\nTOKEN = \"{GH_TOKEN}\"\n"),
    );
    p.ok(&["add", "src/app.py", "conf/settings.py"]);
    for args in [
        &["build"][..],
        &["build", "--save"],
        &["build", "-o", "out.md"],
    ] {
        let out = p.run(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.contains("likely secret: conf/settings.py:2: GitHub token ghp_…(40 chars)"),
            "{err}"
        );
        assert!(err.contains("--allow-secrets"), "{err}");
        assert!(
            !err.contains(GH_TOKEN),
            "the secret itself is echoed: {err}"
        );
        assert!(stdout(&out).is_empty(), "nothing is written");
    }
    assert!(!p.path("out.md").exists());
    assert!(!p.path(".ctxcurate/out").exists());

    let out = p.run(&["build", "--allow-secrets"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains(GH_TOKEN), "the content stays exact");
    assert!(stderr(&out).contains("warning: likely secret: conf/settings.py:2"));
}

#[test]
fn env_and_key_files_join_only_when_named() {
    let p = Project::fixture();
    p.write("deploy/server.pem", "not really a key\n");
    p.write("deploy/id_rsa", "not really a key either\n");
    p.write("deploy/run.sh", "echo hi\n");
    p.ok(&["add", "deploy/**"]);
    let text = p.ok(&["build"]);
    assert!(text.contains("### deploy/run.sh"), "{text}");
    assert!(
        !text.contains("server.pem") && !text.contains("id_rsa"),
        "{text}"
    );
    p.ok(&["add", "deploy/server.pem"]);
    assert!(p.ok(&["build"]).contains("### deploy/server.pem"));
}

#[test]
fn entries_outside_the_root_are_refused() {
    let p = Project::fixture();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("id_rsa"), "PRIVATE STUFF\n").unwrap();
    let abs = outside.path().join("id_rsa");
    #[cfg(unix)]
    std::os::unix::fs::symlink(outside.path(), p.path("ssh")).unwrap();
    // A cloned repository's project file naming files outside, and trying
    // to allow it.
    p.write(
        "ctxcurate.toml",
        &format!(
            "[project]\nallow_outside_root = true\n\n[presets.default]\nfiles = [\"src/app.py\", \
             \"../outside.txt\", {:?}, \"ssh/id_rsa\"]\n",
            abs.display().to_string()
        ),
    );
    let out = p.run(&["build"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let err = stderr(&out);
    assert!(!text.contains("PRIVATE STUFF"), "{text}");
    assert!(
        text.contains("### src/app.py"),
        "the rest of the build goes on"
    );
    assert!(
        err.contains("ignoring allow_outside_root (this project is not trusted"),
        "{err}"
    );
    // A credential file named by a project preset waits for consent
    // (issue 22, core/trust/entries.rs); what is outside is refused.
    assert!(
        err.contains("that needs your consent: ssh/id_rsa (a credential file)"),
        "{err}"
    );
    for entry in ["../outside.txt", &abs.display().to_string()] {
        assert!(
            err.contains(&format!(
                "warning: {entry}: path is outside the project root, refused"
            )),
            "{entry}: {err}"
        );
        assert!(
            text.contains(&format!("ERROR: path is outside the project root, refused (allow_outside_root = true in your global config permits it): {entry}")),
            "{text}"
        );
    }

    // The user's own global config may allow it.
    std::fs::create_dir_all(p.global_config().parent().unwrap()).unwrap();
    std::fs::write(p.global_config(), "[project]\nallow_outside_root = true\n").unwrap();
    // The project preset's entries out there still need consent.
    let out = p.run(&["build", "--allow-secrets"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stdout(&out).contains("PRIVATE STUFF"), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("(a file outside the project)"),
        "{}",
        stderr(&out)
    );
    p.ok(&["trust", "--yes"]);
    let out = p.run(&["build", "--allow-secrets"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.matches("PRIVATE STUFF").count(), 2, "{text}");
}

#[test]
fn the_size_cap_is_a_setting_and_force_full_lifts_it() {
    let p = Project::fixture();
    p.write("big.txt", &"0123456789\n".repeat(200));
    p.write("ctxcurate.toml", "[project]\nmax_file_size = 1000\n\n[presets.default]\nfiles = [\"big.txt\", \"src/app.py\"]\n");
    let out = p.run(&["build"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "warning: skipped 1 file (1 over max_file_size = 1000; \
             force_full = true on its entry reads it): big.txt (2200 bytes)\n"
        ),
        "{}",
        stderr(&out)
    );
    assert!(!stdout(&out).contains("0123456789"));
    assert!(stdout(&out).contains("### src/app.py"));
    p.ok(&["set", "big.txt", "--force-full"]);
    let text = p.ok(&["build"]);
    assert_eq!(text.matches("0123456789").count(), 200);
    // The default cap is 1 MiB.
    p.ok(&["set", "big.txt", "--no-force-full"]);
    p.write(
        "ctxcurate.toml",
        &p.read("ctxcurate.toml")
            .replace("max_file_size = 1000\n", ""),
    );
    p.write("big.txt", &"x".repeat(1024 * 1024 + 1));
    let out = p.run(&["build"]);
    assert!(
        stderr(&out).contains("max_file_size = 1048576; force_full = true on its entry reads it): big.txt (1048577 bytes)"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn bad_files_are_one_line_notes_and_the_build_goes_on() {
    let p = Project::fixture();
    p.write("latin1.txt", "");
    std::fs::write(p.path("latin1.txt"), b"caf\xe9\n").unwrap();
    std::fs::create_dir_all(p.path("adir")).unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("loop_b", p.path("loop_a")).unwrap();
        std::os::unix::fs::symlink("loop_a", p.path("loop_b")).unwrap();
    }
    p.write("a_file", "x\n");
    p.write(
        "ctxcurate.toml",
        "[presets.default]\nfiles = [\"logo.bin\", \"latin1.txt\", \"adir\", \"loop_a\", \
         \"gone.py\", \"a_file/below\", \"src/app.py\"]\n",
    );
    let out = p.run(&["build"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    let text = stdout(&out);
    for line in [
        "warning: skipped 1 file (1 binary): logo.bin\n",
        "note: latin1.txt: invalid UTF-8 replaced with U+FFFD",
        "warning: adir: not a regular file",
        "warning: loop_a: cannot read file: ",
        "warning: gone.py: file not found",
        "warning: a_file/below: cannot read file: Not a directory",
    ] {
        assert!(err.contains(line), "{line:?} missing in:\n{err}");
    }
    assert!(
        err.contains("6 files") && err.contains("4 with errors"),
        "{err}"
    );
    assert!(text.contains("caf\u{fffd}"), "{text}");
    assert!(text.contains("### src/app.py\n\n```python\n"), "{text}");
}

#[test]
fn piped_output_keeps_escape_sequences_exact() {
    let p = Project::fixture();
    let evil = "print('hi')\n# \x1b]52;c;aGFjaw==\x07 \x1b[2J \u{202e}rev\n";
    p.write("evil.py", evil);
    p.ok(&["add", "evil.py"]);
    // Not a terminal: the bytes are the file's (the clipboard and pipes
    // need the real content). The terminal case is tested in the binary's
    // unit tests and in tmux.
    assert!(p.ok(&["build"]).contains(evil));
    assert!(p.ok(&["view", "evil.py"]).contains(evil));
}

/// The reading commands run with the defaults when the project file does
/// not parse, and say so; an editing or building one refuses.
#[test]
fn reading_commands_warn_about_a_broken_project_file() {
    let p = Project::fixture();
    p.write("ctxcurate.toml", "[project\nmax_file_size = 5\n");
    for args in [
        &["view", "src/app.py"][..],
        &["symbols", "src/app.py"],
        &["tokens", "src/app.py"],
    ] {
        let out = p.run(args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.contains("ctxcurate.toml:1:") && err.contains("reading with the default settings"),
            "{args:?}: {err}"
        );
        assert!(!stdout(&out).is_empty(), "{args:?}");
    }
    let out = p.run(&["build"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    // Nothing was written over the broken file.
    assert_eq!(p.read("ctxcurate.toml"), "[project\nmax_file_size = 5\n");
}
