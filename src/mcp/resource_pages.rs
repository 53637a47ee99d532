//! `resources/list` in pages: the presets' resources cut into pages that
//! each stay within `--max-result` bytes, the next one named by an opaque
//! cursor (MCP's `nextCursor`, handed back as the request's `cursor`).
//! 20,000 presets made one 3.2 MB reply (sweep 12, N5). A project whose
//! resources fit gets them all in one page with no cursor, as before.
//!
//! The resources come sorted by URI, and the cursor names the last one a
//! page held (`presets-after:HEX`, the URI's bytes in hex): the server
//! keeps no state, and a preset added or removed between two pages moves
//! no other preset across the cut, so none is listed twice or skipped.

use rmcp::model::Resource;

use super::request::shown_name;
use ctxcurate::core::tokens::hex;

/// What a cursor starts with (the rest is a URI in hex).
const CURSOR_PREFIX: &str = "presets-after:";

/// Bytes of a page kept for what surrounds its resources: the result's
/// object, `nextCursor`, and the JSON-RPC frame.
const ENVELOPE: usize = 200;

/// One page of resources, and the cursor of the next page if there is one.
#[derive(Debug)]
pub struct Page {
    pub resources: Vec<Resource>,
    pub next_cursor: Option<String>,
}

/// The page of `all` that `cursor` names (`None`: the first), holding as
/// many resources as fit in `max_bytes` of JSON, at least one. A cursor
/// this server did not hand out is an error saying so.
pub fn page(
    mut all: Vec<Resource>,
    cursor: Option<&str>,
    max_bytes: usize,
) -> Result<Page, String> {
    all.sort_by(|a, b| a.uri.cmp(&b.uri));
    let start = match cursor {
        None => 0,
        Some(c) => {
            let after = after_of(c)?;
            all.partition_point(|r| r.uri.as_str() <= after.as_str())
        }
    };
    let budget = max_bytes.saturating_sub(ENVELOPE);
    let mut used = 0;
    let mut resources = Vec::new();
    for resource in all.iter().skip(start) {
        // A resource that cannot be written costs nothing here; the
        // protocol layer reports it.
        let size = serde_json::to_string(resource).map_or(0, |s| s.len() + 1);
        if !resources.is_empty() && used + size > budget {
            break;
        }
        used += size;
        resources.push(resource.clone());
    }
    let more = start + resources.len() < all.len();
    let next_cursor = match resources.last() {
        Some(last) if more => Some(format!("{CURSOR_PREFIX}{}", hex(last.uri.as_bytes()))),
        _ => None,
    };
    Ok(Page {
        resources,
        next_cursor,
    })
}

/// The URI a cursor this server hands out names: the page starts after it.
fn after_of(cursor: &str) -> Result<String, String> {
    cursor
        .strip_prefix(CURSOR_PREFIX)
        .and_then(unhex)
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .filter(|uri| !uri.is_empty())
        .ok_or_else(|| {
            format!(
                "invalid cursor `{}` for resources/list: pass the nextCursor of the \
                 previous page, or no cursor for the first page",
                shown_name(cursor)
            )
        })
}

/// The bytes that lowercase hex `s` spells, if it spells any.
fn unhex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    let digit = |c: u8| match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        _ => None,
    };
    s.as_bytes()
        .chunks(2)
        .map(|pair| Some(digit(pair[0])? << 4 | digit(pair[1])?))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resources(n: usize) -> Vec<Resource> {
        (0..n)
            .map(|i| Resource::new(format!("ctxcurate://preset/p{i}"), format!("p{i}")))
            .collect()
    }

    #[test]
    fn resources_that_fit_come_in_one_page_without_a_cursor() {
        let page = page(resources(3), None, 100_000).unwrap();
        assert_eq!(page.resources.len(), 3);
        assert_eq!(page.next_cursor, None);
    }

    #[test]
    fn the_cursors_walk_every_resource_once_within_the_bound() {
        let all = resources(100);
        let mut cursor = None;
        let mut names = Vec::new();
        loop {
            let page = page(all.clone(), cursor.as_deref(), 1_000).unwrap();
            let json = serde_json::to_string(&page.resources).unwrap();
            assert!(json.len() + ENVELOPE <= 1_000, "{} bytes", json.len());
            names.extend(page.resources.into_iter().map(|r| r.name));
            match page.next_cursor {
                Some(next) => cursor = Some(next),
                None => break,
            }
        }
        let mut expected: Vec<String> = (0..100).map(|i| format!("p{i}")).collect();
        expected.sort();
        assert_eq!(names, expected);
    }

    #[test]
    fn a_page_holds_one_resource_even_when_it_is_over_the_bound() {
        let page = page(resources(2), None, 10).unwrap();
        assert_eq!(page.resources.len(), 1);
        let cursor = page.next_cursor.expect("a second page");
        let second = super::page(resources(2), Some(&cursor), 10).unwrap();
        assert_eq!(second.resources[0].name, "p1");
        assert_eq!(second.next_cursor, None);
    }

    #[test]
    fn a_cursor_the_server_did_not_hand_out_is_an_error() {
        for bad in [
            "",
            "nonsense",
            "presets:1",
            "presets-after:",
            "presets-after:7",
            "presets-after:zz",
            "presets-after:C3A9",
            "presets-after:ff",
        ] {
            let err = page(resources(3), Some(bad), 1_000).unwrap_err();
            assert!(err.contains("invalid cursor"), "{bad:?}: {err}");
        }
        let err = page(resources(3), Some("\u{1b}[2J"), 1_000).unwrap_err();
        assert!(!err.contains('\u{1b}'), "{err}");
    }

    #[test]
    fn a_preset_added_or_removed_between_pages_moves_no_other_across_the_cut() {
        let all = resources(20);
        let first = page(all.clone(), None, 600).unwrap();
        let cursor = first.next_cursor.clone().expect("a second page");
        let listed: Vec<String> = first.resources.iter().map(|r| r.name.clone()).collect();
        let last = listed.last().cloned().unwrap();

        // Between the pages, a preset before the cut goes, the cut's own
        // one goes, and a new one sorts before the cut.
        let changed: Vec<Resource> = all
            .into_iter()
            .filter(|r| r.name != listed[0] && r.name != last)
            .chain([Resource::new("ctxcurate://preset/a-new", "a-new")])
            .collect();
        let mut rest = Vec::new();
        let mut next = Some(cursor);
        while let Some(c) = next {
            let p = page(changed.clone(), Some(&c), 600).unwrap();
            rest.extend(p.resources.into_iter().map(|r| r.name));
            next = p.next_cursor;
        }
        let mut expected: Vec<String> = (0..20)
            .map(|i| format!("p{i}"))
            .filter(|n| !listed.contains(n))
            .collect();
        expected.sort();
        assert_eq!(rest, expected);
    }
}
