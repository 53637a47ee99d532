//! C and C++ symbols measured against universal-ctags on real projects
//! that no one here wrote: Lua's sources (export macros `LUA_API`,
//! `LUAI_FUNC`, `l_sinline`), the headers of zlib (`ZEXTERN`, `OF((...))`),
//! sqlite (`SQLITE_API`), libpng (`PNG_EXPORT(...)`), curl
//! (`CURL_EXTERN`), and the header-only C++ libraries fmt and nlohmann
//! json (conditionals inside declarations, operators, namespaces); and
//! issue 27's projects that no one here had tuned for: SDL2's headers
//! (`extern DECLSPEC int SDLCALL f(`, `#if`-heavy platform code), xsimd
//! (templated SIMD kernels, `template <class A> XSIMD_INLINE ...`) and
//! protobuf (C++ with `*_inl.h` implementation headers).
//!
//! For functions (and prototypes), classes, structs, unions, enums,
//! typedefs and namespaces, per project:
//! - recall: every ctags tag must be one of our symbols with the same name
//!   whose lines contain the tag's line (≥ 99%);
//! - function names: a function/method we report must not be named after
//!   a macro or a type of the project (as ctags lists them) unless ctags
//!   also lists a function of that name in the file (≥ 99.5%): a macro or
//!   a return type reported as the name fails this;
//! - the syntax-error note fires on < 2% of the files (< 5% on issue
//!   27's projects).
//!
//! It prints recall per ctags kind too.
//!
//! Those are the issue's targets, asserted per project (recall only on
//! projects with enough tags, see [`MIN_TAGS`]). ctags is told the export
//! macros of a project whose declarations it cannot read otherwise
//! (libpng's `PNG_EXPORT(1, type, name, (args))`, with `-D`, as a user of
//! ctags would), so those prototypes count for recall and their names as
//! function names.
//!
//! `CTXCURATE_SLOW_TESTS=1 cargo test --test integration ctags_compare --
//! --nocapture` prints the table and the first misses. It runs only with
//! that switch (`common::machine`), which `.ci/run` sets after installing
//! ctags and the packages; with it, a project or tool that is missing
//! fails the test. Lua's `.c` files come from the `lupa` sdist on PyPI
//! (`.ci/run` unpacks them into `target/corpora/lua54`;
//! `CTXCURATE_LUA_DIR` overrides the place).

use crate::common::{corpus, machine};

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use ctxcurate::core::syntax::{self, CMacros, Lang, SymbolKind, SymbolTree};

/// The issue's targets: recall of ctags' tags, share of reported function
/// names that are real function names, share of files with the syntax
/// error note.
const RECALL_TARGET: f64 = 99.0;
const NAMES_TARGET: f64 = 99.5;
const NOTED_LIMIT: f64 = 2.0;
/// The note's limit on the projects issue 27 added.
const NEW_NOTED_LIMIT: f64 = 5.0;
/// Projects with fewer ctags tags than this are reported, not asserted
/// (zlib's headers: ctags itself reads most of them as macros).
const MIN_TAGS: usize = 100;

/// One code base: a name, its directory, and which files belong to it.
struct Project {
    name: &'static str,
    dir: PathBuf,
    /// File names (not paths) kept, by prefix; empty: every C/C++ file.
    prefixes: &'static [&'static str],
    /// Macro definitions handed to ctags (`-D`), as the project defines
    /// them.
    defines: &'static [&'static str],
    /// The most files (percent) the syntax-error note may fire on.
    noted_limit: f64,
}

/// libpng's declaration macros, as `pngconf.h` defines them.
const PNG_DEFINES: &[&str] = &[
    "PNG_EXPORT(ordinal,type,name,args)=type name args",
    "PNG_EXPORTA(ordinal,type,name,args,attributes)=type name args",
    "PNG_FP_EXPORT(ordinal,type,name,args)=type name args",
    "PNG_FIXED_EXPORT(ordinal,type,name,args)=type name args",
    "PNG_FUNCTION(type,name,args,attributes)=attributes type name args",
];

fn projects() -> Vec<Project> {
    let lua = std::env::var_os("CTXCURATE_LUA_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target/corpora/lua54"));
    let multiarch = Path::new("/usr/include/x86_64-linux-gnu/curl");
    let curl = if multiarch.is_dir() {
        multiarch.to_path_buf()
    } else {
        PathBuf::from("/usr/include/curl")
    };
    vec![
        Project {
            name: "lua 5.4 sources",
            dir: lua,
            prefixes: &[],
            defines: &[],
            noted_limit: NOTED_LIMIT,
        },
        Project {
            name: "zlib headers",
            dir: "/usr/include".into(),
            prefixes: &["zlib.h", "zconf.h"],
            defines: &[],
            noted_limit: NOTED_LIMIT,
        },
        Project {
            name: "sqlite3 headers",
            dir: "/usr/include".into(),
            prefixes: &["sqlite3"],
            defines: &[],
            noted_limit: NOTED_LIMIT,
        },
        Project {
            name: "libpng headers",
            dir: "/usr/include/libpng16".into(),
            prefixes: &["png"],
            defines: PNG_DEFINES,
            noted_limit: NOTED_LIMIT,
        },
        Project {
            name: "curl headers",
            dir: curl,
            prefixes: &[],
            defines: &[],
            noted_limit: NOTED_LIMIT,
        },
        Project {
            name: "fmt (C++)",
            dir: "/usr/include/fmt".into(),
            prefixes: &[],
            defines: &[],
            noted_limit: NOTED_LIMIT,
        },
        Project {
            name: "nlohmann json (C++)",
            dir: "/usr/include/nlohmann".into(),
            prefixes: &[],
            defines: &[],
            noted_limit: NOTED_LIMIT,
        },
        // Issue 27's projects no one had tuned for.
        Project {
            name: "SDL2 headers",
            dir: "/usr/include/SDL2".into(),
            prefixes: &[],
            defines: &[],
            noted_limit: NEW_NOTED_LIMIT,
        },
        Project {
            name: "xsimd (C++)",
            dir: "/usr/include/xsimd".into(),
            prefixes: &[],
            defines: &[],
            noted_limit: NEW_NOTED_LIMIT,
        },
        Project {
            name: "protobuf (C++)",
            dir: "/usr/include/google/protobuf".into(),
            prefixes: &[],
            defines: &[],
            noted_limit: NEW_NOTED_LIMIT,
        },
    ]
}

