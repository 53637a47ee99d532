//! Kotlin imports in the graph: exact edges on a small Android-shaped
//! project (a class by its package and name, a top-level extension
//! function in a file named for something else, a file whose folder does
//! not follow its package, `*` imports to the files whose names are
//! used, a Java class, generated classes
//! reported as unresolved), then the Android code of two React Native modules
//! (`react-native-screens`, `expo-modules-core`, unpacked by `.ci/run`):
//! ≥ 90% of the imports into the project's own packages resolve, and
//! `build --target F --budget N` packs the target and its imports.
//!
//! `CTXCURATE_SLOW_TESTS=1 cargo test --test integration
//! core::discovery::kotlin -- --nocapture` prints the numbers.

use std::collections::HashSet;
use std::path::Path;

use ctxcurate::core::discovery::graph::{ImportGraph, UnresolvedImport};
use ctxcurate::core::sources::{Codebase, Sources};
use ctxcurate::core::walk;

use crate::common::{Project, machine, stderr};

fn graph_at(root: &Path) -> ImportGraph {
    let files = walk::walk_files(root);
    ImportGraph::build(&Codebase::new(root, &Sources::new()).with_walk(&files), &[])
}

fn imports_of(g: &ImportGraph, path: &str) -> Vec<String> {
    g.imports_of(path).into_iter().map(String::from).collect()
}

const MAIN: &str = "app/src/main/java/com/acme/app/MainActivity.kt";

/// An app module and a library module, as Gradle lays them out.
fn android_project() -> Project {
    let p = Project::empty();
    p.write(
        MAIN,
        "package com.acme.app\n\n\
         import android.os.Bundle\n\
         import com.acme.app.R\n\
         import com.acme.lib.Point\n\
         import com.acme.lib.scale\n\
         import com.acme.lib.model.*\n\
         import com.acme.lib.Registry.Companion as Reg\n\
         import com.acme.lib.Gone\n\
         import com.acme.lib.LegacyJava\n\n\
         class MainActivity {\n    val user: User? = null\n    fun onCreate(b: Bundle?) {}\n}\n",
    );
    p.write(
        "lib/src/main/java/com/acme/lib/Point.kt",
        "package com.acme.lib\n\ndata class Point(val x: Double)\n",
    );
    p.write(
        "lib/src/main/java/com/acme/lib/Registry.kt",
        "package com.acme.lib\n\nclass Registry {\n    companion object\n}\n",
    );
    p.write(
        "lib/src/main/java/com/acme/lib/PointExt.kt",
        "@file:JvmName(\"PointUtils\")\npackage com.acme.lib\n\nfun Point.scale(k: Double) = Point(x * k)\n",
    );
    p.write(
        "lib/src/main/java/com/acme/lib/LegacyJava.java",
        "package com.acme.lib;\n\npublic class LegacyJava {}\n",
    );
    p.write(
        "lib/src/main/kotlin/Models.kt",
        "package com.acme.lib.model\n\nclass User\nclass Role\n",
    );
    p.write(
        "lib/src/main/kotlin/Roles.kt",
        "package com.acme.lib.model\n\nimport com.acme.lib.Point\n\nenum class Level { LOW }\n",
    );
    p
}

#[test]
fn kotlin_imports_resolve_by_package_and_top_level_names() {
    let p = android_project();
    let g = graph_at(p.root());
    assert_eq!(
        imports_of(&g, MAIN),
        [
            "lib/src/main/java/com/acme/lib/LegacyJava.java",
            "lib/src/main/java/com/acme/lib/Point.kt",
            "lib/src/main/java/com/acme/lib/PointExt.kt",
            "lib/src/main/java/com/acme/lib/Registry.kt",
            // Of `com.acme.lib.model.*`, the file defining the `User` it
            // uses; not `Roles.kt`, whose names it does not.
            "lib/src/main/kotlin/Models.kt",
        ]
    );
    assert_eq!(
        imports_of(&g, "lib/src/main/kotlin/Roles.kt"),
        ["lib/src/main/java/com/acme/lib/Point.kt"]
    );
    // `R` is generated at build time; `Gone` names the project's package
    // but nothing in it. `android.os.Bundle` is outside: not a problem.
    let unresolved: Vec<(&str, &str)> = g
        .unresolved()
        .iter()
        .map(|UnresolvedImport { file, import }| (file.as_str(), import.as_str()))
        .collect();
    assert_eq!(
        unresolved,
        [
            (MAIN, "import com.acme.app.R"),
            (MAIN, "import com.acme.lib.Gone")
        ]
    );
}

