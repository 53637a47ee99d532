//! The parts of a preset that are not files: screenshots, the discussion
//! history (with its compaction points) and the task. Pure edits over a
//! [`Preset`], called by `ctxcurate discuss|shot|task` and by the TUI's
//! `e`, `E`, `ctrl-k` and Space on an image, so both front ends store the
//! same thing the same way.
//!
//! Nothing here reads the disk: a screenshot's path is checked lexically
//! (relative, `/`-separated, no `.`/`..`, an image extension); whether the
//! file exists and stays inside the root through its links is the front
//! ends' check (`core::paths::confine`). A likely secret in a message or
//! the task is found here ([`secrets_in`]); the CLI refuses it unless told
//! otherwise, the TUI keeps it and warns.

use crate::core::model::{DiscussionEntry, Preset};
use crate::core::secret_scan::scan;
use crate::text::words::plural;

use super::CurationError;

/// The file extensions a screenshot may have (compared ignoring case).
pub const IMAGE_EXTENSIONS: &[&str] = &["png", "jpg", "jpeg", "gif", "webp", "svg"];

/// The role a message gets when none is named.
pub const DEFAULT_ROLE: &str = "User";

/// What a compaction point without a summary says in its place.
pub const NO_SUMMARY: &str = "(the discussion before this point is left out)";

/// The longest role accepted.
const MAX_ROLE: usize = 32;

/// Whether `path` names an image by its extension.
pub fn is_image(path: &str) -> bool {
    path.rsplit_once('.')
        .filter(|(stem, _)| !stem.is_empty() && !stem.ends_with('/'))
        .is_some_and(|(_, ext)| {
            IMAGE_EXTENSIONS
                .iter()
                .any(|known| ext.eq_ignore_ascii_case(known))
        })
}

/// `rel` is a path a preset may store as a screenshot: relative to the
/// root, `/`-separated, without `.`, `..` or empty components, naming an
/// image.
pub fn check_screenshot_path(rel: &str) -> Result<(), CurationError> {
    let outside = || CurationError::OutsideRoot(rel.to_string());
    if rel.is_empty()
        || rel.starts_with('/')
        || rel.contains('\\')
        || rel.contains('\0')
        || rel.as_bytes().get(1) == Some(&b':')
    {
        return Err(outside());
    }
    if rel
        .split('/')
        .any(|c| c.is_empty() || c == "." || c == "..")
    {
        return Err(outside());
    }
    if !is_image(rel) {
        return Err(CurationError::NotAnImage(rel.to_string()));
    }
    Ok(())
}

/// Whether the preset lists `rel` as a screenshot.
pub fn is_screenshot(preset: &Preset, rel: &str) -> bool {
    preset.screenshots.iter().any(|s| s == rel)
}

/// Add `rel` to the screenshots (last); `false` when it was there already.
pub fn add_screenshot(preset: &mut Preset, rel: &str) -> Result<bool, CurationError> {
    check_screenshot_path(rel)?;
    if is_screenshot(preset, rel) {
        return Ok(false);
    }
    preset.screenshots.push(rel.to_string());
    Ok(true)
}

/// Remove `rel` from the screenshots; `false` when it was not there.
pub fn remove_screenshot(preset: &mut Preset, rel: &str) -> bool {
    let before = preset.screenshots.len();
    preset.screenshots.retain(|s| s != rel);
    preset.screenshots.len() != before
}

/// Add `rel` if it is not a screenshot, else remove it; whether it is one
/// afterwards.
pub fn toggle_screenshot(preset: &mut Preset, rel: &str) -> Result<bool, CurationError> {
    if remove_screenshot(preset, rel) {
        return Ok(false);
    }
    add_screenshot(preset, rel)
}

/// `role` as stored: one plain word (letters, digits, `-`, `_`); `user`
/// and `assistant` in any case become `User` and `Assistant`. The
/// compaction role is refused (a compaction point is
/// [`add_compaction`]'s).
pub fn normalize_role(role: &str) -> Result<String, CurationError> {
    let role = role.trim();
    let plain = !role.is_empty()
        && role.chars().count() <= MAX_ROLE
        && role
            .chars()
            .all(|c| c.is_alphanumeric() || c == '-' || c == '_');
    if !plain || role.eq_ignore_ascii_case(DiscussionEntry::COMPACTION) {
        return Err(CurationError::BadRole(role.to_string()));
    }
    Ok(match role.to_ascii_lowercase().as_str() {
        "user" => "User".to_string(),
        "assistant" => "Assistant".to_string(),
        _ => role.to_string(),
    })
}

