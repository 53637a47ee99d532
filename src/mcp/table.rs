//! The tool table: each tool's name, its one-line description written for
//! a model, its JSON schema (derived from its arguments in `args`) and its
//! hints (read-only, or an edit); the editing tools only with
//! `--allow-edits`.

use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use schemars::JsonSchema;

use super::args::{
    BuildArgs, ChangedArgs, ExcludeArgs, IncludeArgs, MaskArgs, MoreArgs, NoArgs, PackArgs,
    SavePresetArgs, SetModeArgs, SymbolsArgs, TokenMapArgs, ViewArgs,
};

/// One tool of the table.
fn tool<T: JsonSchema + 'static>(name: &'static str, description: &'static str) -> Tool {
    Tool::new(name, description, JsonObject::new())
        .with_input_schema::<T>()
        .with_annotations(ToolAnnotations::new().read_only(true).open_world(false))
}

/// One tool that changes a preset.
fn edit_tool<T: JsonSchema + 'static>(name: &'static str, description: &'static str) -> Tool {
    Tool::new(name, description, JsonObject::new())
        .with_input_schema::<T>()
        .with_annotations(
            ToolAnnotations::new()
                .read_only(false)
                .destructive(false)
                .idempotent(true)
                .open_world(false),
        )
}

/// The tools that change a preset, offered with `--allow-edits`.
pub const EDIT_TOOLS: &[&str] = &["include", "exclude", "set_mode", "mask", "save_preset"];

/// Every tool the server offers (the editing ones only when allowed).
pub fn table(allow_edits: bool) -> Vec<Tool> {
    let mut tools = read_only_tools();
    if allow_edits {
        tools.extend([
            edit_tool::<IncludeArgs>(
                "include",
                "Add files, folders or globs to a preset (saved to ctxcurate.toml, comments kept).",
            ),
            edit_tool::<ExcludeArgs>(
                "exclude",
                "Take files, folders or globs out of a preset (saved to ctxcurate.toml).",
            ),
            edit_tool::<SetModeArgs>(
                "set_mode",
                "Set how one file of a preset renders: full, summary, skeleton, outline, \
                 masked, custom or none.",
            ),
            edit_tool::<MaskArgs>(
                "mask",
                "Set how one symbol of a file renders in a preset (def, sig, agg or hide); \
                 the file switches to the masked view.",
            ),
            edit_tool::<SavePresetArgs>(
                "save_preset",
                "Save the active preset under a new name and make that the active preset.",
            ),
        ]);
    }
    tools
}

fn read_only_tools() -> Vec<Tool> {
    vec![
        tool::<NoArgs>(
            "list_presets",
            "List the project's curated presets (named file selections with per-file view \
             modes): name, description, whether active, file count and token total.",
        ),
        tool::<BuildArgs>(
            "build",
            "Build LLM-ready context from a curated preset (default: the active one) or from \
             files/globs you name; returns the text, then its stats (files, tokens, what was \
             left out). Targets, a budget, or a task with no preset files make it pack.",
        ),
        tool::<PackArgs>(
            "pack",
            "Pack context around target files and/or a task into a token budget: a task \
             alone ranks every project file for it (its words, the paths and identifiers it \
             names, the import graph) and packs the best, large ones reduced to what the task \
             is about; targets come in full with their imports; a repo map follows. Returns \
             the text and the packing report (each pick with its reasons).",
        ),
        tool::<SymbolsArgs>(
            "symbols",
            "A Python, C or C++ file's symbol tree (classes, functions, methods with lines \
             and signatures) as JSON.",
        ),
        tool::<ViewArgs>(
            "view",
            "One file as the model would see it in a view mode (full, skeleton, outline, \
             masked with the preset's masks, ...).",
        ),
        tool::<TokenMapArgs>(
            "token_map",
            "Where a preset's tokens go: its files by tokens, largest first, with their share \
             of the budget, as JSON.",
        ),
        tool::<ChangedArgs>(
            "changed",
            "The files git sees changed (working tree and index against HEAD, or a ref) that \
             the project shows, as JSON.",
        ),
        tool::<MoreArgs>(
            "more",
            "Fetch the next part of a long result by the cursor the previous part returned.",
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn each_tool_has_one_line_for_a_model_and_an_object_schema() {
        for tool in table(true) {
            let said = tool.description.as_deref().unwrap_or_default();
            assert!(!said.is_empty() && !said.contains('\n'), "{}", tool.name);
            assert_eq!(tool.input_schema.get("type"), Some(&json!("object")));
        }
    }

    #[test]
    fn the_editing_tools_are_offered_only_when_allowed() {
        let names =
            |allow| -> Vec<String> { table(allow).iter().map(|t| t.name.to_string()).collect() };
        assert!(
            EDIT_TOOLS
                .iter()
                .all(|e| !names(false).iter().any(|n| n == e))
        );
        assert!(
            EDIT_TOOLS
                .iter()
                .all(|e| names(true).iter().any(|n| n == e))
        );
    }
}