#[test]
fn build_packs_a_kotlin_target_with_its_imports() {
    let p = android_project();
    let out = p.run(&[
        "build",
        "-q",
        "--target",
        MAIN,
        "--budget",
        "4000",
        "--stats-json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(stderr(&out).trim()).expect("json");
    let roles: Vec<(String, String)> = json["items"]
        .as_array()
        .map(|items| {
            items
                .iter()
                .map(|i| (i["path"].to_string(), i["role"].to_string()))
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(roles.first().map(|r| r.1.as_str()), Some("\"target\""));
    let imports = roles.iter().filter(|r| r.1 == "\"import\"").count();
    assert_eq!(imports, 5, "{roles:?}");
    assert_eq!(json["stats"]["unresolved_imports"], 2, "{json}");
}

/// Copy `from` into `to` (regular files and folders; nothing else).
fn copy_tree(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).expect("read_dir").flatten() {
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let target = to.join(entry.file_name());
        if kind.is_dir() {
            std::fs::create_dir_all(&target).expect("mkdir");
            copy_tree(&entry.path(), &target);
        } else if kind.is_file() {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// The import paths of a Kotlin file (as `import a.b.C`, aliases
/// dropped), read here independently of the graph.
fn kotlin_imports(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("import "))
        .map(|rest| rest.split(" as ").next().unwrap_or(rest).trim().to_string())
        .collect()
}

/// On one real project: the share of imports into the project's own
/// packages that resolve, over all files and over the target's; then a
/// packed build around the target holds its imports.
fn real_project(name: &str, dir: &Path, target: &str) {
    let p = Project::empty();
    copy_tree(dir, p.root());
    let files = walk::walk_files(p.root());
    let g = graph_at(p.root());
    let kotlin: Vec<&String> = files.iter().filter(|f| f.ends_with(".kt")).collect();
    let packages: HashSet<String> = kotlin
        .iter()
        .filter_map(|f| std::fs::read_to_string(p.path(f)).ok())
        .filter_map(|t| {
            t.lines()
                .find_map(|l| l.strip_prefix("package "))
                .map(|s| s.trim().to_string())
        })
        .collect();
    let unresolved: HashSet<(String, String)> = g
        .unresolved()
        .iter()
        .map(|u| (u.file.clone(), u.import.clone()))
        .collect();
    let (mut own, mut resolved, mut target_own, mut target_resolved) = (0, 0, 0, 0);
    for f in &kotlin {
        let text = std::fs::read_to_string(p.path(f)).unwrap_or_default();
        for import in kotlin_imports(&text) {
            let into_project = packages
                .iter()
                .any(|pkg| import.starts_with(&format!("{pkg}.")));
            if !into_project {
                continue;
            }
            let ok = !unresolved.contains(&((*f).clone(), format!("import {import}")));
            own += 1;
            resolved += usize::from(ok);
            if f.as_str() == target {
                target_own += 1;
                target_resolved += usize::from(ok);
            }
        }
    }
    let share = 100.0 * resolved as f64 / own.max(1) as f64;
    let target_share = 100.0 * target_resolved as f64 / target_own.max(1) as f64;
    println!(
        "{name}: {} Kotlin files, {resolved} of {own} project imports resolved ({share:.1}%); \
         {target}: {target_resolved} of {target_own} ({target_share:.1}%)",
        kotlin.len()
    );
    for u in g
        .unresolved()
        .iter()
        .filter(|u| u.file.ends_with(".kt"))
        .take(8)
    {
        println!("  unresolved: {} in {}", u.import, u.file);
    }
    assert!(own > 50, "{name}: only {own} project imports");
    assert!(share >= 90.0, "{name}: {share:.1}% resolved");
    assert!(
        target_own > 0 && target_share >= 90.0,
        "{name}: target {target_share:.1}%"
    );

    let out = p.run(&[
        "build",
        "-q",
        "--target",
        target,
        "--budget",
        "40000",
        "--stats-json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(stderr(&out).trim()).expect("json");
    let items = json["items"].as_array().cloned().unwrap_or_default();
    let packed: HashSet<&str> = items.iter().filter_map(|i| i["path"].as_str()).collect();
    assert_eq!(
        items.first().and_then(|i| i["role"].as_str()),
        Some("target")
    );
    for import in imports_of(&g, target) {
        assert!(
            packed.contains(import.as_str()),
            "{name}: {import} not packed"
        );
    }
}

#[test]
fn react_native_modules_resolve_their_kotlin_imports() {
    let Some(npm) = machine::downloaded("npm") else {
        return;
    };
    real_project(
        "react-native-screens",
        &npm.join("react-native-screens/package/android"),
        "src/main/java/com/swmansion/rnscreens/Screen.kt",
    );
    real_project(
        "expo-modules-core",
        &npm.join("expo-modules-core/package/android"),
        "src/main/java/expo/modules/kotlin/AppContext.kt",
    );
}
