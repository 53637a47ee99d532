//! The files PHP loads around a command's script from its configuration
//! (consent round 12, item 2): `php -d auto_prepend_file=tools/pre.php`
//! (also `auto_append_file`, `extension`, `zend_extension`), the ini file
//! `-c FILE`, `-c DIR`, `--php-ini` or `PHPRC=` names, and each `.ini` of
//! a `PHP_INI_SCAN_DIR=` folder, read for those same keys. Their files are
//! named as the command's own words (`trust/scripts.rs` covers them); a
//! scan folder is named as a folder, so an ini added to it later lapses
//! the consent. A value PHP computes as it runs (`${VAR}` in an ini
//! value, a `$` or backquote the shell expands in a `-d` value) is a
//! refusal. The CLI reads no `php.ini` or `.user.ini` from the folder it
//! runs in (checked with PHP 8.2's `php`), so those are not named.

use std::path::Path;

/// The ini keys whose value is a file PHP loads and runs.
const KEYS: [&str; 4] = [
    "auto_prepend_file",
    "auto_append_file",
    "extension",
    "zend_extension",
];

/// The most ini files read for one command, and lines read from one.
const MAX_INI_FILES: usize = 64;
const MAX_INI_LINES: usize = 10_000;

/// What a command line's PHP configuration loads.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Loads {
    /// Paths as written, relative to where the command runs: ini files,
    /// scan folders and the files their keys name.
    pub(super) words: Vec<String>,
    /// Why a value is known only as it runs.
    pub(super) refusals: Vec<String>,
}

/// What `words` (a command's words, quotes removed) make PHP load, with
/// ini files read from `here` (the folder it runs in) inside `real_root`.
pub(super) fn loads(real_root: &Path, here: &Path, words: &[String]) -> Loads {
    let mut out = Loads::default();
    let mut inis: Vec<String> = Vec::new();
    let mut php = false;
    let mut rest = words.iter();
    while let Some(word) = rest.next() {
        let program = word.rsplit('/').next().unwrap_or(word);
        if program.starts_with("php") && !program.contains('=') {
            php = true;
        }
        if let Some(value) = word.strip_prefix("PHPRC=") {
            inis.push(value.to_string());
        } else if let Some(value) = word.strip_prefix("PHP_INI_SCAN_DIR=") {
            for dir in value.split(':').filter(|d| !d.is_empty()) {
                computed(dir, "PHP_INI_SCAN_DIR", &mut out);
                out.words.push(dir.to_string());
                inis.extend(ini_files_in(&real_root.join(here).join(dir)));
            }
        } else if !php {
            continue;
        } else if word == "-c" || word == "--php-ini" {
            inis.extend(rest.next().cloned());
        } else if let Some(value) = word
            .strip_prefix("--php-ini=")
            .or_else(|| word.strip_prefix("-c").filter(|v| !v.is_empty()))
        {
            inis.push(value.to_string());
        } else if word == "-d" {
            if let Some(setting) = rest.next() {
                setting_value(setting, &mut out);
            }
        } else if let Some(setting) = word.strip_prefix("-d") {
            setting_value(setting, &mut out);
        }
    }
    for ini in inis.iter().take(MAX_INI_FILES) {
        computed(ini, "the ini file", &mut out);
        let path = real_root.join(here).join(ini);
        let file = if path.is_dir() {
            // `php-cli.ini` first, as the CLI looks.
            out.words.push(format!("{ini}/php-cli.ini"));
            out.words.push(format!("{ini}/php.ini"));
            ["php-cli.ini", "php.ini"]
                .iter()
                .map(|n| path.join(n))
                .find(|p| p.is_file())
        } else {
            out.words.push(ini.clone());
            Some(path)
        };
        if let Some(text) = file.as_deref().and_then(inside_text(real_root)) {
            ini_values(&text, &mut out);
        }
    }
    out
}

