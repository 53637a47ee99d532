//! Human languages a task names (`Fix adjectives in Japanese`, `Add the
//! Brazilian Portuguese locale`) and the project's locale files for them:
//! a file or folder whose name carries the language's code — `ja.ts`,
//! `ja-JP.json`, `messages_ja.properties`, `intl_ja.arb`, `values-ja/`,
//! `ja.lproj/`, `locale/ja/LC_MESSAGES/` — standing beside at least two
//! others with different language codes, so `test_it.py` or `user_id.go`
//! alone is no Italian or Indonesian file.

use std::collections::{BTreeMap, BTreeSet};

/// Each language by its English name, with its ISO 639-1 code (or a
/// code and region, `pt-br`, matching only that region's files).
const LANGUAGES: &[(&str, &str)] = &[
    ("Afrikaans", "af"),
    ("Albanian", "sq"),
    ("Amharic", "am"),
    ("Arabic", "ar"),
    ("Armenian", "hy"),
    ("Azerbaijani", "az"),
    ("Basque", "eu"),
    ("Belarusian", "be"),
    ("Bengali", "bn"),
    ("Bosnian", "bs"),
    ("Brazilian", "pt-br"),
    ("Bulgarian", "bg"),
    ("Burmese", "my"),
    ("Catalan", "ca"),
    ("Chinese", "zh"),
    ("Croatian", "hr"),
    ("Czech", "cs"),
    ("Danish", "da"),
    ("Dutch", "nl"),
    ("English", "en"),
    ("Esperanto", "eo"),
    ("Estonian", "et"),
    ("Farsi", "fa"),
    ("Filipino", "fil"),
    ("Finnish", "fi"),
    ("French", "fr"),
    ("Galician", "gl"),
    ("Georgian", "ka"),
    ("German", "de"),
    ("Greek", "el"),
    ("Gujarati", "gu"),
    ("Hausa", "ha"),
    ("Hebrew", "he"),
    ("Hindi", "hi"),
    ("Hungarian", "hu"),
    ("Icelandic", "is"),
    ("Indonesian", "id"),
    ("Irish", "ga"),
    ("Italian", "it"),
    ("Japanese", "ja"),
    ("Kannada", "kn"),
    ("Kazakh", "kk"),
    ("Khmer", "km"),
    ("Korean", "ko"),
    ("Kurdish", "ku"),
    ("Kyrgyz", "ky"),
    ("Lao", "lo"),
    ("Latvian", "lv"),
    ("Lithuanian", "lt"),
    ("Luxembourgish", "lb"),
    ("Macedonian", "mk"),
    ("Malay", "ms"),
    ("Malayalam", "ml"),
    ("Maltese", "mt"),
    ("Marathi", "mr"),
    ("Mongolian", "mn"),
    ("Nepali", "ne"),
    ("Norwegian", "nb"),
    ("Norwegian", "no"),
    ("Norwegian", "nn"),
    ("Pashto", "ps"),
    ("Persian", "fa"),
    ("Polish", "pl"),
    ("Portuguese", "pt"),
    ("Punjabi", "pa"),
    ("Romanian", "ro"),
    ("Russian", "ru"),
    ("Serbian", "sr"),
    ("Sinhala", "si"),
    ("Slovak", "sk"),
    ("Slovenian", "sl"),
    ("Slovene", "sl"),
    ("Spanish", "es"),
    ("Swahili", "sw"),
    ("Swedish", "sv"),
    ("Tagalog", "tl"),
    ("Tajik", "tg"),
    ("Tamil", "ta"),
    ("Tatar", "tt"),
    ("Telugu", "te"),
    ("Thai", "th"),
    ("Turkish", "tr"),
    ("Turkmen", "tk"),
    ("Ukrainian", "uk"),
    ("Urdu", "ur"),
    ("Uyghur", "ug"),
    ("Uzbek", "uz"),
    ("Vietnamese", "vi"),
    ("Welsh", "cy"),
    ("Yoruba", "yo"),
    ("Zulu", "zu"),
];

/// Names that are also plain English words (`polish the docs`): counted
/// only capitalised and past the task's first word.
const ALSO_WORDS: &[&str] = &["Polish"];

