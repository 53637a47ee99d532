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
fn values(text: &str) -> String {
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
        if BIN_RUNNERS.contains(&program) || (program == "pnpm" || program == "bun") {
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

#[cfg(test)]
mod tests {
    use super::*;

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
    }
}
