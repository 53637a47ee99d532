//! What a Node.js package runner reads besides `package.json` that runs
//! code: its config files (`.npmrc`'s `node-options=--require
//! ./tools/x.js` and `script-shell`, `.yarnrc.yml`'s `yarnPath`,
//! `bunfig.toml`'s `preload`), read from where it runs up to the root,
//! and the programs of `node_modules/.bin` that a script line or `npx`
//! names by a bare name. Each config is a file a consent covers, its
//! values words of a line (so a path it names is covered too); a bin is
//! a path a line names (a link is followed to what it runs).

use std::path::Path;

use super::TaskLine;
use crate::core::module_maps::script::jsonc;

/// The config files of package runners that can make them run code.
const CONFIGS: [&str; 5] = [
    ".npmrc",
    ".yarnrc",
    ".yarnrc.yml",
    "bunfig.toml",
    ".pnpmfile.cjs",
];

/// The programs that run packages' bins by name.
const BIN_RUNNERS: [&str; 4] = ["npx", "bunx", "pnpx", "yarn"];

/// Whether `words` run a package runner (`npm`, `yarn`, `pnpm`, `bun`,
/// `npx`, …).
pub(super) fn runs_one(words: &[String]) -> bool {
    words.iter().any(|w| {
        let program = w.rsplit('/').next().unwrap_or(w);
        super::NODE_RUNNERS.contains(&program) || BIN_RUNNERS.contains(&program)
    })
}

/// The config files a package runner started in folder `dir` reads, from
/// there up to the root, each with its values as a line (not named: its
/// words name files; its patterns are no commands).
pub(super) fn configs(real_root: &Path, dir: &str) -> Vec<TaskLine> {
    let mut out = Vec::new();
    let mut here = Some(dir.to_string());
    while let Some(folder) = here {
        for name in CONFIGS {
            let rel = crate::core::module_maps::join(&folder, name);
            let Some(text) = crate::core::trust::imports::small_text(&real_root.join(&rel))
                .filter(|t| t.len() <= 1 << 20)
            else {
                continue;
            };
            out.push(TaskLine {
                config: rel,
                dir: folder.clone(),
                line: values(&text),
                named: false,
            });
        }
        here = match folder.rsplit_once('/') {
            Some((parent, _)) => Some(parent.to_string()),
            None if !folder.is_empty() => Some(String::new()),
            None => None,
        };
    }
    out
}

/// The values of a config file's settings (`key=value`, `key: value`,
/// `key = ["a", "b"]`), as blank-separated words, quotes and brackets
/// dropped.
pub(super) fn values(text: &str) -> String {
    let mut words: Vec<&str> = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with(['#', ';', '[']) {
            continue;
        }
        let value = match line.split_once(['=', ':']) {
            Some((_, value)) => value,
            // A YAML list item (`- path: ./x.cjs` is caught above).
            None => line.strip_prefix("- ").unwrap_or(""),
        };
        words.extend(
            value
                .split(|c: char| c.is_whitespace() || "\"'[],".contains(c))
                .filter(|w| !w.is_empty()),
        );
        if words.len() > 4096 {
            break;
        }
    }
    words.join(" ")
}

/// For the script lines `lines` a runner runs in folder `dir`, and the
/// command `words`' own `npx NAME`: a line naming `node_modules/.bin/NAME`
/// for each bare command name (`eslint`, `tsx`), which the runner finds
/// there before the system's.
pub(super) fn bins(dir: &str, lines: &[TaskLine], words: &[String]) -> Vec<TaskLine> {
    let mut names: Vec<String> = Vec::new();
    for task in lines {
        for statement in task.line.split(['&', '|', ';', '\n']) {
            let mut words = statement
                .split_whitespace()
                .skip_while(|w| w.contains('=') && !w.starts_with('-'));
            if let Some(first) = words.next() {
                names.push(first.to_string());
            }
        }
    }
    for (at, word) in words.iter().enumerate() {
        let program = word.rsplit('/').next().unwrap_or(word);
        // `npm exec -- NAME` and `yarn exec NAME` too (recheck 25).
        if BIN_RUNNERS.contains(&program) || ["pnpm", "bun", "npm", "yarn"].contains(&program) {
            let rest = words[at + 1..].iter().filter(|w| !w.starts_with('-'));
            let rest: Vec<&String> = rest.collect();
            // `pnpm exec NAME`, `yarn exec NAME`, `bun x NAME`.
            let name = match rest.first().map(|w| w.as_str()) {
                Some("exec" | "x" | "dlx") => rest.get(1),
                _ if BIN_RUNNERS.contains(&program) => rest.first(),
                _ => None,
            };
            names.extend(name.map(|n| n.to_string()));
        }
    }
    names.retain(|n| {
        !n.is_empty()
            && n.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.@".contains(c))
            && !n.starts_with(['.', '-'])
    });
    names.sort();
    names.dedup();
    if names.is_empty() {
        return Vec::new();
    }
    let line = names
        .iter()
        .take(256)
        .map(|n| crate::core::module_maps::join(dir, &format!("node_modules/.bin/{n}")))
        .collect::<Vec<_>>()
        .join(" ");
    vec![TaskLine {
        config: crate::core::module_maps::join(dir, "package.json"),
        dir: String::new(),
        line,
        named: false,
    }]
}

