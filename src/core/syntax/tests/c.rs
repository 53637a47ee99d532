//! C: symbols, skeleton, outline and masks on one fixture.

use insta::assert_snapshot;

use super::{listing, masked, paths};
use crate::core::model::MaskState::{Agg, Def, Hide, Sig};
use crate::core::syntax::{Lang, outline, parse, skeleton};

const GEOMETRY: &str = r#"/*
 * geometry.c - points and shapes.
 */
#ifndef GEOMETRY_H
#define GEOMETRY_H

#include <stdio.h>

#define MAX_POINTS 64
#define SQUARE(x) ((x) * (x))

/* A point in the plane. */
struct Point {
    int x;
    int y;
};

typedef struct {
    double w, h;
} Size;

typedef struct Node {
    struct Node *next;
} Node_t;

union Value { int i; float f; };

enum Color { RED, GREEN, BLUE };

typedef unsigned long ulong;
typedef int (*compare_fn)(const void *, const void *);

int add(int a, int b);
extern char *copy_name(const char *src) __attribute__((malloc));
extern int sum_all(const int *v, int n) __THROW __nonnull ((1));

// Adds two numbers.
// Returns the sum.
int add(int a, int b)
{
    int s = a + b;
    return s;
}

static char **split(const char *s)
{
    int local(void);
    return 0;
}

void
print_point(const struct Point *p) {
    printf("%d %d\n", p->x, p->y);
}

#endif
"#;

#[test]
fn symbols_have_paths_kinds_and_lines() {
    let tree = parse(Lang::C, GEOMETRY);
    assert_eq!(
        paths(&tree),
        [
            "MAX_POINTS",
            "struct Point",
            "Size",
            "struct Node",
            "Node_t",
            "union Value",
            "enum Color",
            "ulong",
            "compare_fn",
            "add",
            "copy_name",
            "sum_all",
            "add#def",
            "split",
            "print_point",
        ],
        "the include guard, function-like macros and the prototype inside \
         split() are not symbols; the definition of add() is its declaration's path plus #def"
    );
    assert_eq!(
        tree.module_doc.as_deref(),
        Some("geometry.c - points and shapes.")
    );
    assert!(!tree.has_errors);
    assert_snapshot!(listing(&tree), @r"
    MAX_POINTS [constant] L9-9 | #define MAX_POINTS 64
    struct Point [struct] L13-16 | struct Point
    Size [struct] L18-20 | typedef struct { ... } Size
    struct Node [struct] L22-24 | typedef struct Node { ... } Node_t
    Node_t [typedef] L24-24 | typedef struct Node Node_t
    union Value [union] L26-26 | union Value
    enum Color [enum] L28-28 | enum Color
    ulong [typedef] L30-30 | typedef unsigned long ulong
    compare_fn [typedef] L31-31 | typedef int (*compare_fn)(const void *, const void *)
    add [function] L33-33 | int add(int a, int b)
    copy_name [function] L34-34 | extern char *copy_name(const char *src)
    sum_all [function] L35-35 | extern int sum_all(const int *v, int n)
    add#def [function] L39-43 | int add(int a, int b)
    split [function] L45-49 | static char **split(const char *s)
    print_point [function] L51-54 | void print_point(const struct Point *p)
    ");
}

#[test]
fn definition_includes_the_semicolon() {
    let tree = parse(Lang::C, GEOMETRY);
    assert_eq!(
        tree.definition(GEOMETRY, "union Value"),
        Some("union Value { int i; float f; };")
    );
}

#[test]
fn skeleton_elides_function_bodies_only() {
    let tree = parse(Lang::C, GEOMETRY);
    assert_snapshot!(skeleton(&tree, GEOMETRY));
}

#[test]
fn outline_lists_every_symbol() {
    let tree = parse(Lang::C, GEOMETRY);
    assert_snapshot!(outline(&tree));
}

#[test]
fn mask_def_and_sig_everywhere() {
    assert_eq!(masked(Lang::C, GEOMETRY, Def, &[]), GEOMETRY);
    let tree = parse(Lang::C, GEOMETRY);
    assert_eq!(
        masked(Lang::C, GEOMETRY, Sig, &[]),
        skeleton(&tree, GEOMETRY)
    );
}

#[test]
fn mask_agg_everywhere() {
    assert_snapshot!(masked(Lang::C, GEOMETRY, Agg, &[]));
}

#[test]
fn mask_mixed_states() {
    let out = masked(
        Lang::C,
        GEOMETRY,
        Def,
        &[
            ("add#def", Sig),
            ("split", Agg),
            ("struct Point", Hide),
            ("Size", Agg),
            ("union Value", Hide),
            ("enum Color", Hide),
            ("MAX_POINTS", Hide),
        ],
    );
    assert_snapshot!(out);
}

#[test]
fn mask_hide_default_shows_only_named_symbols() {
    let out = masked(
        Lang::C,
        GEOMETRY,
        Hide,
        &[("add#def", Def), ("struct Point", Agg), ("ulong", Sig)],
    );
    assert_snapshot!(out, @r"
    struct Point; /* A point in the plane. (4 lines) */

    typedef unsigned long ulong;

    // Adds two numbers.
    // Returns the sum.
    int add(int a, int b)
    {
        int s = a + b;
        return s;
    }
    ");
}