/// Folder names that hold a platform's locales with a prefix or suffix:
/// Android's `values-ja`, Apple's `ja.lproj`.
const WRAPPERS: &[(&str, &str)] = &[("values-", ""), ("", ".lproj")];

/// The languages `task` names, each with its code, in the order of the
/// task; each name once.
pub(super) fn named(task: &str) -> Vec<(&'static str, &'static str)> {
    let mut out = Vec::new();
    let words = task.split(|c: char| !c.is_ascii_alphabetic());
    for (i, word) in words.filter(|w| !w.is_empty()).enumerate() {
        let Some(&(name, _)) = LANGUAGES.iter().find(|(n, _)| n.eq_ignore_ascii_case(word)) else {
            continue;
        };
        if ALSO_WORDS.contains(&name) && (word != name || i == 0) {
            continue;
        }
        if out.iter().any(|&(n, _)| n == name) {
            continue;
        }
        out.extend(LANGUAGES.iter().filter(|(n, _)| *n == name).copied());
    }
    out
}

/// The most languages of one task looked for, the first it names: each
/// costs a look at every path, and a task listing dozens (every locale)
/// is about none of them in particular.
pub(super) const MAX_NAMED: usize = 8;

/// The codes of the language named `name` (as [`named`] gives it).
pub(super) fn codes(name: &str) -> impl Iterator<Item = &'static str> + '_ {
    LANGUAGES
        .iter()
        .filter(move |(n, _)| *n == name)
        .map(|(_, code)| *code)
}

/// For each of `codes` (`ja`, `pt-br`), the walked files of that
/// language: their own name's locale or a folder's above them, where that
/// name stands beside two others of different languages at least. One
/// look at every path, whatever the number of codes.
pub(super) fn files_by_code<'a>(codes: &[&str], walked: &'a [String]) -> Vec<Vec<&'a str>> {
    let wanted: Vec<(&str, &str)> = codes
        .iter()
        .map(|code| code.split_once('-').unwrap_or((code, "")))
        .collect();
    // Each folder → the languages of the names in it; and each file of a
    // wanted code with the folder where its name carries it.
    let mut langs: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    let mut hits: Vec<(usize, &str, &'a str)> = Vec::new();
    for file in walked {
        let mut at: usize = 0;
        for part in file.split('/') {
            let parent = &file[..at.saturating_sub(1)];
            at += part.len() + 1;
            let is_file = at > file.len();
            let Some((lang, region)) = locale_of(part, is_file) else {
                continue;
            };
            for (k, &(want_lang, want_region)) in wanted.iter().enumerate() {
                if lang == want_lang && (want_region.is_empty() || region == want_region) {
                    hits.push((k, parent, file.as_str()));
                }
            }
            langs.entry(parent).or_default().insert(lang);
        }
    }
    let mut out = vec![Vec::new(); codes.len()];
    for (k, parent, file) in hits {
        let beside_others = langs.get(parent).is_some_and(|l| l.len() >= 3);
        if beside_others && out[k].last() != Some(&file) {
            out[k].push(file);
        }
    }
    out
}

/// The walked files of language `code` ([`files_by_code`] of one).
#[cfg(test)]
fn files<'a>(code: &str, walked: &'a [String]) -> Vec<&'a str> {
    files_by_code(&[code], walked).pop().unwrap_or_default()
}

/// The locale a file name (`is_file`: its extension dropped) or a folder
/// name carries: the whole name (`ja`, `pt-BR`, `zh_Hans`), its last
/// parts after `_`, `-` or `.` (`messages_ja`, `intl_pt_BR`), or a
/// platform's wrapped form (`values-ja`, `ja.lproj`).
fn locale_of(name: &str, is_file: bool) -> Option<(&'static str, String)> {
    let stem = match is_file {
        true => name.split_once('.').map_or(name, |(stem, _)| stem),
        false => WRAPPERS
            .iter()
            .find_map(|(pre, suf)| name.strip_prefix(pre)?.strip_suffix(suf))
            .filter(|inner| *inner != name)
            .unwrap_or(name),
    };
    let mut parts = stem.rsplit(['_', '-', '.']);
    let last = parts.next()?;
    // `pt_BR` or `xx_pt_BR`; `values-pt-rBR` (Android's region mark).
    if let Some(before) = parts.next() {
        let region = last.strip_prefix('r').filter(|r| is_region(r));
        let region = region.or(Some(last).filter(|r| is_region(r)));
        if let Some(region) = region
            && let Some(lang) = language(before)
        {
            return Some((lang, region.to_ascii_lowercase()));
        }
    }
    language(last).map(|lang| (lang, String::new()))
}

