; Markdown symbols: one per heading (ATX `#`..`######` or setext, underlined
; with `=`/`-`), as a section: the heading and the text up to the next heading
; of the same or a higher level (`sections::extend`; tree-sitter-md's own
; `section` nodes follow ATX headings only). Headings inside fenced code
; blocks are code, and headings inside block quotes or lists quote or list
; something: neither is a section.

(section
  (atx_heading
    heading_content: (_) @name) @definition.section)

(section
  (setext_heading
    heading_content: (_) @name) @definition.section)