/// One tag ctags printed.
#[derive(Debug, Clone)]
struct Tag {
    name: String,
    kind: char,
    line: usize,
}

/// The tags of the kinds compared, or `None` if ctags does not run.
fn ctags(path: &Path, lang: Lang, defines: &[&str]) -> Option<Vec<Tag>> {
    let (force, kinds) = match lang {
        Lang::Cpp => ("--language-force=C++", "--kinds-C++=fpcstugnd"),
        _ => ("--language-force=C", "--kinds-C=fpstugd"),
    };
    let out = Command::new("ctags")
        .args(["-f", "-", "--excmd=number", "--fields=k", force, kinds])
        .args(defines.iter().flat_map(|d| ["-D", d]))
        .arg(path)
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let tags = text
        .lines()
        .filter_map(|line| {
            let mut cols = line.split('\t');
            let name = cols.next()?.to_string();
            let _file = cols.next()?;
            let line = cols.next()?.trim_end_matches(";\"").parse().ok()?;
            let kind = cols.next()?.chars().next()?;
            Some(Tag {
                name: normal(&name),
                kind,
                line,
            })
        })
        .filter(|t| !t.name.starts_with("__anon"))
        .collect();
    Some(tags)
}

/// A name with operators written without spaces (ctags prints
/// `operator ()`, we print `operator()`).
fn normal(name: &str) -> String {
    match name.strip_prefix("operator") {
        Some(rest)
            if !rest
                .trim_start()
                .starts_with(|c: char| c.is_alphanumeric() || c == '_') =>
        {
            format!("operator{}", rest.trim_start())
        }
        _ => name.to_string(),
    }
}

/// ctags reads `LUA_API int (lua_gettop) (lua_State *L);` as a prototype
/// named `int`: a tag followed on its line by `(name) (` is that name.
fn corrected(tag: &Tag, lines: &[&str]) -> Tag {
    let mut tag = tag.clone();
    let Some(line) = tag.line.checked_sub(1).and_then(|i| lines.get(i)) else {
        return tag;
    };
    let Some(at) = line.find(&tag.name) else {
        return tag;
    };
    let rest = line[at + tag.name.len()..].trim_start();
    if let Some(inner) = rest.strip_prefix('(')
        && let Some((name, after)) = inner.split_once(')')
        && after.trim_start().starts_with('(')
        && !name.trim().is_empty()
        && name
            .trim()
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_')
    {
        tag.name = name.trim().to_string();
    }
    tag
}

/// Whether a macro tag is object-like (`#define LUA_API extern`); a
/// function-like macro may share its name with a real function
/// (`#define png_error(s1, s2) png_err(s1)`).
fn object_like(tag: &Tag, lines: &[&str]) -> bool {
    let Some(line) = tag.line.checked_sub(1).and_then(|i| lines.get(i)) else {
        return true;
    };
    let Some(at) = line.find(&tag.name) else {
        return true;
    };
    !line[at + tag.name.len()..].starts_with('(')
}

/// Whether a ctags kind and one of our kinds name the same sort of thing.
fn same_sort(tag: char, kind: SymbolKind) -> bool {
    match tag {
        'f' | 'p' => kind.is_function(),
        'n' => kind == SymbolKind::Namespace,
        _ => matches!(
            kind,
            SymbolKind::Class
                | SymbolKind::Struct
                | SymbolKind::Union
                | SymbolKind::Enum
                | SymbolKind::Typedef
        ),
    }
}

/// Whether our symbols name the tag: same name (spaces aside), same sort, the tag's line
/// within the symbol's lines (`typedef struct Tag {...} T;` is two
/// symbols, `struct Tag` and the typedef `T`).
fn found(tree: &SymbolTree, tag: &Tag) -> bool {
    tree.iter().any(|s| {
        let within = (s.start_line..=s.end_line).contains(&tag.line);
        within && squeezed(&s.name) == squeezed(&tag.name) && same_sort(tag.kind, s.kind)
    })
}

/// A name without its spaces: ctags writes a conversion operator
/// `operator itype*`, we as the file does (`operator itype *`).
fn squeezed(name: &str) -> String {
    name.split_whitespace().collect()
}

#[derive(Default)]
struct Score {
    files: usize,
    tags: usize,
    recalled: usize,
    functions: usize,
    real_functions: usize,
    noted: usize,
    /// Tags and recalled tags per ctags kind (`f` and `p` as `f`).
    by_kind: BTreeMap<char, (usize, usize)>,
    misses: Vec<String>,
    wrong: Vec<String>,
    notes: Vec<String>,
}

/// The project's own macros as a parse of it reads them: the `#define`s
/// of its files, headers first, each in path order (as
/// `sources::c_project` reads a project's).
fn project_macros(sources: &[(String, String)]) -> CMacros {
    let header = |p: &str| !p.ends_with(".c") && !p.ends_with(".cc") && !p.ends_with(".cpp");
    let mut ordered: Vec<&(String, String)> = sources.iter().collect();
    ordered.sort_by_key(|(p, _)| (!header(p), p.clone()));
    CMacros::default().with_texts(ordered.iter().map(|(_, t)| t.as_str()))
}

