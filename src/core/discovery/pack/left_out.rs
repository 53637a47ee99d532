//! What a pack left out, and the `## Left out` note that names it in the
//! output (docs/ARCHITECTURE.md, "Discovery"). A model that is not told
//! what exists asks for nothing, and a user who is not told wonders where
//! a file went: so the candidates dropped for lack of room are named after
//! the repo map, with what each would have taken at its cheapest, up to
//! [`LISTED`] by name and a count for the rest. The note is a section like
//! the map (`compose::options::Sections::left_out` places it), in Markdown
//! or XML, and counted in the budget: the pack keeps [`reserve`] for it
//! while it fits the files, and the map takes what the note does not use.
//! The files the preset excludes and the credential files are the user's
//! own choice and never named here; the stats list them with the rest
//! ([`Dropped`]).

use std::fmt::Write;

use serde::Serialize;

use crate::core::compose::xml::{Kind, escape};
use crate::core::model::Format;
use crate::text::sanitize::escape_line;
use crate::text::words::{plural, thousands};

use super::{PackedItem, Role};

/// How many dropped files the note names; the rest are counted.
pub const LISTED: usize = 10;

/// Why a file the targets reach is not in the output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Why {
    /// It did not fit the budget, even reduced.
    Budget,
    /// The preset excludes it.
    Excluded,
    /// A credential file by name.
    Sensitive,
    /// Discovery brought it in, and it holds a likely secret.
    Secret,
}

/// A file left out, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Dropped {
    pub path: String,
    /// Its role in the pack (`None`: never a candidate, as an excluded file).
    pub role: Option<Role>,
    pub why: Why,
    /// What it would have taken at its cheapest (for [`Why::Budget`], when
    /// it was tried).
    pub tokens: Option<usize>,
    /// Where its likely secret is (`a.py:3`, for [`Why::Secret`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
}

/// The candidates dropped for lack of room, in rank order (not those
/// left out for what they are, binary or oversize, which have no size;
/// those past the pack's source bound are, without a size).
pub fn for_budget(items: &[PackedItem]) -> Vec<Dropped> {
    items
        .iter()
        .filter(|i| i.mode.is_none() && (i.needs.is_some() || i.unreduced))
        .map(|i| Dropped {
            path: i.path.clone(),
            role: Some(i.role),
            why: Why::Budget,
            tokens: i.needs,
            at: None,
        })
        .collect()
}

/// The files the preset excludes and the credential files, as left out.
pub fn by_choice(excluded: &[String], sensitive: &[String]) -> Vec<Dropped> {
    let one = |why: Why| {
        move |path: &String| Dropped {
            path: path.clone(),
            role: None,
            why,
            tokens: None,
            at: None,
        }
    };
    excluded
        .iter()
        .map(one(Why::Excluded))
        .chain(sensitive.iter().map(one(Why::Sensitive)))
        .collect()
}

/// The discovered files held for a likely secret (path → where), as left
/// out.
pub fn held(held: &std::collections::BTreeMap<String, String>) -> Vec<Dropped> {
    held.iter()
        .map(|(path, at)| Dropped {
            path: path.clone(),
            role: None,
            why: Why::Secret,
            tokens: None,
            at: Some(at.clone()),
        })
        .collect()
}

/// The note for the files of `dropped` left out for lack of room, in
/// `format`; `None` when none was.
pub fn render(dropped: &[Dropped], format: Format) -> Option<String> {
    render_naming(dropped, format, LISTED)
}

/// [`render`] naming at most `listed` files (0: a count alone, the
/// note's shortest form, when a tight budget has no room for names).
pub fn render_naming(dropped: &[Dropped], format: Format, listed: usize) -> Option<String> {
    let budget: Vec<&Dropped> = dropped.iter().filter(|d| d.why == Why::Budget).collect();
    if budget.is_empty() {
        return None;
    }
    let (named, rest) = budget.split_at(budget.len().min(listed));
    // A lower bound: files left out past the pack's source bound have no
    // size (`PackedItem::unreduced`); when none has, no count is given.
    let rest_tokens: usize = rest.iter().filter_map(|d| d.tokens).sum();
    let sized = rest.iter().any(|d| d.tokens.is_some());
    let mut out = String::new();
    match format {
        Format::Markdown => {
            out.push_str("## Left out\n\nNot included, for lack of room (ask for them if needed):");
            for d in named {
                let _ = write!(out, "\n- `{}`", escape_line(&d.path));
                if let Some(tokens) = d.tokens {
                    let _ = write!(out, " (at least {} tokens)", thousands(tokens));
                }
            }
            if !rest.is_empty() {
                let more = if named.is_empty() { "" } else { "and " };
                let _ = write!(out, "\n- {more}{}", plural(rest.len(), "file"));
                if sized {
                    let _ = write!(out, " ({} tokens at least)", thousands(rest_tokens));
                }
            }
        }
        Format::Xml => {
            out.push_str("<left_out reason=\"budget\">\n");
            for d in named {
                match d.tokens {
                    Some(tokens) => {
                        let _ = write!(out, "<file tokens=\"{tokens}\">");
                    }
                    None => out.push_str("<file>"),
                }
                let _ = writeln!(out, "{}</file>", escape(&d.path, Kind::Field));
            }
            if !rest.is_empty() {
                let _ = write!(out, "<more files=\"{}\"", rest.len());
                if sized {
                    let _ = write!(out, " tokens=\"{rest_tokens}\"");
                }
                out.push_str("/>\n");
            }
            out.push_str("</left_out>");
        }
    }
    Some(out)
}

