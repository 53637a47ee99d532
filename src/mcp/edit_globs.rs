//! The globs an agent's `include` may not write into the team's file
//! (recheck 22): one whose fixed folders lead out of the root through a
//! link or into version control data, and one that names credential files
//! and nothing else (`.env*`, `.e[n]v`, `**/*.pem`, `conf/[s].pem`,
//! `.ENV*`: judged by probe names and by the glob written out). A build never lets a
//! glob take such files, so these entries were inert; but an agent's edit
//! should not write what a person would not, and a literal `.env` or a
//! link out is refused already.

use std::path::Path;

use globset::GlobMatcher;

use ctxcurate::core::walk;

/// Names of credential files a glob is tried against (each one
/// [`walk::is_sensitive`]).
const CREDENTIALS: [&str; 20] = [
    ".env",
    ".env.local",
    ".env.production",
    "prod.env",
    "server.pem",
    "server.key",
    "id_rsa",
    "id_ed25519",
    ".npmrc",
    ".pgpass",
    ".netrc",
    "kubeconfig",
    "terraform.tfvars",
    "store.p12",
    // A credential store's folder, for a pattern in its name (`.ss?/*`:
    // recheck 26).
    ".ssh/config",
    ".aws/config",
    ".kube/config",
    ".gnupg/gpg.conf",
    ".docker/config.json",
    ".azure/config",
];

/// Names of ordinary files: a glob matching one of them is a glob of
/// project files, whatever credential names it matches too (`*`, `**`).
const ORDINARY: [&str; 24] = [
    "a.py",
    "main.rs",
    "index.ts",
    "app.js",
    "main.go",
    "Main.java",
    "index.php",
    "app.rb",
    "lib.c",
    "lib.h",
    "lib.cpp",
    "run.sh",
    "README.md",
    "notes.txt",
    "config.yml",
    "config.yaml",
    "data.json",
    "settings.toml",
    "setup.cfg",
    "Makefile",
    "Dockerfile",
    "index.html",
    "style.css",
    "app.properties",
];

/// Paths of version control data a glob is tried against.
const VERSION_CONTROL: [&str; 3] = [".git/config", ".git/HEAD", ".git/hooks/pre-commit"];

/// Whether `glob`, or one alternative of its braces, matches paths of
/// version control data (`.gi[t]/config`, `{.git,src}/**`) and no
/// ordinary file (`**` and `*/**` match `.git/config` too, and are globs
/// of project files: a walk never takes `.git`).
pub fn reaches_git(glob: &str) -> bool {
    let alternatives = expanded(glob).unwrap_or_else(|| vec![glob.to_string()]);
    alternatives.iter().any(|alternative| {
        walk::compile_glob(alternative).is_ok_and(|m| {
            let vc = VERSION_CONTROL.iter().any(|p| m.is_match(Path::new(p)));
            let ordinary = ORDINARY.iter().any(|name| {
                ["", "src/", "sub/"]
                    .iter()
                    .any(|dir| m.is_match(Path::new(&format!("{dir}{name}"))))
            });
            vc && !ordinary
        })
    })
}

/// The folders of `glob` before its first component with a pattern in it
/// (`conf/keys` of `conf/keys/*.pem`), empty when it starts with one.
pub fn fixed_folders(glob: &str) -> &str {
    let mut end = 0;
    for (at, _) in glob.match_indices('/') {
        if walk::is_glob(&glob[..at]) {
            break;
        }
        end = at;
    }
    &glob[..end]
}

/// The most alternatives of a glob's braces judged one by one; a glob of
/// more is judged whole.
const MAX_ALTERNATIVES: usize = 64;

/// Whether `glob`, or one alternative of its braces (`{.env,a.py}`: an
/// ordinary name beside does not make `.env` a glob of project files),
/// names credential files and nothing else.
pub fn credentials_only(glob: &str) -> bool {
    let alternatives = expanded(glob).unwrap_or_else(|| vec![glob.to_string()]);
    alternatives.iter().any(|alternative| {
        walk::compile_glob(alternative).is_ok_and(|m| {
            let named = |path: &String| m.is_match(Path::new(path)) && walk::is_sensitive(path);
            names_credentials_only(&m, fixed_folders(alternative))
                || (samples(alternative).iter().any(named)
                    && !matches_ordinary(&m, fixed_folders(alternative)))
        })
    })
}

