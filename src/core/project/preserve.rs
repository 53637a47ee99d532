//! Saving the project file without losing what the user wrote: comments,
//! key order, blank lines, quoting, inline tables versus `[[…]]` blocks,
//! bare-path entries and keys this version does not know all survive a
//! save, because a save edits the file's own text (a `toml_edit`
//! document) instead of printing the model afresh.
//!
//! The edit is a three-way merge. `old` is the model the file's text was
//! parsed into and `new` the model to save; both are serialized the same
//! way, and only where those two serializations differ is the document
//! touched. So a key the user wrote with its default value (which the
//! model would not print) stays, and a one-line change is a one-line diff.
//! Arrays are aligned by their longest common run of equal elements, so
//! removing one entry removes one entry, not a shift of all the others.
//!
//! A new file (or one whose edit cannot be trusted, see
//! [`render_edit`]) gets a clean layout: `toml`'s pretty printer, without
//! an empty `[project]` table.

use toml::Value;
use toml_edit::{Array, ArrayOfTables, DocumentMut, InlineTable, Item, Table, TableLike};

use crate::core::model::ProjectFile;

/// What kind of place a new item goes into.
#[derive(Clone, Copy, PartialEq)]
enum Place {
    /// Inside an inline table or array: values only.
    Value,
    /// A `[table]`: sub-tables get their own headers.
    Header,
    /// A `[[array]]` entry: maps (e.g. `ast_mask`) stay inline.
    Entry,
}

/// `file` as TOML text in the clean layout used for a new file.
pub fn render_fresh(file: &ProjectFile) -> Result<String, String> {
    let text = toml::to_string_pretty(file).map_err(|e| e.to_string())?;
    if file.project != Default::default() {
        return Ok(text);
    }
    let Ok(mut doc) = text.parse::<DocumentMut>() else {
        return Ok(text);
    };
    doc.remove("project");
    Ok(doc.to_string().trim_start().to_owned())
}

/// The text of `new` written over `old_text`, which holds `old`: only what
/// differs between `old` and `new` changes in the text. The result is
/// parsed back and compared with `new`; should the merge ever disagree,
/// the clean layout is written instead (losing formatting, never meaning).
pub fn render_edit(old_text: &str, old: &ProjectFile, new: &ProjectFile) -> Result<String, String> {
    let (bom, body) = match old_text.strip_prefix('\u{feff}') {
        Some(rest) => ("\u{feff}", rest),
        None => ("", old_text),
    };
    let Ok(mut doc) = body.parse::<DocumentMut>() else {
        return render_fresh(new);
    };
    let old_tree = to_tree(old)?;
    let new_tree = to_tree(new)?;
    merge_table(doc.as_table_mut(), &old_tree, &new_tree, Place::Header);
    let text = format!("{bom}{doc}");
    match toml::from_str::<ProjectFile>(&text) {
        Ok(back) if back == *new => Ok(text),
        _ => render_fresh(new),
    }
}

/// The model as a TOML table, without an empty `[project]`.
fn to_tree(file: &ProjectFile) -> Result<toml::Table, String> {
    let mut tree = match Value::try_from(file).map_err(|e| e.to_string())? {
        Value::Table(t) => t,
        _ => return Err("the project file is not a table".into()),
    };
    if tree
        .get("project")
        .and_then(Value::as_table)
        .is_some_and(toml::Table::is_empty)
    {
        tree.remove("project");
    }
    Ok(tree)
}

fn merge_table(t: &mut dyn TableLike, old: &toml::Table, new: &toml::Table, place: Place) {
    let mut added: Vec<&String> = new.keys().filter(|k| !old.contains_key(*k)).collect();
    for key in old.keys().filter(|k| !new.contains_key(*k)) {
        let item = t.remove(key);
        // A rename (a preset under a new name): the item moves with its
        // comments and layout.
        let same = added.iter().position(|a| new.get(*a) == old.get(key));
        if let (Some(item), Some(i)) = (item, same) {
            t.insert(added.remove(i), item);
        }
    }
    for (key, value) in new {
        match old.get(key) {
            Some(before) if before == value => {}
            Some(before) => match t.get_mut(key) {
                Some(item) => merge_item(item, before, value, place),
                None => {
                    t.insert(key, fresh_item(value, place));
                }
            },
            // Moved by a rename above.
            None if !added.contains(&key) => {}
            None => match t.get_mut(key) {
                // Written in the file with the value the model leaves out
                // (a default), now changed: replaced in place.
                Some(item) => replace(item, value, place),
                None => {
                    t.insert(key, fresh_item(value, place));
                }
            },
        }
    }
}

