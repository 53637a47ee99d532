//! What a user who names a preset that does not exist is told: the
//! nearest name when one is a slip of the keyboard away (`tabels` →
//! `tables`), and the presets there are. One hint for every front end
//! that takes a preset name (`preset apply`, `build -p`, …), carried by
//! [`super::ProjectError::NoSuchPreset`].

use std::borrow::Cow;
use std::fmt;

/// A preset name from a file or a front end as an error shows it: one
/// line, every control, bidi and invisible character made visible, cut
/// past 80 characters. The project file can hold any name (only new ones
/// are checked), and an error reaches a terminal or an agent.
pub(super) fn shown(name: &str) -> Cow<'_, str> {
    crate::text::sanitize::display_line(name, 80)
}

/// How many names a hint lists before "and N more".
const LISTED: usize = 20;

/// The hint for one unknown preset name.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PresetHint {
    /// The closest existing name, if it is close enough to be a typo.
    pub near: Option<String>,
    /// The first [`LISTED`] preset names, sorted.
    pub names: Vec<String>,
    /// How many more there are.
    pub more: usize,
}

impl PresetHint {
    /// The hint for `name` among `names` (sorted).
    pub fn new(name: &str, names: &[String]) -> PresetHint {
        PresetHint {
            near: nearest(name, names),
            names: names.iter().take(LISTED).cloned().collect(),
            more: names.len().saturating_sub(LISTED),
        }
    }
}

impl fmt::Display for PresetHint {
    /// `; did you mean `tables`? (presets: default, tables)`, or
    /// ` (no presets yet)`: what follows "no preset named `x`".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(near) = &self.near {
            write!(f, "; did you mean `{}`?", shown(near))?;
        }
        if self.names.is_empty() {
            return f.write_str(" (no presets yet)");
        }
        f.write_str(" (presets: ")?;
        for (i, name) in self.names.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(&shown(name))?;
        }
        if self.more > 0 {
            write!(f, " and {} more", self.more)?;
        }
        f.write_str(")")
    }
}

/// The name in `names` closest to `name`, when it is at most two edits
/// away (a swap of two neighbours is one) and fewer edits than `name`
/// has characters; ties go to the first in order. A name that differs
/// only in case is always near.
fn nearest(name: &str, names: &[String]) -> Option<String> {
    let folded = name.to_lowercase();
    if let Some(same) = names.iter().find(|n| n.to_lowercase() == folded) {
        return Some(same.clone());
    }
    let limit = 2.min(name.chars().count().saturating_sub(1));
    names
        .iter()
        .map(|n| (edits(&folded, &n.to_lowercase()), n))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, n)| n.clone())
}

/// Optimal string alignment distance: insertions, deletions,
/// substitutions and swaps of neighbours, by characters.
fn edits(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Names are short; a long one is not a typo of a short one.
    if a.len().abs_diff(b.len()) > 2 {
        return usize::MAX;
    }
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for i in 0..=a.len() {
        d[i * w] = i;
    }
    for (j, cell) in d.iter_mut().enumerate().take(w) {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[(i - 1) * w + j] + 1)
                .min(d[i * w + j - 1] + 1)
                .min(d[(i - 1) * w + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[(i - 2) * w + j - 2] + 1);
            }
            d[i * w + j] = best;
        }
    }
    d[a.len() * w + b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_typo_is_named_and_the_presets_listed() {
        let all = names(&["default", "review-api", "tables"]);
        let hint = PresetHint::new("tabels", &all);
        assert_eq!(hint.near.as_deref(), Some("tables"));
        assert_eq!(
            hint.to_string(),
            "; did you mean `tables`? (presets: default, review-api, tables)"
        );
        assert_eq!(
            PresetHint::new("Tables", &all).near.as_deref(),
            Some("tables")
        );
        assert_eq!(
            PresetHint::new("review-ap", &all).near.as_deref(),
            Some("review-api")
        );
        // Nothing close: only the list.
        assert_eq!(
            PresetHint::new("parser", &all).to_string(),
            " (presets: default, review-api, tables)"
        );
        // A one-letter name is not "near" every other one-letter name.
        assert_eq!(PresetHint::new("x", &names(&["a", "b"])).near, None);
        assert_eq!(PresetHint::new("x", &[]).to_string(), " (no presets yet)");
    }

    #[test]
    fn a_long_list_is_cut() {
        let all: Vec<String> = (0..25).map(|i| format!("p{i:02}")).collect();
        let text = PresetHint::new("zzzzzz", &all).to_string();
        assert!(text.ends_with("p19 and 5 more)"), "{text}");
    }

    #[test]
    fn edits_count_a_swap_as_one() {
        assert_eq!(edits("tabels", "tables"), 1);
        assert_eq!(edits("abc", "abc"), 0);
        assert_eq!(edits("", "ab"), 2);
        assert_eq!(edits("é", "e"), 1);
    }
}
