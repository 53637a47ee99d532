//! One change of the project file applied to the file as it is now: the
//! edit from `from` to `to` (an undo step, its redo, a change the app could
//! not save) replayed on `current`, which may hold more than `from` did
//! (keys and comments written outside the app and reloaded, later steps).
//! What the change did not touch stays as `current` has it, so an undo or
//! a jump in the history never takes away what someone wrote in the file
//! meanwhile.
//!
//! It is a three-way merge of the models as TOML trees: tables key by key,
//! arrays element by element (an entry with a `path` is known by that
//! path, any other by its value), plain values whole. Where `current`
//! changed what the change also changed, `current` wins: the newer word
//! is the file's.

use toml::Value;

use crate::core::model::{ProjectFile, SettingsLayer};

/// `current` with the change from `from` to `to` made on it. A model that
/// does not go through TOML (never seen in practice) gives `to` whole.
pub fn replay(current: &ProjectFile, from: &ProjectFile, to: &ProjectFile) -> ProjectFile {
    if current == from {
        return to.clone();
    }
    let trees = (to_tree(current), to_tree(from), to_tree(to));
    let (Some(ours), Some(base), Some(theirs)) = trees else {
        return to.clone();
    };
    let merged = merge_tables(&base, &ours, &theirs);
    let personal = merge_tables(
        from.personal.table(),
        current.personal.table(),
        to.personal.table(),
    );
    match Value::Table(merged).try_into::<ProjectFile>() {
        Ok(mut file) => {
            file.personal = SettingsLayer::from_table(personal);
            file
        }
        Err(_) => to.clone(),
    }
}

fn to_tree(file: &ProjectFile) -> Option<toml::Table> {
    match Value::try_from(file).ok()? {
        Value::Table(t) => Some(t),
        _ => None,
    }
}

/// The three-way merge of three tables.
fn merge_tables(base: &toml::Table, ours: &toml::Table, theirs: &toml::Table) -> toml::Table {
    let mut out = ours.clone();
    // Keys in any of the three, in `ours`'s order, then `theirs`'s new ones.
    let keys: Vec<&String> = base.keys().chain(theirs.keys()).collect();
    for key in keys {
        let merged = merge_values(base.get(key), ours.get(key), theirs.get(key));
        match merged {
            Some(v) => {
                out.insert(key.clone(), v);
            }
            None => {
                out.remove(key);
            }
        }
    }
    out
}

/// The three-way merge of one value (`None`: absent).
fn merge_values(
    base: Option<&Value>,
    ours: Option<&Value>,
    theirs: Option<&Value>,
) -> Option<Value> {
    if base == theirs {
        return ours.cloned();
    }
    if base == ours || ours == theirs {
        return theirs.cloned();
    }
    match (base, ours, theirs) {
        (Some(Value::Table(b)), Some(Value::Table(o)), Some(Value::Table(t))) => {
            Some(Value::Table(merge_tables(b, o, t)))
        }
        // Added on both sides, as tables: what each added, together.
        (None, Some(Value::Table(o)), Some(Value::Table(t))) => {
            Some(Value::Table(merge_tables(&toml::Table::new(), o, t)))
        }
        (Some(Value::Array(b)), Some(Value::Array(o)), Some(Value::Array(t))) => {
            Some(merge_arrays(b, o, t).map_or_else(
                || ours.cloned().unwrap_or(Value::Array(Vec::new())),
                Value::Array,
            ))
        }
        // Both changed it: the file's word stands.
        _ => ours.cloned(),
    }
}

/// What an array element is known by: its `path` when it is a table with
/// one (a file entry), else its whole value.
fn identity(v: &Value) -> String {
    match v
        .as_table()
        .and_then(|t| t.get("path"))
        .and_then(Value::as_str)
    {
        Some(path) => format!("path:{path}"),
        None => format!("value:{v}"),
    }
}

fn unique_ids(a: &[Value]) -> Option<Vec<String>> {
    let ids: Vec<String> = a.iter().map(identity).collect();
    let mut seen = std::collections::HashSet::new();
    ids.iter().all(|id| seen.insert(id.as_str())).then_some(ids)
}