fn merge_item(item: &mut Item, old: &Value, new: &Value, place: Place) {
    if old == new {
        return;
    }
    match (old, new) {
        (Value::Table(o), Value::Table(n)) if item.is_table_like() => {
            let inner = if item.is_value() || place == Place::Value {
                Place::Value
            } else {
                Place::Header
            };
            if let Some(t) = item.as_table_like_mut() {
                merge_table(t, o, n, inner);
            }
        }
        (Value::Array(o), Value::Array(n)) if item.is_array() => {
            if let Some(a) = item.as_array_mut() {
                merge_inline_array(a, o, n);
            }
        }
        (Value::Array(o), Value::Array(n))
            if item.is_array_of_tables() && !n.is_empty() && n.iter().all(Value::is_table) =>
        {
            if let Some(a) = item.as_array_of_tables_mut() {
                merge_tables_array(a, o, n);
            }
        }
        _ => replace(item, new, place),
    }
}

/// Put `new` where `item` is, keeping the spacing and comments around a
/// plain value.
fn replace(item: &mut Item, new: &Value, place: Place) {
    match item {
        Item::Value(v) => {
            let decor = v.decor().clone();
            let mut fresh = fresh_value(new);
            *fresh.decor_mut() = decor;
            *v = fresh;
        }
        _ => *item = fresh_item(new, place),
    }
}

/// One step of turning the old array into the new one.
enum Step {
    /// Old element `i`, unchanged.
    Keep(usize),
    /// Old element `i` edited into new element `j`.
    Edit(usize, usize),
    /// New element `j`, written afresh.
    Fresh(usize),
}

