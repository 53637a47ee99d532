//! No key traps, end to end in tmux: `/progress` typed in the symbols
//! pane filters the symbols (its letters run no keys: it once opened the
//! picker and renamed the preset), and Space on a `v` + `G` selection
//! includes all of it and ends the selection.

use crate::common;

use common::Project;
use common::tmux::Tmux;

#[test]
fn the_symbols_filter_and_space_on_a_selection_in_tmux() {
    let Some(tmux) = Tmux::new("keys") else {
        return;
    };
    let p = Project::fixture();
    tmux.start_app(&p);
    tmux.wait("the first frame", |t| t.screen().contains("Files 4"));
    // app.py's symbols, focused.
    tmux.keys(&["j", "l", "j", "Tab"]);
    tmux.wait("app.py's symbols", |t| t.screen().contains("meth _cache"));
    tmux.keys(&["/", "p", "r", "o", "g", "r", "e", "s", "s"]);
    tmux.wait("the filter typed", |t| {
        let s = t.screen();
        s.contains("/progress▏") && s.contains("no symbol matches /progress")
    });
    tmux.keys(&["Enter"]);
    tmux.wait("the filter kept", |t| {
        let s = t.screen();
        !s.contains("/progress▏") && s.contains("Symbols · app.py /progress")
    });
    assert!(!tmux.screen().contains("Presets"), "no picker opened");
    // Esc clears it; a filter that matches: the mask keys act on it.
    tmux.keys(&["Escape", "/", "r", "u", "n", "Enter", "d"]);
    tmux.wait("run masked def", |t| {
        let s = t.screen();
        s.contains("App.run = def") && !s.contains("meth _cache")
    });
    // Back in the tree: v, G, Space includes everything selected.
    tmux.keys(&["Escape", "Tab", "Tab", "g", "v", "G"]);
    tmux.wait("the selection and its keys", |t| {
        t.screen().contains("5 selected · Space include")
    });
    tmux.keys(&["Space"]);
    tmux.wait("the selection included", |t| {
        t.screen().contains("included the selection (4 files)")
    });
    // The selection ended: the next v starts one.
    tmux.keys(&["v"]);
    tmux.wait("a new selection", |t| t.screen().contains("1 selected"));
    tmux.keys(&["Escape", "q"]);
    tmux.wait("the app to quit", |t| !t.running());
    let saved = p.read("ctxcurate.toml");
    // The selection's three entries, and app.py's own (its mask).
    assert_eq!(
        saved.matches("[[presets.default.files]]").count(),
        4,
        "{saved}"
    );
    assert!(saved.contains("\"App.run\" = \"def\""), "{saved}");
    for path in ["docs/**", "src/**", "logo.bin"] {
        assert!(saved.contains(&format!("path = \"{path}\"")), "{saved}");
    }
    assert!(!saved.contains("defaultogress"), "{saved}");
}
