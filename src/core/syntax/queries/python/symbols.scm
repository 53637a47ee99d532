; Python symbols.
;
; Each pattern captures a defining node as @definition.<kind> and its name as
; @name. Decorators are added to a definition's range by the extractor, which
; also turns a function inside a class into a method. When two patterns give
; the same range, the earlier pattern wins.

(class_definition
  name: (identifier) @name) @definition.class

(function_definition
  name: (identifier) @name) @definition.function

; Module-level UPPER_CASE assignments (`MAX_SIZE = 10`, `_CACHE: dict = {}`).
((module
  (expression_statement
    (assignment
      left: (identifier) @name)) @definition.constant)
  (#match? @name "^_*[A-Z][A-Z0-9_]+$"))
