//! Planted secrets in a project: each is found in every view mode that
//! still shows it, whole or cut short, named by the file's own line (not the view's); the
//! discussion and the screenshot paths are scanned too; `build` refuses
//! naming file and line, in plain and packed builds.

use crate::common;
mod shapes;

use std::path::Path;

use common::{Project, stderr, stdout};
use ctxcurate::core::compose::{self, ComposeOptions};
use ctxcurate::core::model::{DiscussionEntry, FileItem, Preset, Settings, ViewMode};
use ctxcurate::core::secrets::{self, Finding, Place, Scanner};
use ctxcurate::core::sources::{Codebase, Sources};

const GH_TOKEN: &str = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";

/// A JWT as services issue them: a few hundred characters.
fn long_jwt() -> String {
    let payload =
        "c3ViIjoiMTIzNDU2Nzg5MCIsIm5hbWUiOiJKb2huIERvZSIsImlhdCI6MTUxNjIzOTAyMn0".repeat(8);
    format!(
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ{payload}.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
    )
}

/// `(file line, secret)` of each planted secret in `settings_py()`.
fn planted() -> Vec<(usize, String)> {
    vec![
        (8, "Zq8Lm3Xv9Kp2Rt7W".into()),
        (12, "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQ3kLmP9aB".into()),
        (13, "hU8$kq*2Lm%Z9<pXv".into()),
        (14, "Test-Xq9!vR2#mK".into()),
        (15, long_jwt()),
        (16, "4f9a1c7e2b8d6a0f3e5c9b1d7a2e8f4c".into()),
    ]
}

