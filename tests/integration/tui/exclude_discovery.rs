//! The TUI's discovery proposal respects the preset's exclusions: a file
//! the user excluded is not proposed (nor packed into the previewed text)
//! when a target imports it, and the status line says one was left out.
//! Driven by keys through the real keymap.

use crate::common;

use common::Project;
use ctxcurate::tui::run::harness::Harness;

#[test]
fn an_excluded_import_is_neither_proposed_nor_packed() {
    let p = Project::empty();
    p.write(
        "app.py",
        "from pkg import vault\nfrom pkg import util\n\nvault.open() + util.helper()\n",
    );
    p.write("pkg/__init__.py", "");
    p.write(
        "pkg/vault.py",
        "VAULT_MARKER = 1\n\ndef open():\n    return VAULT_MARKER\n",
    );
    p.write("pkg/util.py", "def helper():\n    return 1\n");
    p.write(
        "ctxcurate.toml",
        "[presets.default]\nexclude = [\"pkg/vault.py\"]\nrepo_map = 500\n",
    );
    let mut h = Harness::open(p.root(), None, 160, 16).expect("open");
    h.goto("app.py");
    h.keys("*");
    h.keys("i");
    let discovery = h.state.discovery.as_ref().expect("a discovery");
    let proposed: Vec<&str> = discovery.proposed.iter().map(|(p, _)| p.as_str()).collect();
    assert!(proposed.contains(&"pkg/util.py"), "{proposed:?}");
    assert!(!proposed.contains(&"pkg/vault.py"), "{proposed:?}");
    assert_eq!(discovery.stats.excluded, ["pkg/vault.py"]);
    // The preview, the gauge and `y` take the packed text: not there either.
    let text = h.composed_text();
    assert!(!text.contains("VAULT_MARKER"), "{text}");
    assert!(!text.contains("pkg/vault.py"), "{text}");
    let (status, _) = h.state.status.clone().expect("a status");
    assert!(
        status.contains("1 file the preset excludes left out"),
        "{status}"
    );
}
