//! The globs an agent's `include` may not write into the team's file
//! (recheck 22): one whose fixed folders lead out of the root through a
//! link or into version control data, and one that names credential files
//! and nothing else (`.env*`, `.e[n]v`, `**/*.pem`). A build never lets a
//! glob take such files, so these entries were inert; but an agent's edit
//! should not write what a person would not, and a literal `.env` or a
//! link out is refused already.

use std::path::Path;

use globset::GlobMatcher;

use ctxcurate::core::walk;

/// Names of credential files a glob is tried against (each one
/// [`walk::is_sensitive`]).
const CREDENTIALS: [&str; 14] = [
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
        walk::compile_glob(alternative)
            .is_ok_and(|m| names_credentials_only(&m, fixed_folders(alternative)))
    })
}

/// `glob` with its braces expanded (`a{b,c}d` is `abd`, `acd`), or `None`
/// past [`MAX_ALTERNATIVES`] or for braces that do not close.
fn expanded(glob: &str) -> Option<Vec<String>> {
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
    let under = |name: &str| {
        let base = if folders.is_empty() {
            String::new()
        } else {
            format!("{folders}/")
        };
        [format!("{base}{name}"), format!("{base}sub/{name}")]
    };
    let matches = |names: &[&str]| {
        names
            .iter()
            .flat_map(|name| under(name))
            .any(|path| matcher.is_match(Path::new(&path)))
    };
    matches(&CREDENTIALS) && !matches(&ORDINARY)
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
    }
}