/// Append a message; how many messages the discussion has afterwards.
/// The text is stored without trailing whitespace; a blank one is refused.
pub fn add_message(preset: &mut Preset, role: &str, text: &str) -> Result<usize, CurationError> {
    let role = normalize_role(role)?;
    let content = text.trim_end();
    if content.trim().is_empty() {
        return Err(CurationError::EmptyMessage);
    }
    preset.discussion.push(entry(role, content));
    Ok(preset.discussion.len())
}

/// Append a compaction point: the rendered history starts at it, with
/// `summary` standing for what came before ([`NO_SUMMARY`] when blank);
/// how many entries the discussion has afterwards. Without a summary
/// there must be messages since the last compaction point to drop.
pub fn add_compaction(preset: &mut Preset, summary: &str) -> Result<usize, CurationError> {
    let summary = match summary.trim() {
        "" if messages_since_compaction(preset) == 0 => {
            return Err(CurationError::NothingToCompact);
        }
        "" => NO_SUMMARY,
        text => text,
    };
    preset
        .discussion
        .push(entry(DiscussionEntry::COMPACTION.to_string(), summary));
    Ok(preset.discussion.len())
}

/// The messages after the last compaction point: those the rendered
/// history shows (before `max_messages` applies).
pub fn messages_since_compaction(preset: &Preset) -> usize {
    preset
        .discussion
        .iter()
        .rev()
        .take_while(|e| e.role != DiscussionEntry::COMPACTION)
        .count()
}

/// Remove every message; how many there were.
pub fn clear_discussion(preset: &mut Preset) -> usize {
    std::mem::take(&mut preset.discussion).len()
}

/// Set the task (trimmed; empty clears it); whether it changed.
pub fn set_task(preset: &mut Preset, text: &str) -> bool {
    let task = text.trim();
    if preset.task == task {
        return false;
    }
    preset.task = task.to_string();
    true
}

/// The messages that are not compaction points.
pub fn message_count(preset: &Preset) -> usize {
    preset
        .discussion
        .iter()
        .filter(|e| e.role != DiscussionEntry::COMPACTION)
        .count()
}

/// What a likely secret in `text` looks like, for an error or a warning
/// (`"1 likely secret, first line 2: AWS access key AKIA…"`); `None`
/// when the scan finds nothing. The secret is shown masked only.
pub fn secrets_in(text: &str) -> Option<String> {
    let hits = scan(text);
    let first = hits.first()?;
    Some(format!(
        "{}, first line {}: {} {}",
        plural(hits.len(), "likely secret"),
        first.line,
        first.kind,
        first.masked
    ))
}

/// The text an editor opens to write a message: a `role:` line, then the
/// message below it.
pub fn message_template(role: &str) -> String {
    format!("role: {role}\n\n")
}

/// A message written in [`message_template`]'s form: its role and text.
/// `None` when the text is blank (the user cancelled). Without a leading
/// `role:` line the whole text is a [`DEFAULT_ROLE`] message.
pub fn parse_message(written: &str) -> Option<(String, String)> {
    let (role, body) = match written.split_once('\n') {
        Some((first, rest)) => match first.trim().strip_prefix("role:") {
            Some(role) => (role.trim(), rest),
            None => (DEFAULT_ROLE, written),
        },
        None => match written.trim().strip_prefix("role:") {
            Some(role) => (role.trim(), ""),
            None => (DEFAULT_ROLE, written),
        },
    };
    let body = body.trim_start_matches(['\n', '\r']).trim_end();
    if body.trim().is_empty() {
        return None;
    }
    let role = if role.is_empty() { DEFAULT_ROLE } else { role };
    Some((role.to_string(), body.to_string()))
}

