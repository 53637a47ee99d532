//! The `## Changes` section (`build --diff`): the unified diff of the
//! working tree against a revision, as data ([`Changes`], filled by
//! `core::git`); `markdown` and `xml` write it as the text of a section.
//! It comes last, after the discussion: it changes with every edit, so the
//! stable prefix before it stays cacheable.
//!
//! The diff is file content: in Markdown it sits in a fence longer than
//! any backtick run inside it, in XML it goes through `xml::escape` like a
//! document body. Names and notes are one-line fields.

/// A diff to show, with what was left out of it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Changes {
    /// What the working tree was compared with, as the user named it
    /// (`HEAD`, `main`, …).
    pub against: String,
    /// The unified diff, file by file ([`FileDiff`]), in git's order.
    pub files: Vec<FileDiff>,
    /// Files git does not track yet (not ignored): not in the diff.
    pub untracked: Vec<String>,
    /// What was left out and why (a file's diff over the size cap, …).
    pub notes: Vec<String>,
}

/// One file's part of a unified diff (from its `diff --git` line on).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileDiff {
    /// The path it changes (the new path of a rename).
    pub path: String,
    pub text: String,
}

impl Changes {
    /// The diff text, every file's part in order.
    pub fn diff(&self) -> String {
        self.files.iter().map(|f| f.text.as_str()).collect()
    }

    /// `true` when there is nothing to show: no diff, no untracked file.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty() && self.untracked.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Changes {
        Changes {
            against: "HEAD".into(),
            files: vec![FileDiff {
                path: "a.py".into(),
                text: "diff --git a/a.py b/a.py\n-x = 1\n+x = 2 # ```\n".into(),
            }],
            untracked: vec!["new\nfile.py".into()],
            notes: vec!["big.bin: diff left out".into()],
        }
    }

    #[test]
    fn markdown_fences_the_diff_and_keeps_names_on_one_line() {
        assert_eq!(
            sample().markdown(),
            "## Changes\n\nThe working tree against `HEAD`:\n\n````diff\n\
             diff --git a/a.py b/a.py\n-x = 1\n+x = 2 # ```\n````\n\n\
             Untracked files (not in the diff):\n- `new␊file.py`\n\n\
             > note: big.bin: diff left out"
        );
    }

    #[test]
    fn no_changes_says_so() {
        let c = Changes {
            against: "main".into(),
            ..Changes::default()
        };
        assert!(c.is_empty());
        assert_eq!(
            c.markdown(),
            "## Changes\n\nThe working tree against `main`: no changes to tracked files."
        );
    }

    #[test]
    fn hostile_diffs_parse_back_exact_in_xml() {
        let pieces = [
            "]]>",
            "<![CDATA[",
            "</diff>",
            "</changes>",
            "</documents>",
            "&amp;",
            "<",
            "&",
            "\"",
            "```",
            "\n## Files\n",
            "\r\n",
            "\t",
            "x",
        ];
        for a in pieces {
            for b in pieces {
                let text = format!("diff --git a/{a} b/{a}\n+{a}{b}\n-{b}]]{a}\n");
                let c = Changes {
                    against: format!("{a}{b}"),
                    files: vec![FileDiff {
                        path: a.into(),
                        text: text.clone(),
                    }],
                    untracked: vec![b.into()],
                    notes: vec![a.into()],
                };
                let xml = format!("<documents>\n{}</documents>\n", c.xml());
                let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{e}\n{xml}"));
                let changes = doc.root_element().first_element_child().expect("changes");
                assert_eq!(changes.attribute("against"), Some(c.against.as_str()));
                let diff: String = changes
                    .children()
                    .find(|n| n.has_tag_name("diff"))
                    .expect("diff")
                    .descendants()
                    .filter_map(|n| n.is_text().then(|| n.text()).flatten())
                    .collect();
                // XML reads CR LF as LF.
                assert_eq!(diff, format!("\n{}", text.replace("\r\n", "\n")), "{xml}");
            }
        }
    }

    #[test]
    fn xml_escapes_every_part() {
        let mut c = sample();
        c.against = "a\"<b>".into();
        assert_eq!(
            c.xml(),
            "<changes against=\"a&quot;&lt;b&gt;\">\n<diff>\n\
             diff --git a/a.py b/a.py\n-x = 1\n+x = 2 # ```\n</diff>\n\
             <untracked>new&#10;file.py</untracked>\n\
             <note>big.bin: diff left out</note>\n</changes>\n"
        );
    }
}