/// The `.ini` files of a scan folder, in name order, at most
/// [`MAX_INI_FILES`].
fn ini_files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .take(MAX_INI_FILES * 16)
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| n.ends_with(".ini"))
        .collect();
    names.sort();
    names.truncate(MAX_INI_FILES);
    names
        .into_iter()
        .map(|n| dir.join(n).display().to_string())
        .collect()
}

/// A reader of a file's text when it lies inside `real_root` (an ini
/// outside the project is the user's).
fn inside_text(real_root: &Path) -> impl Fn(&Path) -> Option<String> + '_ {
    move |path| {
        let real = std::fs::canonicalize(path).ok()?;
        if !real.starts_with(real_root) {
            return None;
        }
        super::imports::small_text(&real)
    }
}

/// A `-d key=value` setting: the value of one of [`KEYS`] is a file PHP
/// loads.
fn setting_value(setting: &str, out: &mut Loads) {
    if let Some((key, value)) = setting.split_once('=')
        && KEYS.contains(&key.trim())
    {
        let value = value.trim().trim_matches(['"', '\'']);
        computed(value, key.trim(), out);
        if !value.is_empty() {
            out.words.push(value.to_string());
        }
    }
}

/// The values of [`KEYS`] in ini text (`key = "value" ; comment`).
fn ini_values(text: &str, out: &mut Loads) {
    for line in text.lines().take(MAX_INI_LINES) {
        let line = line.trim();
        if line.starts_with([';', '#', '[']) {
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let value = match value.trim() {
            v if v.starts_with('"') => v[1..].split('"').next().unwrap_or(""),
            v => v.split(';').next().unwrap_or("").trim(),
        };
        setting_value(&format!("{}={value}", key.trim()), out);
    }
}

/// Refuse `value` of `what` when PHP or the shell computes it as it runs.
fn computed(value: &str, what: &str, out: &mut Loads) {
    if value.contains(['$', '`']) {
        out.refusals.push(format!(
            "{}PHP loads {what} from `{value}`, known only as it runs",
            super::unknown::MARK
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split(' ').map(String::from).collect()
    }

    #[test]
    fn command_line_settings_name_files() {
        let root = Path::new("/nonexistent");
        let got = loads(
            root,
            Path::new(""),
            &words(
                "php -d auto_prepend_file=tools/pre.php -dauto_append_file=post.php -d memory_limit=1G s.php",
            ),
        );
        assert_eq!(got.words, ["tools/pre.php", "post.php"]);
        assert!(got.refusals.is_empty());
        let got = loads(
            root,
            Path::new(""),
            &words("php -d auto_prepend_file=${F} s.php"),
        );
        assert_eq!(got.refusals.len(), 1);
        // `-c` of another program is not PHP's.
        assert!(
            loads(root, Path::new(""), &words("sh -c x.ini"))
                .words
                .is_empty()
        );
    }

    #[test]
    fn ini_values_are_read() {
        let mut out = Loads::default();
        ini_values(
            "; c\n[PHP]\nauto_prepend_file = \"tools/a.php\" ; x\nauto_append_file=b.php ; y\n\
             extension=${E}\nmemory_limit = 1G\n",
            &mut out,
        );
        assert_eq!(out.words, ["tools/a.php", "b.php", "${E}"]);
        assert_eq!(out.refusals.len(), 1);
    }

    #[test]
    fn a_hostile_megabyte_is_read_in_bounded_time() {
        let text = "auto_prepend_file=a\n".repeat(60_000);
        let mut out = Loads::default();
        ini_values(&text, &mut out);
        assert_eq!(out.words.len(), MAX_INI_LINES);
        let line = "php -d auto_prepend_file=a ".repeat(40_000);
        let got = loads(Path::new("/nonexistent"), Path::new(""), &words(&line));
        assert!(got.words.len() >= 40_000);
        // No timed assertion (benchmarks time things): a quadratic reading
        // of this input would not end.
    }
}