fn entry(role: String, content: &str) -> DiscussionEntry {
    DiscussionEntry {
        role,
        content: content.to_string(),
        extra: Default::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_are_known_by_extension_in_any_case() {
        for p in ["a.png", "d/b.JPG", "c.jpeg", "x.gif", "y.webp", "z.Svg"] {
            assert!(is_image(p), "{p}");
        }
        for p in ["a.py", "png", ".png", "d/.png", "a.png.txt", "a."] {
            assert!(!is_image(p), "{p}");
        }
    }

    #[test]
    fn a_screenshot_path_stays_relative_and_inside() {
        assert_eq!(check_screenshot_path("docs/shot.png"), Ok(()));
        for p in [
            "",
            "/etc/x.png",
            "../x.png",
            "a/../../x.png",
            "./x.png",
            "a//x.png",
            "a\\x.png",
            "C:x.png",
        ] {
            assert_eq!(
                check_screenshot_path(p),
                Err(CurationError::OutsideRoot(p.into())),
                "{p:?}"
            );
        }
        assert_eq!(
            check_screenshot_path("notes.txt"),
            Err(CurationError::NotAnImage("notes.txt".into()))
        );
    }

    #[test]
    fn screenshots_toggle_without_duplicates_and_leave_no_trace() {
        let mut p = Preset::default();
        assert_eq!(add_screenshot(&mut p, "a.png"), Ok(true));
        assert_eq!(add_screenshot(&mut p, "a.png"), Ok(false));
        assert_eq!(add_screenshot(&mut p, "b.svg"), Ok(true));
        assert_eq!(p.screenshots, ["a.png", "b.svg"]);
        assert_eq!(toggle_screenshot(&mut p, "a.png"), Ok(false));
        assert_eq!(toggle_screenshot(&mut p, "a.png"), Ok(true));
        assert_eq!(p.screenshots, ["b.svg", "a.png"]);
        assert!(remove_screenshot(&mut p, "b.svg"));
        assert!(!remove_screenshot(&mut p, "b.svg"));
        assert!(remove_screenshot(&mut p, "a.png"));
        assert_eq!(p, Preset::default());
        assert!(toggle_screenshot(&mut p, "../up.png").is_err());
        assert_eq!(p, Preset::default());
    }

    #[test]
    fn roles_are_one_plain_word() {
        assert_eq!(normalize_role("user").as_deref(), Ok("User"));
        assert_eq!(normalize_role(" ASSISTANT ").as_deref(), Ok("Assistant"));
        assert_eq!(normalize_role("Reviewer").as_deref(), Ok("Reviewer"));
        assert_eq!(normalize_role("code-bot_2").as_deref(), Ok("code-bot_2"));
        for bad in [
            "",
            "two words",
            "a:b",
            "Compaction",
            "x\x1b[2J",
            &"r".repeat(33),
        ] {
            assert!(normalize_role(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn messages_compaction_and_clear() {
        let mut p = Preset::default();
        assert_eq!(add_message(&mut p, "user", "hello\n\n"), Ok(1));
        assert_eq!(
            add_message(&mut p, "User", " \n\t"),
            Err(CurationError::EmptyMessage)
        );
        assert_eq!(add_message(&mut p, "Assistant", "  indented\nkept"), Ok(2));
        assert_eq!(add_compaction(&mut p, "  so far: greetings \n"), Ok(3));
        assert_eq!(p.discussion[0].role, "User");
        assert_eq!(p.discussion[0].content, "hello");
        assert_eq!(p.discussion[1].content, "  indented\nkept");
        assert_eq!(p.discussion[2].role, DiscussionEntry::COMPACTION);
        assert_eq!(p.discussion[2].content, "so far: greetings");
        assert_eq!(messages_since_compaction(&p), 0);
        assert_eq!(
            add_compaction(&mut p, " \n"),
            Err(CurationError::NothingToCompact)
        );
        add_message(&mut p, "User", "more").unwrap();
        assert_eq!(messages_since_compaction(&p), 1);
        assert_eq!(add_compaction(&mut p, " \n"), Ok(5));
        assert_eq!(p.discussion[4].content, NO_SUMMARY);
        p.discussion.truncate(3);
        assert_eq!(message_count(&p), 2);
        assert_eq!(clear_discussion(&mut p), 3);
        assert_eq!(
            add_compaction(&mut p, ""),
            Err(CurationError::NothingToCompact)
        );
        assert_eq!(add_compaction(&mut p, "carried over"), Ok(1));
        clear_discussion(&mut p);
        assert_eq!(clear_discussion(&mut p), 0);
        assert_eq!(p, Preset::default());
    }

    #[test]
    fn the_task_is_trimmed_and_cleared_by_empty_text() {
        let mut p = Preset::default();
        assert!(set_task(&mut p, "  Fix the bug\n"));
        assert_eq!(p.task, "Fix the bug");
        assert!(!set_task(&mut p, "Fix the bug\n\n"));
        assert!(set_task(&mut p, "\n"));
        assert_eq!(p, Preset::default());
    }

    #[test]
    fn secrets_are_found_and_shown_masked() {
        let key = "AKIAZ7QKXR4MV2N5TWLB";
        let found = secrets_in(&format!("here\naws_access_key_id = {key}\n")).unwrap();
        assert!(found.contains("line 2"), "{found}");
        assert!(!found.contains(key), "{found}");
        assert_eq!(secrets_in("just a plain message"), None);
    }

    #[test]
    fn the_message_template_round_trips() {
        let written = format!("{}Why does it fail?\n", message_template("User"));
        assert_eq!(
            parse_message(&written),
            Some(("User".into(), "Why does it fail?".into()))
        );
        assert_eq!(
            parse_message("role: Assistant\nBecause.\n\nSee x."),
            Some(("Assistant".into(), "Because.\n\nSee x.".into()))
        );
        assert_eq!(
            parse_message("no role line\n"),
            Some(("User".into(), "no role line".into()))
        );
        assert_eq!(parse_message(&message_template("User")), None);
        assert_eq!(parse_message("role: User"), None);
        assert_eq!(parse_message(""), None);
    }
}