/// Paths `glob` (braces expanded) matches, written out from it: each `*`
/// as nothing and as `x`, `**/` as nothing, `?` as `x`, a class as a
/// character it takes (`conf/[s].pem` is `conf/s.pem`, `.ENV*` is `.ENV`).
/// A credential name the probes do not hold is judged by these.
fn samples(glob: &str) -> [String; 2] {
    [written_out(glob, ""), written_out(glob, "x")]
}

/// `glob` written out as one path, `star` standing for each `*`.
fn written_out(glob: &str, star: &str) -> String {
    let chars: Vec<char> = glob.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' if i + 1 < chars.len() => {
                out.push(chars[i + 1]);
                i += 2;
            }
            '*' if chars.get(i + 1) == Some(&'*') => {
                i += 2;
                if chars.get(i) == Some(&'/') {
                    i += 1;
                } else {
                    out.push_str(star);
                }
            }
            '*' => {
                out.push_str(star);
                i += 1;
            }
            '?' => {
                out.push('x');
                i += 1;
            }
            '[' => match class_at(&chars, i) {
                Some((taken, end)) => {
                    out.push(taken);
                    i = end;
                }
                None => {
                    out.push('[');
                    i += 1;
                }
            },
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// A character the class opening at `chars[open]` takes, and the index
/// past its `]`; `None` when it does not close.
fn class_at(chars: &[char], open: usize) -> Option<(char, usize)> {
    let mut i = open + 1;
    let negated = matches!(chars.get(i), Some('!' | '^'));
    if negated {
        i += 1;
    }
    let first = i;
    let mut ranges = Vec::new();
    loop {
        let c = *chars.get(i)?;
        if c == ']' && i > first {
            break;
        }
        if chars.get(i + 1) == Some(&'-') && chars.get(i + 2).is_some_and(|&e| e != ']') {
            ranges.push((c, chars[i + 2]));
            i += 3;
        } else {
            ranges.push((c, c));
            i += 1;
        }
    }
    let within = |c: char| ranges.iter().any(|&(lo, hi)| lo <= c && c <= hi);
    let taken = if negated {
        ('a'..='z').chain('0'..='9').find(|&c| !within(c))?
    } else {
        ranges.first()?.0
    };
    Some((taken, i + 1))
}

/// `glob` with its braces expanded (`a{b,c}d` is `abd`, `acd`), or `None`
/// past [`MAX_ALTERNATIVES`] or for braces that do not close.
pub(super) fn expanded(glob: &str) -> Option<Vec<String>> {
    let Some(open) = glob.find('{') else {
        return Some(vec![glob.to_string()]);
    };
    let bytes = glob.as_bytes();
    let (mut depth, mut close, mut commas) = (0usize, None, Vec::new());
    for (i, &b) in bytes.iter().enumerate().skip(open) {
        match b {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    close = Some(i);
                    break;
                }
            }
            b',' if depth == 1 => commas.push(i),
            _ => {}
        }
    }
    let close = close?;
    let mut bounds = vec![open];
    bounds.extend(commas);
    bounds.push(close);
    let mut out = Vec::new();
    for pair in bounds.windows(2) {
        let joined = format!(
            "{}{}{}",
            &glob[..open],
            &glob[pair[0] + 1..pair[1]],
            &glob[close + 1..]
        );
        out.extend(expanded(&joined)?);
        if out.len() > MAX_ALTERNATIVES {
            return None;
        }
    }
    Some(out)
}

/// Whether `matcher` (of a glob whose fixed folders are `folders`) matches
/// a credential file's name there or a folder below, and no ordinary
/// file's.
fn names_credentials_only(matcher: &GlobMatcher, folders: &str) -> bool {
    probes(folders, &CREDENTIALS).any(|path| matcher.is_match(Path::new(&path)))
        && !matches_ordinary(matcher, folders)
}