/// The three-way merge of arrays whose elements are each known once:
/// elements the change removed go (unless changed meanwhile), elements it
/// added come in after the element before them, elements it edited are
/// merged. `None` when some element appears twice (then `ours` stands).
fn merge_arrays(base: &[Value], ours: &[Value], theirs: &[Value]) -> Option<Vec<Value>> {
    let (base_ids, ours_ids, theirs_ids) =
        (unique_ids(base)?, unique_ids(ours)?, unique_ids(theirs)?);
    let find = |ids: &[String], id: &str| ids.iter().position(|x| x == id);
    let mut out: Vec<(String, Value)> =
        ours_ids.iter().cloned().zip(ours.iter().cloned()).collect();
    // Removed or edited by the change.
    for (i, id) in base_ids.iter().enumerate() {
        let Some(o) = out.iter().position(|(x, _)| x == id) else {
            continue;
        };
        match find(&theirs_ids, id) {
            None if out[o].1 == base[i] => {
                out.remove(o);
            }
            None => {}
            Some(t) => {
                if let Some(v) = merge_values(Some(&base[i]), Some(&out[o].1), Some(&theirs[t])) {
                    out[o].1 = v;
                }
            }
        }
    }
    // Added by the change, after the element before it in `theirs`.
    for (t, id) in theirs_ids.iter().enumerate() {
        if find(&base_ids, id).is_some() || out.iter().any(|(x, _)| x == id) {
            continue;
        }
        let at = theirs_ids[..t]
            .iter()
            .rev()
            .find_map(|prev| out.iter().position(|(x, _)| x == prev))
            .map_or(0, |p| p + 1);
        out.insert(at, (id.clone(), theirs[t].clone()));
    }
    Some(out.into_iter().map(|(_, v)| v).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> ProjectFile {
        toml::from_str(text).expect("a test file parses")
    }

    /// An undo made after an outside edit takes back only its own change:
    /// the setting and the unknown key written outside stay.
    #[test]
    fn a_change_replayed_keeps_what_was_written_meanwhile() {
        let from = parse("[project]\nbudget = 1000\n[presets.default]\nfiles = [\"a.py\"]\n");
        let to = parse("[project]\nbudget = 2000\n[presets.default]\nfiles = [\"a.py\"]\n");
        let current = parse(
            "[project]\nbudget = 2000\nmodel_window = 128000\nteam_note = \"x\"\n\
             [presets.default]\nfiles = [\"a.py\", \"b.py\"]\n",
        );
        // Undo of the budget change: `to` → `from` on `current`.
        let undone = replay(&current, &to, &from);
        assert_eq!(
            undone,
            parse(
                "[project]\nbudget = 1000\nmodel_window = 128000\nteam_note = \"x\"\n\
                 [presets.default]\nfiles = [\"a.py\", \"b.py\"]\n"
            )
        );
    }

    /// File entries are known by their path: an undone include removes
    /// that one entry, an undone mask edits that one entry, and entries
    /// added meanwhile stay where they are.
    #[test]
    fn entries_are_merged_by_path() {
        let from = parse(
            "[[presets.default.files]]\npath = \"a.py\"\n[[presets.default.files]]\npath = \"c.py\"\n",
        );
        let to = parse(
            "[[presets.default.files]]\npath = \"a.py\"\nmode = \"masked\"\n\
             [[presets.default.files]]\npath = \"b.py\"\n[[presets.default.files]]\npath = \"c.py\"\n",
        );
        let current = parse(
            "[[presets.default.files]]\npath = \"a.py\"\nmode = \"masked\"\n\
             [[presets.default.files]]\npath = \"b.py\"\n[[presets.default.files]]\npath = \"c.py\"\n\
             [[presets.default.files]]\npath = \"z.py\"\n",
        );
        let undone = replay(&current, &to, &from);
        assert_eq!(
            undone,
            parse(
                "[[presets.default.files]]\npath = \"a.py\"\n[[presets.default.files]]\npath = \"c.py\"\n\
                 [[presets.default.files]]\npath = \"z.py\"\n"
            )
        );
        // And redone: back exactly to `current`.
        assert_eq!(replay(&undone, &from, &to), current);
    }

    /// A value both sides changed keeps the file's value; the personal
    /// layer is merged the same way.
    #[test]
    fn the_file_wins_where_both_changed() {
        let from = parse("[project]\nbudget = 1000\n");
        let to = parse("[project]\nbudget = 2000\n");
        let mut current = parse("[project]\nbudget = 3000\n");
        current.personal = SettingsLayer::from_table(toml::toml! { active_preset = "b" });
        let mut to_personal = to.clone();
        to_personal.personal = SettingsLayer::from_table(toml::toml! { active_preset = "a" });
        let out = replay(&current, &to_personal, &from);
        assert_eq!(out.project, current.project);
        assert_eq!(out.personal, current.personal, "changed since: kept");
        let mut from_p = from.clone();
        from_p.personal = SettingsLayer::from_table(toml::toml! { active_preset = "old" });
        let out = replay(&current, &to_personal, &from_p);
        assert_eq!(out.personal, current.personal);
        let mut cur_a = current.clone();
        cur_a.personal = to_personal.personal.clone();
        let out = replay(&cur_a, &to_personal, &from_p);
        assert_eq!(out.personal, from_p.personal, "unchanged since: undone");
    }
}
