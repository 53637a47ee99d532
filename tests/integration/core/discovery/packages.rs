//! Imports of a whole package (a Go package, its own one included, Java's
//! `import p.*;`, a C# namespace) in the graph (issues 35 and 37): an edge
//! goes from a file to a file of the package only when its text uses a
//! name that file defines at its top level, weighted by the names used; a
//! file that is not a test never gets a test file that way; a file keeps
//! at most `PACKAGE_EDGE_CAP` such edges, so a wildcard import over a
//! package of N files holds at most N × cap edges, never N².

use std::collections::BTreeMap;
use std::path::Path;

use ctxcurate::core::discovery::graph::{ImportGraph, PACKAGE_EDGE_CAP};
use ctxcurate::core::sources::{Codebase, Sources};
use ctxcurate::core::walk;

use crate::common::Project;

fn graph_at(root: &Path) -> ImportGraph {
    let files = walk::walk_files(root);
    ImportGraph::build(&Codebase::new(root, &Sources::new()).with_walk(&files), &[])
}

fn imports_of(g: &ImportGraph, path: &str) -> Vec<String> {
    g.imports_of(path).into_iter().map(String::from).collect()
}

fn weight(g: &ImportGraph, from: &str, to: &str) -> f64 {
    g.edges()
        .into_iter()
        .find(|(a, b, _)| *a == from && *b == to)
        .map_or(0.0, |(_, _, w)| w)
}

/// A Go package of four files and a test: `a.go` uses `Parse` (from
/// `b.go`) and nothing else of its package; its doc comment shows the
/// package imported, as pflag's `flag.go` does.
fn go_package() -> Project {
    let p = Project::empty();
    p.write("go.mod", "module example.com/app\n\ngo 1.20\n");
    p.write(
        "flag/a.go",
        "/*\nPackage flag parses flags. Use it as\n\n\timport flag \"example.com/app/flag\"\n\n\
         Other, Unused and helper are not used here.\n*/\npackage flag\n\n\
         import (\n\t\"fmt\"\n)\n\n// Run runs; see Other.\nfunc Run() {\n\tfmt.Println(\"Other\")\n\tParse()\n\thelper()\n}\n",
    );
    p.write(
        "flag/b.go",
        "package flag\n\nfunc Parse() { parseOne() }\n\nfunc parseOne() {}\n",
    );
    p.write(
        "flag/c.go",
        "package flag\n\nvar Verbose = false\n\nconst (\n\tMax = 3\n\tMin = 1\n)\n\nfunc Other() {}\n",
    );
    p.write("flag/d.go", "package flag\n\ntype Unused struct{}\n");
    p.write(
        "flag/a_test.go",
        "package flag\n\nimport \"testing\"\n\nfunc helper() {}\n\nfunc TestRun(t *testing.T) { Run(); Parse() }\n",
    );
    p.write(
        "cmd/main.go",
        "package main\n\nimport \"example.com/app/flag\"\n\n\
         func main() {\n\tflag.Other()\n\t_ = flag.Verbose\n\t_ = flag.Max\n\tflag.Parse()\n}\n",
    );
    p
}

#[test]
fn a_go_file_imports_only_the_files_of_its_package_whose_names_it_uses() {
    let p = go_package();
    let g = graph_at(p.root());
    // Not the whole package through the doc comment's import, not
    // `c.go`/`d.go` named only in comments and strings, not the test
    // that defines `helper`.
    assert_eq!(imports_of(&g, "flag/a.go"), ["flag/b.go"]);
    assert_eq!(imports_of(&g, "flag/b.go"), Vec::<String>::new());
    assert_eq!(imports_of(&g, "flag/d.go"), Vec::<String>::new());
    // A test of the package uses the files it calls.
    assert_eq!(imports_of(&g, "flag/a_test.go"), ["flag/a.go", "flag/b.go"]);
    // Another package: the files it uses, weighted by the names used
    // (three of `c.go`, one of `b.go`).
    assert_eq!(imports_of(&g, "cmd/main.go"), ["flag/b.go", "flag/c.go"]);
    let (b, c) = (
        weight(&g, "cmd/main.go", "flag/b.go"),
        weight(&g, "cmd/main.go", "flag/c.go"),
    );
    assert!(c > 2.0 * b && b > 0.0, "b {b}, c {c}");
    // The target's reach: one direct import, the test a caller.
    let reach = g.reach(&["flag/a.go".to_string()]);
    assert_eq!(reach.direct, ["flag/b.go"]);
    assert_eq!(reach.callers, ["flag/a_test.go"]);
}

