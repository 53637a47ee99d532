//! `ctxcurate mcp --print-config`: the snippets that register the MCP
//! server (`src/mcp/`) in common MCP clients, with this binary and this
//! project filled in. The CLI prints them; the server needs none of it.

use std::io::Write;
use std::path::Path;

use anyhow::Result;

use serde_json::json;

/// `--print-config`: the client snippets for this binary and the project
/// around `cwd`.
pub fn print(cwd: &Path, out: &mut dyn Write) -> Result<()> {
    let root = ctxcurate::core::paths::find_root(cwd);
    let exe = std::env::current_exe().unwrap_or_else(|_| "ctxcurate".into());
    out.write_all(snippets(&exe, &root).as_bytes())?;
    Ok(())
}

/// The snippets for `exe` serving the project at `root`.
fn snippets(exe: &Path, root: &Path) -> String {
    let exe = exe.display().to_string();
    let root = root.display().to_string();
    let args = json!(["-C", root, "mcp"]);
    let servers = json!({"ctxcurate": {"command": exe, "args": args}});
    let pretty = |v: serde_json::Value| serde_json::to_string_pretty(&v).unwrap_or_default();
    let toml_str = |s: &str| serde_json::to_string(s).unwrap_or_default();
    format!(
        "# Claude Code (a shell command):\n\
         claude mcp add ctxcurate -- {exe_sh} -C {root_sh} mcp\n\n\
         # Cursor (.cursor/mcp.json), Claude Desktop (claude_desktop_config.json)\n\
         # and other clients with an `mcpServers` table:\n{mcp_servers}\n\n\
         # VS Code (.vscode/mcp.json):\n{vscode}\n\n\
         # Zed (settings.json):\n{zed}\n\n\
         # Codex (~/.codex/config.toml):\n\
         [mcp_servers.ctxcurate]\ncommand = {exe_toml}\nargs = [\"-C\", {root_toml}, \"mcp\"]\n\n\
         # After `mcp`: --allow-edits lets the agent change presets, --allow-secrets\n\
         # delivers contexts with likely secrets.\n",
        exe_sh = shell_word(&exe),
        root_sh = shell_word(&root),
        mcp_servers = pretty(json!({"mcpServers": servers})),
        vscode = pretty(json!({"servers": {"ctxcurate": {
            "type": "stdio", "command": exe, "args": args
        }}})),
        zed = pretty(json!({"context_servers": {"ctxcurate": {
            "command": exe, "args": args, "env": {}
        }}})),
        exe_toml = toml_str(&exe),
        root_toml = toml_str(&root),
    )
}

/// `s` as one POSIX shell word.
fn shell_word(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+:@%".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_snippets_name_the_binary_and_the_root() {
        let text = snippets(Path::new("/usr/bin/ctxcurate"), Path::new("/src/my app"));
        assert!(
            text.contains("claude mcp add ctxcurate -- /usr/bin/ctxcurate -C '/src/my app' mcp")
        );
        assert!(text.contains("\"mcpServers\""));
        assert!(text.contains("args = [\"-C\", \"/src/my app\", \"mcp\"]"));
        // Zed, which the README lists, has its snippet too.
        let zed = text
            .split("# Zed (settings.json):\n")
            .nth(1)
            .and_then(|rest| rest.split("\n\n").next())
            .expect("a Zed snippet");
        let zed: serde_json::Value = serde_json::from_str(zed).expect("JSON");
        assert_eq!(
            zed["context_servers"]["ctxcurate"]["args"],
            json!(["-C", "/src/my app", "mcp"])
        );
    }
}