/// The table's code `word` is, as written in lowercase (`ja`, `pt`).
fn language(word: &str) -> Option<&'static str> {
    if !(2..=3).contains(&word.len()) {
        return None;
    }
    LANGUAGES
        .iter()
        .map(|(_, code)| code.split('-').next().unwrap_or(code))
        .find(|code| *code == word)
}

/// A region or script: `BR`, `TW`, `Hans`, `419`.
fn is_region(word: &str) -> bool {
    let upper = word.len() == 2 && word.bytes().all(|b| b.is_ascii_uppercase());
    let script = word.len() == 4
        && word.as_bytes()[0].is_ascii_uppercase()
        && word.bytes().skip(1).all(|b| b.is_ascii_lowercase());
    let numeric = word.len() == 3 && word.bytes().all(|b| b.is_ascii_digit());
    upper || script || numeric
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walked(paths: &[&str]) -> Vec<String> {
        paths.iter().map(|p| p.to_string()).collect()
    }

    #[test]
    fn a_task_names_languages_by_their_english_names() {
        assert_eq!(
            named("Fix adjectives in Japanese (#4648)"),
            [("Japanese", "ja")]
        );
        assert_eq!(
            named("fix(locales): Spanish and spanish type names"),
            [("Spanish", "es")]
        );
        assert_eq!(
            named("Brazilian Portuguese"),
            [("Brazilian", "pt-br"), ("Portuguese", "pt")]
        );
        assert_eq!(named("Norwegian").len(), 3);
        // A verb is no language; a language past the first word is.
        assert!(named("Polish the error messages").is_empty());
        assert!(named("polish the polish locale").is_empty());
        assert_eq!(named("Add the Polish locale"), [("Polish", "pl")]);
        // Parts of words are not names.
        assert!(named("Thailand Germany Frenchman").is_empty());
    }

    #[test]
    fn locale_files_are_found_beside_other_locales() {
        let tree = walked(&[
            "src/locales/de.ts",
            "src/locales/es.ts",
            "src/locales/ja.ts",
            "src/locales/pt-BR.ts",
            "src/locales/index.ts",
            "app/locale/ja/LC_MESSAGES/django.po",
            "app/locale/fr/LC_MESSAGES/django.po",
            "app/locale/de/LC_MESSAGES/django.po",
            "res/values/strings.xml",
            "res/values-ja/strings.xml",
            "res/values-pt-rBR/strings.xml",
            "res/values-ko/strings.xml",
            "i18n/messages_ja.properties",
            "i18n/messages_en.properties",
            "i18n/messages_zh_TW.properties",
            "ios/ja.lproj/Localizable.strings",
            "ios/en.lproj/Localizable.strings",
            "ios/Base.lproj/Localizable.strings",
        ]);
        assert_eq!(
            files("ja", &tree),
            [
                "src/locales/ja.ts",
                "app/locale/ja/LC_MESSAGES/django.po",
                "res/values-ja/strings.xml",
                "i18n/messages_ja.properties",
            ]
        );
        assert_eq!(
            files("pt-br", &tree),
            ["src/locales/pt-BR.ts", "res/values-pt-rBR/strings.xml"]
        );
        assert_eq!(files("pt", &tree).len(), 2);
        assert_eq!(files("zh", &tree), ["i18n/messages_zh_TW.properties"]);
    }

    /// A code alone among other names is a word, not a locale.
    #[test]
    fn a_lone_code_is_no_locale() {
        let tree = walked(&[
            "tests/test_it.py",
            "tests/test_parse.py",
            "src/user_id.go",
            "src/post_id.go",
            "src/it/main.go",
            "docs/es.md",
            "docs/guide.md",
        ]);
        assert!(files("it", &tree).is_empty());
        assert!(files("id", &tree).is_empty());
        assert!(files("es", &tree).is_empty());
    }
}