#[test]
fn a_test_file_is_never_a_package_import_of_a_file_that_is_not_one() {
    let p = Project::empty();
    p.write("go.mod", "module example.com/app\n");
    p.write("x/x.go", "package x\n\nfunc X() { fixture(); Y() }\n");
    p.write("x/y.go", "package x\n\nfunc Y() {}\n");
    p.write("x/x_test.go", "package x\n\nfunc fixture() {}\n");
    p.write(
        "src/main/java/p/Foo.java",
        "package p;\n\npublic class Foo { FooTest t; }\n",
    );
    p.write(
        "src/test/java/p/FooTest.java",
        "package p;\n\npublic class FooTest { Foo f; }\n",
    );
    p.write(
        "src/main/java/q/App.java",
        "package q;\n\nimport p.*;\n\npublic class App { Foo f; FooTest t; }\n",
    );
    p.write(
        "src/test/java/q/AppTest.java",
        "package q;\n\nimport p.*;\n\npublic class AppTest { FooTest t; Foo f; }\n",
    );
    let g = graph_at(p.root());
    assert_eq!(imports_of(&g, "x/x.go"), ["x/y.go"]);
    assert_eq!(
        imports_of(&g, "src/main/java/q/App.java"),
        ["src/main/java/p/Foo.java"]
    );
    assert_eq!(
        imports_of(&g, "src/test/java/q/AppTest.java"),
        ["src/main/java/p/Foo.java", "src/test/java/p/FooTest.java"]
    );
}

#[test]
fn a_java_wildcard_import_leads_to_the_classes_used() {
    let p = Project::empty();
    for class in ["Foo", "Bar", "Baz"] {
        p.write(
            &format!("src/main/java/com/acme/model/{class}.java"),
            &format!("package com.acme.model;\n\npublic class {class} {{}}\n"),
        );
    }
    p.write(
        "src/main/java/com/acme/app/App.java",
        "package com.acme.app;\n\nimport com.acme.model.*;\n\n\
         public class App {\n    // Baz is not used.\n    Foo foo = new Foo();\n    Bar bar;\n    String s = \"Baz\";\n}\n",
    );
    p.write(
        "src/main/java/com/acme/app/Idle.java",
        "package com.acme.app;\n\nimport com.acme.model.*;\n\npublic class Idle {}\n",
    );
    let g = graph_at(p.root());
    assert_eq!(
        imports_of(&g, "src/main/java/com/acme/app/App.java"),
        [
            "src/main/java/com/acme/model/Bar.java",
            "src/main/java/com/acme/model/Foo.java"
        ]
    );
    assert_eq!(
        imports_of(&g, "src/main/java/com/acme/app/Idle.java"),
        Vec::<String>::new()
    );
}

#[test]
fn a_csharp_namespace_leads_to_the_types_used() {
    let p = Project::empty();
    p.write(
        "src/Core/A.cs",
        "namespace Acme.Core\n{\n    public class A {}\n}\n",
    );
    p.write(
        "src/Core/B.cs",
        "namespace Acme.Core;\n\npublic class B {}\n",
    );
    p.write(
        "src/App/App.cs",
        "using Acme.Core;\n\nnamespace Acme.App\n{\n    class App { A a; }\n}\n",
    );
    let g = graph_at(p.root());
    assert_eq!(imports_of(&g, "src/App/App.cs"), ["src/Core/A.cs"]);
}

