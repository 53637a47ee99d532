//! `resources/list` in pages: the presets' resources cut into pages that
//! each stay within `--max-result` bytes, the next one named by an opaque
//! cursor (MCP's `nextCursor`, handed back as the request's `cursor`).
//! 20,000 presets made one 3.2 MB reply (sweep 12, N5). A project whose
//! resources fit gets them all in one page with no cursor, as before.
//!
//! The cursor is the index of the page's first preset in the sorted list
//! (`presets:N`): the server keeps no state, and a list that changed
//! between pages shifts at most what the next page starts with.

use rmcp::model::Resource;

use super::request::shown_name;

/// What a cursor starts with (the rest is the index of a preset).
const CURSOR_PREFIX: &str = "presets:";

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
pub fn page(all: Vec<Resource>, cursor: Option<&str>, max_bytes: usize) -> Result<Page, String> {
    let start = match cursor {
        None => 0,
        Some(c) => start_of(c, all.len())?,
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
    let end = start + resources.len();
    Ok(Page {
        resources,
        next_cursor: (end < all.len()).then(|| format!("{CURSOR_PREFIX}{end}")),
    })
}

/// The index `cursor` starts at, when it is one this server hands out for
/// a list of `len` resources.
fn start_of(cursor: &str, len: usize) -> Result<usize, String> {
    cursor
        .strip_prefix(CURSOR_PREFIX)
        .and_then(|n| n.parse::<usize>().ok())
        .filter(|&n| n < len)
        .ok_or_else(|| {
            format!(
                "invalid cursor `{}` for resources/list: pass the nextCursor of the \
                 previous page, or no cursor for the first page",
                shown_name(cursor)
            )
        })
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
        let expected: Vec<String> = (0..100).map(|i| format!("p{i}")).collect();
        assert_eq!(names, expected);
    }

    #[test]
    fn a_page_holds_one_resource_even_when_it_is_over_the_bound() {
        let page = page(resources(2), None, 10).unwrap();
        assert_eq!(page.resources.len(), 1);
        assert_eq!(page.next_cursor.as_deref(), Some("presets:1"));
    }

    #[test]
    fn a_cursor_the_server_did_not_hand_out_is_an_error() {
        for bad in [
            "",
            "nonsense",
            "presets:",
            "presets:-1",
            "presets:3",
            "presets:99",
        ] {
            let err = page(resources(3), Some(bad), 1_000).unwrap_err();
            assert!(err.contains("invalid cursor"), "{bad:?}: {err}");
        }
        let err = page(resources(3), Some("\u{1b}[2J"), 1_000).unwrap_err();
        assert!(!err.contains('\u{1b}'), "{err}");
    }
}