/// The score of `project`, its files parsed with its own macros when
/// `own_macros` (the built-in list alone otherwise: the score before
/// issue 36).
fn score(project: &Project, own_macros: bool) -> Option<Score> {
    let keep = |p: &Path| {
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        // C and C++ only: Lua's sources ship a README.md, a Markdown file now.
        let ours = Lang::from_path(name).is_some_and(|l| matches!(l, Lang::C | Lang::Cpp));
        ours && (project.prefixes.is_empty()
            || project.prefixes.iter().any(|x| name.starts_with(x)))
    };
    let files: Vec<PathBuf> = if project.prefixes.is_empty() {
        corpus::files_under(&project.dir, &keep)
    } else {
        corpus::files_in(&project.dir, "h")
            .into_iter()
            .filter(|p| keep(p))
            .collect()
    };
    let (sources, _) = corpus::read_sources(&files);
    if sources.is_empty() {
        return None;
    }
    let own = if own_macros {
        project_macros(&sources)
    } else {
        CMacros::default()
    };
    let mut s = Score::default();
    let mut tagged = Vec::new();
    for (path, text) in &sources {
        let lang = Lang::detect(path, text)?;
        let tags = ctags(Path::new(path), lang, project.defines)?;
        tagged.push((path, text, lang, tags));
    }
    // Names the project defines as macros or types: a function reported
    // under one of them is a macro or a return type taken for the name.
    let all_macros: HashSet<String> = tagged
        .iter()
        .flat_map(|(_, _, _, tags)| tags.iter().filter(|t| t.kind == 'd'))
        .map(|t| t.name.clone())
        .collect();
    let macros: HashSet<String> = tagged
        .iter()
        .flat_map(|(_, text, _, tags)| {
            let lines: Vec<&str> = text.lines().collect();
            tags.iter()
                .filter(move |t| t.kind == 'd' && object_like(t, &lines))
                .map(|t| t.name.clone())
                .collect::<Vec<_>>()
        })
        .collect();
    let types: HashSet<String> = tagged
        .iter()
        .flat_map(|(_, _, _, tags)| tags.iter().filter(|t| "cstug".contains(t.kind)))
        .map(|t| t.name.clone())
        .collect();
    for (path, text, lang, tags) in &tagged {
        // Relative to the project: Eigen has a `PacketMath.h` per
        // architecture.
        let short = Path::new(path.as_str())
            .strip_prefix(&project.dir)
            .map_or_else(|_| path.to_string(), |p| p.display().to_string());
        let lines: Vec<&str> = text.lines().collect();
        let tree = syntax::parse_with(*lang, text, &own);
        s.files += 1;
        if let Some(line) = tree.error_line {
            s.noted += 1;
            let text = lines.get(line - 1).map_or("", |l| l.trim());
            s.notes.push(format!("{short}:{line} `{text}`"));
        }
        // A tag named after a macro is ctags reading a macro as a name
        // (`typedef PNG_CALLBACK(void, *png_error_ptr, ...)`).
        let compared = tags
            .iter()
            .filter(|t| t.kind != 'd')
            .map(|t| corrected(t, &lines))
            .filter(|t| !all_macros.contains(&t.name));
        for tag in compared {
            s.tags += 1;
            let kind = if tag.kind == 'p' { 'f' } else { tag.kind };
            let count = s.by_kind.entry(kind).or_default();
            count.0 += 1;
            if found(&tree, &tag) {
                s.recalled += 1;
                count.1 += 1;
            } else {
                s.misses
                    .push(format!("{short}:{} {} {}", tag.line, tag.kind, tag.name));
            }
        }
        let function_names: HashSet<&str> = tags
            .iter()
            .filter(|t| matches!(t.kind, 'f' | 'p'))
            .map(|t| t.name.as_str())
            .collect();
        for symbol in tree.iter().filter(|s| s.kind.is_function()) {
            s.functions += 1;
            let name = symbol.name.as_str();
            let base = symbol.path.split('#').next().unwrap_or("");
            let constructor = base.ends_with(&format!("{name}::{name}"));
            let taken = macros.contains(name) || (types.contains(name) && !constructor);
            if function_names.contains(name) || !taken {
                s.real_functions += 1;
            } else {
                s.wrong
                    .push(format!("{short}:{} {}", symbol.start_line, symbol.name));
            }
        }
    }
    Some(s)
}

