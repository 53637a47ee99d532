//! The preview's raw-text view (`r`): the current file's own lines
//! instead of the composition, and marking the lines of a slice in it
//! (`v` … `v`, then its tag in a prompt).

use crate::tui::messages::{Effect, Job};
use crate::tui::navigate;
use crate::tui::state::{Level, Overlay, Prompt, State};

/// `r`: the preview switches between the composition and the current
/// file's raw text (read on the worker).
pub fn toggle_raw(state: &mut State) -> Vec<Effect> {
    state.preview.raw = !state.preview.raw;
    state.preview.slice_anchor = None;
    state.preview.highlight = None;
    state.preview.raw_text = None;
    if !state.preview.raw {
        navigate::sync_preview(state);
        return Vec::new();
    }
    match state.current_file().map(str::to_string) {
        Some(path) => {
            state.say(
                Level::Info,
                "raw text: v marks the first and last line of a slice",
            );
            vec![Effect::job(Job::Raw(path))]
        }
        None => {
            state.preview.raw = false;
            state.say(Level::Info, "no file under the cursor");
            Vec::new()
        }
    }
}

/// `v` in the raw text: the first line of a slice, then the last (which
/// asks for the slice's tag).
pub fn slice_mark(state: &mut State) -> Vec<Effect> {
    if !state.preview.raw {
        state.say(Level::Info, "r shows the file's raw text to pick a slice");
        return Vec::new();
    }
    let Some((path, _)) = state.preview.raw_text.clone() else {
        return Vec::new();
    };
    let cursor = state.preview.raw_cursor;
    match state.preview.slice_anchor.take() {
        None => {
            state.preview.slice_anchor = Some(cursor);
            state.say(
                Level::Info,
                format!("slice from line {}: move, then v again", cursor + 1),
            );
        }
        Some(anchor) => {
            let (start, end) = (anchor.min(cursor) + 1, anchor.max(cursor) + 1);
            state.overlay = Some(Overlay::Input {
                prompt: Prompt::SliceTag { path, start, end },
                buffer: String::new(),
            });
        }
    }
    Vec::new()
}
