//! Key bindings: the embedded `config/keymap.toml` with the user's
//! `[keymap.<context>]` overrides on top. A user file names only the keys
//! it changes; a bad entry is reported and skipped, and the defaults keep
//! working.

use std::collections::HashMap;
use std::fmt;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::tui::input::action::Action;

/// The embedded default bindings.
pub const DEFAULT_KEYMAP: &str = include_str!("../../../config/keymap.toml");

/// Where a key is pressed: a pane or an overlay.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Context {
    Global,
    Tree,
    Symbols,
    Preview,
    Picker,
    /// A yes/no question (copying a text with likely secrets).
    Confirm,
    /// The tokens overlay (`b`).
    Tokens,
    /// The curation history's list (`U`).
    History,
    /// The file finder (`Ctrl-p`): only keys that are not text (a typed
    /// character always goes to its query).
    Finder,
}

impl Context {
    pub const ALL: [Context; 9] = [
        Context::Global,
        Context::Tree,
        Context::Symbols,
        Context::Preview,
        Context::Picker,
        Context::Confirm,
        Context::Tokens,
        Context::History,
        Context::Finder,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Context::Global => "global",
            Context::Tree => "tree",
            Context::Symbols => "symbols",
            Context::Preview => "preview",
            Context::Picker => "picker",
            Context::Confirm => "confirm",
            Context::Tokens => "tokens",
            Context::History => "history",
            Context::Finder => "finder",
        }
    }

    fn from_name(s: &str) -> Option<Context> {
        Context::ALL.into_iter().find(|c| c.name() == s)
    }
}

/// A key with its modifiers, normalised so `G` and `shift-g` are one key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Key {
    pub code: KeyCode,
    pub ctrl: bool,
    pub alt: bool,
}

impl Key {
    /// The key of a terminal event.
    pub fn from_event(ev: &KeyEvent) -> Key {
        let code = match ev.code {
            // Shift+letter arrives as the upper-case char (and sometimes
            // still with SHIFT set): the char alone carries the case.
            KeyCode::Char(c) if ev.modifiers.contains(KeyModifiers::SHIFT) => {
                KeyCode::Char(c.to_ascii_uppercase())
            }
            other => other,
        };
        Key {
            code,
            ctrl: ev.modifiers.contains(KeyModifiers::CONTROL),
            alt: ev.modifiers.contains(KeyModifiers::ALT),
        }
    }

    /// Parse a key name like `ctrl-r`, `G`, `space`, `shift-tab`.
    pub fn parse(spec: &str) -> Result<Key, String> {
        let mut ctrl = false;
        let mut alt = false;
        let mut shift = false;
        let mut rest = spec;
        loop {
            if let Some(r) = rest.strip_prefix("ctrl-") {
                ctrl = true;
                rest = r;
            } else if let Some(r) = rest.strip_prefix("alt-") {
                alt = true;
                rest = r;
            } else if let Some(r) = rest.strip_prefix("shift-") {
                shift = true;
                rest = r;
            } else {
                break;
            }
        }
        let code = match rest {
            "space" => KeyCode::Char(' '),
            "enter" | "return" => KeyCode::Enter,
            "esc" | "escape" => KeyCode::Esc,
            "tab" if shift => KeyCode::BackTab,
            "tab" => KeyCode::Tab,
            "backtab" => KeyCode::BackTab,
            "backspace" => KeyCode::Backspace,
            "delete" | "del" => KeyCode::Delete,
            "up" => KeyCode::Up,
            "down" => KeyCode::Down,
            "left" => KeyCode::Left,
            "right" => KeyCode::Right,
            "pageup" => KeyCode::PageUp,
            "pagedown" => KeyCode::PageDown,
            "home" => KeyCode::Home,
            "end" => KeyCode::End,
            f if f.len() >= 2 && f.starts_with('f') && f[1..].parse::<u8>().is_ok() => {
                let n: u8 = f[1..].parse().unwrap_or(0);
                if !(1..=12).contains(&n) {
                    return Err(format!("unknown key `{spec}`"));
                }
                KeyCode::F(n)
            }
            s if s.chars().count() == 1 => {
                let c = s.chars().next().unwrap_or(' ');
                KeyCode::Char(if shift { c.to_ascii_uppercase() } else { c })
            }
            _ => return Err(format!("unknown key `{spec}`")),
        };
        Ok(Key { code, ctrl, alt })
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.ctrl {
            f.write_str("Ctrl-")?;
        }
        if self.alt {
            f.write_str("Alt-")?;
        }
        match self.code {
            KeyCode::Char(' ') => f.write_str("Space"),
            KeyCode::Char(c) => write!(f, "{c}"),
            KeyCode::Enter => f.write_str("Enter"),
            KeyCode::Esc => f.write_str("Esc"),
            KeyCode::Tab => f.write_str("Tab"),
            KeyCode::BackTab => f.write_str("Shift-Tab"),
            KeyCode::Backspace => f.write_str("Backspace"),
            KeyCode::Delete => f.write_str("Del"),
            KeyCode::Up => f.write_str("↑"),
            KeyCode::Down => f.write_str("↓"),
            KeyCode::Left => f.write_str("←"),
            KeyCode::Right => f.write_str("→"),
            KeyCode::PageUp => f.write_str("PgUp"),
            KeyCode::PageDown => f.write_str("PgDn"),
            KeyCode::Home => f.write_str("Home"),
            KeyCode::End => f.write_str("End"),
            KeyCode::F(n) => write!(f, "F{n}"),
            other => write!(f, "{other:?}"),
        }
    }
}

