//! Round eighteen of the secret shapes through the real binary: passwords
//! people choose (`Summer2024`, `Welcome1!`, `P@ssw0rd2024`) under a
//! password's name in a shell script, YAML, Python, JSON and a compose
//! file, each refused by `build` with its line, never echoing the secret.
//! Placeholders, variables, calls and names that are not a password's
//! build.

use crate::common;

use common::{Project, stderr};

/// Each file holds one chosen password, on its line `line`.
fn chosen() -> Vec<(&'static str, String, usize)> {
    vec![
        ("deploy.sh", "#!/bin/sh\nDB_PASSWORD=Summer2024\n".into(), 2),
        ("config.yaml", "db:\n  password: P@ssw0rd2024\n".into(), 2),
        ("settings.py", "DEBUG = False\nPASSWORD = \"Welcome1!\"\n".into(), 2),
        ("app.json", "{\n  \"password\": \"Welcome1!\"\n}\n".into(), 2),
        (
            "compose.yaml",
            "services:\n  db:\n    environment:\n      - POSTGRES_PASSWORD=Summer2024\n".into(),
            4,
        ),
    ]
}

#[test]
fn round_eighteen_secret_shapes_refuse_the_build() {
    for (name, text, line) in chosen() {
        common::assert_build_refuses_planted(name, &text, line);
    }
}

#[test]
fn round_eighteen_near_misses_build() {
    let p = Project::fixture();
    p.write(
        "config.yaml",
        "db:\n  password: changeme\n  user_password: <password>\n  admin_password: ${ADMIN_PASSWORD}\n\
         \x20 api_key: Summer2024\n  secret_name: Summer2024\n",
    );
    p.write(
        "settings.py",
        "import getpass\nPASSWORD = getpass.getpass()\nDB_PASSWORD = None\nfmt = {\"password\": \"%(password)s\"}\n\
         DEFAULT = \"Password123\"\npassword = \"your_password_here\"\n",
    );
    p.ok(&["add", "config.yaml", "settings.py"]);
    let out = p.run(&["build", "-q"]);
    assert!(out.status.success(), "{}", stderr(&out));
}
