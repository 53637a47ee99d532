//! One scan per command within one run: `ctxcurate trust` resolves the
//! project's settings several times (opening the project, applying the
//! personal layer, its own warning, then the review), and each asked
//! `scripts::covered` to read every script a command reaches again (4
//! scans of pip's sources for one `trust`). Inside [`run`], the first
//! scan of a (root, command) is kept and handed to the later asks, so
//! what the warnings, the review and the recorded consent say comes from
//! one reading of the disk. Round 6: one `build` (and each build of a
//! `build --watch`) and the TUI's start run inside it too (opening the
//! project and its personal layer: 2 scans → 1). Outside it (the TUI's
//! later resolves, which must see edits) nothing is kept.

use std::any::Any;
use std::cell::RefCell;
use std::path::PathBuf;

/// A command's key: the root as given and the setting's value as TOML.
/// (The value kept is `scripts::Covered`, held as `Any` so this module
/// need not import `scripts`, which calls it.)
pub(super) type Key = (PathBuf, String);

/// The scans kept: each command's key and its `Covered`.
type Kept = Vec<(Key, Box<dyn Any>)>;

/// The most commands kept (a project file has a handful).
const MAX_KEPT: usize = 64;

thread_local! {
    /// The scans kept, when inside [`run`].
    static KEPT: RefCell<Option<Kept>> = const { RefCell::new(None) };
}

/// Run `f` with the scans of each command kept for its duration (on
/// this thread), then forget them, also when `f` panics.
pub fn run<T>(f: impl FnOnce() -> T) -> T {
    struct Forget(Option<Kept>);
    impl Drop for Forget {
        fn drop(&mut self) {
            let outer = self.0.take();
            KEPT.with(|k| *k.borrow_mut() = outer);
        }
    }
    let outer = KEPT.with(|k| k.borrow_mut().replace(Vec::new()));
    let _forget = Forget(outer);
    f()
}

/// The scan kept for `key`, inside [`run`].
pub(super) fn get<T: Clone + 'static>(key: &Key) -> Option<T> {
    KEPT.with(|k| {
        k.borrow()
            .as_ref()?
            .iter()
            .find(|(kept, _)| kept == key)
            .and_then(|(_, value)| value.downcast_ref::<T>())
            .cloned()
    })
}

/// Keep `covered` for `key`, inside [`run`].
pub(super) fn put<T: Clone + 'static>(key: Key, value: &T) {
    KEPT.with(|k| {
        if let Some(kept) = k.borrow_mut().as_mut()
            && kept.len() < MAX_KEPT
        {
            kept.push((key, Box::new(value.clone())));
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scan_is_kept_only_inside_run_and_forgotten_after() {
        let key: Key = (PathBuf::from("/p"), "\"x\"".to_string());
        let scan = String::from("covered");
        put(key.clone(), &scan);
        assert_eq!(get::<String>(&key), None);
        run(|| {
            assert_eq!(get::<String>(&key), None);
            put(key.clone(), &scan);
            assert_eq!(get::<String>(&key), Some(scan.clone()));
        });
        assert_eq!(get::<String>(&key), None);
    }
}