/// The programs that run a folder's package (`node .`, `node tools`).
const FOLDER_RUNNERS: [&str; 3] = ["node", "nodejs", "bun"];

/// For a `node DIR` that `words` run in folder `dir` (`node .`, `node
/// tools/`): the file Node runs, which the folder's `package.json` names
/// as `main` (tried as Node tries it) or else `index.js`, as a line of
/// the `package.json` (read even when it is missing: one added later
/// changes what runs).
pub(super) fn folder_mains(real_root: &Path, dir: &str, words: &[String]) -> Vec<TaskLine> {
    let mut out = Vec::new();
    for (at, word) in words.iter().enumerate() {
        let program = word.rsplit('/').next().unwrap_or(word);
        if !FOLDER_RUNNERS.contains(&program) {
            continue;
        }
        let mut rest = words[at + 1..].iter();
        let mut script = None;
        while let Some(arg) = rest.next() {
            if ["-r", "--require", "--import", "--loader"].contains(&arg.as_str()) {
                rest.next();
            } else if !arg.starts_with('-') {
                script = Some(arg.trim_end_matches('/'));
                break;
            }
        }
        let Some(script) = script.map(|s| if s.is_empty() { "." } else { s }) else {
            continue;
        };
        let folder = crate::core::module_maps::join(dir, script);
        if !real_root.join(&folder).is_dir() {
            continue;
        }
        let config = crate::core::module_maps::join(&folder, "package.json");
        let main = crate::core::trust::imports::small_text(&real_root.join(&config))
            .filter(|t| t.len() <= 1 << 20)
            .and_then(|t| jsonc(&t))
            .and_then(|j| j.get("main").and_then(|m| m.as_str()).map(String::from))
            .filter(|m| !m.starts_with('/') && !m.contains(char::is_whitespace));
        let mut line: Vec<String> = Vec::new();
        for base in main.iter().map(|m| format!("{script}/{m}")) {
            for tail in ["", ".js", ".json", ".node", "/index.js", "/index.json"] {
                line.push(format!("{base}{tail}"));
            }
        }
        for index in ["index.js", "index.json", "index.node"] {
            line.push(format!("{script}/{index}"));
        }
        out.push(TaskLine {
            config,
            dir: dir.to_string(),
            line: line.join(" "),
            named: false,
        });
    }
    out
}

/// `line` (a `package.json` script) with the variables npm sets from the
/// file put in: `$npm_package_config_NAME` (its `config.NAME`),
/// `$npm_package_NAME` (a top-level string, `main`, `name`), as
/// `${…}` too.
pub(super) fn npm_variables(line: &str, json: &serde_json::Value) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(at) = rest.find("npm_package_") {
        let (before, after) = rest.split_at(at);
        let braced = before.ends_with("${");
        let dollar = braced || before.ends_with('$');
        let name_len = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        let name = &after["npm_package_".len()..name_len];
        let value = match name.strip_prefix("config_") {
            Some(key) => json.get("config").and_then(|c| c.get(key)),
            None => json.get(name),
        }
        .and_then(|v| v.as_str());
        let closes = !braced || after[name_len..].starts_with('}');
        match value {
            Some(value) if dollar && closes => {
                out.push_str(&before[..before.len() - if braced { 2 } else { 1 }]);
                out.push_str(value);
                rest = &after[name_len + usize::from(braced)..];
            }
            _ => {
                out.push_str(before);
                out.push_str(&after[..name_len]);
                rest = &after[name_len..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn npm_puts_in_the_package_s_values() {
        let json = serde_json::json!({"config": {"script": "tools/s.js"}, "main": "m.js"});
        assert_eq!(
            npm_variables(
                "node $npm_package_config_script ${npm_package_main} $npm_package_nope",
                &json
            ),
            "node tools/s.js m.js $npm_package_nope"
        );
    }

    #[test]
    fn config_values_are_words() {
        assert_eq!(
            values(
                "node-options=--require ./tools/evil.js\n# c\nscript-shell = ./tools/sh.sh\n\
                 [run]\npreload = [\"./tools/pre.ts\", 'b.ts']\nyarnPath: .yarn/releases/y.cjs\n"
            ),
            "--require ./tools/evil.js ./tools/sh.sh ./tools/pre.ts b.ts .yarn/releases/y.cjs"
        );
    }

    #[test]
    fn bare_command_names_are_looked_for_in_the_bins() {
        let line = |text: &str| TaskLine {
            config: "package.json".into(),
            dir: String::new(),
            line: text.into(),
            named: true,
        };
        let words: Vec<String> = ["npx", "--no-install", "mytool", "--x"]
            .map(String::from)
            .to_vec();
        let bins = bins(
            "web",
            &[line("NODE_ENV=x tsx tools/s.ts && eslint . | ./local.sh")],
            &words,
        );
        assert_eq!(
            bins[0].line,
            "web/node_modules/.bin/eslint web/node_modules/.bin/mytool web/node_modules/.bin/tsx"
        );
        // Recheck 25: `npm exec` runs a bin too.
        let words: Vec<String> = ["npm", "exec", "--offline", "--", "tool"]
            .map(String::from)
            .to_vec();
        assert_eq!(
            super::bins("", &[], &words)[0].line,
            "node_modules/.bin/tool"
        );
    }
}