/// Out-degree of every file with an edge.
fn out_degrees(g: &ImportGraph) -> BTreeMap<String, usize> {
    let mut out: BTreeMap<String, usize> = BTreeMap::new();
    for (from, _, _) in g.edges() {
        *out.entry(from.to_string()).or_default() += 1;
    }
    out
}

/// Files of one package, each importing the package (Java `import p.*;`,
/// a Go package importing itself) and using `uses` names of it, the
/// rest none: at most the cap of edges per file, none from a file that
/// uses nothing.
#[test]
fn wildcard_imports_over_a_large_package_hold_a_bounded_number_of_edges() {
    const N: usize = 2000;
    let p = Project::empty();
    p.write("go.mod", "module example.com/gen\n");
    for i in 0..N {
        // Every tenth file uses 60 names of the package; the others none.
        let used: String = if i % 10 == 0 {
            (1..=60).map(|k| format!(" C{}", (i + k) % N)).collect()
        } else {
            String::new()
        };
        p.write(
            &format!("src/p/C{i}.java"),
            &format!(
                "package p;\nimport p.*;\npublic class C{i} {{}}\nclass U{i} {{ void f() {{ g({}); }} }}\n",
                used.trim().replace(' ', ", ")
            ),
        );
        let calls: String = if i % 10 == 0 {
            (1..=60)
                .map(|k| format!("\tF{}()\n", (i + k) % N))
                .collect()
        } else {
            String::new()
        };
        p.write(
            &format!("pkg/f{i}.go"),
            &format!(
                "package pkg\n\nimport \"example.com/gen/pkg\"\n\nfunc F{i}() {{\n{calls}}}\n"
            ),
        );
    }
    let g = graph_at(p.root());
    let degrees = out_degrees(&g);
    let users = N / 10;
    for lang in [".java", ".go"] {
        let of_lang: Vec<usize> = degrees
            .iter()
            .filter(|(f, _)| f.ends_with(lang))
            .map(|(_, d)| *d)
            .collect();
        assert_eq!(of_lang.len(), users, "{lang}: only the files using names");
        assert!(
            of_lang.iter().all(|d| *d == PACKAGE_EDGE_CAP),
            "{lang}: {of_lang:?}"
        );
    }
    assert_eq!(g.edges().len(), 2 * users * PACKAGE_EDGE_CAP);
    assert_eq!(PACKAGE_EDGE_CAP, 32);
}

#[test]
fn a_packages_tests_that_use_the_target_rank_first_its_own_test_before_all() {
    let p = Project::empty();
    p.write("go.mod", "module example.com/app\n");
    p.write(
        "flag/flag.go",
        "package flag\n\nfunc Parse() {}\n\nfunc Lookup() {}\n\nfunc Set() {}\n",
    );
    p.write("flag/other.go", "package flag\n\nfunc Other() {}\n");
    p.write(
        "flag/a_test.go",
        "package flag\n\nimport \"testing\"\n\nfunc TestOther(t *testing.T) { Other() }\n",
    );
    p.write(
        "flag/b_test.go",
        "package flag\n\nimport \"testing\"\n\nfunc TestParse(t *testing.T) { Parse() }\n",
    );
    p.write(
        "flag/c_test.go",
        "package flag\n\nimport \"testing\"\n\n\
         func TestAll(t *testing.T) { Parse(); Lookup(); Set() }\n",
    );
    p.write(
        "flag/flag_test.go",
        "package flag\n\nimport \"testing\"\n\nfunc TestSet(t *testing.T) { Set() }\n",
    );
    let g = graph_at(p.root());
    let ranked: Vec<String> = g
        .rank(&["flag/flag.go".to_string()])
        .into_iter()
        .map(|r| r.path)
        .filter(|p| p.ends_with("_test.go"))
        .collect();
    // The target's own test, then the ones that use it (by path: a
    // package edge weighs the same whatever it uses), then the one that
    // does not use it at all.
    assert_eq!(
        ranked,
        [
            "flag/flag_test.go",
            "flag/b_test.go",
            "flag/c_test.go",
            "flag/a_test.go"
        ]
    );
}