/// Global actions the tokens overlay takes besides the overlays' own.
const TOKENS_PASSTHROUGH: &[Action] = &[
    Action::NextMode,
    Action::PrevMode,
    Action::Undo,
    Action::Redo,
    Action::TokenMap,
];

/// Actions an overlay lets through from `[global]`: movement and help.
const OVERLAY_PASSTHROUGH: &[Action] = &[
    Action::Up,
    Action::Down,
    Action::PageUp,
    Action::PageDown,
    Action::Top,
    Action::Bottom,
    Action::Help,
    Action::Cancel,
];

/// The resolved bindings.
#[derive(Debug, Clone, Default)]
pub struct Keymap {
    bindings: HashMap<Context, HashMap<Key, Action>>,
}

impl Keymap {
    /// The embedded defaults with `user` (the `[keymap]` table of the
    /// global config, if any) on top; problems with the user's entries are
    /// returned, and those entries skipped.
    pub fn load(user: Option<&toml::Value>) -> (Keymap, Vec<String>) {
        let mut map = Keymap::default();
        let mut problems = Vec::new();
        match toml::from_str::<toml::Value>(DEFAULT_KEYMAP) {
            Ok(defaults) => map.apply(&defaults, "built-in keymap", &mut problems),
            Err(e) => problems.push(format!("built-in keymap: {e}")),
        }
        if let Some(user) = user {
            map.apply(user, "keymap", &mut problems);
        }
        map.keep_copy_keys_off_the_confirm(&mut problems);
        (map, problems)
    }

    /// A key that starts a copy must not also answer the question a copy
    /// of likely secrets asks: with `y` on both, the vim habit `yy` sends
    /// the secrets before the question has been read. Such a binding in
    /// `[confirm]` is reported and dropped, whoever made it.
    fn keep_copy_keys_off_the_confirm(&mut self, problems: &mut Vec<String>) {
        let copy_keys: Vec<Key> = [Action::Yank, Action::YankFile]
            .into_iter()
            .flat_map(|a| self.keys_for(a))
            .map(|(_, key)| key)
            .collect();
        let Some(confirm) = self.bindings.get_mut(&Context::Confirm) else {
            return;
        };
        for key in copy_keys {
            if confirm.get(&key) == Some(&Action::Confirm) {
                confirm.remove(&key);
                problems.push(format!(
                    "keymap.confirm: `{key}` also starts a copy, so it cannot confirm \
                     copying likely secrets (pick another key)"
                ));
            }
        }
    }

    /// The built-in defaults only.
    pub fn defaults() -> Keymap {
        Keymap::load(None).0
    }

    fn apply(&mut self, table: &toml::Value, origin: &str, problems: &mut Vec<String>) {
        let Some(table) = table.as_table() else {
            problems.push(format!("{origin}: expected a table of contexts"));
            return;
        };
        for (ctx_name, keys) in table {
            let Some(ctx) = Context::from_name(ctx_name) else {
                problems.push(format!("{origin}: unknown context `{ctx_name}`"));
                continue;
            };
            let Some(keys) = keys.as_table() else {
                problems.push(format!(
                    "{origin}.{ctx_name}: expected key = \"action\" pairs"
                ));
                continue;
            };
            for (spec, action) in keys {
                let key = match Key::parse(spec) {
                    Ok(k) => k,
                    Err(e) => {
                        problems.push(format!("{origin}.{ctx_name}: {e}"));
                        continue;
                    }
                };
                let Some(name) = action.as_str() else {
                    problems.push(format!(
                        "{origin}.{ctx_name}.{spec}: expected an action name"
                    ));
                    continue;
                };
                let slot = self.bindings.entry(ctx).or_default();
                if name == "none" || name.is_empty() {
                    slot.remove(&key);
                    continue;
                }
                match Action::from_name(name) {
                    Some(a) => {
                        slot.insert(key, a);
                    }
                    None => problems.push(format!(
                        "{origin}.{ctx_name}.{spec}: unknown action `{name}`"
                    )),
                }
            }
        }
    }