fn percent(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        100.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

#[test]
fn c_and_cpp_symbols_match_ctags_on_real_projects() {
    compare(projects(), Targets::Issue);
}

/// Issue 36's projects, which define the macros of their declarations
/// themselves: brotli's C sources (`BROTLI_MODEL("small")`), Eigen
/// (`EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE`), pybind11
/// (`PYBIND11_NAMESPACE_BEGIN(detail)`), spdlog (`SPDLOG_INLINE` in its
/// `-inl.h` files), libevent's and libuv's headers, libbsd's (`sys/tree.h`)
/// and, where present, libuv's sources (`RB_GENERATE_STATIC`). The table
/// shows each before (the built-in list alone) and after (the project's
/// own `#define`s). Not every one meets issue 36's targets yet (brotli's
/// `*_inc.h` templates, Eigen's and pybind11's C++ that tree-sitter cannot
/// read): each is held to be no worse than before on recall, function
/// names and notes, and to keep function names at the target; the issue's
/// targets are printed (`^`) for the ones below them.
#[test]
fn c_and_cpp_symbols_match_ctags_on_projects_with_their_own_macros() {
    compare(own_macro_projects(), Targets::NoWorse);
}

fn own_macro_projects() -> Vec<Project> {
    let corpora = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/corpora");
    let dir = |var: &str, default: PathBuf| std::env::var_os(var).map_or(default, PathBuf::from);
    let mut list = vec![
        Project {
            name: "brotli (C)",
            dir: dir("CTXCURATE_BROTLI_DIR", corpora.join("brotli/c")),
            prefixes: &[],
            defines: &[],
            noted_limit: NEW_NOTED_LIMIT,
        },
        Project {
            name: "Eigen (C++)",
            dir: "/usr/include/eigen3/Eigen/src".into(),
            prefixes: &[],
            defines: &[],
            noted_limit: NEW_NOTED_LIMIT,
        },
        Project {
            name: "pybind11 (C++)",
            dir: "/usr/include/pybind11".into(),
            prefixes: &[],
            defines: &[],
            noted_limit: NEW_NOTED_LIMIT,
        },
        Project {
            name: "spdlog (C++)",
            dir: "/usr/include/spdlog".into(),
            prefixes: &[],
            defines: &[],
            noted_limit: NEW_NOTED_LIMIT,
        },
        Project {
            name: "libevent headers",
            dir: "/usr/include/event2".into(),
            prefixes: &[],
            defines: &[],
            noted_limit: NEW_NOTED_LIMIT,
        },
        Project {
            name: "libbsd headers",
            dir: "/usr/include/bsd".into(),
            prefixes: &[],
            defines: &[],
            noted_limit: NEW_NOTED_LIMIT,
        },
        // Projects no one here had tuned for when the measure above was
        // reached: libuv's headers (`UV_EXTERN`, `UV_*_PRIVATE_FIELDS`),
        // GLib's (`GLIB_AVAILABLE_IN_ALL`, `G_GNUC_*`, `G_BEGIN_DECLS`),
        // OpenSSL's (`OSSL_DEPRECATEDIN_3_0`, `DEFINE_STACK_OF(X)`) and
        // Catch2's single header.
        Project {
            name: "libuv headers",
            dir: "/usr/include".into(),
            prefixes: &["uv.h"],
            defines: &[],
            noted_limit: NEW_NOTED_LIMIT,
        },
        Project {
            name: "libuv headers (uv/)",
            dir: "/usr/include/uv".into(),
            prefixes: &[],
            defines: &[],
            noted_limit: NEW_NOTED_LIMIT,
        },
        Project {
            name: "GLib headers",
            dir: "/usr/include/glib-2.0".into(),
            prefixes: &[],
            defines: &[],
            noted_limit: NEW_NOTED_LIMIT,
        },
        Project {
            name: "OpenSSL headers",
            dir: "/usr/include/openssl".into(),
            prefixes: &[],
            defines: &[],
            noted_limit: NEW_NOTED_LIMIT,
        },
        Project {
            name: "Catch2 (C++)",
            dir: "/usr/include/catch2".into(),
            prefixes: &[],
            defines: &[],
            noted_limit: NEW_NOTED_LIMIT,
        },
        // The third round's stand-ins, measured before any fix for them:
        // GLM (header-only linear algebra, `GLM_FUNC_QUALIFIER`) and
        // log4cplus (logging, `LOG4CPLUS_EXPORT`, pointers to members).
        Project {
            name: "GLM (C++)",
            dir: "/usr/include/glm".into(),
            prefixes: &[],
            defines: &[],
            noted_limit: NEW_NOTED_LIMIT,
        },
        Project {
            name: "log4cplus (C++)",
            dir: "/usr/include/log4cplus".into(),
            prefixes: &[],
            defines: &[],
            noted_limit: NEW_NOTED_LIMIT,
        },
    ];
    // libuv's sources ship in no Debian package; uvloop's sdist vendors
    // them (`CTXCURATE_LIBUV_DIR=.../vendor/libuv`).
    if let Some(libuv) = std::env::var_os("CTXCURATE_LIBUV_DIR") {
        list.push(Project {
            name: "libuv (C)",
            dir: libuv.into(),
            prefixes: &[],
            defines: &[],
            noted_limit: NEW_NOTED_LIMIT,
        });
    }
    // `CTXCURATE_CTAGS_EXTRA='name=dir;name=dir'` adds projects measured
    // by hand (stand-ins for issue 36's hidden set that no one tuned for).
    let extra = std::env::var("CTXCURATE_CTAGS_EXTRA").unwrap_or_default();
    for (name, dir) in extra.split(';').filter_map(|p| p.split_once('=')) {
        list.push(Project {
            name: String::leak(name.trim().to_string()),
            dir: dir.trim().into(),
            prefixes: &[],
            defines: &[],
            noted_limit: NEW_NOTED_LIMIT,
        });
    }
    list
}

/// What [`compare`] fails on.
#[derive(Clone, Copy, PartialEq)]
enum Targets {
    /// Any of the issue's targets missed after.
    Issue,
    /// After worse than before (recall, function names, notes), or
    /// function names below the target.
    NoWorse,
}

/// Score each of `projects` before and after its own macros, print the
/// table and the first misses, and fail as `targets` says.
fn compare(projects: Vec<Project>, targets: Targets) {
    let Some(()) = machine::program("ctags", "--version", "universal-ctags") else {
        return;
    };
    let mut failures = Vec::new();
    println!(
        "{:<22} {:>5} {:>6} {:>16} {:>6} {:>16} {:>12}",
        "project", "files", "tags", "recall bef→aft", "fns", "fn names bef→aft", "noted bef→aft"
    );
    let mut details: HashMap<&str, Score> = HashMap::new();
    // `CTXCURATE_CTAGS_ONLY=NAME` scores the projects whose name holds it.
    let only = std::env::var("CTXCURATE_CTAGS_ONLY").unwrap_or_default();
    let projects: Vec<Project> = projects
        .into_iter()
        .filter(|p| p.name.contains(only.as_str()))
        .collect();
    // `CTXCURATE_CTAGS_SHOW=N` shows N misses and notes per project (25).
    let shown: usize = std::env::var("CTXCURATE_CTAGS_SHOW")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(25);
    for project in &projects {
        let (Some(before), Some(s)) = (score(project, false), score(project, true)) else {
            failures.push(format!(
                "{}: no sources under {} (.ci/run installs them), or ctags failed",
                project.name,
                project.dir.display()
            ));
            continue;
        };
        let recall = percent(s.recalled, s.tags);
        let names = percent(s.real_functions, s.functions);
        let noted = percent(s.noted, s.files);
        println!(
            "{:<22} {:>5} {:>6} {:>6.2}%→{:>6.2}% {:>6} {:>6.2}%→{:>6.2}% {:>4.1}%→{:>4.1}%",
            project.name,
            s.files,
            s.tags,
            percent(before.recalled, before.tags),
            recall,
            s.functions,
            percent(before.real_functions, before.functions),
            names,
            percent(before.noted, before.files),
            noted
        );
        let mut below = Vec::new();
        if s.tags >= MIN_TAGS && recall < RECALL_TARGET {
            below.push(format!("recall {recall:.2}% < {RECALL_TARGET}%"));
        }
        if names < NAMES_TARGET {
            below.push(format!("function names {names:.2}% < {NAMES_TARGET}%"));
        }
        if noted >= project.noted_limit {
            below.push(format!(
                "error note on {noted:.1}% of files (limit {}%)",
                project.noted_limit
            ));
        }
        if !below.is_empty() {
            println!("  ^ {}", below.join(", "));
        }
        let mut worse = Vec::new();
        if targets == Targets::NoWorse {
            if recall < percent(before.recalled, before.tags) {
                worse.push(format!("recall {recall:.2}% worse than before"));
            }
            if names < percent(before.real_functions, before.functions).min(NAMES_TARGET) {
                worse.push(format!("function names {names:.2}%"));
            }
            if s.noted > before.noted {
                worse.push(format!("{} files noted, {} before", s.noted, before.noted));
            }
        } else {
            worse = below;
        }
        if !worse.is_empty() {
            failures.push(format!("{}: {}", project.name, worse.join(", ")));
        }
        details.insert(project.name, s);
    }
    println!(
        "\nrecall per ctags kind (f function/prototype, c class, s struct, u union, \
         g enum, t typedef, n namespace)"
    );
    for project in &projects {
        let Some(s) = details.get(project.name) else {
            continue;
        };
        let cells: Vec<String> = s
            .by_kind
            .iter()
            .map(|(kind, (tags, recalled))| {
                format!("{kind} {:.1}% of {tags}", percent(*recalled, *tags))
            })
            .collect();
        println!("{:<22} {}", project.name, cells.join(", "));
    }
    for (name, s) in &details {
        let show = |what: &str, list: &[String]| {
            if !list.is_empty() {
                let head: Vec<&str> = list.iter().take(shown).map(String::as_str).collect();
                println!("{name}: {} {what}: {}", list.len(), head.join(", "));
            }
        };
        show("missed", &s.misses);
        show("not functions", &s.wrong);
        show("noted", &s.notes);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The languages added as data (Rust, TypeScript, JavaScript, Go, Java,
/// C#, Bash, PHP, Kotlin, Ruby, Lua, Markdown)
/// against universal-ctags on real projects: recall of ctags' functions,
/// methods, classes, structs, enums, interfaces/traits and type aliases,
/// each matched by a symbol of the same name whose lines contain the tag's
/// line (its start at most 2 lines after it); and every skeleton of a file
/// that parses cleanly parses cleanly too, and is not larger. Tags ctags 5.9 gets wrong
/// in JavaScript/TypeScript are dropped and counted: names inside `import`
/// statements, keywords, and object literals it lists as classes; in
/// shell scripts, array assignments (`X=()`) it lists as functions; in
/// Ruby, `def`s inside heredoc strings (`class_eval <<-METHOD`); in Lua,
/// any `name =` on a line that holds the word `function` (see
/// `lua_function_line`); in C#, the type parameter of a `where`
/// constraint it names a class (`class EnumOps<T> where T : Enum`, see
/// `csharp_constraint`). The
/// projects: crates from
/// cargo's registry (serde, regex, clap_builder, tokio), TypeScript sources
/// shipped in npm packages (zod, rxjs, immer), JavaScript ones (axios, express),
/// Go's library (`golang-*-src`: net/http, go/types) and Java's
/// (`openjdk-*-source`: java.util, java.io), and Bash's completion
/// scripts (`bash-completion`), and Symfony's console from Debian
/// (`php-symfony-console`), the Kotlin of two React Native modules'
/// Android code (`expo-modules-core`, `react-native-screens`); for C#,
/// pythonnet's runtime (its PyPI sdist, `target/corpora/pythonnet`,
/// `CTXCURATE_PYTHONNET_DIR` overrides the place) and the managed library
/// and code generator of `react-native-windows` from npm; Ruby's rack,
/// thor and rake and Lua's Penlight and busted as Debian ships them
/// (`.ci/run` unpacks the packages with `dpkg-deb -x` into
/// `target/corpora/deb/PACKAGE/`, `CTXCURATE_DEB_DIR` overrides the place);
/// for Markdown (ctags' chapters to level-5 subsections), the `.md` files of
/// tokio, regex and petgraph from cargo's registry. npm packages are unpacked
/// (`npm pack NAME`, then `tar xzf`) into `target/corpora/npm/NAME/`, the
/// JDK's `src.zip` into `target/corpora/jdk/` (`CTXCURATE_NPM_DIR`,
/// `CTXCURATE_JDK_DIR` override the places). A project that is not there
/// is skipped with a note.
mod languages {
    use std::collections::HashMap;
    use std::path::{Path, PathBuf};
    use std::process::Command;

    use ctxcurate::core::syntax::{self, Lang, SymbolTree};

    use crate::common::corpus;

    /// The issue's target for these languages.
    const RECALL_TARGET: f64 = 98.0;
    /// Projects with fewer tags are reported, not asserted (as above).
    const MIN_TAGS: usize = 100;

    struct Project {
        name: String,
        lang: Lang,
        dir: PathBuf,
        /// Why the project is reported but not asserted, when it is not.
        known: Option<&'static str>,
    }

    /// ctags' name of the language and the kinds compared (see
    /// `ctags --list-kinds-full=NAME`).
    fn ctags_language(lang: Lang) -> (&'static str, &'static str) {
        match lang {
            Lang::Rust => ("Rust", "fPsgit"),
            Lang::TypeScript | Lang::Tsx => ("TypeScript", "fcigmaG"),
            Lang::JavaScript => ("JavaScript", "fcmgGS"),
            Lang::Go => ("Go", "fstian"),
            Lang::Bash => ("Sh", "f"),
            Lang::Php => ("PHP", "cfint"),
            // Classes, interfaces, functions and methods, objects, type
            // aliases (not packages, properties or constants).
            Lang::Kotlin => ("Kotlin", "ciomT"),
            Lang::Ruby => ("Ruby", "cfmS"),
            Lang::Lua => ("Lua", "f"),
            Lang::Markdown => ("Markdown", "csStTu"),
            // Classes (records too), interfaces, structs, enums, methods
            // (constructors too): the kinds our C# symbols claim.
            Lang::CSharp => ("C#", "cigsm"),
            _ => ("Java", "cigma"),
        }
    }

    fn env_dir(var: &str, default: &str) -> PathBuf {
        std::env::var_os(var)
            .map(PathBuf::from)
            .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join(default))
    }

    /// A gem's folder in a Debian package unpacked by `.ci/run`
    /// (`usr/share/rubygems-integration/all/gems/rack-2.2.22`).
    fn gem_dir(package: &Path, prefix: &str) -> Option<PathBuf> {
        let gems = package.join("usr/share/rubygems-integration/all/gems");
        let mut found: Vec<PathBuf> = std::fs::read_dir(gems)
            .ok()?
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with(prefix))
            })
            .collect();
        found.sort();
        found.pop()
    }

    fn projects() -> Vec<Project> {
        let npm = env_dir("CTXCURATE_NPM_DIR", "target/corpora/npm");
        let jdk = env_dir("CTXCURATE_JDK_DIR", "target/corpora/jdk");
        let go = corpus::go_src().unwrap_or_else(|| PathBuf::from("/usr/share/go/src"));
        let mut out = Vec::new();
        for name in ["serde-", "regex-", "clap_builder-", "tokio-"] {
            let dir = corpus::registry_crate(name)
                .map(|p| p.join("src"))
                .unwrap_or_else(|| PathBuf::from(name));
            out.push((name.trim_end_matches('-').to_string(), Lang::Rust, dir));
        }
        out.push(("zod".into(), Lang::TypeScript, npm.join("zod/package/src")));
        out.push((
            "rxjs".into(),
            Lang::TypeScript,
            npm.join("rxjs/package/src"),
        ));
        out.push((
            "immer".into(),
            Lang::TypeScript,
            npm.join("immer/package/src"),
        ));
        out.push((
            "axios".into(),
            Lang::JavaScript,
            npm.join("axios/package/lib"),
        ));
        out.push((
            "express".into(),
            Lang::JavaScript,
            npm.join("express/package/lib"),
        ));
        out.push(("go net/http".into(), Lang::Go, go.join("net/http")));
        out.push(("go go/types".into(), Lang::Go, go.join("go/types")));
        out.push((
            "java.util".into(),
            Lang::Java,
            jdk.join("java.base/java/util"),
        ));
        out.push(("java.io".into(), Lang::Java, jdk.join("java.base/java/io")));
        out.push((
            "symfony/console".into(),
            Lang::Php,
            PathBuf::from("/usr/share/php/Symfony/Component/Console"),
        ));
        // Kotlin as React Native and Expo modules ship it for Android.
        out.push((
            "expo-modules-core".into(),
            Lang::Kotlin,
            npm.join("expo-modules-core/package/android"),
        ));
        out.push((
            "rn-screens".into(),
            Lang::Kotlin,
            npm.join("react-native-screens/package/android"),
        ));
        out.push((
            "bash-completion".into(),
            Lang::Bash,
            PathBuf::from("/usr/share/bash-completion"),
        ));
        // C#: pythonnet's runtime (its PyPI sdist) and the managed
        // library and code generator react-native-windows ships on npm.
        out.push((
            "pythonnet".into(),
            Lang::CSharp,
            env_dir("CTXCURATE_PYTHONNET_DIR", "target/corpora/pythonnet").join("src/runtime"),
        ));
        out.push((
            "rn-windows".into(),
            Lang::CSharp,
            npm.join("react-native-windows/package"),
        ));
        let deb = env_dir("CTXCURATE_DEB_DIR", "target/corpora/deb");
        for (package, gem) in [
            ("ruby-rack", "rack-"),
            ("ruby-thor", "thor-"),
            ("rake", "rake-"),
        ] {
            let dir = gem_dir(&deb.join(package), gem).unwrap_or_else(|| deb.join(package));
            out.push((
                gem.trim_end_matches('-').to_string(),
                Lang::Ruby,
                dir.join("lib"),
            ));
        }
        for (package, folder) in [("lua-penlight", "pl"), ("lua-busted", "busted")] {
            let dir = deb.join(package).join("usr/share/lua/5.1").join(folder);
            out.push((folder.replace("pl", "penlight"), Lang::Lua, dir));
        }
        // The Markdown of crates this project builds with (so cargo has
        // them): READMEs, changelogs, design notes.
        for name in ["tokio-", "regex-", "petgraph-"] {
            let dir = corpus::registry_crate(name)
                .map(|p| p.join("src"))
                .and_then(|src| Some(src.parent()?.to_path_buf()))
                .unwrap_or_else(|| PathBuf::from(name));
            let docs = format!("{} docs", name.trim_end_matches('-'));
            out.push((docs, Lang::Markdown, dir));
        }
        out.into_iter()
            .map(|(name, lang, dir)| {
                // tree-sitter-typescript 0.23 cannot read an interface whose
                // call signatures start with `<T>(` on consecutive lines
                // (immer's `IProduce`): the rest of that file is an error.
                let known = (name == "immer").then_some("grammar: `<T>(` call signatures");
                Project {
                    name,
                    lang,
                    dir,
                    known,
                }
            })
            .collect()
    }

    struct Tag {
        name: String,
        kind: char,
        line: usize,
    }

    /// ctags' tags of the compared kinds, by file, over the whole project.
    fn ctags(project: &Project) -> Option<HashMap<PathBuf, Vec<Tag>>> {
        let (language, kinds) = ctags_language(project.lang);
        // Shell scripts seldom have an extension (bash-completion's): the
        // language is forced.
        let select = match project.lang {
            Lang::Bash => format!("--language-force={language}"),
            _ => format!("--languages={language}"),
        };
        let out = Command::new("ctags")
            .args(["-f", "-", "--excmd=number", "--fields=k", "-R"])
            .arg(select)
            .arg(format!("--kinds-{language}={kinds}"))
            .arg("--exclude=testdata")
            .arg(&project.dir)
            .output()
            .ok()?;
        if !out.status.success() {
            return None;
        }
        let mut tags: HashMap<PathBuf, Vec<Tag>> = HashMap::new();
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            let mut cols = line.split('\t');
            let (Some(name), Some(file), Some(number)) = (cols.next(), cols.next(), cols.next())
            else {
                continue;
            };
            let Ok(number) = number.trim_end_matches(";\"").parse() else {
                continue;
            };
            if name.starts_with("__anon") || name.starts_with("AnonymousFunction") {
                continue;
            }
            let kind = cols.next().and_then(|k| k.chars().next()).unwrap_or(' ');
            tags.entry(PathBuf::from(file)).or_default().push(Tag {
                // ctags escapes a backslash in a name (PHP namespaces).
                name: name.replace("\\\\", "\\"),
                kind,
                line: number,
            });
        }
        Some(tags)
    }

    /// A symbol of the tag's name whose lines contain the tag's line. ctags
    /// names a Lua function as written (`M.f`, `M:m`), we by its field;
    /// C# operators, destructors and explicit interface members see
    /// `csharp_name`.
    /// ctags names a Markdown setext heading by its last line and keeps
    /// runs of spaces; we by all of its lines, folded.
    fn found(lang: Lang, tree: &SymbolTree, tag: &Tag) -> bool {
        let folded = tag.name.split_whitespace().collect::<Vec<_>>().join(" ");
        let name = match lang {
            Lang::Lua => tag
                .name
                .rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
                .next()
                .unwrap_or(&tag.name),
            Lang::Markdown => folded.as_str(),
            Lang::CSharp => csharp_name(&tag.name),
            _ => tag.name.as_str(),
        };
        tree.iter().any(|s| {
            let same = s.name == name || (lang == Lang::Markdown && s.name.ends_with(name));
            same && s.start_line <= tag.line + 2 && tag.line <= s.end_line
        })
    }

    /// The name our C# symbols give what ctags names `operator ==`,
    /// `~Circle` (a destructor) or `IShape.Area` (an explicit interface
    /// implementation): the operator token, the class, the method.
    fn csharp_name(name: &str) -> &str {
        let name = name.strip_prefix("operator ").unwrap_or(name);
        let name = name.trim_start_matches('~');
        name.rsplit('.').next().unwrap_or(name)
    }

    /// Words ctags 5.9's TypeScript parser sometimes reports as names
    /// (`if (` after a multi-line condition, `from` in an import, `x as
    /// T`).
    const KEYWORDS: &[&str] = &[
        "if",
        "for",
        "while",
        "switch",
        "catch",
        "from",
        "return",
        "instanceof",
        "as",
        "satisfies",
        "extends",
    ];

    /// The 1-based lines inside `import ...` statements: ctags' TypeScript
    /// parser lists `import { type X }` as an alias of X.
    fn import_lines(source: &str) -> Vec<bool> {
        let mut inside = vec![false];
        let mut open = false;
        for line in source.lines() {
            let t = line.trim();
            let starts = t.starts_with("import ") || t.starts_with("import{");
            if starts || open {
                inside.push(true);
                let done = t.contains(" from ") || t.ends_with(';') || t.starts_with('}');
                open = !done || (starts && t.ends_with('{'));
            } else {
                inside.push(false);
            }
        }
        inside
    }

    /// The 1-based lines inside Ruby heredocs (`<<-EOS`, `<<~'EOS'`), up
    /// to the line that closes each.
    fn heredoc_lines(source: &str) -> Vec<bool> {
        let opener = regex::Regex::new(r#"<<[-~]?(?:'([^']+)'|"([^"]+)"|([A-Za-z_]\w*))"#)
            .expect("heredoc pattern");
        let mut inside = vec![false];
        let mut waiting: Vec<String> = Vec::new();
        for line in source.lines() {
            if let Some(end) = waiting.first() {
                inside.push(true);
                if line.trim() == end {
                    waiting.remove(0);
                }
                continue;
            }
            inside.push(false);
            for c in opener.captures_iter(line) {
                if let Some(word) = c.get(1).or(c.get(2)).or(c.get(3)) {
                    waiting.push(word.as_str().to_string());
                }
            }
        }
        inside
    }

    /// Whether a Lua tag's line defines a function of that name: `function
    /// NAME` or `NAME = function`. ctags 5.9's Lua parser names a function
    /// after the first `NAME =` of any line where the word `function`
    /// appears (`fun = function_arg(1, fun)`, `ok, config =
    /// pcall(function() ...`, `f = f or function ...`), and after a
    /// computed field (`Date[c] = function`), which has no name to find.
    fn lua_function_line(name: &str, line: &str) -> bool {
        if name.contains('[') {
            return false;
        }
        let folded = line.split_whitespace().collect::<Vec<_>>().join(" ");
        if folded.contains(&format!("function {name}")) {
            return true;
        }
        let Some(at) = line.find(name) else {
            return false;
        };
        let rest = line[at + name.len()..].trim_start();
        let Some(value) = rest.strip_prefix('=') else {
            return false;
        };
        let value = value.trim_start();
        value
            .strip_prefix("function")
            .is_some_and(|after| !after.starts_with(|c: char| c.is_alphanumeric() || c == '_'))
    }

    /// Whether a JavaScript/TypeScript "class" tag is an object literal
    /// (`auth = {`, `const opts = {`): ctags lists those as classes; they
    /// are not.
    fn object_literal(tag: &Tag, lines: &[&str]) -> bool {
        let Some(text) = tag.line.checked_sub(1).and_then(|i| lines.get(i)) else {
            return false;
        };
        let Some(at) = text.find(&tag.name) else {
            return false;
        };
        let after = text[at + tag.name.len()..].trim_start();
        tag.kind == 'c'
            && !text.contains("class ")
            && (after.starts_with("= {") || after.starts_with(": {") || after == "=")
    }

    /// Whether a TypeScript "alias" tag is not a `type Name` (ctags reads
    /// `type instanceof ZodLazy`, a variable named `type`, as an alias).
    fn misread_alias(tag: &Tag, lines: &[&str]) -> bool {
        let text = tag.line.checked_sub(1).and_then(|i| lines.get(i));
        tag.kind == 'a' && !text.is_some_and(|t| t.contains(&format!("type {}", tag.name)))
    }

    /// A tag ctags got wrong for these languages (see the rules above), or
    /// an anonymous one.
    fn not_a_definition(lang: Lang, tag: &Tag, lines: &[&str], imports: &[bool]) -> bool {
        let script = matches!(lang, Lang::TypeScript | Lang::Tsx | Lang::JavaScript);
        let line = tag.line.checked_sub(1).and_then(|i| lines.get(i)).copied();
        // Ruby's parser reads the `def`s of a string (`class_eval
        // <<-METHOD`), which define nothing until run.
        if lang == Lang::Ruby {
            return imports.get(tag.line).copied().unwrap_or(false);
        }
        if lang == Lang::Lua {
            return !lua_function_line(&tag.name, line.unwrap_or(""));
        }
        // ctags' shell parser reads the array assignment `COMPREPLY=()` as
        // a function named `COMPREPLY=`.
        (lang == Lang::Bash && tag.name.ends_with('='))
            || (lang == Lang::Kotlin && kotlin_local(tag, lines))
            || (lang == Lang::CSharp && csharp_constraint(tag, line.unwrap_or("")))
            || script
                && (KEYWORDS.contains(&tag.name.as_str())
                    || imports.get(tag.line).copied().unwrap_or(false)
                    || object_literal(tag, lines)
                    || misread_alias(tag, lines))
    }

    /// Whether a C# "class" tag is a type parameter's constraint: ctags
    /// 5.9 names `class EnumOps<T> where T : Enum` after the `T` of its
    /// `where` (the class itself goes untagged).
    fn csharp_constraint(tag: &Tag, line: &str) -> bool {
        tag.kind == 'c'
            && line.contains(&format!(" where {} :", tag.name))
            && !line.contains(&format!("class {}", tag.name))
    }

    /// Whether a Kotlin "method" tag is something ctags 5.9 lists that no
    /// one defines: a lambda (`<lambda>`), a lambda's parameter (`{ a, b
    /// ->`), a loop variable (`for (i in`), a local `val`/`var` (`when
    /// (val v = ...)`), or a backticked name it prints as stray bytes.
    fn kotlin_local(tag: &Tag, lines: &[&str]) -> bool {
        let Some(text) = tag.line.checked_sub(1).and_then(|i| lines.get(i)) else {
            return false;
        };
        let name = regex::escape(&tag.name);
        let local = format!(
            r"\{{[^{{}}=]*\b{name}\b[^{{}}=]*->|\bfor \([^)]*\b{name}\b[^)]*\)? in |\b(val|var) {name}\b"
        );
        let is_word = tag.name.chars().all(|c| c.is_alphanumeric() || c == '_');
        !is_word || regex::Regex::new(&local).is_ok_and(|re| re.is_match(text))
    }

    struct Score {
        files: usize,
        /// ctags' tags that are no definitions (see `not_a_definition`).
        dropped: usize,
        /// Files that parse cleanly whose skeleton does not, or is not
        /// smaller.
        bad_skeletons: Vec<String>,
        tags: usize,
        recalled: usize,
        misses: Vec<String>,
    }

    fn score(project: &Project) -> Option<Score> {
        if !project.dir.is_dir() {
            return None;
        }
        let tags = ctags(project)?;
        let mut score = Score {
            files: 0,
            dropped: 0,
            bad_skeletons: Vec::new(),
            tags: 0,
            recalled: 0,
            misses: Vec::new(),
        };
        let mut files: Vec<_> = tags.into_iter().collect();
        files.sort_by(|a, b| a.0.cmp(&b.0));
        for (path, tags) in files {
            let Ok(source) = std::fs::read_to_string(&path) else {
                continue;
            };
            let shown = path.to_string_lossy();
            let Some(lang) = Lang::detect(&shown, &source).or(Some(project.lang)) else {
                continue;
            };
            let tree = syntax::parse(lang, &source);
            let lines: Vec<&str> = source.lines().collect();
            // Lines whose tags ctags reads from text that is no code: a
            // JavaScript/TypeScript import, a Ruby heredoc.
            let imports = match lang {
                Lang::Ruby => heredoc_lines(&source),
                _ => import_lines(&source),
            };
            score.files += 1;
            let skeleton = syntax::skeleton(&tree, &source);
            let worse = !tree.has_errors && syntax::parse(lang, &skeleton).has_errors;
            let has_bodies = tree.iter().any(|s| s.kind.is_function());
            if worse || (has_bodies && skeleton.len() > source.len()) {
                score.bad_skeletons.push(shown.to_string());
            }
            for tag in &tags {
                if not_a_definition(lang, tag, &lines, &imports) {
                    score.dropped += 1;
                    continue;
                }
                score.tags += 1;
                if found(lang, &tree, tag) {
                    score.recalled += 1;
                } else {
                    let file = path.strip_prefix(&project.dir).unwrap_or(&path);
                    score
                        .misses
                        .push(format!("{}:{} {}", file.display(), tag.line, tag.name));
                }
            }
        }
        Some(score)
    }

    #[test]
    fn data_languages_symbols_match_ctags() {
        // Behind `CTXCURATE_SLOW_TESTS=1` like the C/C++ comparison; every
        // project is one `.ci/run` installs.
        let Some(()) = crate::common::machine::program("ctags", "--version", "universal-ctags")
        else {
            return;
        };
        println!(
            "{:<14} {:<11} {:>5} {:>6} {:>8} {:>8} {:>9}",
            "project", "language", "files", "tags", "recall", "dropped", "bad skel."
        );
        let mut failures = Vec::new();
        for project in projects() {
            // The switch is on here: a project `.ci/run` installs must be
            // there, or the comparison would pass by checking less.
            let Some(s) = score(&project) else {
                failures.push(format!(
                    "{} not found under {} (.ci/run installs it)",
                    project.name,
                    project.dir.display()
                ));
                continue;
            };
            let recall = if s.tags == 0 {
                100.0
            } else {
                100.0 * s.recalled as f64 / s.tags as f64
            };
            println!(
                "{:<14} {:<11} {:>5} {:>6} {:>7.2}% {:>8} {:>9}",
                project.name,
                project.lang.name(),
                s.files,
                s.tags,
                recall,
                s.dropped,
                s.bad_skeletons.len()
            );
            if !s.bad_skeletons.is_empty() {
                failures.push(format!(
                    "{}: skeletons worse than the file: {}",
                    project.name,
                    s.bad_skeletons.join(", ")
                ));
            }
            if !s.misses.is_empty() {
                let head: Vec<&str> = s.misses.iter().take(12).map(String::as_str).collect();
                println!("  {} missed: {}", s.misses.len(), head.join(", "));
            }
            if let Some(why) = project.known {
                println!("  (not asserted: {why})");
            } else if s.tags >= MIN_TAGS && recall < RECALL_TARGET {
                failures.push(format!(
                    "{}: recall {recall:.2}% < {RECALL_TARGET}%",
                    project.name
                ));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }
}
