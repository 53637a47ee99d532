//! Resource bounds a project file may lower but not raise: a repository's
//! `ctxcurate.toml` is input the user did not write, so `memory_cache`
//! set there above what the user's global config (or the default) allows
//! is held at that ceiling, with a note naming the setting. Raising it is
//! the user's own choice, in their global config. (Consent does not cover
//! these values, so a trusted project file is held the same way.)

use crate::core::model::{Settings, SettingsLayer};
use std::path::Path;

/// Clamp the bounds in `settings` (resolved from the project file over
/// `global`) to what `global` over the defaults gives; the note, if a
/// value was lowered, names the setting, the file's value and the bound.
pub fn clamp_raised(
    settings: &mut Settings,
    global: &SettingsLayer,
    project_file: &Path,
) -> Option<String> {
    let (ceiling, _) = Settings::merge(&[global]);
    if settings.memory_cache <= ceiling.memory_cache {
        return None;
    }
    let asked = settings.memory_cache;
    settings.memory_cache = ceiling.memory_cache;
    Some(format!(
        "{}: memory_cache = {asked} held at {} MiB (a project file may lower the memory \
         bound, not raise it; set it in your global config to raise it)",
        project_file.display(),
        ceiling.memory_cache
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layer(text: &str) -> SettingsLayer {
        let table: toml::Table = text.parse().unwrap_or_default();
        SettingsLayer::from_table(table)
    }

    #[test]
    fn raised_past_the_global_bound_is_held_with_a_note() {
        let path = Path::new("ctxcurate.toml");
        let (mut s, _) = Settings::merge(&[&layer("memory_cache = 1000000")]);
        let note = clamp_raised(&mut s, &layer(""), path);
        assert_eq!(s.memory_cache, 1024);
        assert!(note.is_some_and(|n| n.contains("memory_cache = 1000000")));
        let global = layer("memory_cache = 4096");
        let (mut s, _) = Settings::merge(&[&global, &layer("memory_cache = 2048")]);
        assert_eq!(clamp_raised(&mut s, &global, path), None);
        assert_eq!(s.memory_cache, 2048);
        let (mut s, _) = Settings::merge(&[&layer("memory_cache = 64")]);
        assert_eq!(clamp_raised(&mut s, &layer(""), path), None);
        assert_eq!(s.memory_cache, 64);
    }
}
