//! Config values that slipped the scanner in round 3, through the real
//! binary: `.env-production` and npm's `npmrc` copies are never pulled in
//! by a glob, and the user's own `.npmrc` (added by name) and a
//! docker-compose list entry are refused for what they hold.

use crate::common;

use common::{Project, stderr};

#[test]
fn credential_files_by_other_names_are_not_pulled_in_by_a_glob() {
    let p = Project::empty();
    p.write("app.py", "print('hi')\n");
    p.write(".env-production", "POSTGRES_PASSWORD=Zq8vN2xR7kLp4s\n");
    p.write("docker/npmrc", "_auth=ZGVwbG95OlpxOHZOMnhSN2s=\n");
    p.write(
        ".npmrc.ci",
        "//registry.npmjs.org/:_authToken=5f3e9a2c-8b1d-4e7f-a6c3-0d9b2e4f7a81\n",
    );
    p.write(
        "ctxcurate.toml",
        "[[presets.default.files]]\npath = \"**\"\n",
    );
    let text = p.ok(&["build"]);
    assert!(text.contains("### app.py"), "{text}");
    for name in [".env-production", "docker/npmrc", ".npmrc.ci"] {
        assert!(!text.contains(name), "{name} pulled in: {text}");
    }
}

#[test]
fn the_users_own_npmrc_and_a_compose_list_entry_are_refused() {
    let p = Project::empty();
    p.write(
        ".npmrc",
        "//registry.npmjs.org/:_authToken=5f3e9a2c-8b1d-4e7f-a6c3-0d9b2e4f7a81\n",
    );
    p.write(
        "docker-compose.yml",
        "services:\n  db:\n    image: postgres\n    environment:\n      - POSTGRES_PASSWORD=Zq8vN2xR7kLp4s\n",
    );
    p.ok(&["add", ".npmrc"]);
    let out = p.run(&["build"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out)
            .contains("likely secret: .npmrc:1: npm credentials _authToken = 5f3e…(36 chars)"),
        "{}",
        stderr(&out)
    );
    p.ok(&["rm", ".npmrc"]);
    p.ok(&["add", "docker-compose.yml"]);
    let out = p.run(&["build"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("likely secret: docker-compose.yml:5: secret-looking assignment POSTGRES_PASSWORD = Zq…(14 chars)"),
        "{}",
        stderr(&out)
    );
}