    /// The action for `key` in `ctx`: the context's own binding, else the
    /// global one (for overlays only movement, help and cancel).
    pub fn lookup(&self, ctx: Context, key: Key) -> Option<Action> {
        if let Some(a) = self.bindings.get(&ctx).and_then(|m| m.get(&key)) {
            return Some(*a);
        }
        let global = *self.bindings.get(&Context::Global)?.get(&key)?;
        // The tokens overlay edits the file under its cursor with the
        // tree's own keys.
        if ctx == Context::Tokens && TOKENS_PASSTHROUGH.contains(&global) {
            return Some(global);
        }
        // The finder takes nothing from `[global]`: its letters are text.
        if ctx == Context::Finder {
            return None;
        }
        if matches!(
            ctx,
            Context::Picker | Context::Confirm | Context::Tokens | Context::History
        ) && !OVERLAY_PASSTHROUGH.contains(&global)
        {
            return None;
        }
        Some(global)
    }

    /// Every key bound to `action`, by context, sorted for display.
    pub fn keys_for(&self, action: Action) -> Vec<(Context, Key)> {
        let mut out: Vec<(Context, Key)> = self
            .bindings
            .iter()
            .flat_map(|(ctx, m)| {
                m.iter()
                    .filter(move |(_, a)| **a == action)
                    .map(move |(k, _)| (*ctx, *k))
            })
            .collect();
        out.sort_by_key(|(ctx, key)| (*ctx, key.to_string()));
        out
    }

    /// The first key bound to `action`, as the status line names it (the
    /// action's name when no key is bound: the user unbound it).
    pub fn key_name(&self, action: Action) -> String {
        self.keys_for(action)
            .first()
            .map_or_else(|| action.name().to_string(), |(_, key)| key.to_string())
    }
}

impl Keymap {
    /// The keys bound to `action` in `ctx`'s own table (not `[global]`).
    pub fn keys_in(&self, ctx: Context, action: Action) -> Vec<Key> {
        self.keys_for(action)
            .into_iter()
            .filter(|(c, _)| *c == ctx)
            .map(|(_, key)| key)
            .collect()
    }

    /// How to answer the question before copying likely secrets, from
    /// the `[confirm]` bindings: `c copies anyway · n / Esc cancel`.
    pub fn confirm_copy_hint(&self) -> String {
        self.confirm_hint("copies anyway")
    }

    /// The keys of a confirm question, for people: what the confirm key
    /// does (`verb`: `copies anyway`) and which keys cancel:
    /// `c copies anyway · n / Esc cancel`.
    pub fn confirm_hint(&self, verb: &str) -> String {
        let join = |keys: Vec<Key>| {
            keys.iter()
                .map(Key::to_string)
                .collect::<Vec<_>>()
                .join(" / ")
        };
        let confirm = self.keys_in(Context::Confirm, Action::Confirm);
        let mut cancel = self.keys_in(Context::Confirm, Action::Cancel);
        for (ctx, key) in self.keys_for(Action::Cancel) {
            if ctx == Context::Global && !cancel.contains(&key) {
                cancel.push(key);
            }
        }
        let copy = if confirm.is_empty() {
            format!("no key {verb} ([keymap.confirm] binds none)")
        } else {
            format!("{} {verb}", join(confirm))
        };
        format!("{copy} · {} cancel", join(cancel))
    }

