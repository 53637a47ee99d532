//! The C/C++ tree walk (`c_defs`) against the queries it replaces: the
//! same symbol trees on the fixtures of issue 27's shapes, on broken code
//! and on the system's C and C++ headers.

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::core::syntax::Lang;
use crate::core::syntax::macros::CMacros;
use crate::core::syntax::symbols::{Finder, extract_with};

fn both_agree(lang: Lang, source: &str) -> Result<(), String> {
    let macros = CMacros::default();
    let walked = extract_with(lang, source, &macros, Finder::Fastest);
    let queried = extract_with(lang, source, &macros, Finder::Query);
    if walked == queried {
        return Ok(());
    }
    let names = |t: &crate::core::syntax::SymbolTree| {
        t.iter()
            .map(|s| format!("{} {}", s.path, s.kind.as_str()))
            .collect::<Vec<_>>()
    };
    Err(format!(
        "walk {:?}\nquery {:?}",
        names(&walked),
        names(&queried)
    ))
}

/// Up to `limit` C/C++ files under `dir`, sorted for a stable sample.
fn sources(dir: &Path, limit: usize, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    let start = out.len();
    for path in paths {
        if out.len() - start >= limit {
            return;
        }
        if path.is_dir() {
            sources(&path, limit - (out.len() - start), out);
        } else if Lang::from_path(&path.to_string_lossy()).is_some_and(|l| l != Lang::Python) {
            out.push(path);
        }
    }
}

#[test]
fn the_walk_finds_what_the_queries_find_on_small_and_broken_code() {
    let cases = [
        "int f(void); int *g(int), **h(void); int (k)(int);\n",
        "typedef struct { int a; } A; typedef struct B { int b; } C, *PC, D[3];\n",
        "typedef int (*fp)(int); typedef int (*(*fpp))(int); typedef union U { int a; } U;\n",
        "typedef signed char int8_t; typedef unsigned __int64 uint64_t; typedef int ssize_t;\n",
        "typedef PVOID CONDITION_VARIABLE, *PCONDITION_VARIABLE;\n",
        "int (*get_read(const M *m))(B *, int);\nchar *(*get_p(M *m))(U *);\nint (*f(int a))(int) { return 0; }\ntypedef int(CB)(const P p[], void *arg);\n",
        "#define X 1\n#define Y\nint FN(Name)(int a) { return a; }\nint *FN(P)(int a) { return 0; }\n",
        "int f (void) MY_ATTR; int *g (void) OTHER junk(;\n",
        "namespace a::b { class C : public D { public: C(); ~C(); operator bool() const; int &r(); \
         T *&pr(); static C *make(); template <class T> void t(); }; }\n",
        "C::operator bool() const { return true; } ns::C::operator int() { return 0; } \
         template <> int f<int>(int) { return 1; } int *&slot() { return p; }\n",
        "using V = std::vector<int>; enum class E : int { A }; union W { int a; }; \
         struct S<int> { }; class ns::Q { };\n",
        "}}} {{ int f( class { struct ;",
    ];
    for src in cases {
        for lang in [Lang::C, Lang::Cpp] {
            if let Err(diff) = both_agree(lang, src) {
                panic!("{lang:?} {src:?}\n{diff}");
            }
        }
    }
}

#[test]
fn the_walk_finds_what_the_queries_find_on_system_headers() {
    let mut files = Vec::new();
    sources(Path::new("/usr/include"), 400, &mut files);
    for cpp in [
        "/usr/include/c++",
        "/usr/include/absl",
        "/usr/include/xsimd",
    ] {
        sources(Path::new(cpp), 150, &mut files);
    }
    eprintln!("{} header files", files.len());
    if files.is_empty() {
        eprintln!("no system headers: skipped");
        return;
    }
    let failures: Vec<String> = files
        .par_iter()
        .filter_map(|path| {
            let source = std::fs::read_to_string(path).ok()?;
            let lang = Lang::detect(&path.to_string_lossy(), &source)?;
            both_agree(lang, &source)
                .err()
                .map(|diff| format!("{}\n{diff}", path.display()))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} files differ; first:\n{}",
        failures.len(),
        files.len(),
        failures.first().map_or("", String::as_str)
    );
}
