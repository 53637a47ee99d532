//! Round 23 of the secret shapes (recheck 22's residuals): a heredoc
//! whose body is one quoted literal, a template literal opened on the
//! assignment's line and closed below, a dict's triple-quoted value closed
//! below, a JSON key, its `:` and its value each on a line of their own, a
//! comment between a key and its `:` (JSONC), YAML's explicit key with a
//! comment line before its value, and a YAML flow map wrapped over lines.

use super::{found, quiet};

/// The texts among `cases` (named) with no finding.
fn each_found(cases: &[(&str, &str)]) {
    let missed: Vec<String> = cases
        .iter()
        .filter(|(_, text)| found(text).is_empty())
        .map(|(what, text)| format!("{what}: {text:?}"))
        .collect();
    assert!(missed.is_empty(), "missed:\n{}", missed.join("\n"));
}

#[test]
fn round_twenty_three_values_that_span_lines_are_read_as_assignments() {
    each_found(&[
        (
            "heredoc of a quoted literal",
            "PASSWORD = <<~EOS\n  \"Vb6nQ1xZ8kLm3Wu\"\nEOS\n",
        ),
        (
            "heredoc of a single-quoted literal",
            "<?php\n$password = <<<EOT\n'Vb6nQ1xZ8kLm3Wu'\nEOT;\n",
        ),
        (
            "template literal closed below",
            "const password = `Vb6nQ1xZ8kLm3Wu\n`;\n",
        ),
        (
            "dict triple quote closed below",
            "DB = {\n    \"password\": \"\"\"Vb6nQ1xZ8kLm3Wu\n\"\"\",\n}\n",
        ),
        (
            "json key, colon, value apart",
            "{\n  \"password\"\n  :\n  \"Vb6nQ1xZ8kLm3Wu\"\n}\n",
        ),
        (
            "jsonc comment before the colon",
            "{\n  \"password\" /* the db */ : \"Vb6nQ1xZ8kLm3Wu\"\n}\n",
        ),
        (
            "yaml explicit key, comment between",
            "db:\n  ? password\n  # the db's\n  : Vb6nQ1xZ8kLm3Wu\n",
        ),
        (
            "yaml flow map over lines",
            "db: {user: app,\n  password: Vb6nQ1xZ8kLm3Wu}\n",
        ),
    ]);
    quiet(&[
        "HELP = <<~EOS\n  \"Enter your password\"\nEOS\n".into(),
        "const password = `${process.env.DB_PASSWORD}\n`;\n".into(),
        "DB = {\n    \"password\": \"\"\"Enter the password\n\"\"\",\n}\n".into(),
        "{\n  \"password\" /* set below */ : \"\"\n}\n".into(),
        "db: {user: app,\n  password: ${DB_PASSWORD}}\n".into(),
        "x = {\"a\": 1}\ny = `\n`;\n".into(),
    ]);
}