    /// The keys of `action` for people: one entry per key, naming the
    /// contexts it is bound in (`Enter (preview, picker)`), `-` if none.
    pub fn keys_label(&self, action: Action) -> String {
        // (key, contexts, bound in [global] too)
        let mut grouped: Vec<(String, Vec<&str>, bool)> = Vec::new();
        for (ctx, key) in self.keys_for(action) {
            let key = key.to_string();
            let slot = match grouped.iter().position(|(k, _, _)| *k == key) {
                Some(i) => i,
                None => {
                    grouped.push((key, Vec::new(), false));
                    grouped.len() - 1
                }
            };
            if ctx == Context::Global {
                grouped[slot].2 = true;
            } else {
                grouped[slot].1.push(ctx.name());
            }
        }
        if grouped.is_empty() {
            return "-".to_string();
        }
        grouped
            .into_iter()
            // A key bound globally works everywhere: its pane or overlay
            // bindings to the same action add nothing to say.
            .map(|(key, ctxs, global)| {
                if ctxs.is_empty() || global {
                    key
                } else {
                    format!("{key} ({})", ctxs.join(", "))
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The key table of the README: every action, its keys and its doc.
    pub fn markdown_table(&self) -> String {
        let mut out = String::from("| keys | action | what it does |\n|---|---|---|\n");
        for info in crate::tui::input::action::ACTIONS {
            let keys = self.keys_label(info.action).replace('|', "\\|");
            out.push_str(&format!("| `{keys}` | `{}` | {} |\n", info.name, info.doc));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(spec: &str) -> Key {
        Key::parse(spec).unwrap()
    }

    #[test]
    fn defaults_load_cleanly_and_pane_wins_over_global() {
        let (map, problems) = Keymap::load(None);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(map.lookup(Context::Tree, key("g")), Some(Action::Top));
        // `g` goes to the top in every pane; agg is a key of its own.
        assert_eq!(map.lookup(Context::Symbols, key("g")), Some(Action::Top));
        assert_eq!(
            map.lookup(Context::Symbols, key("O")),
            Some(Action::MaskAgg)
        );
        assert_eq!(map.lookup(Context::Symbols, key("/")), Some(Action::Filter));
        assert_eq!(
            map.lookup(Context::History, key("enter")),
            Some(Action::Confirm)
        );
        assert_eq!(map.lookup(Context::History, key("j")), Some(Action::Down));
        assert_eq!(map.lookup(Context::History, key("y")), None);
        assert_eq!(
            map.lookup(Context::Tree, key("space")),
            Some(Action::ToggleInclude)
        );
        assert_eq!(
            map.lookup(Context::Symbols, key("space")),
            Some(Action::MaskCycle)
        );
        assert_eq!(map.lookup(Context::Tree, key("ctrl-r")), Some(Action::Redo));
        assert_eq!(
            map.lookup(Context::Tree, key("shift-tab")),
            Some(Action::PrevPane)
        );
        assert_eq!(map.lookup(Context::Picker, key("q")), Some(Action::Cancel));
        assert_eq!(map.lookup(Context::Picker, key("j")), Some(Action::Down));
        assert_eq!(map.lookup(Context::Picker, key("y")), None);
    }

    /// The issue's rule, on the defaults: a key means the same in every
    /// pane where it means something. A pane's key that another pane (or
    /// `[global]`, which it would shadow) binds to another action is a
    /// trap (`D` was "selection: masked def" in the tree and "cycle the
    /// default mask" in the symbols pane), unless it is one of these: the
    /// same idea, done as that pane can.
    #[test]
    fn a_key_means_one_thing_in_every_pane() {
        const SAME_IDEA: &[(&str, &str)] = &[
            (
                "/",
                "find: filter a list (tree, symbols), search a text (preview)",
            ),
            ("v", "select a range: of tree rows, of raw-text lines"),
            (
                "Space",
                "flip the row under the cursor: a file in or out, a symbol's mask",
            ),
            (
                "Enter",
                "act on the row: open a folder, confirm or mark a slice in the preview",
            ),
        ];
        let map = Keymap::defaults();
        let panes = [Context::Tree, Context::Symbols, Context::Preview];
        let mut keys: Vec<Key> = panes
            .iter()
            .filter_map(|c| map.bindings.get(c))
            .flat_map(|m| m.keys().copied())
            .collect();
        keys.sort_by_key(|k| k.to_string());
        keys.dedup();
        let mut traps = Vec::new();
        for k in keys {
            let mut meanings: Vec<Action> =
                panes.iter().filter_map(|c| map.lookup(*c, k)).collect();
            meanings.sort_by_key(|a| a.name());
            meanings.dedup();
            let name = k.to_string();
            if meanings.len() > 1 && !SAME_IDEA.iter().any(|(s, _)| *s == name) {
                traps.push(format!("{name}: {meanings:?}"));
            }
        }
        assert!(traps.is_empty(), "keys with two meanings: {traps:?}");
        assert_eq!(map.lookup(Context::Symbols, key("D")), None);
        assert_eq!(
            map.lookup(Context::Symbols, key("=")),
            Some(Action::MaskDefaultCycle)
        );
    }

    #[test]
    fn every_documented_default_key_is_bound() {
        let map = Keymap::defaults();
        for (ctx, spec, action) in [
            (Context::Tree, "q", Action::Quit),
            (Context::Tree, "?", Action::Help),
            (Context::Tree, "v", Action::SelectRange),
            (Context::Tree, "F", Action::BatchFull),
            (Context::Tree, "A", Action::BatchSummary),
            (Context::Tree, "S", Action::BatchSkeleton),
            (Context::Tree, "D", Action::BatchMaskedDef),
            (Context::Tree, "X", Action::BatchRemove),
            (Context::Symbols, "d", Action::MaskDef),
            (Context::Symbols, "s", Action::MaskSig),
            (Context::Symbols, "x", Action::MaskHide),
            (Context::Tree, "y", Action::Yank),
            (Context::Tree, "Y", Action::YankFile),
            (Context::Tree, "p", Action::Presets),
            (Context::Tree, "u", Action::Undo),
            (Context::Tree, "/", Action::Filter),
            (Context::Tree, "t", Action::CycleStrategy),
            (Context::Tree, "T", Action::CycleTokenizer),
            (Context::Tree, "w", Action::WriteOutput),
            (Context::Tree, "m", Action::NextMode),
            (Context::Tree, "M", Action::PrevMode),
            (Context::Tree, "f", Action::ToggleForceFull),
            (Context::Tree, "a", Action::ToggleAggregate),
        ] {
            assert_eq!(map.lookup(ctx, key(spec)), Some(action), "{spec}");
        }
    }

    #[test]
    fn user_overrides_only_what_it_names_and_bad_entries_are_reported() {
        let user: toml::Value = toml::from_str(
            r#"
            [tree]
            "ctrl-a" = "toggle_include"
            space = "none"
            z = "fly"
            "hyper-q" = "quit"
            [nowhere]
            x = "quit"
            "#,
        )
        .unwrap();
        let (map, problems) = Keymap::load(Some(&user));
        assert_eq!(
            map.lookup(Context::Tree, key("ctrl-a")),
            Some(Action::ToggleInclude)
        );
        assert_eq!(map.lookup(Context::Tree, key("space")), None);
        assert_eq!(map.lookup(Context::Tree, key("m")), Some(Action::NextMode));
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(problems.iter().any(|p| p.contains("unknown action `fly`")));
        assert!(problems.iter().any(|p| p.contains("unknown key `hyper-q`")));
        assert!(
            problems
                .iter()
                .any(|p| p.contains("unknown context `nowhere`"))
        );
    }

    /// `yy` must not confirm a copy of secrets: a copy key bound to
    /// `confirm` in `[confirm]` is refused, by default and from a user.
    #[test]
    fn a_copy_key_cannot_confirm_a_copy() {
        let map = Keymap::defaults();
        for spec in ["y", "Y", "enter"] {
            assert_eq!(map.lookup(Context::Confirm, key(spec)), None, "{spec}");
        }
        assert_eq!(
            map.lookup(Context::Confirm, key("c")),
            Some(Action::Confirm)
        );
        // The user's own copy keys may not confirm either.
        let user: toml::Value = toml::from_str(
            r#"
            [confirm]
            y = "confirm"
            Y = "confirm"
            "ctrl-y" = "confirm"
            x = "confirm"
            [global]
            "ctrl-y" = "yank"
            [tree]
            x = "yank_file"
            "#,
        )
        .unwrap();
        let (map, problems) = Keymap::load(Some(&user));
        for spec in ["y", "Y", "ctrl-y", "x"] {
            assert_ne!(
                map.lookup(Context::Confirm, key(spec)),
                Some(Action::Confirm),
                "{spec}"
            );
        }
        assert_eq!(problems.len(), 4, "{problems:?}");
        assert!(problems[0].contains("also starts a copy"), "{problems:?}");
        assert_eq!(map.confirm_copy_hint(), "c copies anyway · n / Esc cancel");
    }

    #[test]
    fn events_normalise_shift() {
        let ev = KeyEvent::new(KeyCode::Char('G'), KeyModifiers::SHIFT);
        assert_eq!(Key::from_event(&ev), key("G"));
        let ev = KeyEvent::new(KeyCode::Char('r'), KeyModifiers::CONTROL);
        assert_eq!(Key::from_event(&ev), key("ctrl-r"));
        assert_eq!(key("shift-tab").to_string(), "Shift-Tab");
    }
}
