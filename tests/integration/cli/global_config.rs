//! `CTXCURATE_CONFIG`: `/dev/null` or an empty value runs with no global
//! config, silently, even where the XDG config says otherwise.

use crate::common;

use common::{Project, stderr, stdout};

#[test]
fn dev_null_or_empty_config_means_no_global_config_and_no_warning() {
    let p = Project::fixture();
    p.ok(&["add", "src/app.py"]);
    // An XDG global config that would change the output: it must not apply.
    std::fs::create_dir_all(p.global_config().parent().unwrap()).unwrap();
    std::fs::write(p.global_config(), "[project]\nformat = \"xml\"\n").unwrap();
    let xdg = p.run(&["build"]);
    assert!(stdout(&xdg).contains("<documents>"), "{}", stdout(&xdg));
    for off in ["/dev/null", ""] {
        let out = p
            .cmd(&["build"])
            .env("CTXCURATE_CONFIG", off)
            .output()
            .unwrap();
        assert!(out.status.success(), "{off:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(
            !err.contains("warning") && !err.contains("/dev/null") && !err.contains("config"),
            "{off:?}: no warning at all: {err}"
        );
        let text = stdout(&out);
        assert!(
            text.contains("### src/app.py") && !text.contains("<documents>"),
            "{off:?}: the defaults apply, not the XDG file: {text}"
        );
    }
}