fn settings_py() -> String {
    let jwt = long_jwt();
    format!(
        "\"\"\"Settings of the service.\"\"\"

import os


def load():
    \"\"\"Read the settings.\"\"\"
    password = \"Zq8Lm3Xv9Kp2Rt7W\"
    return password


AWS_SECRET_ACCESS_KEY = \"wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQ3kLmP9aB\"
DB_PASSWORD = \"hU8$kq*2Lm%Z9<pXv\"
SMTP_PASSWORD = \"Test-Xq9!vR2#mK\"
SESSION = \"{jwt}\"
HEADERS = {{\"Authorization\": \"Bearer 4f9a1c7e2b8d6a0f3e5c9b1d7a2e8f4c\"}}
"
    )
}

const PPK: &str = "\
PuTTY-User-Key-File-3: ssh-ed25519
Encryption: none
Comment: deploy@build
Public-Lines: 2
AAAAC3NzaC1lZDI1NTE5AAAAIOq0Jx1mN8pYzW4kB7vQ2rT5sL9dF3gH6jK1cV0bX8nE
Private-Lines: 1
AAAAIFqT8mZ2xLp7Rt4vW9cK3nB6yH1jD5gF0sQ8eA4uI7oP
Private-MAC: 6f1c2e9a0b8d7c4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e
";

const KUBECONFIG: &str = "\
apiVersion: v1
kind: Config
users:
- name: admin
  user:
    client-key-data: LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlFcEFJQkFBS0NBUUVB
";

fn scan(root: &Path, preset: &Preset) -> (compose::Composition, Vec<Finding>) {
    // The test's presets are the user's own: explicit entries to
    // credential files are read (see `core::trust::entries`).
    let opts = ComposeOptions {
        consent: ctxcurate::core::trust::entries::EntryConsent::own(),
        ..ComposeOptions::from_settings(&Settings::default())
    };
    let cache = Sources::new();
    let c = compose::compose_with(&Codebase::new(root, &cache), preset, &opts);
    let findings =
        Scanner::new(&Codebase::new(root, &cache)).composition(&c, preset, opts.max_messages);
    (c, findings)
}

fn file_lines(findings: &[Finding], path: &str) -> Vec<usize> {
    findings
        .iter()
        .filter_map(|f| match &f.place {
            Place::File { path: p, line } if p == path => Some(*line),
            _ => None,
        })
        .collect()
}

#[test]
fn planted_secrets_are_found_at_the_files_own_lines_in_every_mode() {
    let p = Project::empty();
    p.write("app/settings.py", &settings_py());
    let mut shown_somewhere_shifted = false;
    for mode in [
        ViewMode::Full,
        ViewMode::Skeleton,
        ViewMode::Masked,
        ViewMode::Summary,
        ViewMode::Outline,
    ] {
        let mut item = FileItem::new("app/settings.py");
        item.view_mode = mode;
        let preset = Preset {
            files: vec![item],
            ..Preset::default()
        };
        let (c, findings) = scan(p.root(), &preset);
        let view = &c.files[0].text;
        // Where the line survives in the view, it is found at its own
        // line; so is a secret the view cuts short (the summary shows the
        // JWT's first hundred characters).
        let want: Vec<usize> = planted()
            .into_iter()
            .filter(|(_, secret)| view.contains(&secret[..secret.len().min(16)]))
            .map(|(line, _)| line)
            .collect();
        eprintln!("{mode} view shows the secrets of lines {want:?}");
        assert_eq!(
            file_lines(&findings, "app/settings.py"),
            want,
            "{mode} view:\n{view}\nfindings: {findings:#?}"
        );
        assert_eq!(findings.len(), want.len(), "{mode}: {findings:#?}");
        if mode == ViewMode::Full {
            assert_eq!(want, [8, 12, 13, 14, 15, 16]);
        }
        if mode == ViewMode::Skeleton {
            // The body is gone, the module's assignments stay.
            assert_eq!(want, [12, 13, 14, 15, 16], "{view}");
        }
        // The view's own numbering differs from the file's.
        let view_line = view
            .lines()
            .position(|l| l.contains("AWS_SECRET_ACCESS_KEY"))
            .map(|i| i + 1);
        shown_somewhere_shifted |= view_line.is_some_and(|l| l != 12);
    }
    assert!(
        shown_somewhere_shifted,
        "no view shifted the lines: the test proves nothing"
    );
}

#[test]
fn key_files_and_configs_are_found() {
    let p = Project::empty();
    p.write("deploy/server.ppk", PPK);
    p.write("deploy/cluster.yaml", KUBECONFIG);
    p.write(".env", "DEBUG=1\nDB_PASSWORD=hU8$kq*2Lm%Z9<pXv\n");
    // `**` leaves the .ppk and the .env out; named, they are scanned.
    let glob = Preset {
        files: vec![FileItem::new("**")],
        ..Preset::default()
    };
    let (c, findings) = scan(p.root(), &glob);
    let paths: Vec<&str> = c.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, ["deploy/cluster.yaml"]);
    assert_eq!(file_lines(&findings, "deploy/cluster.yaml"), [6]);
    let named = Preset {
        files: ["deploy/server.ppk", ".env"].map(FileItem::new).to_vec(),
        ..Preset::default()
    };
    let (_, findings) = scan(p.root(), &named);
    assert_eq!(file_lines(&findings, "deploy/server.ppk"), [6]);
    assert_eq!(file_lines(&findings, ".env"), [2]);
}

#[test]
fn the_discussion_and_the_screenshot_paths_are_scanned() {
    let p = Project::empty();
    p.write("a.py", "x = 1\n");
    let preset = Preset {
        files: vec![FileItem::new("a.py")],
        screenshots: vec![format!("shots/{GH_TOKEN}.png")],
        discussion: vec![
            DiscussionEntry {
                role: "User".into(),
                content: "It fails.".into(),
                extra: Default::default(),
            },
            DiscussionEntry {
                role: "User".into(),
                content: format!(
                    "Try with this:\ncurl -H \"Authorization: Bearer 4f9a1c7e2b8d6a0f3e5c9b1d7a2e8f4c\" {}",
                    "https://api"
                ),
                extra: Default::default(),
            },
        ],
        ..Preset::default()
    };
    let (_, findings) = scan(p.root(), &preset);
    let places: Vec<String> = findings.iter().map(|f| f.place.to_string()).collect();
    assert_eq!(places, ["screenshot 1", "discussion message 2, line 2"]);
    let shown = findings[1].to_string();
    assert_eq!(
        shown,
        "discussion message 2, line 2: Bearer token 4f9a…(32 chars)"
    );
}

#[test]
fn build_refuses_naming_the_files_line_in_any_mode() {
    let p = Project::fixture();
    p.write("app/settings.py", &settings_py());
    p.ok(&["add", "src/app.py", "app/settings.py"]);
    p.ok(&["set", "app/settings.py", "--mode", "skeleton"]);
    let out = p.run(&["build"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    for want in [
        "likely secret: app/settings.py:12: AWS secret key AWS_SECRET_ACCESS_KEY = wJal…(40 chars)",
        "likely secret: app/settings.py:13: secret-looking assignment DB_PASSWORD = hU…(17 chars)",
        "likely secret: app/settings.py:14: secret-looking assignment SMTP_PASSWORD = Te…(15 chars)",
        "likely secret: app/settings.py:15: JSON Web Token eyJh…",
        "likely secret: app/settings.py:16: Bearer token",
    ] {
        assert!(err.contains(want), "missing {want:?} in:\n{err}");
    }
    // The body's password is not in the skeleton: not reported.
    assert!(!err.contains("app/settings.py:8"), "{err}");
    assert!(err.contains("5 likely secrets"), "{err}");
    for (_, secret) in planted() {
        assert!(!err.contains(&secret), "a secret is echoed: {err}");
    }
    assert!(stdout(&out).is_empty());
}

#[test]
fn a_packed_build_scans_the_discussion() {
    let p = Project::fixture();
    p.write(
        "ctxcurate.toml",
        &format!(
            "[presets.default]\nfiles = [\"src/app.py\"]\n\n[[presets.default.discussion]]\nrole = \"User\"\ncontent = \"use {GH_TOKEN}\"\n"
        ),
    );
    let out = p.run(&["build", "--target", "src/app.py"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out)
            .contains("likely secret: discussion message 1, line 1: GitHub token ghp_…(40 chars)"),
        "{}",
        stderr(&out)
    );
    let out = p.run(&["build", "--target", "src/app.py", "--allow-secrets"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains(GH_TOKEN));
}

#[test]
fn the_tui_asks_naming_the_files_line_and_the_discussion() {
    let p = Project::empty();
    p.write("app/settings.py", &settings_py());
    p.write(
        "ctxcurate.toml",
        &format!(
            "[presets.default]\n\n[[presets.default.files]]\npath = \"app/settings.py\"\nview_mode = \"skeleton\"\n\n[[presets.default.discussion]]\nrole = \"User\"\ncontent = \"use {GH_TOKEN}\"\n"
        ),
    );
    let mut h = ctxcurate::tui::run::harness::Harness::open(p.root(), None, 140, 30).expect("open");
    h.key("y");
    assert!(h.copied.is_empty(), "nothing copied before the answer");
    let screen = h.screen();
    assert!(screen.contains("6 likely secrets"), "{screen}");
    assert!(
        screen
            .contains("app/settings.py:12: AWS secret key AWS_SECRET_ACCESS_KEY = wJal…(40 chars)"),
        "{screen}"
    );
    assert!(
        screen.contains("discussion message 1, line 1: GitHub token ghp_…(40 chars)"),
        "{screen}"
    );
    // The copy key does not answer; `c`, once the findings could be read,
    // does.
    h.key("y");
    assert!(h.copied.is_empty(), "y does not confirm");
    h.wait(500);
    h.key("c");
    assert_eq!(h.copied.len(), 1);
    assert!(h.copied[0].contains(GH_TOKEN), "copied as composed");
}

#[test]
fn xml_output_gives_the_same_findings() {
    let p = Project::empty();
    p.write("app/settings.py", &settings_py());
    let preset = Preset {
        files: vec![FileItem::new("app/settings.py")],
        ..Preset::default()
    };
    let (_, markdown) = scan(p.root(), &preset);
    let mut opts = ComposeOptions::from_settings(&Settings::default());
    opts.format = ctxcurate::core::model::Format::Xml;
    let cache = Sources::new();
    let c = compose::compose_with(&Codebase::new(p.root(), &cache), &preset, &opts);
    assert!(c.text.starts_with("<documents>"), "{}", c.text);
    let xml =
        Scanner::new(&Codebase::new(p.root(), &cache)).composition(&c, &preset, opts.max_messages);
    assert_eq!(xml, markdown);
    assert_eq!(markdown.len(), 6);
}

#[test]
fn a_secret_in_the_repo_map_names_the_files_line() {
    let p = Project::empty();
    p.write("app.py", "def main():\n    return 1\n");
    p.write("conf/__init__.py", "");
    p.write(
        "conf/settings.py",
        "\"\"\"Settings.\"\"\"\n\nimport os\n\n\ndef load():\n    return 1\n\n\nAWS_SECRET_ACCESS_KEY = \"wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQ3kLmP9aB\"\n",
    );
    p.write(
        "ctxcurate.toml",
        "[presets.default]\nfiles = [\"app.py\"]\n",
    );
    // The map's file is one discovery brought in (docs/ARCHITECTURE.md, "Discovery"): it is held
    // and named, not a reason to refuse the build.
    let out = p.run(&["build", "--target", "app.py"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "held 1 discovered file: likely secret at conf/settings.py:10 (AWS secret key)"
        ),
        "{}",
        stderr(&out)
    );
    assert!(!stdout(&out).contains("wJal"), "{}", stdout(&out));
    assert!(
        !stdout(&out).contains("conf/settings.py"),
        "{}",
        stdout(&out)
    );
    // The same secret in a file the user chose still refuses.
    let out = p.run(&["build", "--target", "conf/settings.py"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("likely secret: conf/settings.py:10"),
        "{}",
        stderr(&out)
    );
}

/// Recall on realistic shapes (issue 22 §5): every planted credential is
/// found, on its own line. Prints how many were found before failing, so
/// a run on older code measures its recall.
#[test]
fn every_realistic_shape_is_found() {
    let shapes = shapes::all();
    assert!(shapes.len() >= 60, "only {} shapes", shapes.len());
    let mut missed = Vec::new();
    for s in &shapes {
        let lines: Vec<usize> = secrets::scan(&s.text).iter().map(|h| h.line).collect();
        if !lines.contains(&s.line) {
            missed.push(format!(
                "{} (found on lines {lines:?}, want {})",
                s.name, s.line
            ));
        }
    }
    eprintln!(
        "recall: {} of {} shapes found",
        shapes.len() - missed.len(),
        shapes.len()
    );
    assert!(missed.is_empty(), "missed:\n{}", missed.join("\n"));
}

/// Django's `template/base.py` docstring (issue 22 §5): a doctest that
/// assigns a template expression to `token` made every full, skeleton and
/// packed build of Django exit 1. The value is a filter chain closed by
/// its own quote, not a credential.
const DJANGO_TEMPLATE: &str = r#""""Template parsing."""

from .exceptions import TemplateSyntaxError


class FilterExpression:
    """
    Parse a variable token and its optional filters (all as a single string),
    and return a list of tuples of the filter name and arguments.
    Sample::

        >>> token = 'variable|default:"Default value"|date:"Y-m-d"'
        >>> p = Parser('')
        >>> fe = FilterExpression(token, p)
        >>> len(fe.filters)
        2
    """

    def __init__(self, token, parser):
        self.token = token
"#;

#[test]
fn djangos_template_docstring_builds_in_every_mode() {
    let p = Project::empty();
    p.write("template/__init__.py", "");
    p.write(
        "template/exceptions.py",
        "class TemplateSyntaxError(Exception):\n    pass\n",
    );
    p.write("template/base.py", DJANGO_TEMPLATE);
    p.ok(&["add", "template/base.py"]);
    let full = p.run(&["build"]);
    assert!(full.status.success(), "full: {}", stderr(&full));
    assert!(stdout(&full).contains("variable|default"));
    p.ok(&["set", "template/base.py", "--mode", "skeleton"]);
    let skeleton = p.run(&["build"]);
    assert!(skeleton.status.success(), "skeleton: {}", stderr(&skeleton));
    assert!(
        stdout(&skeleton).contains("variable|default"),
        "{}",
        stdout(&skeleton)
    );
    let packed = p.run(&["build", "--target", "template/base.py"]);
    assert!(packed.status.success(), "packed: {}", stderr(&packed));
}

/// The same build refuses once the docstring holds a real-looking value
/// in matching quotes: the fix is in what makes a value, not a pass for
/// doctests.
#[test]
fn a_credential_in_a_doctest_still_blocks() {
    let p = Project::empty();
    let text = DJANGO_TEMPLATE.replace(
        r#"'variable|default:"Default value"|date:"Y-m-d"'"#,
        "'Zq8Lm3Xv9Kp2Rt7W'",
    );
    p.write("template/base.py", &text);
    p.ok(&["add", "template/base.py"]);
    let out = p.run(&["build"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out)
            .contains("likely secret: template/base.py:12: secret-looking assignment token"),
        "{}",
        stderr(&out)
    );
}