/// Whether `matcher` matches an ordinary file's name in `folders` or a
/// folder below that is not a credential store's (`.ssh/*` matches
/// `.ssh/a.py`, which is as private as `.ssh/id_rsa`: recheck 25).
fn matches_ordinary(matcher: &GlobMatcher, folders: &str) -> bool {
    probes(folders, &ORDINARY)
        .any(|path| matcher.is_match(Path::new(&path)) && !walk::is_sensitive(&path))
}

/// Each of `names` in `folders` and in a folder below.
fn probes<'a>(folders: &str, names: &'a [&'a str]) -> impl Iterator<Item = String> + 'a {
    let base = if folders.is_empty() {
        String::new()
    } else {
        format!("{folders}/")
    };
    names
        .iter()
        .flat_map(move |name| [format!("{base}{name}"), format!("{base}sub/{name}")])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probes_are_what_they_say() {
        assert!(CREDENTIALS.iter().all(|n| walk::is_sensitive(n)));
        assert!(!ORDINARY.iter().any(|n| walk::is_sensitive(n)));
    }

    #[test]
    fn a_glob_of_credential_files_alone_is_told_from_one_of_project_files() {
        for glob in [
            ".env*",
            "**/.env*",
            ".e[n]v",
            "*.production",
            "conf/*.pem",
            "{.env,x.py}",
            "{a.py,.env}",
            "**/*.{py,env}",
            "deploy/**/id_*",
            "*.tfvars",
            // Names no probe holds, written out from the glob (recheck 22).
            "conf/[s].pem",
            "conf/?.key",
            "keys/[!a]d_rsa",
            ".ENV*",
            "**/.Env.[pP]rod",
            "deploy/ID_RSA",
            "x/[a-c][a-c].P12",
            // A credential store's folder: every name there is private.
            ".ssh/*",
            ".ssh/**",
            "**/.ssh/*",
            ".aws/*",
            "home/.ssh/*.py",
            ".ss?/*",
            "**/.ss?/*",
            "sub/.aw?/*",
            ".[a-z]sh/*",
        ] {
            assert!(credentials_only(glob), "{glob}");
        }
        for glob in [
            "*",
            "**",
            "conf/*",
            "conf/**",
            "*.txt",
            "src/**/*.py",
            "**/*.{py,rs}",
            "docs/*.md",
            "{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}/*",
            "src/[a-z]*.py",
            "?",
            "[",
            "docs/[!.]*",
        ] {
            assert!(!credentials_only(glob), "{glob}");
        }
        for glob in [".gi[t]/config", ".g?t/**", "{.git,src}/**", ".git/*"] {
            assert!(reaches_git(glob), "{glob}");
        }
        for glob in ["**/*.py", "src/**", "*", "**", "*/**", "**/*"] {
            assert!(!reaches_git(glob), "{glob}");
            assert!(!reaches_git(&format!("{glob}/**")), "{glob}/**");
        }
        assert_eq!(fixed_folders("conf/keys/*.pem"), "conf/keys");
        assert_eq!(fixed_folders("*/keys/a"), "");
        assert_eq!(fixed_folders("lnk/*"), "lnk");
        assert_eq!(fixed_folders("a.py"), "");
        assert_eq!(
            expanded("a{b,c{d,e}}f").expect("expands"),
            ["abf", "acdf", "acef"]
        );
        assert_eq!(expanded("a{b"), None);
        assert_eq!(samples("conf/[s].pem"), ["conf/s.pem", "conf/s.pem"]);
        assert_eq!(samples("**/.env*"), [".env", ".envx"]);
        assert_eq!(samples("a/**"), ["a/", "a/x"]);
        assert_eq!(samples("[!a-y0-9]"), ["z", "z"]);
        assert_eq!(samples("[]a]\\*["), ["]*[", "]*["]);
    }
}