/// Steps turning `old` into `new`: equal elements are kept (longest
/// common subsequence, after trimming the common ends), the rest paired
/// in order (an edit), deleted or added.
fn align(old: &[Value], new: &[Value]) -> Vec<Step> {
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let suffix = old[prefix..]
        .iter()
        .rev()
        .zip(new[prefix..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let (o, n) = (
        &old[prefix..old.len() - suffix],
        &new[prefix..new.len() - suffix],
    );
    let mut steps: Vec<Step> = (0..prefix).map(Step::Keep).collect();
    let pairs = if o.len().saturating_mul(n.len()) <= 1_000_000 {
        lcs(o, n)
    } else {
        Vec::new()
    };
    let (mut i, mut j) = (0, 0);
    for (pi, pj) in pairs.into_iter().chain(std::iter::once((o.len(), n.len()))) {
        while i < pi && j < pj {
            steps.push(Step::Edit(prefix + i, prefix + j));
            i += 1;
            j += 1;
        }
        // Old elements left over are dropped (no step); new ones added.
        i = pi;
        while j < pj {
            steps.push(Step::Fresh(prefix + j));
            j += 1;
        }
        if pi < o.len() {
            steps.push(Step::Keep(prefix + pi));
            i += 1;
            j += 1;
        }
    }
    steps.extend((old.len() - suffix..old.len()).map(Step::Keep));
    steps
}

/// Index pairs of a longest common subsequence of `a` and `b`.
fn lcs(a: &[Value], b: &[Value]) -> Vec<(usize, usize)> {
    let w = b.len() + 1;
    let mut len = vec![0u32; (a.len() + 1) * w];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            len[i * w + j] = if a[i] == b[j] {
                len[(i + 1) * w + j + 1] + 1
            } else {
                len[(i + 1) * w + j].max(len[i * w + j + 1])
            };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < a.len() && j < b.len() {
        if a[i] == b[j] {
            out.push((i, j));
            i += 1;
            j += 1;
        } else if len[(i + 1) * w + j] >= len[i * w + j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    out
}

fn merge_inline_array(a: &mut Array, old: &[Value], new: &[Value]) {
    let olds: Vec<toml_edit::Value> = a.iter().cloned().collect();
    if olds.len() != old.len() {
        // Not the array the model was read from: write it anew.
        *a = fresh_array(new);
        return;
    }
    let prefix_of = |v: &toml_edit::Value| {
        v.decor()
            .prefix()
            .and_then(|p| p.as_str())
            .unwrap_or_default()
            .to_owned()
    };
    let first_prefix = olds.first().map(prefix_of).unwrap_or_default();
    // The spacing before a new element: the line break and indent of the
    // others (a comment before them belongs to the line above), or a space.
    let gap = match olds
        .iter()
        .skip(1)
        .chain(olds.first())
        .map(prefix_of)
        .next()
    {
        Some(p) if p.contains('\n') => p[p.rfind('\n').unwrap_or(0)..].to_owned(),
        _ => " ".to_owned(),
    };
    let mut out = Vec::new();
    let mut after_last = None;
    for step in align(old, new) {
        if matches!(step, Step::Keep(i) | Step::Edit(i, _) if i + 1 == olds.len()) {
            after_last = Some(out.len() + 1);
        }
        out.push(match step {
            Step::Keep(i) => olds[i].clone(),
            Step::Edit(i, j) => {
                let mut item = Item::Value(olds[i].clone());
                merge_item(&mut item, &old[i], &new[j], Place::Value);
                match item {
                    Item::Value(v) => v,
                    _ => fresh_element(&new[j]),
                }
            }
            Step::Fresh(j) => {
                let mut v = fresh_element(&new[j]);
                v.decor_mut().set_prefix(gap.clone());
                v
            }
        });
    }
    // A comment after the old last element (`"a.py", # why`) stays on its
    // line when elements are added after it.
    let trailing = a.trailing().as_str().unwrap_or_default().to_owned();
    if let (Some(next), Some(cut)) = (after_last, trailing.find('\n'))
        && let Some(v) = out.get_mut(next)
    {
        let prefix = format!("{}{}", &trailing[..cut], prefix_of(v));
        v.decor_mut().set_prefix(prefix);
        a.set_trailing(&trailing[cut..]);
    }
    a.clear();
    for (n, mut v) in out.into_iter().enumerate() {
        if n == 0 {
            v.decor_mut().set_prefix(first_prefix.clone());
        }
        a.push_formatted(v);
    }
}

fn merge_tables_array(a: &mut ArrayOfTables, old: &[Value], new: &[Value]) {
    let olds: Vec<Table> = a.iter().cloned().collect();
    if olds.len() != old.len() {
        if let Item::ArrayOfTables(fresh) = fresh_item(&Value::Array(new.to_vec()), Place::Header) {
            *a = fresh;
        }
        return;
    }
    let steps = align(old, new);
    a.clear();
    for step in steps {
        match step {
            Step::Keep(i) => a.push(olds[i].clone()),
            Step::Edit(i, j) => {
                let mut t = olds[i].clone();
                if let (Value::Table(o), Value::Table(n)) = (&old[i], &new[j]) {
                    merge_table(&mut t, o, n, Place::Entry);
                }
                a.push(t);
            }
            Step::Fresh(j) => {
                if let Value::Table(n) = &new[j] {
                    a.push(fresh_table(n, Place::Entry));
                }
            }
        }
    }
}

/// A new item for `value` in a place of kind `place`.
fn fresh_item(value: &Value, place: Place) -> Item {
    match (value, place) {
        (Value::Table(t), Place::Header) => Item::Table(fresh_table(t, Place::Header)),
        (Value::Array(a), Place::Header | Place::Entry)
            if !a.is_empty() && a.iter().all(Value::is_table) =>
        {
            let mut out = ArrayOfTables::new();
            for t in a.iter().filter_map(Value::as_table) {
                out.push(fresh_table(t, Place::Entry));
            }
            Item::ArrayOfTables(out)
        }
        _ => Item::Value(fresh_value(value)),
    }
}

/// A new `[table]` (`place` Header) or `[[entry]]` (`place` Entry).
fn fresh_table(t: &toml::Table, place: Place) -> Table {
    let mut out = Table::new();
    for (k, v) in t {
        out.insert(k, fresh_item(v, place));
    }
    // A table holding only sub-tables needs no header of its own.
    let only_tables = out.iter().all(|(_, item)| !item.is_value());
    out.set_implicit(place == Place::Header && !out.is_empty() && only_tables);
    out
}

fn fresh_value(value: &Value) -> toml_edit::Value {
    match value {
        Value::String(s) => s.as_str().into(),
        Value::Integer(i) => (*i).into(),
        Value::Float(f) => (*f).into(),
        Value::Boolean(b) => (*b).into(),
        Value::Datetime(d) => (*d).into(),
        Value::Array(a) => toml_edit::Value::Array(fresh_array(a)),
        Value::Table(t) => {
            let mut out = InlineTable::new();
            for (k, v) in t {
                out.insert(k, fresh_value(v));
            }
            toml_edit::Value::InlineTable(out)
        }
    }
}

fn fresh_array(values: &[Value]) -> Array {
    values.iter().map(fresh_element).collect()
}

/// An array element: a file entry naming only its path is written as the
/// bare path string, the short form the model reads (`files = ["a.py"]`).
fn fresh_element(value: &Value) -> toml_edit::Value {
    if let Value::Table(t) = value
        && t.len() == 1
        && let Some(Value::String(path)) = t.get("path")
    {
        return path.as_str().into();
    }
    fresh_value(value)
}