/// A note at least as long as any the pack can write over `paths` (its
/// candidates): the [`LISTED`] longest named with the largest sizes, and a
/// count; the pack keeps its count free while it fits the files.
pub fn upper_bound(paths: &[&str], format: Format) -> Option<String> {
    let mut longest: Vec<&str> = paths.to_vec();
    longest.sort_by_key(|p| std::cmp::Reverse(p.len()));
    let mut bound: Vec<Dropped> = longest
        .iter()
        .take(LISTED)
        .map(|p| Dropped {
            path: p.to_string(),
            role: None,
            why: Why::Budget,
            tokens: Some(99_999_999),
            at: None,
        })
        .collect();
    if paths.len() > LISTED {
        bound.extend(longest.iter().skip(LISTED).take(1).map(|p| Dropped {
            path: p.to_string(),
            role: None,
            why: Why::Budget,
            tokens: Some(99_999_999),
            at: None,
        }));
    }
    render(&bound, format)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dropped(path: &str, tokens: usize) -> Dropped {
        Dropped {
            path: path.to_string(),
            role: Some(Role::Import),
            why: Why::Budget,
            tokens: Some(tokens),
            at: None,
        }
    }

    #[test]
    fn markdown_names_each_file_with_its_cheapest_size() {
        let note = render(
            &[dropped("a.py", 1234), dropped("pkg/b.py", 7)],
            Format::Markdown,
        );
        assert_eq!(
            note.as_deref(),
            Some(
                "## Left out\n\nNot included, for lack of room (ask for them if needed):\n\
                 - `a.py` (at least 1,234 tokens)\n- `pkg/b.py` (at least 7 tokens)"
            )
        );
    }

    #[test]
    fn past_the_limit_a_count_and_only_budget_drops() {
        let mut all: Vec<Dropped> = (0..LISTED + 3)
            .map(|i| dropped(&format!("f{i}.py"), 100))
            .collect();
        all.extend(by_choice(&["secret_stuff.py".into()], &[".env".into()]));
        let note = render(&all, Format::Markdown).unwrap_or_default();
        assert!(
            note.ends_with(&format!(
                "- `f{}.py` (at least 100 tokens)\n- and 3 files (300 tokens at least)",
                LISTED - 1
            )),
            "{note}"
        );
        assert!(!note.contains("secret_stuff") && !note.contains(".env"));
        assert_eq!(render(&all[LISTED + 3..], Format::Markdown), None);
        assert_eq!(render(&[], Format::Xml), None);
    }

    #[test]
    fn files_without_a_size_are_named_and_counted_without_one() {
        let no_size = |path: &str| Dropped {
            tokens: None,
            ..dropped(path, 0)
        };
        let mut all: Vec<Dropped> = (0..LISTED + 2)
            .map(|i| no_size(&format!("u{i}.py")))
            .collect();
        let note = render(&all, Format::Markdown).unwrap_or_default();
        assert!(note.ends_with("- `u9.py`\n- and 2 files"), "{note}");
        let xml = render(&all, Format::Xml).unwrap_or_default();
        assert!(xml.contains("<file>u0.py</file>\n") && xml.contains("<more files=\"2\"/>\n"));
        // With a sized file among the rest, its size is the lower bound.
        all.push(dropped("s.py", 70));
        let note = render(&all, Format::Markdown).unwrap_or_default();
        assert!(
            note.ends_with("- and 3 files (70 tokens at least)"),
            "{note}"
        );
        let xml = render(&all, Format::Xml).unwrap_or_default();
        assert!(xml.contains("<more files=\"3\" tokens=\"70\"/>"), "{xml}");
    }

    #[test]
    fn a_binary_or_oversize_file_is_not_left_out_for_room() {
        use crate::core::model::ViewMode;
        let item = |path: &str, mode: Option<ViewMode>, needs: Option<usize>| PackedItem {
            path: path.to_string(),
            role: Role::Import,
            wanted: ViewMode::Full,
            mode,
            tokens: 0,
            needs,
            unreduced: false,
            reasons: Vec::new(),
        };
        let items = [
            item("in.py", Some(ViewMode::Full), None),
            item("big.py", None, Some(40)),
            item("logo.png", None, None),
        ];
        assert_eq!(for_budget(&items), [dropped("big.py", 40)]);
    }

    #[test]
    fn xml_escapes_paths_as_fields() {
        let note = render(&[dropped("a<&\n>.py", 5)], Format::Xml);
        assert_eq!(
            note.as_deref(),
            Some(
                "<left_out reason=\"budget\">\n<file tokens=\"5\">a&lt;&amp;&#10;&gt;.py</file>\n</left_out>"
            )
        );
    }

    #[test]
    fn the_bound_is_no_shorter_than_a_note() {
        let paths: Vec<String> = (0..30).map(|i| format!("src/mod_{i}/file.py")).collect();
        let refs: Vec<&str> = paths.iter().map(String::as_str).collect();
        let all: Vec<Dropped> = paths.iter().map(|p| dropped(p, 123_456)).collect();
        for format in [Format::Markdown, Format::Xml] {
            let bound = upper_bound(&refs, format).unwrap_or_default();
            let note = render(&all, format).unwrap_or_default();
            assert!(bound.len() >= note.len(), "{bound}\n{note}");
        }
        assert_eq!(upper_bound(&[], Format::Markdown), None);
    }
}
