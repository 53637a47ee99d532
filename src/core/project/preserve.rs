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
//! Whatever the edit removed, the file's comments stay (`comments.rs`).
//!
//! A new file (or one whose edit cannot be trusted, see
//! [`render_edit`]) gets a clean layout: `toml`'s pretty printer, without
//! an empty `[project]` table.

use thiserror::Error;
use toml::Value;
use toml_edit::{Array, ArrayOfTables, DocumentMut, InlineTable, Item, Table, TableLike};

use super::comments::keep_comments;
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

/// Why a model could not be turned into TOML text. No path: the caller
/// (`file::save_edit`) names the file it was writing.
#[derive(Debug, Error)]
pub enum RenderError {
    /// A value TOML cannot hold.
    #[error("{0}")]
    Toml(#[from] toml::ser::Error),
    /// The model serialized to something other than a table.
    #[error("the project file is not a table")]
    NotATable,
    /// The edit would make a file of `bytes`, more than the `limit` a
    /// project file may hold (`MAX_PROJECT_FILE`): it could not be read
    /// back, so it is not written.
    #[error(
        "it would be {bytes} bytes, over the {} MiB a project file may hold; nothing was written",
        limit >> 20
    )]
    TooLarge { bytes: u64, limit: u64 },
}

/// `file` as TOML text in the clean layout used for a new file.
pub fn render_fresh(file: &ProjectFile) -> Result<String, RenderError> {
    let text = toml::to_string_pretty(file)?;
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
pub fn render_edit(
    old_text: &str,
    old: &ProjectFile,
    new: &ProjectFile,
) -> Result<String, RenderError> {
    let text = render_edit_lf(old_text, old, new)?;
    Ok(with_line_ends_of(old_text, text, new))
}

/// `text` with the line ends `old_text` uses: a file written with CRLF
/// (a Windows checkout without `autocrlf`) keeps them, so an edit of one
/// line is a one-line diff there too (the TOML writer writes LF). Kept
/// only when the file still reads as `new` (a multi-line string's own
/// line breaks are part of its value).
fn with_line_ends_of(old_text: &str, text: String, new: &ProjectFile) -> String {
    let crlf = old_text.matches("\r\n").count();
    let lf = old_text.matches('\n').count();
    if crlf == 0 || crlf * 2 < lf {
        return text;
    }
    let converted = text.replace("\r\n", "\n").replace('\n', "\r\n");
    let same = toml::from_str::<ProjectFile>(converted.trim_start_matches('\u{feff}'))
        .is_ok_and(|back| back.same_shared(new));
    if same { converted } else { text }
}

/// [`render_edit`] with LF line ends.
fn render_edit_lf(
    old_text: &str,
    old: &ProjectFile,
    new: &ProjectFile,
) -> Result<String, RenderError> {
    let text = match merge_text(old_text, old, new)? {
        Some(text) => text,
        None => render_fresh(new)?,
    };
    // No comment of the file is lost, whatever the edit removed.
    let kept = keep_comments(old_text, &text);
    if kept != text
        && toml::from_str::<ProjectFile>(kept.trim_start_matches('\u{feff}'))
            .is_ok_and(|back| back.same_shared(new))
    {
        return Ok(kept);
    }
    Ok(text)
}

/// The merge of [`render_edit`]; `None` when the text does not parse as a
/// document or the merged text does not read back as `new`.
fn merge_text(
    old_text: &str,
    old: &ProjectFile,
    new: &ProjectFile,
) -> Result<Option<String>, RenderError> {
    let (bom, body) = match old_text.strip_prefix('\u{feff}') {
        Some(rest) => ("\u{feff}", rest),
        None => ("", old_text),
    };
    let Ok(mut doc) = body.parse::<DocumentMut>() else {
        return Ok(None);
    };
    let text = if doc.as_table().is_empty() {
        // Only comments so far: they stay on top of a fresh layout.
        let sep = if body.is_empty() || body.ends_with('\n') {
            ""
        } else {
            "\n"
        };
        format!("{body}{sep}{}", render_fresh(new)?)
    } else {
        let mut old_tree = to_tree(old)?;
        let mut new_tree = to_tree(new)?;
        // A `[project]` the file has keeps its place when its last key
        // goes, so a key put back (an undo) lands where it was, not in a
        // table appended at the end.
        if doc.get("project").is_some_and(Item::is_table) {
            for tree in [&mut old_tree, &mut new_tree] {
                tree.entry("project")
                    .or_insert_with(|| Value::Table(toml::Table::new()));
            }
        }
        merge_table(doc.as_table_mut(), &old_tree, &new_tree, Place::Header);
        keep_head(body, &doc.to_string())
    };
    match toml::from_str::<ProjectFile>(&text) {
        Ok(back) if back.same_shared(new) => Ok(Some(format!("{bom}{text}"))),
        _ => Ok(None),
    }
}

/// `edited` with the file's head comment kept. `toml_edit` keeps a
/// comment with the table below it, so removing the first table would
/// take the file's opening comment (the block ended by a blank line) too.
/// Blank lines an edit leaves at the very top are dropped.
fn keep_head(original: &str, edited: &str) -> String {
    let mut head_len = 0;
    let mut offset = 0;
    for line in original.split_inclusive('\n') {
        let t = line.trim();
        if !(t.is_empty() || t.starts_with('#')) {
            break;
        }
        offset += line.len();
        if t.is_empty() {
            head_len = offset;
        }
    }
    let head = &original[..head_len];
    if head.is_empty() {
        let lead = original.len() - original.trim_start_matches('\n').len();
        return format!("{}{}", &original[..lead], edited.trim_start_matches('\n'));
    }
    if edited.contains(head) {
        return edited.to_owned();
    }
    format!("{head}{}", edited.trim_start_matches('\n'))
}

/// The model as a TOML table, without an empty `[project]`.
fn to_tree(file: &ProjectFile) -> Result<toml::Table, RenderError> {
    let mut tree = match Value::try_from(file)? {
        Value::Table(t) => t,
        _ => return Err(RenderError::NotATable),
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
            let end = item.as_inline_table().and_then(inline_end);
            if let Some(t) = item.as_table_like_mut() {
                merge_table(t, o, n, inner);
            }
            if let Some(t) = item.as_inline_table_mut() {
                keep_inline_end(t, end);
            }
            // A header whose last value went (an `exclude` added, then
            // removed) goes too, as if it had never been written.
            if let Item::Table(t) = item
                && has_values(o)
                && !t.is_empty()
                && t.iter().all(|(_, i)| !i.is_value())
            {
                t.set_implicit(true);
            }
            // A table left with nothing in it (a preset whose last file
            // went) keeps its header, or it would read back as absent.
            if let Item::Table(t) = item
                && t.is_empty()
            {
                t.set_implicit(false);
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

/// The key of an inline table's last value and the space after that
/// value (before the `}`), when that space is plain blanks.
fn inline_end(t: &InlineTable) -> Option<(String, String)> {
    let (key, value) = t.iter().last()?;
    let end = value.decor().suffix()?.as_str()?;
    (end.trim().is_empty() && !end.contains('\n')).then(|| (key.to_owned(), end.to_owned()))
}

/// After keys were added to or removed from an inline table: the space
/// before the `}` stays before the `}`, so an added pair reads
/// `{ "a" = "def", "b" = "hide" }`, not `{ "a" = "def" , "b" = "hide" }`.
fn keep_inline_end(t: &mut InlineTable, end: Option<(String, String)>) {
    let Some((old_last, space)) = end else {
        return;
    };
    let Some(new_last) = t.iter().last().map(|(k, _)| k.to_owned()) else {
        return;
    };
    if new_last == old_last {
        return;
    }
    if let Some(v) = t.get_mut(&old_last) {
        v.decor_mut().set_suffix("");
    }
    if let Some(v) = t.get_mut(&new_last) {
        v.decor_mut().set_suffix(space);
    }
}

/// Whether a table holds plain values (not only sub-tables).
fn has_values(t: &toml::Table) -> bool {
    t.values().any(|v| {
        !v.is_table()
            && !(v
                .as_array()
                .is_some_and(|a| !a.is_empty() && a.iter().all(Value::is_table)))
    })
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
    let mut fresh = Vec::new();
    let mut after_last = None;
    // Where each old element went in `out` (`None`: removed).
    let mut placed: Vec<Option<usize>> = vec![None; olds.len()];
    for step in align(old, new) {
        if let Step::Keep(i) | Step::Edit(i, _) = step
            && let Some(p) = placed.get_mut(i)
        {
            *p = Some(out.len());
        }
        fresh.push(matches!(step, Step::Fresh(_)));
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
    keep_line_comments_of_removed(a, &olds, &placed, &mut out);
    // A comment after an old element (`"a.py", # why`) is the prefix of
    // the element after it: it stays on its line when an element is
    // inserted right after that line.
    for k in 1..out.len() {
        if fresh[k - 1] && !fresh[k] {
            let p = prefix_of(&out[k]);
            if let Some(cut) = p.find('\n').filter(|&c| c > 0) {
                let moved = format!("{}{}", &p[..cut], prefix_of(&out[k - 1]));
                out[k - 1].decor_mut().set_prefix(moved);
                out[k].decor_mut().set_prefix(p[cut..].to_owned());
            }
        }
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
    // The blanks before the `]` (`[ "a.py" ]`) stay before the `]`: an
    // element added after the old last one reads `"a.py", "b.py" ]`.
    let end = olds
        .last()
        .and_then(|v| v.decor().suffix()?.as_str().map(str::to_owned))
        .filter(|s| !s.is_empty() && s.trim().is_empty() && !s.contains('\n'));
    if let Some(space) = end {
        if let Some(k) = after_last.filter(|&k| k < out.len()) {
            out[k - 1].decor_mut().set_suffix("");
        }
        if let Some(last) = out.last_mut() {
            last.decor_mut().set_suffix(space);
        }
    }
    a.clear();
    for (n, mut v) in out.into_iter().enumerate() {
        if n == 0 {
            v.decor_mut().set_prefix(first_prefix.clone());
        }
        a.push_formatted(v);
    }
}

/// A comment after an element (`"a.py",  # why`) is the start of the
/// prefix of the element after it: when that next element is removed,
/// the comment stays on its line, as the start of the prefix of the next
/// element kept (or of the space before the `]`). The removed elements'
/// own comments are put back on lines of their own by `comments.rs`.
fn keep_line_comments_of_removed(
    a: &mut Array,
    olds: &[toml_edit::Value],
    placed: &[Option<usize>],
    out: &mut [toml_edit::Value],
) {
    let line_tail = |text: &str| -> Option<String> {
        let cut = text.find('\n').filter(|&c| c > 0)?;
        text[..cut].contains('#').then(|| text[..cut].to_owned())
    };
    let after_line = |text: &str| text.find('\n').map(|c| text[c..].to_owned());
    let mut i = 1;
    while i < olds.len() {
        if placed[i].is_some() {
            i += 1;
            continue;
        }
        let first = i;
        while i < olds.len() && placed[i].is_none() {
            i += 1;
        }
        let prefix = olds[first].decor().prefix().and_then(|p| p.as_str());
        let Some(tail) = prefix.and_then(line_tail) else {
            continue;
        };
        match placed.get(i).copied().flatten() {
            Some(k) => {
                let own = out[k].decor().prefix().and_then(|p| p.as_str());
                let rest = own.and_then(after_line).unwrap_or_default();
                out[k].decor_mut().set_prefix(format!("{tail}{rest}"));
            }
            None => {
                let trailing = a.trailing().as_str().unwrap_or_default().to_owned();
                let rest = after_line(&trailing).unwrap_or_else(|| format!("\n{trailing}"));
                a.set_trailing(format!("{tail}{rest}"));
            }
        }
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
    lead_new_entries(a, &olds);
}

/// New entries put before the first old one take over what stood above
/// it up to its last blank line (the file's or the section's comments),
/// and are set off from it by a blank line: the old entry keeps only its
/// own comment, directly above it.
fn lead_new_entries(a: &mut ArrayOfTables, olds: &[Table]) {
    let Some(first_old) = olds.first() else {
        return;
    };
    // Old entries are pushed as clones: the first one found is the first
    // table that is not new.
    let at = a
        .iter()
        .position(|t| t.decor() == first_old.decor() && t.position() == first_old.position());
    let Some(at) = at.filter(|&at| at > 0) else {
        return;
    };
    let above = first_old
        .decor()
        .prefix()
        .and_then(|p| p.as_str())
        .unwrap_or_default()
        .to_owned();
    let cut = above
        .split_inclusive('\n')
        .scan(0, |end, line| {
            *end += line.len();
            Some((*end, line.trim().is_empty()))
        })
        .filter(|&(_, blank)| blank)
        .map(|(end, _)| end)
        .last()
        .unwrap_or(0);
    let (head, own) = above.split_at(cut);
    if let Some(t) = a.get_mut(0) {
        t.decor_mut().set_prefix(head);
    }
    if let Some(t) = a.get_mut(at) {
        let own = if own.starts_with('\n') {
            own.to_owned()
        } else {
            format!("\n{own}")
        };
        t.decor_mut().set_prefix(own);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::{DiscussionEntry, FileItem, Slice, ViewMode};

    fn parse(text: &str) -> ProjectFile {
        toml::from_str(text).unwrap()
    }

    /// `text` edited by `change`; the merge (not the fallback) must give
    /// the same file as `change`.
    fn edited(text: &str, change: impl FnOnce(&mut ProjectFile)) -> String {
        let old = parse(text);
        let mut new = old.clone();
        change(&mut new);
        merge_text(text, &old, &new)
            .unwrap()
            .expect("the merge reads back as the new file")
    }

    /// The last key of `[project]` taken away and put back (an undo):
    /// the table stays where it was, every comment stays, and the key
    /// comes back into it, not into a table appended at the end.
    #[test]
    fn project_keeps_its_place_and_comments_when_emptied_and_refilled() {
        let text = "# top\n[project]\n# the team's window\nmodel_window = 9 # k\n\n\
                    [presets.a]\nfiles = [\"x\"]\n";
        let old = parse(text);
        let mut emptied = old.clone();
        emptied.project.remove("model_window");
        let out = render_edit(text, &old, &emptied).unwrap();
        assert_eq!(
            out,
            "# top\n[project]\n# the team's window\n# k\n\n[presets.a]\nfiles = [\"x\"]\n"
        );
        // The comments now stand after the header: the key goes in above
        // them (their place, not their order, is what a round trip costs).
        let back = render_edit(&out, &emptied, &old).unwrap();
        assert_eq!(
            back,
            "# top\n[project]\nmodel_window = 9\n# the team's window\n# k\n\n[presets.a]\nfiles = [\"x\"]\n"
        );
    }

    /// An entry removed takes no comment with it.
    #[test]
    fn a_removed_entry_leaves_its_comments() {
        let text = "# head\n\n[presets.a]\nfiles = [\n    \"x\",  # the core\n    \"y\",\n]\n\n\
                    # about b\n[presets.b]\nfiles = [\"z\"]\n";
        let old = parse(text);
        let mut new = old.clone();
        new.presets.get_mut("a").unwrap().files.remove(0);
        new.presets.remove("b");
        let out = render_edit(text, &old, &new).unwrap();
        assert_eq!(
            out,
            "# head\n\n[presets.a]\nfiles = [\n    # the core\n    \"y\",\n]\n# about b\n"
        );
    }

    #[test]
    fn a_new_entry_goes_after_its_own_siblings() {
        let text = "[[presets.a.files]]\npath = \"x\"\n\n# b\n[[presets.b.files]]\npath = \"y\"\n";
        let out = edited(text, |f| {
            f.presets
                .get_mut("a")
                .unwrap()
                .files
                .push(FileItem::new("z"));
        });
        assert_eq!(
            out,
            "[[presets.a.files]]\npath = \"x\"\n\n[[presets.a.files]]\npath = \"z\"\n\n# b\n[[presets.b.files]]\npath = \"y\"\n"
        );
    }

    #[test]
    fn slices_and_discussion_are_appended_as_blocks() {
        let text = "[[presets.a.files]]\npath = \"x\" # mine\n";
        let out = edited(text, |f| {
            let p = f.presets.get_mut("a").unwrap();
            let item = &mut p.files[0];
            item.view_mode = ViewMode::Custom;
            item.custom_slices.push(Slice {
                start_line: 1,
                end_line: 2,
                ..Slice::default()
            });
            p.discussion.push(DiscussionEntry {
                role: "User".into(),
                content: "hi".into(),
                extra: Default::default(),
            });
        });
        assert!(
            out.starts_with("[[presets.a.files]]\npath = \"x\" # mine\n"),
            "{out}"
        );
        assert!(out.contains("view_mode = \"custom\"\n"), "{out}");
        assert!(
            out.contains("[[presets.a.files.custom_slices]]\nstart_line = 1\nend_line = 2\n"),
            "{out}"
        );
        assert!(
            out.contains("[[presets.a.discussion]]\nrole = \"User\"\ncontent = \"hi\"\n"),
            "{out}"
        );
    }

    #[test]
    fn deleting_a_preset_removes_only_its_tables() {
        let text = "# top\n[presets.a]\ndescription = \"a\"\n\n[[presets.a.files]]\npath = \"x\"\n\n[presets.b] # keep\ndescription = \"b\"\n";
        let out = edited(text, |f| {
            f.presets.remove("a");
        });
        // The comment right above `[presets.a]` was its own.
        assert_eq!(out, "[presets.b] # keep\ndescription = \"b\"\n");
        // A comment block set off by a blank line is the file's: kept.
        let text = format!("# file\n\n{text}");
        let out = edited(&text, |f| {
            f.presets.remove("a");
        });
        assert_eq!(out, "# file\n\n[presets.b] # keep\ndescription = \"b\"\n");
    }

    #[test]
    fn inline_and_dotted_presets_are_edited_in_their_form() {
        let text = "presets = { a = { files = [\"x\"] } } # all inline\n";
        let out = edited(text, |f| {
            f.presets
                .get_mut("a")
                .unwrap()
                .files
                .push(FileItem::new("y"));
        });
        assert_eq!(
            out,
            "presets = { a = { files = [\"x\", \"y\"] } } # all inline\n"
        );

        let text = "presets.a.description = \"d\" # dotted\n";
        let out = edited(text, |f| {
            f.presets.get_mut("a").unwrap().description = "e".into();
        });
        assert_eq!(out, "presets.a.description = \"e\" # dotted\n");
    }

    #[test]
    fn a_byte_order_mark_and_a_removed_entry_in_the_middle() {
        let text = "\u{feff}[presets.a]\nfiles = [\"x\", \"y\", \"z\"]\n";
        let out = edited(text, |f| {
            f.presets.get_mut("a").unwrap().files.remove(1);
        });
        assert_eq!(out, "\u{feff}[presets.a]\nfiles = [\"x\", \"z\"]\n");
        let out = edited(text, |f| {
            f.presets.get_mut("a").unwrap().files.remove(0);
        });
        assert_eq!(out, "\u{feff}[presets.a]\nfiles = [\"y\", \"z\"]\n");
    }

    /// A CRLF file stays CRLF: an edit of one line is a one-line diff on
    /// a Windows checkout too (sweep 12, N6: every line became LF).
    #[test]
    fn a_crlf_file_keeps_its_line_ends() {
        let text = "# c\r\n[presets.a] # k\r\nzz = 1\r\nfiles = [\"x\", \"y\"]\r\n";
        let through_render = |text: &str| {
            let old = parse(text);
            let mut new = old.clone();
            new.presets.get_mut("a").unwrap().files.remove(1);
            render_edit(text, &old, &new).unwrap()
        };
        let out = through_render(text);
        assert_eq!(
            out,
            "# c\r\n[presets.a] # k\r\nzz = 1\r\nfiles = [\"x\"]\r\n"
        );
        // An LF file stays LF.
        let out = through_render(&text.replace("\r\n", "\n"));
        assert_eq!(out, "# c\n[presets.a] # k\nzz = 1\nfiles = [\"x\"]\n");
    }

    /// A value with a line break written by the edit reads back as it was
    /// given: the writer puts it in a multi-line string, whose line breaks
    /// are part of the value, so the file is left with LF rather than the
    /// value gaining a CR.
    #[test]
    fn a_crlf_file_keeps_a_new_multi_line_value_as_given() {
        let text = "[presets.a]\r\nfiles = [\"x\"]\r\n";
        let old = parse(text);
        let mut new = old.clone();
        new.presets.get_mut("a").unwrap().description = "one\ntwo\nthree".into();
        let out = render_edit(text, &old, &new).unwrap();
        let back: ProjectFile = toml::from_str(&out).unwrap();
        assert!(back.same_shared(&new), "{out:?}");
    }

    #[test]
    fn a_file_of_comments_gains_entries_below_them() {
        let text = "# to be filled\n\n";
        let out = edited(text, |f| {
            f.presets
                .entry("a".into())
                .or_default()
                .files
                .push(FileItem::new("x"));
        });
        assert_eq!(out.matches("# to be filled").count(), 1, "{out}");
        assert!(out.starts_with("# to be filled\n"), "{out}");
    }

    /// New text reads as a person would type it: `"def", "hide"`, not
    /// `"def" , "hide"`; the space before a closing brace or bracket
    /// stays there; a new entry is set off by a blank line as the others
    /// are.
    #[test]
    fn new_text_is_spaced_as_a_person_types_it() {
        use crate::core::model::MaskState;
        let text = "[[presets.default.files]]\npath = \"a.py\"\n\n[[presets.default.files]]\npath = \"b.py\"\nview_mode = \"masked\"\nast_mask = { \"A.f\" = \"def\" }\n";
        let out = edited(text, |f| {
            let files = &mut f.presets.get_mut("default").unwrap().files;
            files[1].ast_mask.insert("A.g".into(), MaskState::Hide);
            let mut c = FileItem::new("c.py");
            c.view_mode = ViewMode::Masked;
            c.ast_mask.insert("C.h".into(), MaskState::Sig);
            files.push(c);
        });
        assert_eq!(
            out,
            "[[presets.default.files]]\npath = \"a.py\"\n\n\
             [[presets.default.files]]\npath = \"b.py\"\nview_mode = \"masked\"\n\
             ast_mask = { \"A.f\" = \"def\", \"A.g\" = \"hide\" }\n\n\
             [[presets.default.files]]\npath = \"c.py\"\nview_mode = \"masked\"\n\
             ast_mask = { \"C.h\" = \"sig\" }\n"
        );
        // The last pair removed: the space before `}` stays.
        let out = edited(&out, |f| {
            f.presets.get_mut("default").unwrap().files[1]
                .ast_mask
                .remove("A.g");
        });
        assert!(out.contains("ast_mask = { \"A.f\" = \"def\" }\n"), "{out}");
        // A compact table stays compact.
        let text = "[presets.a]\nfiles = [{path = \"b.py\", view_mode = \"masked\", ast_mask = {A = \"def\"}}]\n";
        let out = edited(text, |f| {
            f.presets.get_mut("a").unwrap().files[0]
                .ast_mask
                .insert("B".into(), MaskState::Hide);
        });
        assert!(
            out.contains("ast_mask = {A = \"def\", B = \"hide\"}}]"),
            "{out}"
        );
        // An array written with spaces inside its brackets.
        let text = "[presets.a]\nfiles = [ \"a.py\" ]\n";
        let out = edited(text, |f| {
            f.presets
                .get_mut("a")
                .unwrap()
                .files
                .push(FileItem::new("b.py"));
        });
        assert_eq!(out, "[presets.a]\nfiles = [ \"a.py\", \"b.py\" ]\n");
    }

    /// An entry put before the first one takes the comments above it up
    /// to the last blank line (the file's, the section's); the old first
    /// entry keeps its own comment; each is set off by a blank line.
    #[test]
    fn an_entry_put_first_is_set_off_like_the_others() {
        let text = "# team file\n\n[[presets.a.files]]\npath = \"b.py\"\n\n[[presets.a.files]]\npath = \"d.py\"\n\n# about z\n[[presets.z.files]]\npath = \"z.py\"\n";
        let out = edited(text, |f| {
            let files = &mut f.presets.get_mut("a").unwrap().files;
            files.insert(1, FileItem::new("c.py"));
            files.insert(0, FileItem::new("a.py"));
            f.presets
                .get_mut("z")
                .unwrap()
                .files
                .insert(0, FileItem::new("y.py"));
        });
        assert_eq!(
            out,
            "# team file\n\n[[presets.a.files]]\npath = \"a.py\"\n\n\
             [[presets.a.files]]\npath = \"b.py\"\n\n\
             [[presets.a.files]]\npath = \"c.py\"\n\n\
             [[presets.a.files]]\npath = \"d.py\"\n\n\
             [[presets.z.files]]\npath = \"y.py\"\n\n\
             # about z\n[[presets.z.files]]\npath = \"z.py\"\n"
        );
    }

    #[test]
    fn a_fresh_file_has_no_empty_project_table() {
        let mut f = ProjectFile::default();
        f.presets
            .entry("a".into())
            .or_default()
            .files
            .push(FileItem::new("x"));
        assert_eq!(
            render_fresh(&f).unwrap(),
            "[[presets.a.files]]\npath = \"x\"\n"
        );
        f.project.set("budget", 5);
        assert!(
            render_fresh(&f)
                .unwrap()
                .starts_with("[project]\nbudget = 5\n")
        );
    }

    mod random_edits {
        use super::*;
        use crate::core::model::MaskState;
        use proptest::prelude::*;

        const BASE: &str = r#"# team file

[presets.blocks]   # array-of-tables form
description = "d"
# first entry
[[presets.blocks.files]]
view_mode = "masked"
path = "a.py"
ast_mask = { "A.f" = "def" }

[[presets.blocks.files]]
path = "b.c"
force_full = false

[presets.inline]
files = [
    "c.py",   # bare
    { path = "d.py", view_mode = "outline" },
]

[project]
budget = 5 # small
"#;

        #[derive(Debug, Clone)]
        enum Op {
            Add(usize, usize),
            Remove(usize, usize),
            Mode(usize, usize, usize),
            Mask(usize, usize, usize, usize),
            NewPreset(usize),
            Rename(usize, usize),
            Delete(usize),
            Budget(Option<usize>),
        }

        fn op() -> impl Strategy<Value = Op> {
            prop_oneof![
                (0..4usize, 0..6usize).prop_map(|(p, n)| Op::Add(p, n)),
                (0..4usize, 0..4usize).prop_map(|(p, i)| Op::Remove(p, i)),
                (0..4usize, 0..4usize, 0..7usize).prop_map(|(p, i, m)| Op::Mode(p, i, m)),
                (0..4usize, 0..4usize, 0..3usize, 0..4usize)
                    .prop_map(|(p, i, s, m)| Op::Mask(p, i, s, m)),
                (0..4usize).prop_map(Op::NewPreset),
                (0..4usize, 0..4usize).prop_map(|(p, n)| Op::Rename(p, n)),
                (0..4usize).prop_map(Op::Delete),
                proptest::option::of(0..100usize).prop_map(Op::Budget),
            ]
        }

        const NAMES: [&str; 4] = ["blocks", "inline", "new one", "x"];

        fn apply(f: &mut ProjectFile, op: &Op) {
            let names: Vec<String> = f.presets.keys().cloned().collect();
            let pick = |p: usize| names.get(p % names.len().max(1)).cloned();
            match *op {
                Op::Add(p, n) => {
                    if let Some(name) = pick(p) {
                        let path = format!("new/{n}.py");
                        let files = &mut f.presets.get_mut(&name).unwrap().files;
                        if !files.iter().any(|i| i.path == path) {
                            files.push(FileItem::new(path));
                        }
                    }
                }
                Op::Remove(p, i) => {
                    if let Some(name) = pick(p) {
                        let files = &mut f.presets.get_mut(&name).unwrap().files;
                        if i < files.len() {
                            files.remove(i);
                        }
                    }
                }
                Op::Mode(p, i, m) => {
                    if let Some(name) = pick(p)
                        && let Some(item) = f.presets.get_mut(&name).unwrap().files.get_mut(i)
                    {
                        item.view_mode = ViewMode::ALL[m % ViewMode::ALL.len()];
                    }
                }
                Op::Mask(p, i, s, m) => {
                    if let Some(name) = pick(p)
                        && let Some(item) = f.presets.get_mut(&name).unwrap().files.get_mut(i)
                    {
                        let state = MaskState::ALL[m % MaskState::ALL.len()];
                        item.ast_mask.insert(["A.f", "A.g", "B"][s].into(), state);
                        item.view_mode = ViewMode::Masked;
                    }
                }
                Op::NewPreset(n) => {
                    let preset = f.presets.values().next().cloned().unwrap_or_default();
                    f.presets.entry(NAMES[n].into()).or_insert(preset);
                }
                Op::Rename(p, n) => {
                    if let Some(name) = pick(p)
                        && !f.presets.contains_key(NAMES[n])
                    {
                        let preset = f.presets.remove(&name).unwrap();
                        f.presets.insert(NAMES[n].into(), preset);
                    }
                }
                Op::Delete(p) => {
                    if let Some(name) = pick(p) {
                        f.presets.remove(&name);
                    }
                }
                Op::Budget(Some(b)) => f.project.set("budget", b as i64),
                Op::Budget(None) => {
                    f.project.remove("budget");
                }
            }
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(200))]
            /// Any sequence of edits, each saved over the text the last
            /// save wrote, merges into text that reads back as the model
            /// (never the clean-layout fallback) and keeps the file's head.
            #[test]
            fn every_edit_merges(ops in proptest::collection::vec(op(), 1..8)) {
                let mut text = BASE.to_string();
                let mut file = parse(BASE);
                for op in &ops {
                    let mut next = file.clone();
                    apply(&mut next, op);
                    let merged = merge_text(&text, &file, &next).unwrap();
                    prop_assert!(merged.is_some(), "{op:?} on\n{text}");
                    text = merged.unwrap_or_default();
                    file = next;
                    prop_assert!(text.starts_with("# team file\n"), "{text}");
                }
            }
        }
    }
}
